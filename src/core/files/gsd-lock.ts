// The project's write lock: every compare-and-swap and every multi-file commit of ours runs while
// holding it, so "read, compare, write, rename" is one step for all our processes (CLI, hook bridge,
// extension).
//
// The lock is a folder, `write.lock`, holding exactly one entry that names its holder:
// `holder.<pid>.<host>.<time>.<random>`. It appears whole: a writer makes a private folder with its
// entry in it and renames that folder to the lock's name, which fails while a lock (a folder with an
// entry) is there. So there is never a lock without a holder's name in it, and reading that one name
// is all it takes to know who holds it.
//
// A lock whose holder is gone (a process of this machine that no longer runs, or a name older than
// LOCK_STALE_MS) is taken over by renaming its holder's entry to the taker's own, inside the lock.
// Renaming one name succeeds for one process only: of all the waiters that found the holder dead at
// the same moment, exactly one gets the lock, the others find the name gone and wait on. (The lock
// this replaces removed a stale lock and then re-created it, two steps every waiter ran at once: two
// of them could both end up holding it, and writes answered "written" were lost.)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { processAlive } from './atomic-write';
import { holdFolderToWrite } from './opened-path';
import { confinedDir } from './confine';
import { ensureRuntimeDir, RUNTIME_FOLDER } from './runtime-folder';
import { nodeOs } from './user-home';

/**
 * A holder name older than this is taken over even if its process id still runs (the id was reused,
 * or the holder hangs), and so is one from another machine (its process cannot be asked). Our
 * holders keep the lock for milliseconds.
 */
export const LOCK_STALE_MS = 10_000;
/** How long a writer waits for the lock before giving up (longer than a stale lock lives). */
export const LOCK_WAIT_MS = 12_000;

export const LOCK_NAME = 'write.lock';

export class LockBusyError extends Error {}

const held = new Map<string, number>();
const sleeper = new Int32Array(new SharedArrayBuffer(4));

export function lockPath(gsdDir: string): string {
  // Every write of ours takes the lock first, so this is where our folder gets its `.gitignore`.
  ensureRuntimeDir(gsdDir);
  return path.join(confinedDir(gsdDir, RUNTIME_FOLDER), LOCK_NAME);
}

/** This machine, as a short name-safe tag (FNV-1a of the host name). */
let hostTag: string | undefined;
function thisHost(): string {
  if (hostTag === undefined) {
    let h = 0x811c9dc5;
    for (const c of nodeOs().hostname()) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
    hostTag = h.toString(16).padStart(8, '0');
  }
  return hostTag;
}

function holderName(): string {
  return `holder.${process.pid}.${thisHost()}.${Date.now()}.${Math.random().toString(16).slice(2, 10)}`;
}

interface Holder {
  pid: number;
  host: string;
  at: number;
}

const HOLDER = /^holder\.(\d+)\.([0-9a-f]{8})\.(\d+)\.[0-9a-f]+$/;

function parseHolder(name: string): Holder | null {
  const m = HOLDER.exec(name);
  return m ? { pid: Number(m[1]), host: m[2], at: Number(m[3]) } : null;
}

/** The holder is gone: its process no longer runs on this machine, or its name is too old (or dated ahead). */
function holderGone(h: Holder, now: number): boolean {
  if (now - h.at > LOCK_STALE_MS || h.at - now > LOCK_STALE_MS) return true;
  return h.host === thisHost() && h.pid !== process.pid && !processAlive(h.pid);
}

/** A writer's own folder, renamed to the lock's name to take it: `write.lock.<pid>-<random>.new`. */
interface Candidate {
  dir: string;
  entry: string;
}

function newCandidate(lock: string): Candidate {
  const dir = `${lock}.${process.pid}-${Math.random().toString(16).slice(2, 10)}.new`;
  const entry = holderName();
  fs.mkdirSync(dir);
  try {
    fs.mkdirSync(path.join(dir, entry));
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, entry };
}

function dropCandidate(c: Candidate): void {
  fs.rmSync(c.dir, { recursive: true, force: true });
}

/** Candidate folders of writers killed while they waited (their process is gone). */
function tidyCandidates(lock: string): void {
  const dir = path.dirname(lock);
  const prefix = `${path.basename(lock)}.`;
  try {
    for (const name of fs.readdirSync(dir)) {
      if (!name.startsWith(prefix) || !name.endsWith('.new')) continue;
      const pid = Number(name.slice(prefix.length).split('-')[0]);
      if (Number.isInteger(pid) && pid !== process.pid && !processAlive(pid)) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
    }
  } catch {
    // tidying is best effort
  }
}

type Attempt = { taken: string } | 'busy' | 'again';

