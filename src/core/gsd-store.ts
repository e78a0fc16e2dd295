// The one door through which the core touches files. The Node implementation reads the disk;
// the extension can add one that answers from open editors (unsaved buffers) for the same paths.
import * as fs from 'node:fs';

export interface DirEntry {
  name: string;
  isDirectory: boolean;
  isFile: boolean;
}

export interface FileStat {
  size: number;
  mtimeMs: number;
}

export interface GsdStore {
  /** The file's text, or null when it does not exist. Throws only for other I/O errors. */
  readText(path: string): string | null;
  /** Entries of a folder, or null when it does not exist. */
  list(dir: string): DirEntry[] | null;
  stat(path: string): FileStat | null;
}

/** Files above this size are not parsed: GSD's markdown is small, and a huge file is a mistake. */
export const MAX_PARSE_BYTES = 2 * 1024 * 1024;

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

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

  stat(path: string): FileStat | null {
    try {
      const s = fs.statSync(path);
      return { size: s.size, mtimeMs: s.mtimeMs };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }
}
