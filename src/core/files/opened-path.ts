// Where an open descriptor really is. Judging a path and then opening it leaves a gap: a folder on
// the way can be swapped for a link in between, and the open follows it. Asking the descriptor
// afterwards closes that gap: on Linux /proc names the file that was opened; elsewhere the name's
// real path must be the very file the descriptor holds (same device and inode).
import * as fs from 'node:fs';

/** Whether /proc/self/fd answers (unknown until first asked). */
let procFd: boolean | undefined;

/**
 * A name that opens again what `fd` opened, wherever it is now (`/proc/self/fd/N`), once
 * pathOfOpened has found that /proc answers; null elsewhere.
 */
export function reopenName(fd: number): string | null {
  return procFd === true ? '/proc/self/fd/' + fd : null;
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
