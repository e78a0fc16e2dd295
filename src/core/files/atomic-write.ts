// Replacing a file atomically without trusting the folder it is in: the temporary file has an
// unpredictable name and is created exclusively (O_EXCL | O_NOFOLLOW), so a link a repository planted
// can never be written through; the rename then puts it in place of the real path (the caller
// resolved it), so a symlink inside `.gsd` keeps pointing at its target, which gets the new text.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { holdFolderToWrite, pathOfOpened, whereHeldIs, type HeldFolder } from './opened-path';

const CREATE_FLAGS = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0);

// Loaded on the first write only: node:crypto costs milliseconds at every start of the CLI, which
// runs on every agent event and mostly only reads.
let crypto: typeof import('node:crypto') | undefined;

/** Our temp files: `.<name>.gsd-<pid>-<random>.tmp`, so a killed writer's leftovers can be tidied. */
export function tempNameFor(file: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return path.join(path.dirname(file), `.${path.basename(file)}.gsd-${process.pid}-${(crypto ??= require('node:crypto') as typeof import('node:crypto')).randomBytes(12).toString('hex')}.tmp`);
}

/**
 * `fd` was just created exclusively by the name `file` (a real path): it must be there, not in a
 * folder a link swapped in on the way. Otherwise the new file (ours, wherever it landed) is removed
 * and the write refused.
 */
function landedWhereMeant(fd: number, file: string): void {
  const where = pathOfOpened(fd, file);
  if (where === file) return;
  if (where !== null) fs.rmSync(where, { force: true });
  throw new Error(`${path.dirname(file)} changed while we wrote to it (the new file landed at ${where ?? 'an unknown place'}); nothing written`);
}

/**
 * Creates a new file exclusively with `data` (fails if anything, even a dangling link, is there).
 * `file` is a real path: a folder on the way swapped for a link meanwhile refuses the write.
 */
export function createExclusive(file: string, data: string | Buffer, mode = 0o644, durable = true): void {
  const fd = fs.openSync(file, CREATE_FLAGS, mode);
  try {
    landedWhereMeant(fd, file);
    fs.writeFileSync(fd, data);
    if (durable) fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Replaces `real` (a real path, already confined) with `data`, atomically and (unless told it need
 * not survive a power loss) durably. Its folder may be swapped for a link between the caller's
 * check and our writing. Where /proc answers, the folder is opened and must be `real`'s folder, and
 * the temp file is made and renamed through that descriptor (replaceInHeldFolder). Elsewhere by
 * name: the temp file must be where it was meant to be once created (else it is removed and the
 * write refused), and the rename names it by its random name, which only we know.
 */
export function replaceAtomically(real: string, data: string | Buffer, durable = true): void {
  const dir = path.dirname(real);
  // Callers pass a real path; anything else (a trailing separator, `..`) goes by name, as it always did.
  const held = path.resolve(real) === real ? holdFolderToWrite(dir, 'wrote to it') : null;
  if (held === null) {
    replaceByName(real, data, durable);
    return;
  }
  try {
    replaceInHeldFolder(held, path.basename(real), data, durable);
    // Moved away after the check: the new file went with it, and the write did not land where meant.
    const now = whereHeldIs(held);
    if (now !== dir) throw new Error(`${dir} was moved while we wrote to it (to ${now ?? 'an unknown place'}); the new file went with it`);
  } finally {
    fs.closeSync(held.fd);
  }
}

/**
 * The temp file is created in the held folder and renamed there, both names reached through its
 * descriptor. By name, rename(2) looks up the old and the new name's folders one after the other:
 * a folder swapped for a link between the two lookups put our temp file in place of a file
 * outside `.gsd` (seen in confinement-swap-race.test.ts under load).
 */
function replaceInHeldFolder(held: HeldFolder, base: string, data: string | Buffer, durable: boolean): void {
  writeAndRename(held.through + path.basename(tempNameFor(base)), held.through + base, data, durable);
  if (!durable) return;
  try {
    fs.fsyncSync(held.fd);
  } catch {
    // best effort, as syncDir
  }
}

function replaceByName(real: string, data: string | Buffer, durable: boolean): void {
  const tmp = tempNameFor(real);
  writeAndRename(tmp, real, data, durable, (fd) => landedWhereMeant(fd, tmp));
  if (durable) syncDir(path.dirname(real));
}

/**
 * `data` into the new file `tmp` (created exclusively, with `target`'s mode), then renamed over
 * `target`; `check` judges the new file before a byte is written. The temp file never outlives a failure.
 */
function writeAndRename(tmp: string, target: string, data: string | Buffer, durable: boolean, check?: (fd: number) => void): void {
  let mode = 0o644;
  try {
    mode = fs.lstatSync(target).mode & 0o777;
  } catch {
    // new file
  }
  const fd = fs.openSync(tmp, CREATE_FLAGS, mode);
  try {
    check?.(fd);
    fs.writeFileSync(fd, data);
    if (durable) fs.fsyncSync(fd);
    fs.renameSync(tmp, target);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    throw error;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A second name `to` for the file `from`, both in the folder `dir` (a real path): link(2) by name
 * looks up the two names' folders one after the other, as rename(2) does, so on Linux both are
 * reached through the folder held open and checked to be `dir`. Throws as link(2) does (EEXIST, …).
 */
export function linkInFolder(dir: string, from: string, to: string): void {
  const held = holdFolderToWrite(dir, 'wrote to it');
  if (held === null) {
    fs.linkSync(path.join(dir, from), path.join(dir, to));
    return;
  }
  try {
    fs.linkSync(held.through + from, held.through + to);
  } finally {
    fs.closeSync(held.fd);
  }
}

/** Makes a rename durable; not every platform can open a folder, which is fine. */
export function syncDir(dir: string): void {
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

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Temp files a killed writer left behind; harmless (the target was never touched), but untidy. */
export function removeStaleTemps(dir: string, base: string): void {
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
