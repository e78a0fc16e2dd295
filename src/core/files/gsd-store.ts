// The one door through which the core touches files. The Node implementation reads the disk;
// the extension can add one that answers from open editors (unsaved buffers) for the same paths.
// Every path is confined to the real `.gsd` (confine.ts), reads are bounded (bounded-read.ts), and
// every write happens under the project's write lock (gsd-lock.ts), so compare-and-swap is one.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readBoundedText, MAX_READ_BYTES } from './bounded-read';
import { applyCommit, type PlannedWrite } from './commit-journal';
import { confine, confineFolder, confineInGsd, openConfined, rememberListedFolders } from './confine';
import { listInBatch, openConfinedInBatch, readingInFolderBatches } from './folder-batch';
import { withGsdLock } from './gsd-lock';

export type { PlannedWrite } from './commit-journal';

export interface DirEntry {
  name: string;
  isDirectory: boolean;
  isFile: boolean;
  /** The listing saw a regular file itself (not a link, FIFO or device); absent when not known. */
  isRegular?: boolean;
}

export type WriteResult = 'written' | 'conflict';

export interface CommitResult {
  /** Files whose text changed. */
  files: string[];
  /** Anything worth telling after the commit point (the commit stands). */
  notes: string[];
}

export interface GsdStore {
  /**
   * The file's text, or null when it does not exist. Throws OutsideGsdError for a path leading out
   * of the real `.gsd`, UnreadableFileError for a non-regular or too large file, and other I/O errors.
   * `listedRegular`: the caller's listing of the folder just saw a regular file by this name (a
   * store may then skip checking the open file when nothing looks off; see bounded-read.ts).
   */
  readText(path: string, listedRegular?: boolean): string | null;
  /** Entries of a folder, or null when it does not exist. */
  list(dir: string): DirEntry[] | null;
  /**
   * Replaces the file with `text` atomically (never a half-written file), but only if its current
   * text is still `expected` (null: the file must not exist). Otherwise nothing is written and the
   * answer is 'conflict', so the caller re-reads and re-applies its change.
   */
  writeIfUnchanged(path: string, text: string, expected: string | null): WriteResult;
  /**
   * Holding the project's write lock, `plan` reads what it needs (through this store) and returns
   * the writes; they are committed together or not at all. `plan` throwing writes nothing.
   */
  commit(gsdDir: string, plan: () => PlannedWrite[]): CommitResult;
  /**
   * Why a commit would refuse to write this file now (e.g. it has unsaved changes in an editor), or
   * null. Lets optional writes (moving old hook state) step aside instead of refusing the commit.
   */
  refusesWrite?(file: string): string | null;
  /**
   * Runs `work`, whose reads may be batched by folder (folder-batch.ts); `movedFolders` were found
   * elsewhere when their batch ended, and what was read from them must be read again. A store
   * without it reads file by file.
   */
  readingInFolderBatches?<T>(work: () => T): { value: T; movedFolders: string[] };
}

/** Files above this size are not parsed: GSD's markdown is small, and a huge file is a mistake. */
export const MAX_PARSE_BYTES = MAX_READ_BYTES;

/** Plans re-made when another program keeps saving one of the files under us. */
const MAX_PLAN_ATTEMPTS = 5;

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export class NodeGsdStore implements GsdStore {
  readText(file: string, listedRegular = false): string | null {
    return readBoundedText(file, MAX_READ_BYTES, openConfinedInBatch, listedRegular);
  }

  readingInFolderBatches<T>(work: () => T): { value: T; movedFolders: string[] } {
    return readingInFolderBatches(work);
  }

  list(dir: string): DirEntry[] | null {
    // In a derive's batch: through the folder held open and judged, whose files are read next.
    const batched = listInBatch(dir);
    let entries: fs.Dirent[];
    if (batched !== null) entries = batched.entries;
    else {
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch (error) {
        // A folder that is not there is not read, so nothing to judge (derive probes many).
        if (isMissing(error)) return null;
        throw error;
      }
    }
    const real = batched?.real ?? confineFolder(dir);
    const folders: string[] = [];
    const listed = entries.map((d): DirEntry => {
      // A symlinked folder (or file) counts as what it points at; reading through it is judged
      // (and refused with a diagnostic when it leads out of `.gsd`) when it is read. Anything that
      // is not a folder (a FIFO, a device) is listed as a file, so reading it is refused out loud
      // rather than the file silently missing.
      if (d.isSymbolicLink()) {
        try {
          const s = fs.statSync(path.join(real, d.name));
          return { name: d.name, isDirectory: s.isDirectory(), isFile: !s.isDirectory(), isRegular: false };
        } catch {
          return { name: d.name, isDirectory: false, isFile: false, isRegular: false };
        }
      }
      const isDirectory = d.isDirectory();
      if (isDirectory) folders.push(d.name);
      return { name: d.name, isDirectory, isFile: !isDirectory, isRegular: d.isFile() };
    });
    if (folders.length > 0 && batched === null) rememberListedFolders(dir, folders);
    return listed;
  }

  /** Called for each file just before a commit writes it (the extension refuses unsaved editors). */
  protected beforeWrite(_file: string): void {}

  refusesWrite(file: string): string | null {
    try {
      this.beforeWrite(file);
      return null;
    } catch (error) {
      return (error as Error).message;
    }
  }

  writeIfUnchanged(file: string, text: string, expected: string | null): WriteResult {
    const { gsdDir } = confineInGsd(file);
    // Already different: a conflict now, without waiting for the lock (the answer is as true as the
    // one under the lock; only "written" needs the lock to be true).
    if (this.readText(file) !== expected) return 'conflict';
    let conflict = false;
    try {
      this.commit(gsdDir, () => {
        if (this.readText(file) !== expected) {
          conflict = true;
          return [];
        }
        return [{ file, text, expected }];
      });
    } catch (error) {
      if (error instanceof ConcurrentEditError) return 'conflict';
      throw error;
    }
    return conflict ? 'conflict' : 'written';
  }

  commit(gsdDir: string, plan: () => PlannedWrite[]): CommitResult {
    return withGsdLock(gsdDir, () => {
      for (let attempt = 1; ; attempt++) {
        const planned = plan().filter((w) => w.text !== w.expected);
        const writes = planned.map((w) => ({ ...w, file: confine(gsdDir, w.file) }));
        planned.forEach((w, i) => {
          this.beforeWrite(w.file);
          if (writes[i].file !== w.file) this.beforeWrite(writes[i].file);
        });
        // Last look: a writer that does not take our lock (GSD, an editor) may have saved meanwhile;
        // then plan again from what is there now.
        const changed = writes.find((w) => readBoundedText(w.file) !== w.expected);
        if (changed) {
          if (attempt >= MAX_PLAN_ATTEMPTS) throw new ConcurrentEditError(changed.file);
          continue;
        }
        const notes = applyCommit(gsdDir, writes);
        return { files: planned.map((w) => w.file), notes };
      }
    });
  }
}

/** One confined, bounded read for callers without a store (the extension's panel, diff and signals). */
export function readGsdText(file: string): string | null {
  return readBoundedText(file, MAX_READ_BYTES, openConfined);
}

/** A file changed under us by a writer outside our lock, between our read and our write. */
export class ConcurrentEditError extends Error {
  constructor(readonly file: string) {
    super(`${file} was changed by another program while we wrote; nothing was written`);
  }
}
