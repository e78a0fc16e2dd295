// Every agent-hook invocation, one JSON line each, in `.gsd/gsd-review-loop/hooks.jsonl`,
// for the review panel's "Recent hook events". Kept small: past 256 KB the older half goes.
// The bridge runs on every agent step of whoever opens a repository, so the log is confined like
// everything else: never appended through a link (nor into a folder swapped for one), never rotated
// through a predictable temp name.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { replaceAtomically } from '../files/atomic-write';
import { readBoundedBytes } from '../files/bounded-read';
import { confine, confinedDir, confineFolder, openConfinedForAppend } from '../files/confine';
import { ensureRuntimeDir, runtimeDir } from '../files/runtime-folder';

export interface HookLogEntry {
  at: string;
  event: string;
  sessionId: string;
  /** What the bridge answered: none, context, deny: …, block: …, message: …, error. */
  answer: string;
  ms: number;
  error?: string;
  notes?: string[];
}

const MAX_BYTES = 256 * 1024;
/** The panel shows the last few events: reading the log's tail is enough, whatever its size. */
const READ_TAIL_BYTES = 64 * 1024;

export function hookLogFile(gsdDir: string): string {
  return path.join(runtimeDir(gsdDir), 'hooks.jsonl');
}

/**
 * The log opened for appending when everything is as our last run left it: the runtime folder's
 * real path inside the real `.gsd`, its `.gitignore` there, and the log a plain file (no link).
 * Null otherwise, for the full path below to create, refuse or report. An agent event appends one
 * line; resolving and creating the folders again on each cost more than the cached answer itself.
 */
function openAsLeft(gsdDir: string): { fd: number; file: string } | null {
  try {
    const dir = confineFolder(runtimeDir(gsdDir));
    if (!fs.existsSync(path.join(dir, '.gitignore'))) return null;
    const file = path.join(dir, 'hooks.jsonl');
    return { fd: openConfinedForAppend(gsdDir, file), file };
  } catch {
    return null;
  }
}

/** Appends to the open log; its size before, or a reason when it is not a regular file. Closes it. */
function appendTo(fd: number, file: string, entry: HookLogEntry, unless?: (size: number) => boolean): number | string {
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return `${file} is not a regular file; hook event not logged`;
    if (unless?.(stat.size)) return 'skipped';
    fs.writeSync(fd, JSON.stringify(entry) + '\n');
    return stat.size;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The small hook entry's append (dist/hook.js): true when the line was written to the log as our
 * last run left it, needing no rotation. False, with nothing written, sends the event to the full
 * bridge, which logs it with appendHookLog. Kept apart so that entry does not carry the lock library.
 */
export function appendHookLogAsLeft(gsdDir: string, entry: HookLogEntry): boolean {
  try {
    const opened = openAsLeft(gsdDir);
    return opened !== null && typeof appendTo(opened.fd, opened.file, entry, (size) => size > MAX_BYTES) === 'number';
  } catch {
    return false;
  }
}

/** Best effort: the log must never make a hook fail. Returns why nothing was logged, if so. */
export function appendHookLog(gsdDir: string, entry: HookLogEntry): string | null {
  try {
    let opened = openAsLeft(gsdDir);
    if (opened === null) {
      ensureRuntimeDir(gsdDir);
      const dir = confinedDir(gsdDir, path.relative(gsdDir, runtimeDir(gsdDir)));
      const file = confine(gsdDir, path.join(dir, 'hooks.jsonl'));
      // A link planted at the log's name fails here instead of being written through, and so does
      // a folder swapped for a link since it was judged (what was opened is checked).
      opened = { fd: openConfinedForAppend(gsdDir, file), file };
    }
    const size = appendTo(opened.fd, opened.file, entry);
    if (typeof size === 'string') return size;
    if (size > MAX_BYTES) rotate(gsdDir, opened.file);
    return null;
  } catch (error) {
    // a full disk, a read-only or hostile .gsd must not block the agent
    return `hook event not logged: ${(error as Error).message}`;
  }
}

/** Keeps the newer half; under the write lock so two rotations cannot lose each other's lines. */
function rotate(gsdDir: string, file: string): void {
  // Loaded here, not at the top: the small hook entry (dist/hook.js) appends on every agent event and
  // rotates rarely, so it need not carry the lock and the confinement it brings.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { withGsdLock } = require('../files/gsd-lock') as typeof import('../files/gsd-lock');
  withGsdLock(gsdDir, () => {
    const bytes = readBoundedBytes(file, MAX_BYTES, true);
    if (!bytes || bytes.length < MAX_BYTES) return;
    const lines = bytes.toString('utf8').trimEnd().split('\n');
    // The first line of a tail may be cut; the older half goes anyway.
    replaceAtomically(file, lines.slice(Math.floor(lines.length / 2)).join('\n') + '\n');
  });
}

export function readHookLog(gsdDir: string, limit = 20): HookLogEntry[] {
  try {
    const bytes = readBoundedBytes(confine(gsdDir, hookLogFile(gsdDir)), READ_TAIL_BYTES, true);
    if (!bytes) return [];
    const lines = bytes.toString('utf8').trimEnd().split('\n');
    const out: HookLogEntry[] = [];
    for (const line of lines.slice(-limit).reverse()) {
      try {
        out.push(JSON.parse(line) as HookLogEntry);
      } catch {
        // a half-written line from a killed process, or the cut first line of the tail
      }
    }
    return out;
  } catch {
    return [];
  }
}
