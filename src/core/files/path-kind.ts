// What is at a path, asked without an error made and thrown when nothing is there (the usual answer
// when looking for `.gsd`, `gsd.db` or `phases/`), and false for anything the system refuses to say.
import * as fs from 'node:fs';

/** A folder, or a link to one. */
export function isFolderAt(p: string): boolean {
  try {
    return fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

/** A regular file, or a link to one. */
export function isFileAt(p: string): boolean {
  try {
    return fs.statSync(p, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false;
  }
}

/** An entry of any kind, a dangling link included. */
export function entryAt(p: string): boolean {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}
