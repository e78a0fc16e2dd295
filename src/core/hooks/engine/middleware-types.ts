// The dispatch middleware's contract (docs/architecture.md, "The hook contract"): what a hook is given and what
// it may decide. The hook authors' front door (hooks/api.ts) re-exports these.
import type { DeepReadonly, GSDState, Severity, UnitType } from '../../model/types';
import type { HookStateHandle } from './hook-state';

export type { DeepReadonly } from '../../model/types';

/** What a hook asks GSD to run next. */
export interface UnitDecision {
  unitType: UnitType;
  /** `M001`, `M001/S01` or `M001/S01/T01`. */
  unitId: string;
  prompt: string;
  /** One line on why, for logs and the panel. */
  reason?: string;
  /** Anything the deciding hook wants to see again in afterDispatch (plain data). */
  data?: Record<string, unknown>;
}

export interface DispatchDecision extends UnitDecision {
  /** `default` or the name of the hook that decided. */
  source: string;
}

/** A dispatched unit that finished, as afterDispatch sees it. */
export interface UnitResult extends DispatchDecision {
  dispatchedAt: string;
  completedAt: string;
}

export interface HookDiagnostic {
  message: string;
  /** Absolute, or relative to `.gsd`. */
  file?: string;
  line?: number;
  severity?: Severity;
}

export interface HookLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface MiddlewareContext<S = unknown> {
  /** The hook this context was made for. */
  readonly hook: string;
  /** `dispatch`: choose the next unit. `after`: react to `result`, the unit that just finished. */
  readonly phase: 'dispatch' | 'after';
  readonly state: DeepReadonly<GSDState>;
  readonly result: Readonly<UnitResult> | null;
  /** This hook's options from PREFERENCES.md (`gsd_hooks.enabled[].options`). */
  readonly options: Readonly<Record<string, unknown>>;
  /** Read and stage this hook's own state; no other namespace is reachable. */
  readonly store: HookStateHandle<S>;
  /** Read a file inside `.gsd` (path relative to it); null when missing or outside `.gsd`. */
  readonly readGsdFile: (relativePath: string) => string | null;
  /**
   * Stage a whole file inside `.gsd` that the hook owns (path relative to `.gsd`), written with the
   * rest of the dispatch's state. Throws for a path outside `.gsd`.
   */
  readonly writeGsdFile: (relativePath: string, text: string) => void;
  /** Report bad input (a malformed review, a path outside `.gsd`): it ends up in the outcome's diagnostics. */
  readonly report: (diagnostic: HookDiagnostic) => void;
  readonly signal: AbortSignal;
  readonly log: HookLog;
  /** The decision so far. Setting it when another hook already decided is ignored (first wins). */
  decision: UnitDecision | null;
  /** Which hook set the decision so far, if any. */
  readonly decidedBy: string | null;
}

export type GSDMiddleware<S = unknown> = (ctx: MiddlewareContext<S>, next: () => Promise<void>) => Promise<void>;

export interface HookTrace {
  hook: string;
  calledNext: boolean;
  decided: boolean;
}

export interface ChainResult {
  decision: DispatchDecision | null;
  trace: HookTrace[];
  /** Decisions set after the first one, ignored: [hook, unit]. */
  ignored: Array<{ hook: string; unitType: string; unitId: string }>;
}

export interface ChainHost {
  state: DeepReadonly<GSDState>;
  phase: 'dispatch' | 'after';
  result: UnitResult | null;
  /** The caller's, when it can cancel the run; hooks then see a signal that never aborts. */
  signal?: AbortSignal;
  handleFor(hook: string): HookStateHandle;
  options(hook: string): Readonly<Record<string, unknown>>;
  readGsdFile(relativePath: string): string | null;
  writeGsdFile(hook: string, relativePath: string, text: string): void;
  report(hook: string, diagnostic: HookDiagnostic): void;
  log(hook: string): HookLog;
}
