// Finding the GSD project a folder belongs to (find-gsd-folder.ts has the rule). `.gsd` is often a
// symlink into the user's home, so the real path is what we watch and read.
import * as fs from 'node:fs';
import { recoverInterruptedCommit } from '../files/commit-journal';
import { registerGsdRoot } from '../files/confine';
import { moveOldRuntimeRecords } from '../files/runtime-folder';
import { findGsdFolder } from './find-gsd-folder';

export interface GsdProject {
  /** The folder that holds `.gsd`. */
  root: string;
  /** `.gsd` as seen from the root (may be a symlink). */
  gsdLink: string;
  /** The real folder `.gsd` resolves to. */
  gsdDir: string;
  symlinked: boolean;
}

/** Walks up from `start` to the git root (or the file-system root), short of the home folder, for `.gsd`. */
export function locateProject(start: string): GsdProject | null {
  const found = findGsdFolder(start);
  if (!found) return null;
  const gsdDir = fs.realpathSync(found.gsdLink);
  registerGsdRoot(gsdDir);
  // An older version's records (a dispatch in flight, a journal) move to our folder first; then a
  // commit a killed process left half-done is finished before anyone reads the state.
  moveOldRuntimeRecords(gsdDir);
  recoverInterruptedCommit(gsdDir);
  return { ...found, gsdDir, symlinked: fs.lstatSync(found.gsdLink).isSymbolicLink() };
}
