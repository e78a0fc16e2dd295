// Finding the GSD project a folder belongs to (find-gsd-folder.ts has the rule). `.gsd` is often a
// symlink into the user's home, so the real path is what we watch and read.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { journalFile, recoverInterruptedCommit } from '../files/commit-journal';
import { registerGsdRoot } from '../files/confine';
import { moveOldRuntimeRecords, OLD_RUNTIME_FOLDER } from '../files/runtime-folder';
import { detectProjectKind } from './project-kind';
import { findGsdFolder } from './find-gsd-folder';

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

/**
 * An older version's records (a dispatch in flight, a journal) move to our folder first; then a
 * commit a killed process left half-done is finished before anyone reads the state. Not in a
 * successor project (@opengsd/gsd-pi 1.x): GSD runs its own reviews there and nothing of its `.gsd`
 * is ours to write, so what an older version of ours left there stays as it is. The project's kind
 * is looked at only when there is something to move or finish (two failed lstats otherwise).
 * Returns what the user should hear of.
 */
function tidyRuntimeRecords(gsdDir: string): string[] {
  const leftover = (p: string): boolean => {
    try {
      return fs.lstatSync(p, { throwIfNoEntry: false }) !== undefined;
    } catch {
      return true;
    }
  };
  if (!leftover(path.join(gsdDir, OLD_RUNTIME_FOLDER)) && !leftover(journalFile(gsdDir))) return [];
  if (detectProjectKind(gsdDir).kind === 'successor') return [];
  moveOldRuntimeRecords(gsdDir);
  return recoverInterruptedCommit(gsdDir);
}

/** Walks up from `start` to the git root (or the file-system root), short of the home folder, for `.gsd`. */
export function locateProject(start: string): GsdProject | null {
  const found = findGsdFolder(start);
  if (!found) return null;
  const gsdDir = fs.realpathSync(found.gsdLink);
  registerGsdRoot(gsdDir);
  const notes = tidyRuntimeRecords(gsdDir);
  return { ...found, gsdDir, symlinked: fs.lstatSync(found.gsdLink).isSymbolicLink(), ...(notes.length > 0 ? { notes } : {}) };
}
