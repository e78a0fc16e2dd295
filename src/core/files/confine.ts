// Confinement: every path the core or the extension reads or writes under `.gsd` is resolved to its
// real path (symlinks followed, also for paths that do not exist yet) and must stay inside the real
// `.gsd`. A repository is untrusted input: a link inside it must never make us read or write a file
// elsewhere. This is the one place that decides; every caller goes through it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathOfOpened, reopenName } from './opened-path';

/** A path that leads outside the real `.gsd` (through `..`, an absolute path or a symlink). */
export class OutsideGsdError extends Error {
  constructor(
    readonly file: string,
    readonly real: string | null,
    readonly gsdDir: string | null,
  ) {
    super(
      gsdDir === null
        ? `${file} is not inside a .gsd folder; refused`
        : `${file} leads outside .gsd${real && real !== file ? ` (to ${real})` : ''}; refused`,
    );
    this.name = 'OutsideGsdError';
  }
}

/** Real `.gsd` folders of the projects found in this process (locateProject registers them). */
const knownRoots = new Set<string>();
const realRoots = new Map<string, string>();

/** Symlinks followed while resolving one path: more is a loop or an attack. */
const MAX_LINKS = 40;

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export function registerGsdRoot(realGsdDir: string): void {
  knownRoots.add(path.resolve(realGsdDir));
  // A new root may be the deeper one for the folder judged last.
  lastOpened = null;
}

/** `child` is `root` itself or lies under it (both absolute and normalized; no file-system access). */
export function isWithin(root: string, child: string): boolean {
  if (child === root) return true;
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return child.startsWith(prefix);
}

/**
 * The real path of `p`: every symlink resolved, including a dangling last link and the missing
 * tail of a path that does not exist yet (resolved from its nearest existing ancestor).
 */
export function realPathOf(p: string): string {
  return resolveReal(path.resolve(p), 0);
}

function resolveReal(abs: string, links: number): string {
  try {
    return fs.realpathSync.native(abs);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw Object.assign(new Error(`${abs}: too many levels of symbolic links`), { code });
    if (!isMissing(error)) throw error;
  }
  const parent = path.dirname(abs);
  if (parent === abs) return abs;
  const realParent = resolveReal(parent, links);
  const here = path.join(realParent, path.basename(abs));
  let stat: fs.Stats | null;
  try {
    stat = fs.lstatSync(here);
  } catch {
    stat = null;
  }
  if (stat?.isSymbolicLink()) {
    // A dangling link: where would a write through it land?
    if (links >= MAX_LINKS) throw Object.assign(new Error(`${abs}: too many levels of symbolic links`), { code: 'ELOOP' });
    return resolveReal(path.resolve(realParent, fs.readlinkSync(here)), links + 1);
  }
  return here;
}

/** The real path of a `.gsd` folder, as every check here judges against it (looked up once). */
export function realGsdRoot(gsdDir: string): string {
  let real = realRoots.get(gsdDir);
  if (real === undefined) {
    real = fs.realpathSync.native(gsdDir);
    realRoots.set(gsdDir, real);
  }
  return real;
}

/**
 * The `.gsd` folder a path belongs to: the deepest registered project root that contains it, else
 * the nearest ancestor named `.gsd`. Null when it is in no `.gsd` at all.
 */
