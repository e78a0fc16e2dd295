// Reading a folder's files as one batch. A full derive reads every file of a folder one after
// another, and judging what each open reached (one readlink of /proc/self/fd/N a file) cost about a
// fifth of the whole derive. In a batch the folder itself is opened once and judged by what was
// opened; its files are then opened through that descriptor (`/proc/<pid>/fd/D/name`, which the
// kernel resolves from the folder held, not from any path), so a folder above swapped for a link
// cannot redirect them. When the batch ends the folder is asked where it is again: one that moved
// meanwhile is reported, and the caller reads its files again by name (the per-file way). Only where
// /proc answers (Linux); elsewhere every read is the per-file way.
import * as fs from 'node:fs';
import { gsdRootOf, isWithin, openConfined, realGsdRoot } from './confine';
import { holdFolder, whereHeldIs, type HeldFolder } from './opened-path';

interface Batch extends HeldFolder {
  /** The folder as the caller names it (the path before the file's name). */
  named: string;
}

interface Batches {
  held: Batch | null;
  /** The folder last found not holdable: its files go the per-file way without trying again. */
  unheld: string | null;
  /** Folders found elsewhere when their batch ended. */
  moved: string[];
}

/** The batches of the read under way (a derive runs synchronously, so one at a time). */
let batches: Batches | null = null;

const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0;

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Runs `work` (synchronous) with the reads made through openConfinedInBatch batched by folder.
 * `movedFolders`: folders that were somewhere else when their batch ended than when it began; what
 * was read from them must be dropped and read again by name. A call inside another runs in the
 * outer one's batches, which then reports what moved.
 */
export function readingInFolderBatches<T>(work: () => T): { value: T; movedFolders: string[] } {
  if (batches !== null || process.platform !== 'linux') return { value: work(), movedFolders: [] };
  const mine: Batches = { held: null, unheld: null, moved: [] };
  batches = mine;
  try {
    const value = work();
    release(mine);
    return { value, movedFolders: mine.moved };
  } finally {
    if (mine.held !== null) fs.closeSync(mine.held.fd);
    batches = null;
  }
}

/** Ends the batch under way: its folder is asked where it is now, and closed. */
function release(b: Batches): void {
  const held = b.held;
  if (held === null) return;
  b.held = null;
  const now = whereHeldIs(held);
  fs.closeSync(held.fd);
  if (now !== held.real) b.moved.push(held.named);
}

/** Opens `dir` as the folder of a new batch, if it is inside the real `.gsd` it belongs to; else null. */
function hold(dir: string): Batch | null {
  const gsdDir = gsdRootOf(dir);
  if (gsdDir === null) return null;
  let root: string;
  let held: HeldFolder | null;
  try {
    // The root first: were it to fail with the folder held, the descriptor would be left open.
    root = realGsdRoot(gsdDir);
    held = holdFolder(dir);
  } catch {
    // Missing or not a folder: the per-file way says so for each file.
    return null;
  }
  if (held === null) return null;
  if (!isWithin(root, held.real)) {
    fs.closeSync(held.fd);
    return null;
  }
  return { ...held, named: dir };
}

/** `name` is one plain entry name: no separator, not `.` or `..`, not empty. */
function isPlainName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('\\');
}

/**
 * openConfined, through the folder of the batch under way when there is one (see the top of the
 * file). Whatever the batch cannot answer itself (no batch, a folder it cannot hold, a link as the
 * file's last component, an error other than a missing file) goes the per-file way, which judges it
 * and says why it refuses.
 */
export function openConfinedInBatch(file: string, flags: number): number | null {
  const b = batches;
  if (b === null) return openConfined(file, flags);
  const cut = file.lastIndexOf('/');
  const name = file.slice(cut + 1);
  if (cut <= 0 || file.charCodeAt(0) !== 47 || !isPlainName(name)) return openConfined(file, flags);
  const held = heldFor(b, file, cut);
  if (held === null) return openConfined(file, flags);
  try {
    return fs.openSync(held.through + name, flags | NO_FOLLOW);
  } catch (error) {
    if (isMissing(error)) return null;
    return openConfined(file, flags);
  }
}

/**
 * The entries of the folder `dir` (an absolute path) listed through the batch's descriptor, which
 * then stays held for the files read next, and its real path; null when no batch is under way or
 * the folder cannot be held (the caller lists it by name, and says what is wrong with it).
 */
export function listInBatch(dir: string): { real: string; entries: fs.Dirent[] } | null {
  const b = batches;
  if (b === null || dir.charCodeAt(0) !== 47 || dir.length < 2 || dir.endsWith('/')) return null;
  const held = heldFor(b, dir, dir.length);
  return held === null ? null : { real: held.real, entries: fs.readdirSync(held.through, { withFileTypes: true }) };
}

/** The batch for the folder `path.slice(0, cut)`: the one under way, or a new one; null when it cannot be held. */
function heldFor(b: Batches, path: string, cut: number): Batch | null {
  const held = b.held;
  // The folder of the last file, without a new string for its path: file after file, the common case.
  if (held !== null && held.named.length === cut && path.startsWith(held.named)) return held;
  const dir = cut === path.length ? path : path.slice(0, cut);
  if (b.unheld === dir) return null;
  release(b);
  b.held = hold(dir);
  b.unheld = b.held === null ? dir : null;
  return b.held;
}
