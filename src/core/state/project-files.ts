// Per-file memory of what was read from `.gsd`: folder listings and parsed files, each kept until
// told that path changed. The CLI builds one per run; the extension keeps one for its lifetime.
import * as path from 'node:path';
import { UnreadableFileError } from '../files/bounded-read';
import { OutsideGsdError } from '../files/confine';
import { DirIndex } from '../files/gsd-layout';
import { MAX_PARSE_BYTES, type GsdStore } from '../files/gsd-store';
import type { Diagnostic } from '../model/types';

export interface Parsed<T> {
  value: T | null;
  diagnostics: Diagnostic[];
}

type Parser<T> = (text: string, file: string) => T;

// Binary files (images, UTF-16 text) show a NUL within their first bytes; scanning more of every
// file cost ~10 ms of a full derive at 10,000 tasks.
const BINARY_SNIFF_BYTES = 256;

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class ProjectFiles {
  private readonly dirs = new Map<string, DirIndex | null>();
  /**
   * Parsed files by folder, then by name. Two levels because a folder's path is one string object
   * reused for all its files, while hashing a fresh full path for every file cost ~2% of a full derive.
   */
  private readonly parsed = new Map<string, Map<string, Parsed<unknown>>>();
  /** How many files were read from the store (for the lazy-path check and the bench). */
  reads = 0;
  /** Which files were read, when `trackReads` is on (tests of the lazy path). */
  readPaths: string[] | null = null;

  /** `checkWholeFrontmatter`: summaries' frontmatter is parsed whole, to report a broken line in a key the state does not use. */
  constructor(
    readonly store: GsdStore,
    readonly checkWholeFrontmatter = false,
  ) {}

  dir(dir: string): DirIndex | null {
    let index = this.dirs.get(dir);
    if (index === undefined) {
      let entries;
      try {
        entries = this.store.list(dir);
      } catch {
        entries = null;
      }
      index = entries ? new DirIndex(dir, entries) : null;
      this.dirs.set(dir, index);
    }
    return index;
  }

  /** Reads and parses a file once; broken input becomes diagnostics, never an exception. */
  parse<T>(file: string, parser: Parser<T>): Parsed<T> {
    const dir = path.dirname(file);
    return this.parseIn(dir, path.basename(file), file, parser, this.dirs.get(dir));
  }

  /** `parse()` for an entry of a listed folder; `file` is `dir.join(name)`. */
  parseEntry<T>(dir: DirIndex, name: string, file: string, parser: Parser<T>): Parsed<T> {
    return this.parseIn(dir.dir, name, file, parser, dir);
  }

  private parseIn<T>(dir: string, name: string, file: string, parser: Parser<T>, listing: DirIndex | null | undefined): Parsed<T> {
    let inDir = this.parsed.get(dir);
    if (!inDir) {
      inDir = new Map();
      this.parsed.set(dir, inDir);
    }
    const cached = inDir.get(name);
    if (cached) return cached as Parsed<T>;
    // The folder's listing, when we have it, says whether this is a regular file (the read then
    // needs no check of the open file unless something looks off).
    const result = this.readAndParse(file, parser, listing?.isRegular(name) === true);
    inDir.set(name, result);
    return result;
  }

  private readAndParse<T>(file: string, parser: Parser<T>, listedRegular: boolean): Parsed<T> {
    let text: string | null;
    try {
      this.reads++;
      this.readPaths?.push(file);
      text = this.store.readText(file, listedRegular);
    } catch (error) {
      // A link out of `.gsd`, a FIFO, a device or a huge file: refused on purpose, said plainly.
      if (error instanceof UnreadableFileError || error instanceof OutsideGsdError) return { value: null, diagnostics: [{ file, severity: 'warning', message: error.message }] };
      return { value: null, diagnostics: [{ file, severity: 'error', message: `could not read: ${describe(error)}` }] };
    }
    if (text === null) return { value: null, diagnostics: [] };
    if (text.length > MAX_PARSE_BYTES) {
      return { value: null, diagnostics: [{ file, severity: 'warning', message: `${(text.length / 1048576).toFixed(1)} MB is too large for a GSD file; not parsed (limit ${MAX_PARSE_BYTES / 1048576} MB)` }] };
    }
    if (text.slice(0, BINARY_SNIFF_BYTES).includes('\u0000')) {
      return { value: null, diagnostics: [{ file, severity: 'warning', message: 'binary content where GSD expects markdown; not parsed' }] };
    }
    try {
      const value = parser(text, file);
      const own = (value as { diagnostics?: Diagnostic[] } | null)?.diagnostics ?? [];
      return { value, diagnostics: own };
    } catch (error) {
      // Parsers are written not to throw; this is the last line of defence.
      return { value: null, diagnostics: [{ file, severity: 'error', message: `could not parse: ${describe(error)}` }] };
    }
  }

  /**
   * Runs `work` with the store's reads batched by folder where the store can (see GsdStore); the
   * folders that moved under a batch are returned, and what was read from them is forgotten here.
   */
  readingInFolderBatches<T>(work: () => T): { value: T; movedFolders: string[] } {
    if (!this.store.readingInFolderBatches) return { value: work(), movedFolders: [] };
    const result = this.store.readingInFolderBatches(work);
    for (const dir of result.movedFolders) this.invalidateTree(dir);
    return result;
  }

  /** Forget one path: the file itself, and the listing of its folder (it may be new or gone). */
  invalidate(file: string): void {
    this.parsed.get(path.dirname(file))?.delete(path.basename(file));
    this.dirs.delete(path.dirname(file));
    // A folder that appeared or vanished: its own listing goes too.
    this.dirs.delete(file);
  }

  /** Whether a listing of this path was read, i.e. it is (or was) a folder we depend on. */
  knowsDir(dir: string): boolean {
    return this.dirs.has(dir);
  }

  /** Forget everything under a folder (a folder was deleted or renamed). */
  invalidateTree(dir: string): void {
    const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
    for (const key of [...this.parsed.keys()]) if (key === dir || key.startsWith(prefix)) this.parsed.delete(key);
    this.parsed.get(path.dirname(dir))?.delete(path.basename(dir));
    for (const key of [...this.dirs.keys()]) if (key === dir || key.startsWith(prefix)) this.dirs.delete(key);
    this.dirs.delete(path.dirname(dir));
  }

  clear(): void {
    this.parsed.clear();
    this.dirs.clear();
  }
}

/** GSD's `PREFERENCES.md` in `.gsd`, in any case, from the cached folder listing; null when there is none. */
export function preferencesFile(files: ProjectFiles, gsdDir: string): string | null {
  const entry = files.dir(gsdDir)?.entries.find((e) => e.isFile && e.name.toUpperCase() === 'PREFERENCES.MD');
  return entry ? path.join(gsdDir, entry.name) : null;
}
