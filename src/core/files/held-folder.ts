// One folder held open by descriptor, so the files of a folder already judged inside `.gsd` open
// through it (`/proc/self/fd/<folder>/<name>`, the `openat` Node lacks): the lookup starts in that
// very folder, wherever it is named now, so a folder on the way swapped for a link cannot redirect
// it, and no per-file check of where the open landed is needed. Only a plain name is opened, and
// never through a link (O_NOFOLLOW). Linux only (where /proc names descriptors); elsewhere there is
// no held folder and every open is checked (opened-path.ts).
import * as fs from 'node:fs';
import { pathOfOpened, procNamesDescriptors } from './opened-path';

const DIRECTORY = (fs.constants.O_RDONLY ?? 0) | (fs.constants.O_DIRECTORY ?? 0) | (fs.constants.O_NOFOLLOW ?? 0);

export interface HeldFolder {
  real: string;
  fd: number;
  /** `/proc/self/fd/<fd>/`: prefix of the paths its files open by. */
  prefix: string;
}

let held: HeldFolder | null = null;
let closer: ReturnType<typeof setTimeout> | null = null;

/** Lets the held folder go (closed): a held descriptor keeps a folder busy (a mount cannot go). */
export function releaseFolder(): void {
  if (closer !== null) {
    clearTimeout(closer);
    closer = null;
  }
  if (held === null) return;
  const fd = held.fd;
  held = null;
  try {
    fs.closeSync(fd);
  } catch {
    // Already gone: nothing held.
  }
}

/**
 * `real` held open for `ms`, its files opened by `prefix` + name; null where descriptors are not
 * named by /proc, or when what opened is not `real` inside `.gsd` (then the caller checks each open
 * as before).
 */
export function holdFolder(real: string, isInside: (where: string) => boolean, ms: number): HeldFolder | null {
  if (held !== null && held.real === real) return held;
  releaseFolder();
  if (!procNamesDescriptors()) return null;
  let fd: number;
  try {
    fd = fs.openSync(real, DIRECTORY);
  } catch {
    return null;
  }
  const where = pathOfOpened(fd, real);
  if (where === null || where !== real || !isInside(where)) {
    fs.closeSync(fd);
    return null;
  }
  held = { real, fd, prefix: `/proc/self/fd/${fd}/` };
  // Not held past the moment its verdict is trusted, nor kept alive for it.
  closer = setTimeout(releaseFolder, ms);
  closer.unref?.();
  return held;
}

/**
 * Whether `folder` is still held: once released, its descriptor number may already name another
 * file, so it must not be opened through.
 */
export function stillHeld(folder: HeldFolder): boolean {
  return held === folder;
}
