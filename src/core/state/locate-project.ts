// Finding the GSD project a folder belongs to: the nearest `.gsd` at or above it, not past the git
// root. `.gsd` is often a symlink into the user's home, so the real path is what we watch and read.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { recoverInterruptedCommit } from '../files/commit-journal';
import { registerGsdRoot } from '../files/confine';
import { moveOldRuntimeRecords } from '../files/runtime-folder';

export interface GsdProject {
  /** The folder that holds `.gsd`. */
  root: string;
  /** `.gsd` as seen from the root (may be a symlink). */
  gsdLink: string;
  /** The real folder `.gsd` resolves to. */
  gsdDir: string;
  symlinked: boolean;
  /** What finding it did that the user should hear of (an interrupted commit finished, or a journal set aside). */
  notes?: string[];
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function exists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Walks up from `start` to the git root (or the file-system root) looking for `.gsd`. */
export function locateProject(start: string): GsdProject | null {
  let dir = path.resolve(start);
  for (;;) {
    const candidate = path.join(dir, '.gsd');
    if (isDirectory(candidate)) {
      const gsdDir = fs.realpathSync(candidate);
      registerGsdRoot(gsdDir);
      // An older version's records (a dispatch in flight, a journal) move to our folder first; then a
      // commit a killed process left half-done is finished before anyone reads the state.
      moveOldRuntimeRecords(gsdDir);
      const notes = recoverInterruptedCommit(gsdDir);
      return { root: dir, gsdLink: candidate, gsdDir, symlinked: fs.lstatSync(candidate).isSymbolicLink(), ...(notes.length > 0 ? { notes } : {}) };
    }
    if (exists(path.join(dir, '.git'))) return null;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}