/** One try at the lock: the holder entry we now own, or busy (someone holds it), or again (retry at once). */
function tryLock(lock: string, c: Candidate): Attempt {
  try {
    fs.renameSync(c.dir, lock);
    return { taken: c.entry };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A lock is there (a non-empty folder; Windows refuses any folder there), or not a folder at all.
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'EPERM' && code !== 'EACCES' && code !== 'ENOTDIR' && code !== 'EISDIR') throw error;
    const stat = fs.lstatSync(lock, { throwIfNoEntry: false });
    if (!stat) {
      if (code === 'EPERM' || code === 'EACCES') throw error;
      return 'again';
    }
    if (!stat.isDirectory()) {
      // Something that is not a lock sits at its name (a planted file or link): remove that entry
      // itself (never what a link points at) and try again.
      fs.unlinkSync(lock);
      return 'again';
    }
    return inspect(lock);
  }
}

/** Looks at the lock folder someone else has: take it over if its holder is gone. */
function inspect(lock: string): Attempt {
  let names: string[];
  try {
    names = fs.readdirSync(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'again';
    throw error;
  }
  const holder = names.length === 1 ? parseHolder(names[0]) : null;
  if (holder) {
    if (!holderGone(holder, Date.now())) return 'busy';
    const mine = holderName();
    try {
      // The takeover: one rename of that one name, which only one process can make.
      fs.renameSync(path.join(lock, names[0]), path.join(lock, mine));
      return { taken: mine };
    } catch (error) {
      // Another waiter took it over first: it holds the lock now.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'busy';
      throw error;
    }
  }
  if (names.length > 0) {
    // Not a lock of ours: a folder a repository committed (git keeps only folders with files in
    // them). Its entries are removed by name (a link in it is never followed); a lock of ours that
    // replaces it meanwhile holds only its own holder's name, which is not among these.
    for (const name of names) fs.rmSync(path.join(lock, name), { recursive: true, force: true });
  }
  // An empty folder holds nothing (a holder releasing, or what was planted): remove it if it is
  // still empty, which rmdir alone decides.
  try {
    fs.rmdirSync(lock);
  } catch {
    // a lock was put in its place meanwhile, or it is gone already
  }
  return 'again';
}

function release(lock: string, entry: string): void {
  try {
    fs.rmdirSync(path.join(lock, entry));
    fs.rmdirSync(lock);
  } catch {
    // taken over (we stalled past LOCK_STALE_MS) or already taken by the next writer: nothing of ours to undo
  }
}

/**
 * Runs `fn` holding the project's write lock (re-entrant within this process). Waits up to
 * LOCK_WAIT_MS, taking over a lock whose holder is gone; then gives up with LockBusyError, having
 * written nothing.
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
  const named = lockPath(gsdDir);
  // The runtime folder held open for the lock's time, on Linux, and every name of the lock reached
  // through it (`/proc/<pid>/fd/D/write.lock`): by name, taking the lock renames our candidate folder
  // to the lock's name, and rename(2) looks up the two names' folders one after the other, so a
  // runtime folder swapped for a link in between moved our candidate out of `.gsd`
  // (confinement-swap-race.test.ts).
  const folder = holdFolderToWrite(path.dirname(named), 'took the write lock');
  try {
    return lockedIn(folder === null ? named : folder.through + LOCK_NAME, named, key, fn);
  } finally {
    if (folder !== null) fs.closeSync(folder.fd);
  }
}

/** withGsdLock's waiting and holding, with `lock` as the lock's names are reached and `named` as it is told. */
function lockedIn<T>(lock: string, named: string, key: string, fn: () => T): T {
  const deadline = Date.now() + LOCK_WAIT_MS;
  let candidate = newCandidate(lock);
  let entry: string | null = null;
  try {
    for (let pause = 1; ; ) {
      const attempt = tryLock(lock, candidate);
      if (typeof attempt === 'object') {
        entry = attempt.taken;
        break;
      }
      if (Date.now() > deadline) throw new LockBusyError(`another process has held the GSD write lock (${named}) for over ${LOCK_WAIT_MS / 1000} s; nothing was written`);
      if (attempt === 'again') continue;
      Atomics.wait(sleeper, 0, 0, pause + Math.random() * pause);
      pause = Math.min(pause * 2, 8);
      // A candidate whose name has aged is renewed, so a lock taken after a long wait is dated now.
      if (parseHolder(candidate.entry)!.at < Date.now() - 1000) {
        dropCandidate(candidate);
        candidate = newCandidate(lock);
      }
    }
  } finally {
    // Taken by a rename of our candidate (then it is the lock now), or by a takeover, or not at all.
    if (entry !== candidate.entry) dropCandidate(candidate);
  }
  tidyCandidates(lock);
  held.set(key, 1);
  try {
    return fn();
  } finally {
    held.delete(key);
    release(lock, entry);
  }
}
