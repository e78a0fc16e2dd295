// The dispatch middleware chain (seed 000, with DESIGN.md section 3's decisions): hooks run in
// priority order (lower first, ties by registration order), each may set a decision (the first one
// set wins and names its hook as `source`), and a hook that does not call next() stops the chain.
import { chainBudgetMs, HookTimeoutError, unwatch, watch, type Watch } from './hook-budget';
import type { HookStateHandle } from './hook-state';

export { HookTimeoutError } from './hook-budget';
import type { GSDState, GSDStateExtensions, Severity, UnitType } from '../../model/types';

export type DeepReadonly<T> = T extends (infer U)[]
  ? ReadonlyArray<DeepReadonly<U>>
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

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

export interface HookRegistration {
  name: string;
  middleware: GSDMiddleware;
  priority: number;
  /** Registration order, for ties. */
  order: number;
  /** Builds `state.extensions[name]` from the state before the chain runs. */
  summarize?: (state: DeepReadonly<GSDState>) => unknown;
}

/** `P`: the project-wide view the hook declared in `GSDStateExtensions` (what `summarize` builds). */
export interface RegisterOptions<P = unknown> {
  priority?: number;
  /** Builds `state.extensions[name]`; without it, the hook's per-unit state by unit id. */
  summarize?: (state: DeepReadonly<GSDState>) => P;
}

/** The project-wide view a hook name declared in `GSDStateExtensions`, or `unknown`. */
export type ProjectStateOf<N extends string> = N extends keyof GSDStateExtensions ? GSDStateExtensions[N] : unknown;

export const DEFAULT_PRIORITY = 100;

export class HookRegistry {
  private readonly hooks: HookRegistration[] = [];
  /** The order every run uses, sorted once per registration rather than once per run. */
  private sorted: readonly HookRegistration[] | null = null;

  register(name: string, middleware: GSDMiddleware, options: RegisterOptions = {}): void {
    if (!/^[a-z0-9][a-z0-9._-]*$/i.test(name)) throw new Error(`hook name "${name}" must be letters, digits, . _ -`);
    if (this.hooks.some((h) => h.name === name)) throw new Error(`a hook named "${name}" is already registered`);
    const reg: HookRegistration = { name, middleware, priority: options.priority ?? DEFAULT_PRIORITY, order: this.hooks.length };
    if (options.summarize) reg.summarize = options.summarize;
    this.hooks.push(reg);
    this.sorted = null;
  }

  /** Lower priority first; equal priorities in registration order. */
  ordered(): readonly HookRegistration[] {
    return (this.sorted ??= Object.freeze([...this.hooks].sort((a, b) => a.priority - b.priority || a.order - b.order)));
  }

  has(name: string): boolean {
    return this.hooks.some((h) => h.name === name);
  }
}

export class ChainCancelledError extends Error {
  constructor() {
    super('the dispatch was cancelled');
  }
}


/** A decision as later hooks see it: a frozen copy, so no later hook can rewrite the unit. */
function frozenDecision(value: UnitDecision, source: string): DispatchDecision {
  let data: Record<string, unknown> | undefined;
  if (value.data !== undefined) {
    try {
      // A JSON round trip: the decision is recorded as JSON, so cycles and BigInts are refused here.
      data = deepFreeze(JSON.parse(JSON.stringify(value.data)) as Record<string, unknown>);
    } catch (error) {
      throw new Error(`hook ${source} decided with data that is not plain data (${firstLine(error)})`, { cause: error });
    }
  }
  const copy: DispatchDecision = { unitType: value.unitType, unitId: value.unitId, prompt: value.prompt, source };
  if (value.reason !== undefined) copy.reason = value.reason;
  if (data !== undefined) copy.data = data;
  return Object.freeze(copy);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0];
}

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
  signal: AbortSignal;
  handleFor(hook: string): HookStateHandle;
  options(hook: string): Readonly<Record<string, unknown>>;
  readGsdFile(relativePath: string): string | null;
  writeGsdFile(hook: string, relativePath: string, text: string): void;
  report(hook: string, diagnostic: HookDiagnostic): void;
  log(hook: string): HookLog;
}

