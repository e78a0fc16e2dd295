// Whether a path goes through a symbolic link below a folder: a file planted as a link (to GSD's own
// files, or out of `.gsd`) is never one of ours to write, nor a review file.
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The first part of `file` below `base` that is a symbolic link (its path), or null when none is.
 * Parts that do not exist yet are fine (a file about to be created); `file` outside `base` is a link
 * of its own kind and answered with `file`.
 */
export function linkBelow(base: string, file: string): string | null {
  const rel = path.relative(base, file);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return file;
  let at = base;
  for (const part of rel.split(path.sep)) {
    at = path.join(at, part);
    let stat: fs.Stats | undefined;
    try {
      stat = fs.lstatSync(at, { throwIfNoEntry: false });
    } catch {
      return at;
    }
    if (!stat) return null;
    if (stat.isSymbolicLink()) return at;
  }
  return null;
}
