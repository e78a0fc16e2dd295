// What was dispatched, kept in `.gsd/gsd-review-loop/dispatch.json`: the unit in flight
// (for `complete`) and recent history (for the loop guard and the panel).
import * as path from 'node:path';
import * as v from 'valibot';
import type { GsdStore } from '../files/gsd-store';
import { runtimeDir } from '../files/runtime-folder';
import type { AlsoWrite } from '../hooks/engine/hook-state';
import type { DispatchDecision } from '../hooks/engine/middleware-types';
import type { Diagnostic } from '../model/types';

export interface DispatchRecord extends DispatchDecision {
  dispatchedAt: string;
  /** Hash of what the decision rested on; equal fingerprints mean nothing relevant changed on disk. */
  fingerprint: string;
  completedAt?: string;
  /** Set when the user cancelled the unit: it is no longer in flight, and nothing completed it. */
  cancelledAt?: string;
}

export interface DispatchLog {
  current: DispatchRecord | null;
  history: DispatchRecord[];
}

const HISTORY_LIMIT = 50;
/** The same unit decided this many times in a row with nothing changed is a loop. */
export const LOOP_LIMIT = 3;

export { runtimeDir };

export function dispatchLogFile(gsdDir: string): string {
  return path.join(runtimeDir(gsdDir), 'dispatch.json');
}

/**
 * A change detector, not a security hash: 64-bit FNV-1a over the JSON. (node:crypto would add ~3 ms
 * to every start of the CLI, which runs on every agent event.)
 */
export function fingerprintOf(value: unknown): string {
  const text = JSON.stringify(value) ?? '';
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
  }
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}

// The record is read back from a file anyone can edit: each record is checked before use, and one
// that does not fit is left out with a diagnostic naming the key (the rest of the record still counts).
const RecordSchema = v.looseObject({
  unitType: v.string(),
  unitId: v.string(),
  source: v.string(),
  prompt: v.string(),
  reason: v.optional(v.string()),
  data: v.optional(v.record(v.string(), v.unknown())),
  dispatchedAt: v.string(),
  fingerprint: v.string(),
  completedAt: v.optional(v.string()),
  cancelledAt: v.optional(v.string()),
});

function checkedRecord(value: unknown, key: string, file: string, diagnostics: Diagnostic[]): DispatchRecord | null {
  const r = v.safeParse(RecordSchema, value);
  if (r.success) return r.output as DispatchRecord;
  const first = r.issues[0];
  const sub = v.getDotPath(first);
  diagnostics.push({ file, severity: 'warning', message: `dispatch record: ${sub ? `${key}.${sub}` : key} is not understood (${first.message}); that record is left out` });
  return null;
}

export function parseDispatchLog(text: string | null, file: string): { log: DispatchLog; diagnostics: Diagnostic[] } {
  if (text === null) return { log: { current: null, history: [] }, diagnostics: [] };
  try {
    const parsed = JSON.parse(text) as unknown;
    const diagnostics: Diagnostic[] = [];
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      diagnostics.push({ file, severity: 'warning', message: 'dispatch record is not a JSON object; starting a new one' });
      return { log: { current: null, history: [] }, diagnostics };
    }
    const raw = parsed as Record<string, unknown>;
    const current = raw.current === undefined || raw.current === null ? null : checkedRecord(raw.current, 'current', file, diagnostics);
    const history: DispatchRecord[] = [];
    if (Array.isArray(raw.history)) {
      raw.history.forEach((item, i) => {
        const r = checkedRecord(item, `history[${i}]`, file, diagnostics);
        if (r) history.push(r);
      });
    } else if (raw.history !== undefined) {
      diagnostics.push({ file, severity: 'warning', message: 'dispatch record: history is not a list; it is left out' });
    }
    return { log: { current, history }, diagnostics };
  } catch (error) {
    return {
      log: { current: null, history: [] },
      diagnostics: [{ file, severity: 'warning', message: `dispatch record is not valid JSON (${(error as Error).message}); starting a new one` }],
    };
  }
}