/**
 * What the contexts of one run share (the decision so far, the trace) and how the run ends: when
 * every hook entered has settled, counted as each settles (one handler pair per hook). A hook's
 * promise counts even when the hook that called its next() did not await it, so nothing a hook below
 * stages can arrive after the run was committed.
 */
class ChainRun {
  decision: DispatchDecision | null = null;
  readonly trace: HookTrace[] = [];
  readonly ignored: ChainResult['ignored'] = [];
  /** Each entered hook's own promise, by trace index: the one to name when the budget runs out. */
  readonly promises: Promise<void>[] = [];
  /** Hooks entered whose promise has not settled. */
  pending = 0;
  /** The first hook failure below the first hook, reported when the run ends. */
  failure: { error: unknown } | null = null;
  /** A misuse of next() by a hook that may not await it (a second call): reported after the run. */
  misuse: Error | null = null;
  deadline: Watch | null = null;
  ended = false;

  constructor(
    readonly host: ChainHost,
    readonly hooks: readonly HookRegistration[],
    private readonly resolve: (result: ChainResult) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  readonly stepSettled = (): void => {
    if (--this.pending === 0) this.end();
  };

  readonly stepFailed = (error: unknown): void => {
    this.failure ??= { error };
    if (--this.pending === 0) this.end();
  };

  /** The first hook's failure ends the run at once: nothing can be committed after it anyway. */
  readonly firstFailed = (error: unknown): void => {
    this.failure = { error };
    this.end();
  };

  end(timeout?: HookTimeoutError): void {
    if (this.ended) return;
    this.ended = true;
    if (timeout) return this.reject(timeout);
    if (this.deadline) unwatch(this.deadline);
    if (this.failure) this.reject(this.failure.error);
    else if (this.misuse) this.reject(this.misuse);
    else if (this.host.signal.aborted) this.reject(new ChainCancelledError());
    else this.resolve({ decision: this.decision, trace: this.trace, ignored: this.ignored });
  }
}

/**
 * One hook's context. A class whose host-derived members are made on first use: most hooks touch
 * only `state` and `decision`, and making every member for every hook cost more than the chain.
 */
class Context implements MiddlewareContext {
  // Declared, not initialised: five fields stored per hook per run cost more than the rare use.
  private declare hookOptions: Readonly<Record<string, unknown>> | undefined;
  private declare storeHandle: HookStateHandle | undefined;
  private declare hookLog: HookLog | undefined;
  private declare writer: ((relativePath: string, text: string) => void) | undefined;
  private declare reporter: ((diagnostic: HookDiagnostic) => void) | undefined;

  constructor(
    private readonly run: ChainRun,
    private readonly entry: HookTrace,
    readonly hook: string,
  ) {}

  get phase(): 'dispatch' | 'after' {
    return this.run.host.phase;
  }

  get state(): DeepReadonly<GSDState> {
    return this.run.host.state;
  }

  get result(): Readonly<UnitResult> | null {
    return this.run.host.result;
  }

  get options(): Readonly<Record<string, unknown>> {
    return (this.hookOptions ??= this.run.host.options(this.hook));
  }

  get store(): HookStateHandle {
    return (this.storeHandle ??= this.run.host.handleFor(this.hook));
  }

  get readGsdFile(): (relativePath: string) => string | null {
    return this.run.host.readGsdFile;
  }

  get writeGsdFile(): (relativePath: string, text: string) => void {
    const host = this.run.host;
    return (this.writer ??= (rel, text) => host.writeGsdFile(this.hook, rel, text));
  }

  get report(): (diagnostic: HookDiagnostic) => void {
    const host = this.run.host;
    return (this.reporter ??= (d) => host.report(this.hook, d));
  }

