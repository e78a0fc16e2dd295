// The project's write lock: every compare-and-swap and every multi-file commit of ours runs while
// holding it, so "read, compare, write, rename" is one step for all our processes (CLI, hook bridge,
// extension). A lock left by a killed process goes stale and is taken over (proper-lockfile: a
// directory created atomically with mkdir, its mtime refreshed while held).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as LockfileModule from 'proper-lockfile';
import { processAlive } from './atomic-write';
import { readBoundedText } from './bounded-read';
import { confinedDir } from './confine';
import { ensureRuntimeDir, RUNTIME_FOLDER } from './runtime-folder';

/** A lock whose holder has not refreshed it for this long is taken over (a killed writer). */
export const LOCK_STALE_MS = 5_000;
/** How long a writer waits for the lock before giving up (longer than a stale lock lives). */
export const LOCK_WAIT_MS = 12_000;

export class LockBusyError extends Error {}

// Loaded on the first write only: the CLI mostly reads, and starts on every agent event.
let lockfile: typeof LockfileModule | undefined;
function lockLibrary(): typeof LockfileModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (lockfile ??= require('proper-lockfile') as typeof LockfileModule);
}

/**
 * The lock's stale check looks at the lock itself, never through a link a repository planted. Made on
 * the first lock: spreading `fs` runs its lazy getters (ReadStream & co., ~3 ms of every CLI start).
 */
let noFollowFs: typeof fs | undefined;
const noFollow = (): typeof fs => (noFollowFs ??= { ...fs, stat: fs.lstat, statSync: fs.lstatSync });

const held = new Map<string, number>();
const sleeper = new Int32Array(new SharedArrayBuffer(4));

export function lockPath(gsdDir: string): string {
  // Every write of ours takes the lock first, so this is where our folder gets its `.gitignore`.
  ensureRuntimeDir(gsdDir);
  return path.join(confinedDir(gsdDir, RUNTIME_FOLDER), 'commit.lock');
}

function tryLock(lock: string): (() => void) | null {
  try {
    return lockLibrary().lockSync(lock, {
      lockfilePath: lock,
      realpath: false,
      stale: LOCK_STALE_MS,
      fs: noFollow(),
      // A lock we lost (our process stalled past the stale time) must not crash the host.
      onCompromised: () => undefined,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOCKED') return null;
    if (code === 'ENOTDIR' || code === 'ENOTEMPTY' || code === 'EEXIST') {
      // Something that is not our lock directory sits at the lock's name (a planted file or link):
      // remove that entry itself (never what a link points at) and try again.
      const stat = fs.lstatSync(lock, { throwIfNoEntry: false });
      if (stat && !stat.isDirectory()) fs.unlinkSync(lock);
      return null;
    }
    throw error;
  }
}

interface Owner {
  pid: number;
  host: string;
  /** The lock folder's inode: ties this record to one taking of the lock. */
  ino: number;
}

function ownerFile(lock: string): string {
  return `${lock}.owner`;
}

const OWNER_FLAGS = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

/**
 * Says who holds the lock, so a lock whose holder was killed need not wait out the stale time.
 * Written in place (a rename costs milliseconds on every write): a reader that catches it half
 * written simply waits for the stale time, as without a record.
 */
function recordOwner(lock: string): void {
  try {
    const owner: Owner = { pid: process.pid, host: os.hostname(), ino: fs.lstatSync(lock).ino };
    const fd = fs.openSync(ownerFile(lock), OWNER_FLAGS, 0o644);
    try {
      if (fs.fstatSync(fd).isFile()) fs.writeSync(fd, JSON.stringify(owner));
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // without a record the lock still goes stale by time
  }
}

/**
 * A lock held by a process of this machine that no longer exists is marked stale at once (its time
 * set back), and the library's own stale takeover then removes it.
 */
function expireIfOwnerDead(lock: string): void {
  try {
    const stat = fs.lstatSync(lock);
    const owner = JSON.parse(readBoundedText(ownerFile(lock), 4096) ?? 'null') as Owner | null;
    if (!owner || owner.ino !== stat.ino || owner.host !== os.hostname() || !Number.isInteger(owner.pid) || processAlive(owner.pid)) return;
    const past = new Date(Date.now() - 2 * LOCK_STALE_MS);
    fs.utimesSync(lock, past, past);
  } catch {
    // no record, or the lock went away meanwhile: wait as usual
  }
}

/**
 * A lock folder no process of ours made, planted by a repository: proper-lockfile's folder is empty
 * and its holder keeps its time at most "now". One holding entries (the only way git commits a
 * folder) could never be removed as stale, and one dated in the future never looks stale; either
 * way every write would wait and give up, for good. Its entries are removed (as names: a link in it
 * is never followed) and its time set back, so the library takes it over as stale.
 */
function expireIfPlanted(lock: string): void {
  try {
    const stat = fs.lstatSync(lock);
    if (!stat.isDirectory()) return;
    const entries = fs.readdirSync(lock);
    for (const name of entries) fs.rmSync(path.join(lock, name), { recursive: true, force: true });
    if (entries.length === 0 && stat.mtimeMs <= Date.now() + LOCK_STALE_MS) return;
    const past = new Date(Date.now() - 2 * LOCK_STALE_MS);
    fs.utimesSync(lock, past, past);
  } catch {
    // gone meanwhile, or not ours to change: wait as usual
  }
}

/**
 * Runs `fn` holding the project's write lock (re-entrant within this process). Waits up to
 * LOCK_WAIT_MS, taking over a stale lock; then gives up with LockBusyError, having written nothing.
 */
export function withGsdLock<T>(gsdDir: string, fn: () => T): T {
  const key = path.resolve(gsdDir);
  const depth = held.get(key) ?? 0;
  if (depth > 0) {
    held.set(key, depth + 1);
    try {
      return fn();
    } finally {
      held.set(key, depth);
    }
  }
  const lock = lockPath(gsdDir);
  const deadline = Date.now() + LOCK_WAIT_MS;
  let release = tryLock(lock);
  for (let pause = 1, tries = 1; !release; pause = Math.min(pause * 2, 4), tries++) {
    if (Date.now() > deadline) throw new LockBusyError(`another process has held the GSD write lock (${lock}) for over ${LOCK_WAIT_MS / 1000} s; nothing was written`);
    if (tries % 8 === 1) {
      expireIfPlanted(lock);
      expireIfOwnerDead(lock);
    }
    Atomics.wait(sleeper, 0, 0, pause + Math.random() * pause);
    release = tryLock(lock);
  }
  recordOwner(lock);
  held.set(key, 1);
  try {
    return fn();
  } finally {
    held.delete(key);
    try {
      // The record goes first: a record left beside a lock someone else takes next would name the
      // wrong holder (lock folders are often re-created with the same inode number).
      fs.rmSync(ownerFile(lock), { force: true });
      release();
    } catch {
      // already released or taken over as stale; nothing of ours to undo
    }
  }
}
