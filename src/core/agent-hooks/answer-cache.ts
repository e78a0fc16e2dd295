// Answers the bridge can give again without deriving anything: a host waits for every hook process,
// and most events find nothing new (no review due, the same context as a moment ago). The full
// bridge records, for an answer that wrote nothing, every file it read or listed with its size and
// modification time (and the files it looked for and did not find); the small hook entry
// (src/hook-entry.ts) gives the same answer while all of them are unchanged, and runs the full
// bridge otherwise. A file changed within a second of the recording is not trusted (its time may
// not show a second change), and user hook code (which may read anything) turns caching off.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { replaceAtomically } from '../files/atomic-write';
import { readBoundedText } from '../files/bounded-read';
import { confinedDir, openConfined } from '../files/confine';
import type { GsdStore } from '../files/gsd-store';
import { runtimeDir } from '../files/runtime-folder';
import { userSecret } from '../files/user-secret';
import { AGENT_EVENTS, type HookEvent } from '../hooks/lifecycle/agent-events';
import { classifyToolCall } from '../hooks/lifecycle/edit-tools';

/** One small file per key, so a lookup reads and parses only its own entry. */
export const ANSWER_CACHE_DIR = 'hook-answers';
const VERSION = 2;
const MAX_ENTRIES = 64;
/** Modification times this close to the recording may hide a second change in the same tick. */
const RACY_MS = 1000;

/** [path, mtimeMs, size] of a file read; [path, -1, -1] for one looked for and missing. */
type FileStamp = [string, number, number];

export interface CachedAnswer {
  stamps: FileStamp[];
  /** The JSON printed (null: nothing). */
  output: Record<string, unknown> | null;
  /** The hook log's summary of it. */
  answer: string;
  at: number;
}

interface CacheFile extends CachedAnswer {
  version: number;
}

function stampOf(p: string): FileStamp {
  try {
    // No exception for a missing file: many stamps are files looked for and not found.
    const s = fs.statSync(p, { throwIfNoEntry: false });
    return s ? [p, s.mtimeMs, s.isDirectory() ? 0 : s.size] : [p, -1, -1];
  } catch {
    return [p, -1, -1];
  }
}

/** FNV-1a: a short, dependency-free key for long tool inputs. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

/**
 * The cache key of an invocation, or null when its event is never answered from the cache. A tool
 * call that edits nothing gets one key whatever its input: no built-in hook looks at such a call
 * (so a reviewer's reads and searches are answered at once), and with user hooks nothing is cached.
 */
export function answerKey(event: string, raw: Record<string, unknown>, context: string): string | null {
  if (!Object.hasOwn(AGENT_EVENTS, event)) return null;
  let fields: readonly string[] | null = AGENT_EVENTS[event as HookEvent].cacheKey;
  if (!fields) return null;
  if (event === 'PreToolUse' || event === 'PostToolUse') {
    const name = typeof raw.tool_name === 'string' ? raw.tool_name : typeof raw.toolName === 'string' ? raw.toolName : '';
    const input = raw.tool_input ?? raw.toolInput;
    if (classifyToolCall(name, input && typeof input === 'object' ? (input as Record<string, unknown>) : {}).kind === 'other') fields = [];
  }
  const parts = fields.map((f) => (raw[f] === undefined ? '' : JSON.stringify(raw[f])));
  return `${event}-${hash(`${context}\u0000${parts.join('\u0000')}`)}`;
}

export function cacheFile(gsdDir: string, key: string): string {
  return path.join(runtimeDir(gsdDir), ANSWER_CACHE_DIR, `${key}.json`);
}

/** An entry is one small JSON object; anything larger was not written by us. */
const MAX_ENTRY_BYTES = 256 * 1024;

function readEntry(file: string): CacheFile | null {
  try {
    // Confined and bounded like every read: a planted link (to a FIFO, /dev/zero, a file outside
    // .gsd) is no answer.
    const text = readBoundedText(file, MAX_ENTRY_BYTES, openConfined);
    if (text === null) return null;
    const data = JSON.parse(text) as CacheFile;
    return data && data.version === VERSION && Array.isArray(data.stamps) ? data : null;
  } catch {
    return null; // missing or half-written: no answer
  }
}

/** The cached answer, if every file it rested on is as it was. */
export function lookupAnswer(gsdDir: string, key: string): CachedAnswer | null {
  const entry = readEntry(cacheFile(gsdDir, key));
  if (!entry) return null;
  for (const [p, mtime, size] of entry.stamps) {
    const now = stampOf(p);
    if (now[1] !== mtime || now[2] !== size) return null;
  }
  return entry;
}

export function storeAnswer(gsdDir: string, key: string, paths: Iterable<string>, output: Record<string, unknown> | null, answer: string): void {
  try {
    // Our own folder first (confined: a runtime folder linked out of .gsd is refused): creating it
    // changes its parent's time, which the stamps must include.
    const dir = confinedDir(gsdDir, path.relative(gsdDir, path.join(runtimeDir(gsdDir), ANSWER_CACHE_DIR)));
    const at = Date.now();
    const stamps = [...new Set(paths)].map(stampOf);
    if (stamps.some(([, mtime]) => mtime > at - RACY_MS)) return;
    // A random temp name created exclusively, renamed over the real path: nothing planted is written through.
    replaceAtomically(path.join(dir, `${key}.json`), JSON.stringify({ version: VERSION, stamps, output, answer, at } satisfies CacheFile), false);
    prune(dir);
  } catch {
    // a read-only or hostile .gsd only loses the speed-up
  }
}

/** Keeps the newest entries (keys of old sessions and tool inputs pile up otherwise). */
function prune(dir: string): void {
  const names = fs.readdirSync(dir).filter((n) => n.endsWith('.json'));
  if (names.length <= MAX_ENTRIES) return;
  const aged = names.map((n) => ({ n, t: fs.statSync(path.join(dir, n), { throwIfNoEntry: false })?.mtimeMs ?? 0 })).sort((a, b) => a.t - b.t);
  for (const { n } of aged.slice(0, names.length - MAX_ENTRIES)) fs.rmSync(path.join(dir, n), { force: true });
}

/**
 * A store that notes every path read or listed; any other use (a write, or a method added later)
 * marks the invocation as not cacheable.
 */
export function recordingStore(inner: GsdStore): { store: GsdStore; paths: Set<string>; uncacheable: () => boolean } {
  const paths = new Set<string>();
  let other = false;
  const store = new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (prop === 'readText' || prop === 'list') {
        return (p: string, ...rest: unknown[]) => {
          paths.add(p);
          return (value as (...a: unknown[]) => unknown).call(target, p, ...rest);
        };
      }
      // Only a way of reading: the reads it runs come through readText and list above.
      if (prop === 'readingInFolderBatches') return value.bind(target);
      return (...args: unknown[]) => {
        other = true;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store, paths, uncacheable: () => other };
}

/**
 * The user's secret (core/user-secret.ts) is mixed into every cache key: a repository could otherwise
 * commit a cache entry under a key it can compute and so put its own answer (a PreToolUse "allow",
 * context for the model) in our mouth. Without it nothing is cached.
 */
export const cacheSecret = userSecret;

/** What of the command line an answer depends on (the same string in both entries); null: do not cache. */
export function hookCacheContext(root: string | undefined, untrusted: boolean): string | null {
  const key = cacheSecret();
  return key === null ? null : `root=${root ?? ''};untrusted=${untrusted ? 1 : 0};key=${key}`;
}

/** The payload the small entry already read from stdin, handed to the full CLI. */
export const HOOK_PAYLOAD = Symbol.for('gsd-review-loop.hookPayload');
