// decideNextUnit: on the project's current state, run the middleware chain → the first hook decision,
// or GSD's default → loop guard → (with apply) commit the hooks' staged state and record the dispatch.
// completeDispatchedUnit: run the chain again with the finished unit's result, then commit.
// The state and the hooks come in a DispatchContext from the project engine (core/project), which
// keeps both between decisions; nothing here derives state or loads hooks.
import * as path from 'node:path';
import { UnreadableFileError } from '../files/bounded-read';
import { gsdRelative, OutsideGsdError } from '../files/confine';
import { defaultDecision } from './default-dispatch';
import { deepFreeze } from '../model/deep-freeze';
import { activeUnits } from '../model/find-unit';
import { personTurn } from '../model/person-turn';
import {
  dispatchLogFile,
  fingerprintOf,
  isLooping,
  LOOP_LIMIT,
  appendCancellation,
  appendCompletion,
  appendDispatch,
  readDispatchLog,
  type DispatchRecord,
} from './dispatch-record';
import type { LoadedHooks } from '../hooks/engine/hook-loader';
import { UnreadableHookStateError } from '../hooks/engine/hook-sidecar';
import { HookStateTransaction } from '../hooks/engine/hook-state';
import type { GsdStore } from '../files/gsd-store';
import { runMiddleware } from '../hooks/engine/middleware';
import type { ChainHost, ChainResult, DeepReadonly, DispatchDecision, HookLog, UnitResult } from '../hooks/engine/middleware-types';
import type { ProjectFiles } from '../state/project-files';
import type { Diagnostic, GSDState } from '../model/types';
import type { AfterDispatchOutcome, DispatchOutcome, HooksReport } from './dispatch-outcome';

export type { AfterDispatchOutcome, DispatchOutcome, HooksReport } from './dispatch-outcome';

export class NothingDispatchedError extends Error {}

const silentLog: HookLog = { info: () => undefined, warn: () => undefined };

const NO_CHAIN: ChainResult = { decision: null, trace: [], ignored: [] };

/**
 * What one decision runs on: the project's current state (frozen, with every hook's summary in
 * `extensions`), the loaded hooks, and the store and file cache the hooks' state goes through. The
 * long-lived project engine (core/project) builds it from state it already has; nothing here reads
 * the project's state from disk.
 */
export interface DispatchContext {
  gsdDir: string;
  store: GsdStore;
  files: ProjectFiles;
  state: DeepReadonly<GSDState>;
  hooks: LoadedHooks;
  diagnostics: Diagnostic[];
}

/** Per-call options of a decision (the project fixes the rest when it is opened). */
export interface DecisionOptions {
  /** Commit hook state and record the dispatch (otherwise nothing is written). */
  apply?: boolean;
  signal?: AbortSignal;
  log?: HookLog;
  now?: () => Date;
}

/** Each hook's view of its own per-unit state across the project, when it gives no summary of its own. */
function collectUnitState(state: GSDState, hook: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const m of state.milestones) {
    if (m.extensions[hook] !== undefined) out[m.id] = m.extensions[hook];
    for (const s of m.slices) {
      if (s.extensions[hook] !== undefined) out[`${m.id}/${s.id}`] = s.extensions[hook];
      for (const t of s.tasks) if (t.extensions[hook] !== undefined) out[`${m.id}/${s.id}/${t.id}`] = t.extensions[hook];
    }
  }
  return out;
}

/**
 * The state as the hooks see it: a copy of the top level with each hook's summary in `extensions`,
 * frozen (a hook cannot change what the next one, or the panel, reads). The registry below the top
 * level is shared with `state`, not copied.
 */
export function dispatchContext(
  base: { gsdDir: string; store: GsdStore; files: ProjectFiles },
  state: GSDState,
  hooks: LoadedHooks & { diagnostics: Diagnostic[] },
): DispatchContext {
  const view: GSDState = { ...state, extensions: { ...state.extensions }, diagnostics: [...state.diagnostics] };
  for (const reg of hooks.registry.ordered()) {
    view.extensions[reg.name] = reg.summarize ? reg.summarize(view as DeepReadonly<GSDState>) : collectUnitState(view, reg.name);
  }
  const diagnostics = [...view.diagnostics, ...hooks.diagnostics.filter((d) => !view.diagnostics.some((x) => x.file === d.file && x.message === d.message))];
  return { ...base, state: deepFreeze(view) as DeepReadonly<GSDState>, hooks, diagnostics };
}

/**
 * Resolves a path a hook gives relative to `.gsd`; null when it would leave the real `.gsd`, by `..`,
 * an absolute path or a symlink (see confine.ts).
 */
export function insideGsd(gsdDir: string, rel: string): string | null {
  return gsdRelative(gsdDir, rel);
}

/**
 * A file a hook or payload names relative to `.gsd`: its text, or null (missing, or refused with a
 * diagnostic when it leads out of `.gsd` or is not a small regular file).
 */