export function readDispatchLog(store: GsdStore, gsdDir: string): { log: DispatchLog; text: string | null; diagnostics: Diagnostic[] } {
  const file = dispatchLogFile(gsdDir);
  const text = store.readText(file);
  return { text, ...parseDispatchLog(text, file) };
}

function serialize(log: DispatchLog): string {
  return JSON.stringify(log, null, 2) + '\n';
}

/** The record's new text with `record` dispatched, applied to its text as it is at commit time. */
export function appendDispatch(gsdDir: string, record: DispatchRecord): AlsoWrite {
  const file = dispatchLogFile(gsdDir);
  return { file, update: (text) => serialize(withDispatch(parseDispatchLog(text, file).log, record)) };
}

/**
 * The record's new text with `done` (a dispatch read earlier) completed, applied at commit time: a
 * dispatch recorded meanwhile by another process is kept; a second completion of the same unit is
 * refused (the whole commit with it).
 */
export function appendCompletion(gsdDir: string, done: DispatchRecord, completedAt: string): AlsoWrite {
  const file = dispatchLogFile(gsdDir);
  return {
    file,
    update: (text) => {
      const { log } = parseDispatchLog(text, file);
      const same = (r: DispatchRecord | null) => !!r && r.dispatchedAt === done.dispatchedAt && r.unitId === done.unitId && r.unitType === done.unitType;
      const inHistory = log.history.find(same);
      if ((inHistory ?? (same(log.current) ? log.current : null))?.completedAt) {
        throw new AlreadyCompletedError(`${done.unitType} ${done.unitId} was completed by another process meanwhile; nothing was written`);
      }
      if (same(log.current)) return serialize(withCompletion(log, completedAt));
      // Another dispatch became current meanwhile: complete ours in the history, keep theirs current.
      const history = log.history.map((r) => (same(r) ? { ...r, completedAt } : r));
      return serialize({ current: log.current, history });
    },
  };
}

export class AlreadyCompletedError extends Error {}

/**
 * The record's new text with `unit` (the unit in flight, read earlier) cancelled, applied at commit
 * time: it stays in the history with `cancelledAt` and is no longer current. A unit completed or
 * replaced meanwhile is left as it is (the commit is refused).
 */
export function appendCancellation(gsdDir: string, unit: DispatchRecord, cancelledAt: string): AlsoWrite {
  const file = dispatchLogFile(gsdDir);
  return {
    file,
    update: (text) => {
      const { log } = parseDispatchLog(text, file);
      const c = log.current;
      if (!c || c.dispatchedAt !== unit.dispatchedAt || c.unitId !== unit.unitId || c.unitType !== unit.unitType || c.completedAt) {
        throw new AlreadyCompletedError(`${unit.unitType} ${unit.unitId} is no longer in flight; nothing was cancelled`);
      }
      const history = log.history.map((r) => (r.dispatchedAt === c.dispatchedAt && r.unitId === c.unitId ? { ...r, cancelledAt } : r));
      return serialize({ current: null, history });
    },
  };
}

export function withDispatch(log: DispatchLog, record: DispatchRecord): DispatchLog {
  return { current: record, history: [...log.history, record].slice(-HISTORY_LIMIT) };
}

export function withCompletion(log: DispatchLog, completedAt: string): DispatchLog {
  if (!log.current) return log;
  const done = { ...log.current, completedAt };
  const history = log.history.map((r) => (r.dispatchedAt === done.dispatchedAt && r.unitId === done.unitId ? done : r));
  return { current: done, history };
}

/** True when the last LOOP_LIMIT dispatches were this unit with this same fingerprint (asked for only then). */
export function isLooping(log: DispatchLog, decision: Pick<DispatchDecision, 'unitType' | 'unitId'>, fingerprint: () => string): boolean {
  const recent = log.history.slice(-LOOP_LIMIT);
  // The state's fingerprint only when the unit repeats: most decisions never need it.
  return recent.length === LOOP_LIMIT && recent.every((r) => r.unitType === decision.unitType && r.unitId === decision.unitId) && recent.every((r) => r.fingerprint === fingerprint());
}