export function gsdRootOf(file: string): string | null {
  const abs = path.isAbsolute(file) ? file : path.resolve(file);
  let best: string | null = null;
  for (const root of knownRoots) if (isWithin(root, abs) && (best === null || root.length > best.length)) best = root;
  if (best) return best;
  for (let dir = abs; ; ) {
    if (path.basename(dir) === '.gsd') return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/**
 * The real path of `file`, which must lie inside the real `gsdDir` (`file` may be relative to it).
 * Throws OutsideGsdError otherwise; never touches the file itself.
 */
export function confine(gsdDir: string, file: string): string {
  const abs = path.resolve(gsdDir, file);
  let root: string;
  try {
    root = realGsdRoot(path.resolve(gsdDir));
  } catch {
    throw new OutsideGsdError(abs, null, null);
  }
  let real: string;
  try {
    real = realPathOf(abs);
  } catch (error) {
    throw new OutsideGsdError(abs, `${(error as Error).message}`, gsdDir);
  }
  if (!isWithin(root, real)) throw new OutsideGsdError(abs, real, gsdDir);
  return real;
}

/**
 * Real paths of folders, kept for a moment: a derive reads thousands of files from a few hundred
 * folders, and resolving each file's folders again cost more than reading the file. A folder
 * swapped for a link is noticed once its entry is older than this.
 */
const DIR_CACHE_MS = 1000;
const dirCache = new Map<string, { real: string; at: number }>();

/** The last folder looked up: a derive reads a folder's files one after another (no hashing of its path). */
let lastDir: { dir: string; real: string; at: number } | null = null;

function realDir(dir: string): string {
  const now = Date.now();
  if (lastDir !== null && lastDir.dir === dir && now - lastDir.at < DIR_CACHE_MS) return lastDir.real;
  let cached = dirCache.get(dir);
  if (!cached || now - cached.at >= DIR_CACHE_MS) {
    cached = { real: realPathOf(dir), at: now };
    if (dirCache.size > 10_000) dirCache.clear();
    dirCache.set(dir, cached);
  }
  lastDir = { dir, real: cached.real, at: cached.at };
  return cached.real;
}

/**
 * A listing of `dir`, just judged by confineFolder, saw these plain folders (not links): each one's
 * real path is `dir`'s plus its name, kept for as long as `dir`'s own. A cold derive otherwise
 * resolved each of its few hundred folders again, and a realpath asks the system about every
 * component of the path (4 ms of a 10,000-task derive). A folder swapped for a link after the
 * listing is noticed when that entry expires, as for any folder resolved here.
 */
export function rememberListedFolders(dir: string, names: readonly string[]): void {
  const abs = path.isAbsolute(dir) ? dir : path.resolve(dir);
  const parent = lastDir !== null && lastDir.dir === abs ? lastDir : dirCache.get(abs);
  if (!parent || Date.now() - parent.at >= DIR_CACHE_MS) return;
  if (dirCache.size + names.length > 10_000) dirCache.clear();
  const named = abs.endsWith(path.sep) ? abs : abs + path.sep;
  const real = parent.real.endsWith(path.sep) ? parent.real : parent.real + path.sep;
  for (const name of names) {
    const key = named + name;
    const known = dirCache.get(key);
    if (!known || known.at < parent.at) dirCache.set(key, { real: real + name, at: parent.at });
  }
}

/**
 * The real path of an existing folder that must be inside the real `.gsd` it belongs to (its real
 * path kept for a moment, as for reads). Throws OutsideGsdError otherwise.
 */
export function confineFolder(dir: string): string {
  const abs = path.isAbsolute(dir) ? dir : path.resolve(dir);
  const gsdDir = gsdRootOf(abs);
  if (!gsdDir) throw new OutsideGsdError(abs, null, null);
  let real: string;
  try {
    real = realDir(abs);
  } catch (error) {
    throw new OutsideGsdError(abs, (error as Error).message, gsdDir);
  }
  if (!isWithin(realGsdRoot(gsdDir), real)) throw new OutsideGsdError(abs, real, gsdDir);
  return real;
}

const LIST_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_DIRECTORY ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

/**
 * The entries of a folder inside the real `.gsd` it belongs to, and its real path. The folder is
 * opened first and what was opened is judged (no realpath of the name: one readlink of
 * /proc/self/fd instead of one per component of the path), then listed through that descriptor,
 * so a folder swapped for a link after the check is not what is listed. Without /proc the real
 * path found at the open (same device and inode) is listed. Its real path is kept as confineFolder
 * keeps one, so the folders it lists can be remembered (rememberListedFolders). Throws
 * OutsideGsdError for a folder outside, and ENOENT or ENOTDIR as the open gives them.
 */
export function listConfinedFolder(dir: string): { real: string; entries: fs.Dirent[] } {
  const abs = path.isAbsolute(dir) ? dir : path.resolve(dir);
  const gsdDir = gsdRootOf(abs);
  if (!gsdDir) throw new OutsideGsdError(abs, null, null);
  const root = realGsdRoot(gsdDir);
  const fd = fs.openSync(abs, LIST_FLAGS);
  try {
    const real = pathOfOpened(fd, abs);
    if (real === null || !isWithin(root, real)) throw new OutsideGsdError(abs, real ?? `${abs} (changed while it was opened)`, gsdDir);
    const entries = fs.readdirSync(reopenName(fd) ?? real, { withFileTypes: true });
    const now = Date.now();
    if (dirCache.size > 10_000) dirCache.clear();
    dirCache.set(abs, { real, at: now });
    lastDir = { dir: abs, real, at: now };
    return { real, entries };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The folder of the last file opened, judged inside its real `.gsd`, for as long as its real path is
 * kept (DIR_CACHE_MS): a derive opens a folder's files one after another, and finding the `.gsd`,
 * slicing the path and checking the real folder again for each file cost about a tenth of reading it.
 * `prefix` is the folder as named plus the separator; `real` its real path plus the separator, or
 * null when the folder is its own real path (the file then opens as named).
 */
let lastOpened: { prefix: string; real: string | null; root: string; at: number } | null = null;

const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/** The name after `from` when it is a plain entry name (no separator of either kind, not `.` or `..`). */
function plainNameFrom(file: string, from: number): boolean {
  const length = file.length - from;
  if (length <= 0 || file.indexOf('/', from) !== -1 || file.indexOf('\\', from) !== -1) return false;
  return !(file.charCodeAt(from) === 46 && (length === 1 || (length === 2 && file.charCodeAt(from + 1) === 46)));
}

/**
 * `fd`, just opened by the name `opened`, if what it opened is inside the real `.gsd` `root`; else
 * it is closed and refused. A folder on the way may have been swapped for a link between judging
 * the path and opening it, and the open followed that link.
 */
function keptInside(fd: number, opened: string, root: string, file: string): number {
  const where = pathOfOpened(fd, opened);
  if (where !== null && isWithin(root, where)) return fd;
  fs.closeSync(fd);
  throw new OutsideGsdError(file, where ?? `${opened} (changed while it was opened)`, root);
}

/**
 * Opens a file for reading, confined: its folder must resolve inside the real `.gsd`, and the file
 * is opened without following a link in its last component (such a link is resolved and judged
 * first). What was opened is checked afterwards to be inside too (keptInside). Null when it does
 * not exist. The caller closes the descriptor.
 */
export function openConfined(file: string, flags: number): number | null {
  const last = lastOpened;
  // Only where the open itself refuses a link (O_NOFOLLOW): elsewhere the full way judges the name.
  if (NO_FOLLOW !== 0 && last !== null && file.startsWith(last.prefix) && plainNameFrom(file, last.prefix.length) && Date.now() - last.at < DIR_CACHE_MS) {
    const opened = last.real === null ? file : last.real + file.slice(last.prefix.length);
    let fd: number | undefined;
    try {
      fd = fs.openSync(opened, flags | NO_FOLLOW);
    } catch (error) {
      if (isMissing(error)) return null;
      // A link as the last component: the full way below judges where it leads.
      if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw error;
    }
    if (fd !== undefined) return keptInside(fd, opened, last.root, file);
  }
  // Absolute paths are taken as they are (this runs for every file of a derive); `..` in them is
  // harmless, as the folder is resolved to its real path below.
  const abs = path.isAbsolute(file) ? file : path.resolve(file);
  const gsdDir = gsdRootOf(abs);
  if (!gsdDir) throw new OutsideGsdError(abs, null, null);
  const root = realGsdRoot(gsdDir);
  const cut = abs.lastIndexOf(path.sep);
  const base = abs.slice(cut + 1);
  const named = abs.slice(0, cut);
  let dir: string;
  try {
    dir = realDir(named || path.sep);
  } catch (error) {
    throw new OutsideGsdError(abs, (error as Error).message, gsdDir);
  }
  if (!isWithin(root, dir) || base === '' || base === '.' || base === '..') throw new OutsideGsdError(abs, path.join(dir, base), gsdDir);
  if (named !== '' && lastDir !== null && lastDir.dir === named) {
    lastOpened = { prefix: named + path.sep, real: dir === named ? null : dir.endsWith(path.sep) ? dir : dir + path.sep, root, at: lastDir.at };
  }
  const noFollow = flags | NO_FOLLOW;
  // A folder that is its own real path (the common case) opens the path as given: no new string.
  const opened = dir === named ? abs : dir.endsWith(path.sep) ? dir + base : dir + path.sep + base;
  try {
    return keptInside(fs.openSync(opened, noFollow), opened, root, abs);
  } catch (error) {
    if (isMissing(error)) return null;
    if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw error;
  }
  // The last component is a link: judge where it leads, then open that.
  try {
    const target = confine(gsdDir, abs);
    return keptInside(fs.openSync(target, noFollow), target, root, abs);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

const APPEND = fs.constants.O_WRONLY | fs.constants.O_APPEND | NO_FOLLOW | (fs.constants.O_NONBLOCK ?? 0);

/**
 * Opens `file` (in a folder of ours under the real `gsdDir`) for appending, created when missing,
 * never through a link in its last component; and only if what was opened is inside the real `.gsd`:
 * a folder on the way swapped for a link after it was judged makes the open land elsewhere, and then
 * the descriptor is closed, a file this call created there is removed, and OutsideGsdError is thrown.
 */
export function openConfinedForAppend(gsdDir: string, file: string, mode = 0o644): number {
  const root = realGsdRoot(path.resolve(gsdDir));
  let fd: number;
  let created = false;
  try {
    fd = fs.openSync(file, APPEND);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    // Created by this call alone (another writer creating it too gets EEXIST and opens it as it is).
    try {
      fd = fs.openSync(file, APPEND | fs.constants.O_CREAT | fs.constants.O_EXCL, mode);
      created = true;
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code !== 'EEXIST') throw again;
      fd = fs.openSync(file, APPEND);
    }
  }
  const where = pathOfOpened(fd, file);
  if (where !== null && isWithin(root, where)) return fd;
  fs.closeSync(fd);
  if (created && where !== null) fs.rmSync(where, { force: true });
  throw new OutsideGsdError(file, where ?? `${file} (changed while it was opened)`, root);
}

/** `confine()` for an absolute path whose `.gsd` is found from the path itself. */
export function confineInGsd(file: string): { gsdDir: string; real: string } {
  const gsdDir = gsdRootOf(file);
  if (!gsdDir) throw new OutsideGsdError(path.resolve(file), null, null);
  return { gsdDir: realGsdRoot(gsdDir), real: confine(gsdDir, file) };
}

/** A path a hook, a payload or a frontmatter value gives relative to `.gsd`: its real path, or null. */
export function gsdRelative(gsdDir: string, rel: string): string | null {
  if (path.isAbsolute(rel)) return null;
  const abs = path.resolve(gsdDir, rel);
  if (!isWithin(path.resolve(gsdDir), abs) || abs === path.resolve(gsdDir)) return null;
  try {
    return confine(gsdDir, abs);
  } catch {
    return null;
  }
}

/** A folder of ours under the real `.gsd` (`rel` to it), created if needed; refused if it leads elsewhere. */
export function confinedDir(gsdDir: string, rel: string): string {
  const real = confine(gsdDir, rel);
  try {
    fs.mkdirSync(real, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A file, a FIFO or a link loop where our folder belongs: refused in one clear line.
    if (code === 'EEXIST' || code === 'ENOTDIR' || code === 'ELOOP') throw new Error(`${real} is not a folder (${code}); refused, nothing written`, { cause: error });
    throw error;
  }
  // Created just now by us or already there: either way it must still be a real folder inside.
  if (confine(gsdDir, rel) !== real || !fs.lstatSync(real).isDirectory()) throw new Error(`${real} is not a folder of ours; refused`);
  return real;
}

/**
 * A file another library opens by its name (SQLite opens `gsd.db` and creates `-wal`/`-shm` beside
 * its real path): its real path inside the real `.gsd`, or null when there is none. Throws a
 * one-line error for a link leading out of `.gsd` (OutsideGsdError) and for anything but a regular
 * file (a FIFO would block the open).
 */
export function confineRegularFile(gsdDir: string, rel: string): string | null {
  // Nothing by that name (or no `.gsd` at all): there is none, which is not a refusal.
  if (!fs.lstatSync(path.resolve(gsdDir, rel), { throwIfNoEntry: false })) return null;
  const real = confine(gsdDir, rel);
  const stat = fs.statSync(real, { throwIfNoEntry: false });
  if (!stat) return null;
  if (!stat.isFile()) throw new Error(`${path.resolve(gsdDir, rel)} is not a regular file; not read`);
  return real;
}