export function readConfined(gsdDir: string, store: GsdStore, rel: string, refuse: (message: string) => void): string | null {
  const abs = insideGsd(gsdDir, rel);
  if (!abs) {
    refuse(`${rel} leads outside .gsd; not read`);
    return null;
  }
  try {
    return store.readText(abs);
  } catch (error) {
    if (error instanceof UnreadableFileError || error instanceof OutsideGsdError) {
      refuse(error.message);
      return null;
    }
    // A folder (or anything else unreadable) where a hook expects a file: said, and read as missing.
    refuse(`cannot be read as a file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    return null;
  }
}

function commitNotes(gsdDir: string, notes: string[]): Diagnostic[] {
  return notes.map((message) => ({ file: gsdDir, severity: 'warning' as const, message }));
}

function chainHost(
  p: DispatchContext,
  tx: HookStateTransaction,
  phase: 'dispatch' | 'after',
  result: UnitResult | null,
  options: DecisionOptions,
  diagnostics: Diagnostic[],
): ChainHost {
  const log = options.log ?? silentLog;
  const handles = new Map<string, ReturnType<HookStateTransaction['handleFor']>>();
  return {
    state: p.state,
    phase,
    result,
    ...(options.signal ? { signal: options.signal } : {}),
    handleFor: (hook) => {
      let h = handles.get(hook);
      if (!h) handles.set(hook, (h = tx.handleFor(hook)));
      return h;
    },
    options: (hook) => p.hooks.options.get(hook) ?? {},
    readGsdFile: (rel) => readConfined(p.gsdDir, p.store, rel, (message) => diagnostics.push({ file: path.join(p.gsdDir, rel), severity: 'warning', message })),
    writeGsdFile: (hook, rel, text) => {
      const abs = insideGsd(p.gsdDir, rel);
      if (!abs) throw new Error(`hook ${hook} tried to write ${rel}, which leads outside .gsd; refused`);
      tx.stageFile(abs, text);
    },
    report: (hook, d) => {
      const file = d.file ? (path.isAbsolute(d.file) ? d.file : path.join(p.gsdDir, d.file)) : p.gsdDir;
      diagnostics.push({ file, severity: d.severity ?? 'warning', message: `${hook}: ${d.message}`, ...(d.line ? { line: d.line } : {}) });
    },
    log: (hook) => ({ info: (m) => log.info(`[${hook}] ${m}`), warn: (m) => log.warn(`[${hook}] ${m}`) }),
  };
}

/** What the loop guard compares: the decision-relevant state and every hook's view of it. */
function fingerprint(state: DeepReadonly<GSDState>): string {
  const { slice } = activeUnits(state);
  return fingerprintOf({
    phase: state.phase,
    active: [state.activeMilestone?.id, state.activeSlice?.id, state.activeTask?.id],
    tasks: slice?.tasks.map((t) => [t.id, t.done, t.completedAt, t.pendingActions.length, t.reviews.map((r) => [r.cycle, r.verdict, r.openIssues.length])]),
    extensions: state.extensions,
  });
}

/** The next unit on `p`'s state: the chain's decision or GSD's default; with `apply`, committed. */
export async function decideNextUnit(p: DispatchContext, options: DecisionOptions = {}): Promise<DispatchOutcome> {
  const tx = new HookStateTransaction(p.files, p.gsdDir, p.store);
  const hookDiagnostics: Diagnostic[] = [];
  // Where GSD waits for a person no hook runs: the review loop must not take an escalation's turn.
  // (Ahead of a blocker replan it does run: GSD-2 runs its post-unit hooks before the replan too.)
  let chain: ChainResult;
  try {
    chain = personTurn(p.state) ? NO_CHAIN : await runMiddleware(p.hooks.registry, chainHost(p, tx, 'dispatch', null, options, hookDiagnostics));
  } catch (error) {
    // A unit whose hook state cannot be read blocks the decision: neither the hooks' view of it
    // (read as empty, the review loop would start again at cycle 1) nor GSD's default is dispatched.
    if (!(error instanceof UnreadableHookStateError)) throw error;
    return {
      decision: null,
      phase: p.state.phase,
      blocker: error.message,
      blockedBy: { unitId: error.unitId, ...error.unreadable },
      nextAction: p.state.nextAction,
      hooks: { loaded: p.hooks.loaded, skipped: p.hooks.skipped, trace: [], ignoredDecisions: [] },
      written: [],
      applied: false,
      diagnostics: [...p.diagnostics, ...hookDiagnostics],
    };
  }
  const fallback = chain.decision ? null : defaultDecision(p.state);
  let decision: DispatchDecision | null = chain.decision ?? (fallback ? { ...fallback, source: 'default' } : null);
  const hooks: HooksReport = { loaded: p.hooks.loaded, skipped: p.hooks.skipped, trace: chain.trace, ignoredDecisions: chain.ignored };
  const { log, diagnostics: logDiagnostics } = readDispatchLog(p.store, p.gsdDir);
  const diagnostics = [...p.diagnostics, ...logDiagnostics, ...hookDiagnostics];
  // Computed when needed (a repeated unit, or a record to write): JSON of the active slice, hashed.
  let print: string | undefined;
  const printOf = (): string => (print ??= fingerprint(p.state));
  let blocker: string | null = decision ? null : p.state.blockers[0] ?? (p.state.phase === 'complete' ? null : p.state.nextAction);
  if (decision && isLooping(log, decision, printOf)) {
    blocker =
      `${decision.unitType} ${decision.unitId} was dispatched ${LOOP_LIMIT} times in a row with nothing changed on disk; ` +
      `stopping instead of looping. Finish or fix that unit (or edit its files), then dispatch again.`;
    decision = null;
  }
  const outcome: DispatchOutcome = {
    decision,
    phase: p.state.phase,
    blocker,
    nextAction: p.state.nextAction,
    hooks,
    written: [],
    applied: false,
    diagnostics,
  };
  if (!options.apply || !decision) return outcome;
  if (options.signal?.aborted) return outcome;
  const record: DispatchRecord = { ...decision, dispatchedAt: (options.now?.() ?? new Date()).toISOString(), fingerprint: printOf() };
  // The hooks' state and the dispatch record are one commit: all of it is written, or none.
  const commit = tx.commit([appendDispatch(p.gsdDir, record)]);
  return { ...outcome, written: commit.files, applied: true, diagnostics: [...diagnostics, ...commitNotes(p.gsdDir, commit.notes)] };
}

/**
 * Records a unit chosen by the user rather than by the chain (e.g. "Replan slice" on a Known Issues
 * CodeLens), so `complete` and afterDispatch treat it like any dispatched unit. No hook state is
 * written; `source` says who chose it.
 */
export function recordChosenUnit(p: DispatchContext, unit: DispatchDecision, options: DecisionOptions = {}): DispatchOutcome {
  const { diagnostics } = readDispatchLog(p.store, p.gsdDir);
  const record: DispatchRecord = { ...unit, dispatchedAt: (options.now?.() ?? new Date()).toISOString(), fingerprint: fingerprint(p.state) };
  new HookStateTransaction(p.files, p.gsdDir, p.store).commit([appendDispatch(p.gsdDir, record)]);
  return {
    decision: unit,
    phase: p.state.phase,
    blocker: null,
    nextAction: p.state.nextAction,
    hooks: { loaded: p.hooks.loaded, skipped: p.hooks.skipped, trace: [], ignoredDecisions: [] },
    written: [dispatchLogFile(p.gsdDir)],
    applied: true,
    diagnostics: [...p.diagnostics, ...diagnostics],
  };
}

/** The unit recorded as dispatched and not yet completed, if any. */
export function currentDispatchIn(gsdDir: string, store: GsdStore): DispatchRecord | null {
  const { log } = readDispatchLog(store, gsdDir);
  return log.current && !log.current.completedAt ? log.current : null;
}

/** Cancels the unit in flight (no hook runs: nothing was finished); null when none is in flight. */
export function cancelDispatchedUnit(p: Pick<DispatchContext, 'gsdDir' | 'store' | 'files'>, options: DecisionOptions = {}): { cancelled: DispatchRecord | null; written: string[] } {
  const current = currentDispatchIn(p.gsdDir, p.store);
  if (!current) return { cancelled: null, written: [] };
  const commit = new HookStateTransaction(p.files, p.gsdDir, p.store).commit([appendCancellation(p.gsdDir, current, (options.now?.() ?? new Date()).toISOString())]);
  return { cancelled: current, written: commit.files };
}

/** Processes the result of the recorded unit from its artifacts: the chain runs with `result`. */
export async function completeDispatchedUnit(p: DispatchContext, options: DecisionOptions = {}): Promise<AfterDispatchOutcome> {
  const { log, diagnostics: logDiagnostics } = readDispatchLog(p.store, p.gsdDir);
  const current = log.current;
  if (!current) throw new NothingDispatchedError('no unit has been dispatched in this project (run `next --apply` first)');
  if (current.completedAt) throw new NothingDispatchedError(`${current.unitType} ${current.unitId} was already completed at ${current.completedAt}`);
  const completedAt = (options.now?.() ?? new Date()).toISOString();
  const result: UnitResult = {
    unitType: current.unitType,
    unitId: current.unitId,
    prompt: current.prompt,
    source: current.source,
    dispatchedAt: current.dispatchedAt,
    completedAt,
    ...(current.reason ? { reason: current.reason } : {}),
    ...(current.data ? { data: current.data } : {}),
  };
  const tx = new HookStateTransaction(p.files, p.gsdDir, p.store);
  const hookDiagnostics: Diagnostic[] = [];
  const chain = await runMiddleware(p.hooks.registry, chainHost(p, tx, 'after', result, options, hookDiagnostics));
  const hooks: HooksReport = { loaded: p.hooks.loaded, skipped: p.hooks.skipped, trace: chain.trace, ignoredDecisions: chain.ignored };
  const diagnostics = [...p.diagnostics, ...logDiagnostics, ...hookDiagnostics];
  if (options.signal?.aborted) return { result, hooks, written: [], diagnostics };
  // Hook state, review snapshots and the completion in the record: one commit, all or nothing.
  const commit = tx.commit([appendCompletion(p.gsdDir, current, completedAt)]);
  return { result, hooks, written: commit.files, diagnostics: [...diagnostics, ...commitNotes(p.gsdDir, commit.notes)] };
}
