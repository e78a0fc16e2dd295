// Applies a previewed list of file changes (hook install, uninstall) and takes them back (Undo).
// Each write is atomic (a random temp file created exclusively, then renamed) and happens only if
// the file is still exactly what the preview showed: a file changed since is left alone and
// reported, never overwritten. The changes are made all or none, in their order, so that every step
// leaves hook files a host can run (hook-install.ts orders them). A repository's files are untrusted like its `.gsd`: a change of a
// repository install must stay inside the repository's real root (a linked `.claude` or
// `.github/hooks` is refused, a link inside is followed and kept), and only small regular files are
// read (a FIFO or a huge settings file is reported, never waited on nor replaced).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { removeStaleTemps, replaceAtomically } from './atomic-write';
import { readBoundedText } from './bounded-read';
import { isWithin, realPathOf } from './confine';

/** One file an install or uninstall writes, changes or deletes. */
export interface FileChange {
  file: string;
  /** Current text; null when the file does not exist. */
  before: string | null;
  /** Text to write; null to delete the file. */
  after: string | null;
  /** What this file is for, for previews. */
  purpose: string;
  /** The folder it must stay in (the repository, for a repository install); absent for user-level files. */
  root?: string;
  /** Folders that writing it created (set when applied): Undo removes them again once empty. */
  createdDirs?: string[];
}

/** Folders an install created, kept in the user's home so a later uninstall removes only those. */
const CREATED_FOLDERS = path.join('.gsd-review-loop', 'created-folders.json');

function readCreated(home: string | undefined): string[] {
  if (!home) return [];
  try {
    const list = JSON.parse(readBoundedText(path.join(home, CREATED_FOLDERS), 1024 * 1024) ?? '[]') as unknown;
    return Array.isArray(list) ? list.filter((d): d is string => typeof d === 'string') : [];
  } catch {
    return [];
  }
}

function writeCreated(home: string | undefined, list: string[]): void {
  if (!home) return;
  try {
    const file = path.join(home, CREATED_FOLDERS);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    replaceAtomically(realPathOf(file), JSON.stringify([...new Set(list)].sort(), null, 2) + '\n');
  } catch {
    // best effort: without the record, an uninstall leaves the folders
  }
}

/** The folders above `file` that do not exist yet, outermost first. */
function missingDirs(file: string): string[] {
  const out: string[] = [];
  for (let d = path.dirname(file); !fs.existsSync(d); d = path.dirname(d)) {
    out.unshift(d);
    if (path.dirname(d) === d) break;
  }
  return out;
}

/** Removes those of `dirs` that are empty, deepest first; rmdir refuses a folder with anything in it. Returns the ones removed. */
function removeEmpty(dirs: readonly string[]): string[] {
  const removed: string[] = [];
  for (const d of [...new Set(dirs)].sort((a, b) => b.length - a.length)) {
    try {
      fs.rmdirSync(d);
      removed.push(d);
    } catch {
      // not empty, or gone already: left as it is
    }
  }
  return removed;
}

/** Reads a file's text for a plan of changes; null when it does not exist. */
export type ReadFile = (file: string) => string | null;

/**
 * The file's text through its real path; null when it does not exist. Throws (one line) for a file
 * that is not a regular one or is too large: such a file is never treated as missing.
 */
export function readOrNull(file: string): string | null {
  return readBoundedText(realPathOf(file));
}

/** The real path of `file`, which must lie inside the real `root`; throws a one-line refusal otherwise. */
export function confineTo(root: string, file: string): string {
  const real = realPathOf(file);
  if (!isWithin(realPathOf(root), real)) throw new Error(`${file} leads outside ${root} (to ${real}); left as it is`);
  return real;
}

export interface ApplyResult {
  applied: FileChange[];
  /** Why the changes were not made (a file changed since the preview, or could not be written), one line each. */
  conflicts: string[];
}

/** The folders an apply created (recorded in the home folder, when given), as it goes. */
interface CreatedFolders {
  list: string[];
  changed: boolean;
}

