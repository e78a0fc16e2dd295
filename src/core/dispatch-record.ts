// What was dispatched, kept in `.gsd/runtime/gsd-review-loop/dispatch.json`: the unit in flight
// (for `complete`) and recent history (for the loop guard and the panel).
import * as path from 'node:path';
import type { GsdStore } from './gsd-store';
import { ensureRuntimeDir, runtimeDir } from './runtime-folder';
import type { DispatchDecision } from './middleware';
import type { Diagnostic } from './types';

export interface DispatchRecord extends DispatchDecision {
  dispatchedAt: string;
  /** Hash of what the decision rested on; equal fingerprints mean nothing relevant changed on disk. */
  fingerprint: string;
  completedAt?: string;
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

export function readDispatchLog(store: GsdStore, gsdDir: string): { log: DispatchLog; text: string | null; diagnostics: Diagnostic[] } {
  const file = dispatchLogFile(gsdDir);
  const text = store.readText(file);
  if (text === null) return { log: { current: null, history: [] }, text, diagnostics: [] };
  try {
    const parsed = JSON.parse(text) as Partial<DispatchLog>;
    return {
      log: { current: parsed.current ?? null, history: Array.isArray(parsed.history) ? parsed.history : [] },
      text,
      diagnostics: [],
    };
  } catch (error) {
    return {
      log: { current: null, history: [] },
      text,
      diagnostics: [{ file, severity: 'warning', message: `dispatch record is not valid JSON (${(error as Error).message}); starting a new one` }],
    };
  }
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

/** True when the last LOOP_LIMIT dispatches were this unit with this same fingerprint. */
export function isLooping(log: DispatchLog, decision: Pick<DispatchDecision, 'unitType' | 'unitId'>, fingerprint: string): boolean {
  const recent = log.history.slice(-LOOP_LIMIT);
  return recent.length === LOOP_LIMIT && recent.every((r) => r.unitType === decision.unitType && r.unitId === decision.unitId && r.fingerprint === fingerprint);
}

export function writeDispatchLog(store: GsdStore, gsdDir: string, log: DispatchLog, previousText: string | null): void {
  ensureRuntimeDir(gsdDir);
  const result = store.writeIfUnchanged(dispatchLogFile(gsdDir), JSON.stringify(log, null, 2) + '\n', previousText);
  if (result === 'conflict') throw new Error('another dispatch recorded a unit at the same time; run it again');
}
