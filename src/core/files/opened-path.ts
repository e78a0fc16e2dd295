// Where an open descriptor really is. Judging a path and then opening it leaves a gap: a folder on
// the way can be swapped for a link in between, and the open follows it. Asking the descriptor
// afterwards closes that gap: on Linux /proc names the file that was opened; elsewhere the name's
// real path must be the very file the descriptor holds (same device and inode).
import * as fs from 'node:fs';

/** Whether /proc/self/fd answers (unknown until first asked). */
let procFd: boolean | undefined;

/**
 * This process's folder in /proc, by the number /proc itself gives it (`/proc/self` read once):
 * one link fewer to follow for each of the thousands of files a derive opens through a folder.
 * Not `process.pid`: in a PID namespace that mounted no /proc of its own, that number is another
 * process's there, and names through it reached that process's descriptors.
 */
let procSelf: string | undefined;

function ownProcFolder(): string {
  if (procSelf === undefined) {
    try {
      procSelf = '/proc/' + fs.readlinkSync('/proc/self');
    } catch {
      procSelf = '/proc/self';
    }
  }
  return procSelf;
}

/**
 * A name that opens again what `fd` opened, wherever it is now (`/proc/<pid>/fd/N`), once
 * pathOfOpened has found that /proc answers; null elsewhere.
 */
export function reopenName(fd: number): string | null {
  return procFd === true ? `${ownProcFolder()}/fd/${fd}` : null;
}

/**
 * The real path of what `fd` opened (`named` is the name it was opened by), or null when that cannot
 * be told: the caller then refuses.
 */
export function pathOfOpened(fd: number, named: string): string | null {
  if (procFd !== false) {
    try {
      const where = fs.readlinkSync('/proc/self/fd/' + fd);
      procFd = true;
      return where;
    } catch {
      if (procFd === true) return null;
      procFd = false;
    }
  }
  try {
    const real = fs.realpathSync.native(named);
    const opened = fs.fstatSync(fd, { bigint: true });
    const there = fs.statSync(real, { bigint: true });
    return opened.dev === there.dev && opened.ino === there.ino ? real : null;
  } catch {
    return null;
  }
}

/** A folder held open, so the files in it are reached through the descriptor, not through any path. */
export interface HeldFolder {
  fd: number;
  /** Its real path when it was opened. */
  real: string;
  /** `/proc/<pid>/fd/D/`: the kernel resolves a name after it from the folder held. */
  through: string;
}

const FOLDER_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_DIRECTORY ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

/**
 * Opens the folder `dir` to work inside it by descriptor. Null when /proc does not answer (the
 * caller then goes by name); throws as the open does (ENOENT, ENOTDIR, …).
 */
export function holdFolder(dir: string): HeldFolder | null {
  const fd = fs.openSync(dir, FOLDER_FLAGS);
  const real = pathOfOpened(fd, dir);
  const name = reopenName(fd);
  if (real === null || name === null) {
    fs.closeSync(fd);
    return null;
  }
  return { fd, real, through: name + '/' };
}

/**
 * The folder `dir` (a real path) held open to write in it, on Linux; null elsewhere (the caller goes
 * by name). Throws when what was opened is not `dir` (a folder on the way swapped for a link), as
 * the open does otherwise; `doing` names the write in that message.
 */
export function holdFolderToWrite(dir: string, doing: string): HeldFolder | null {
  const held = process.platform === 'linux' ? holdFolder(dir) : null;
  if (held !== null && held.real !== dir) {
    fs.closeSync(held.fd);
    throw new Error(`${dir} changed while we ${doing} (it is now ${held.real}); nothing was written`);
  }
  return held;
}

/** Where a held folder is now (null when that cannot be told). */
export function whereHeldIs(held: HeldFolder): string | null {
  try {
    return fs.readlinkSync(held.through.slice(0, -1));
  } catch {
    return null;
  }
}
