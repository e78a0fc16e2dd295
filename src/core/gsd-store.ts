// The one door through which the core touches files. The Node implementation reads the disk;
// the extension can add one that answers from open editors (unsaved buffers) for the same paths.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface DirEntry {
  name: string;
  isDirectory: boolean;
  isFile: boolean;
}

export type WriteResult = 'written' | 'conflict';

export interface GsdStore {
  /** The file's text, or null when it does not exist. Throws only for other I/O errors. */
  readText(path: string): string | null;
  /** Entries of a folder, or null when it does not exist. */
  list(dir: string): DirEntry[] | null;
  /**
   * Replaces the file with `text` atomically (never a half-written file), but only if its current
   * text is still `expected` (null: the file must not exist). Otherwise nothing is written and the
   * answer is 'conflict', so the caller re-reads and re-applies its change.
   */
  writeIfUnchanged(path: string, text: string, expected: string | null): WriteResult;
}

/** Files above this size are not parsed: GSD's markdown is small, and a huge file is a mistake. */
export const MAX_PARSE_BYTES = 2 * 1024 * 1024;

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

let tempCounter = 0;

export class NodeGsdStore implements GsdStore {
  readText(path: string): string | null {
    try {
      return fs.readFileSync(path, 'utf8');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  list(dir: string): DirEntry[] | null {
    try {
      return fs.readdirSync(dir, { withFileTypes: true }).map((d) => {
        // A symlinked folder (or file) counts as what it points at.
        if (d.isSymbolicLink()) {
          try {
            const s = fs.statSync(`${dir}/${d.name}`);
            return { name: d.name, isDirectory: s.isDirectory(), isFile: s.isFile() };
          } catch {
            return { name: d.name, isDirectory: false, isFile: false };
          }
        }
        return { name: d.name, isDirectory: d.isDirectory(), isFile: d.isFile() };
      });
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  writeIfUnchanged(file: string, text: string, expected: string | null): WriteResult {
    if (this.readText(file) !== expected) return 'conflict';
    const dir = path.dirname(file);
    fs.mkdirSync(dir, { recursive: true });
    // Temp file in the same folder (same file system, so rename is atomic), hidden, clearly ours.
    const tmp = path.join(dir, `.${path.basename(file)}.gsd-${process.pid}-${(tempCounter++).toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`);
    let mode = 0o644;
    try {
      mode = fs.statSync(file).mode & 0o777;
    } catch {
      // new file
    }
    const fd = fs.openSync(tmp, 'w', mode);
    try {
      fs.writeFileSync(fd, text, 'utf8');
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    try {
      // Last look before the rename: another writer may have saved while we wrote the temp file.
      if (this.readText(file) !== expected) {
        fs.rmSync(tmp, { force: true });
        return 'conflict';
      }
      fs.renameSync(tmp, file);
    } catch (error) {
      fs.rmSync(tmp, { force: true });
      throw error;
    }
    syncDir(dir);
    removeStaleTemps(dir, path.basename(file));
    return 'written';
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Temp files a killed writer left behind; harmless (the target was never touched), but untidy. */
function removeStaleTemps(dir: string, base: string): void {
  const prefix = `.${base}.gsd-`;
  try {
    for (const name of fs.readdirSync(dir)) {
      if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
      const pid = Number(name.slice(prefix.length).split('-')[0]);
      if (Number.isInteger(pid) && pid !== process.pid && !processAlive(pid)) fs.rmSync(path.join(dir, name), { force: true });
    }
  } catch {
    // tidying is best effort
  }
}

/** Makes the rename durable; not every platform can open a folder, which is fine. */
function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // best effort
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