  get signal(): AbortSignal {
    return this.run.host.signal;
  }

  get log(): HookLog {
    return (this.hookLog ??= this.run.host.log(this.hook));
  }

  get decision(): UnitDecision | null {
    return this.run.decision;
  }

  set decision(value: UnitDecision | null) {
    if (this.phase !== 'dispatch' || value === null) return;
    if (this.run.decision) {
      this.run.ignored.push({ hook: this.hook, unitType: value.unitType, unitId: value.unitId });
      return;
    }
    this.run.decision = frozenDecision(value, this.hook);
    this.entry.decided = true;
  }

  get decidedBy(): string | null {
    return this.run.decision?.source ?? null;
  }
}

/** What next() gives the last hook: settled already, so not counted among the hooks to wait for. */
const PAST_THE_END: Promise<void> = Promise.resolve();

function step(run: ChainRun, i: number): Promise<void> {
  if (run.host.signal.aborted) return Promise.reject(new ChainCancelledError());
  const reg = run.hooks[i];
  if (!reg) return PAST_THE_END;
  const entry: HookTrace = { hook: reg.name, calledNext: false, decided: false };
  const index = run.trace.push(entry) - 1;
  const next = (): Promise<void> => {
    if (entry.calledNext) {
      // Rejected for a hook that awaits it, and remembered for one that does not (an unawaited
      // rejection would otherwise end the process with a stack trace).
      const error = new Error(`hook ${reg.name} called next() twice`);
      run.misuse ??= error;
      const rejected = Promise.reject(error);
      rejected.catch(() => undefined);
      return rejected;
    }
    entry.calledNext = true;
    const downstream = step(run, i + 1);
    if (downstream !== PAST_THE_END) {
      // Also handles the rejection of a cancelled step, which the run's end reports as cancellation.
      run.pending++;
      downstream.then(run.stepSettled, run.stepFailed);
    }
    return downstream;
  };
  let own: Promise<void>;
  try {
    own = Promise.resolve(reg.middleware(new Context(run, entry, reg.name), next));
  } catch (error) {
    own = Promise.reject(error);
  }
  // By trace index: a hook that calls next() before returning settles its promise after the ones below.
  run.promises[index] = own;
  return own;
}

/**
 * The innermost hook whose own promise has not settled, found only when the budget ran out: a
 * settled promise runs its handler within a turn, a stuck one does not.
 */
function stuckHook(run: ChainRun, answer: (hook: string) => void): void {
  const settled = new Set<number>();
  run.promises.forEach((p, i) => p.then(() => settled.add(i), () => settled.add(i)));
  setImmediate(() => {
    let i = run.promises.length - 1;
    while (i >= 0 && settled.has(i)) i--;
    answer(run.trace[Math.max(i, 0)]?.hook ?? 'a hook');
  });
}

export interface RunOptions {
  /** Budget for the whole run, in ms (default: chainBudgetMs()). */
  budgetMs?: number;
}

/**
 * Runs the chain once. Throws what a hook throws, ChainCancelledError when the signal aborts, or
 * HookTimeoutError naming the hook still running when the budget is spent (a hook that never
 * settles must not leave the command hanging or silently exiting).
 */
export function runMiddleware(registry: HookRegistry, host: ChainHost, options: RunOptions = {}): Promise<ChainResult> {
  const budget = options.budgetMs ?? chainBudgetMs();
  let run!: ChainRun;
  const result = new Promise<ChainResult>((resolve, reject) => {
    run = new ChainRun(host, registry.ordered(), resolve, reject);
  });
  run.deadline = watch(budget, () =>
    stuckHook(run, (hook) => run.end(new HookTimeoutError(`hook ${hook} did not finish within ${budget} ms; nothing was dispatched`))),
  );
  run.pending = 1;
  step(run, 0).then(run.stepSettled, run.firstFailed);
  return result;
}