/** Node's "EPERM: operation not permitted, rename 'a' -> 'b'" without the paths: the cause alone. */
function causeOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (error as NodeJS.ErrnoException).code ? message.split(',')[0] : message.split('\n')[0];
}

/** Makes one change; a one-line reason when it was not made (then nothing of it was). */
function applyOne(c: FileChange, created: CreatedFolders): { done: FileChange } | { failed: string } {
  let real: string;
  try {
    real = c.root ? confineTo(c.root, c.file) : realPathOf(c.file);
    if (readBoundedText(real) !== c.before) return { failed: `${c.file} changed since it was read` };
  } catch (error) {
    const message = (error as Error).message;
    return { failed: message.startsWith(c.file) ? message : `${c.file}: ${message}` };
  }
  // What a process of ours killed before its rename left beside this file (its pid is gone).
  removeStaleTemps(path.dirname(real), path.basename(real));
  if (c.after === null) {
    try {
      // The name itself goes (a link of the user's, not its target).
      fs.unlinkSync(path.join(realPathOf(path.dirname(c.file)), path.basename(c.file)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return { failed: `${c.file}: cannot remove it (${causeOf(error)})` };
    }
    const ours = [...(c.createdDirs ?? []), ...created.list.filter((d) => isWithin(d, path.dirname(c.file)))];
    const removed = removeEmpty(ours);
    if (removed.length) {
      created.list = created.list.filter((d) => !removed.includes(d));
      created.changed = true;
    }
    return { done: c };
  }
  const fresh = missingDirs(real);
  try {
    fs.mkdirSync(path.dirname(real), { recursive: true });
    replaceAtomically(real, c.after);
  } catch (error) {
    removeEmpty(fresh);
    return { failed: `${c.file}: cannot write it (${causeOf(error)})` };
  }
  // Launchers are run with `sh`, but an executable bit makes them runnable by hand too. Not every
  // file system has one (FAT: ENOSYS, EPERM): the launcher works without it.
  if (c.before === null && c.after.startsWith('#!')) {
    try {
      fs.chmodSync(real, 0o755);
    } catch {
      // left as created
    }
  }
  if (fresh.length) {
    created.list.push(...fresh);
    created.changed = true;
  }
  return { done: fresh.length ? { ...c, createdDirs: fresh } : c };
}

/**
 * Applies the changes in their order (an install's launchers before the hook file that runs them, an
 * uninstall's hook file before them: hook-install.ts), all or none: when one cannot be made (a file
 * changed since the preview, one that cannot be written), those made before it are taken back, last
 * first, and the reason is one line. With `home`, the folders it creates are recorded there, and a
 * deletion removes the recorded folders it leaves empty (uninstall); a change that carries
 * `createdDirs` (Undo) removes those once empty. A folder that was there before is never removed.
 */
export function applyFileChanges(changes: readonly FileChange[], home?: string): ApplyResult {
  const applied: FileChange[] = [];
  const created: CreatedFolders = { list: readCreated(home), changed: false };
  let conflicts: string[] = [];
  for (const c of changes) {
    const one = applyOne(c, created);
    if ('done' in one) {
      applied.push(one.done);
      continue;
    }
    // Taken back as an Undo would: each file to what it was, if it still holds what was written.
    const left: string[] = [];
    const kept: FileChange[] = [];
    for (const done of [...applied].reverse()) {
      const back = applyOne({ ...done, before: done.after, after: done.before }, created);
      if ('failed' in back) {
        left.push(back.failed);
        kept.unshift(done);
      }
    }
    conflicts = [left.length === 0 ? `${one.failed}; nothing was changed` : `${one.failed}; what was done before it could not all be taken back: ${left.join('; ')}`];
    applied.splice(0, applied.length, ...kept);
    break;
  }
  if (created.changed) writeCreated(home, created.list);
  return { applied, conflicts };
}

/** Undo: each file back to what it was, if it still holds what we wrote. */
export function revertFileChanges(applied: readonly FileChange[], home?: string): ApplyResult {
  return applyFileChanges(applied.map((c) => ({ ...c, before: c.after, after: c.before })).reverse(), home);
}
