// The user's home folder, and node:os for the rest, without loading node:os at every start: that was
// about 0.2 ms of each `gsd-review` process, and most of them need only the home folder.
import type * as NodeOs from 'node:os';

let os: typeof NodeOs | undefined;

/** node:os, loaded on first use. */
export function nodeOs(): typeof NodeOs {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (os ??= require('node:os') as typeof NodeOs);
}

/**
 * What os.homedir() answers: libuv takes HOME (USERPROFILE on Windows) as it is when it is set, and
 * asks the system only when it is not.
 */
export function userHome(): string {
  const fromEnv = process.env[process.platform === 'win32' ? 'USERPROFILE' : 'HOME'];
  return fromEnv !== undefined ? fromEnv : nodeOs().homedir();
}
