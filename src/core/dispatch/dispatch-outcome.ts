// What a dispatch (or afterDispatch) reports. A module of its own so the lifecycle hooks can name
// these types without importing the dispatcher, which loads the hooks (no import cycle).
import type { DispatchDecision, HookTrace, UnitResult } from '../hooks/engine/middleware-types';
import type { Diagnostic, GSDState, UnreadableHookState } from '../model/types';

/** A hook the loader loaded. */
export interface LoadedHook {
  name: string;
  kind: 'builtin' | 'user';
  /** The file it came from (user hooks). */
  from?: string;
}

/** A hook the loader did not load, and why. */
export interface SkippedHook {
  name: string;
  reason: string;
}

export interface HooksReport {
  loaded: LoadedHook[];
  skipped: SkippedHook[];
  trace: HookTrace[];
  ignoredDecisions: Array<{ hook: string; unitType: string; unitId: string }>;
}

export interface DispatchOutcome {
  decision: DispatchDecision | null;
  phase: GSDState['phase'];
  /** Why nothing is dispatched (phase complete or blocked, or the loop guard). */
  blocker: string | null;
  /** Set when nothing is dispatched because a unit's hook-state file cannot be read (`blocker` says it in words). */
  blockedBy?: { unitId: string } & UnreadableHookState;
  nextAction: string;
  hooks: HooksReport;
  /** Files the dispatch wrote (with apply). */
  written: string[];
  applied: boolean;
  diagnostics: Diagnostic[];
}

export interface AfterDispatchOutcome {
  result: UnitResult;
  hooks: HooksReport;
  written: string[];
  diagnostics: Diagnostic[];
}
