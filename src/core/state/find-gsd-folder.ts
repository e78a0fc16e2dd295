// Where a folder's GSD project is: the nearest `.gsd` at or above it, not past the repository root
// (the folder with `.git`) and never in the user's home folder, whose `~/.gsd` is GSD's own folder
// for the user (preferences, agent settings), not a project. One rule for the CLI, the extension and
// the hook fast path (hook-entry.ts), which imports only this: no reads or writes beyond the walk.
import * as path from 'node:path';
import { userHome } from '../files/user-home';
import { entryAt, isFolderAt } from '../files/path-kind';

export interface GsdFolder {
  /** The folder that holds `.gsd`. */
  root: string;
  /** `.gsd` as seen from the root (may be a symlink). */
  gsdLink: string;
}

/** `home`: the user's home folder (a test passes its own). */
export function findGsdFolder(start: string, home: string = userHome()): GsdFolder | null {
  const homeDir = home ? path.resolve(home) : null;
  let dir = path.resolve(start);
  for (;;) {
    if (dir === homeDir) return null;
    const candidate = path.join(dir, '.gsd');
    if (isFolderAt(candidate)) return { root: dir, gsdLink: candidate };
    if (entryAt(path.join(dir, '.git'))) return null;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}
