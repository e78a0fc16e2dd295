// The dispatch middleware chain (docs/architecture.md, "The hook contract"): hooks run in
// priority order (lower first, ties by registration order), each may set a decision (the first one
// set wins and names its hook as `source`), and a hook that does not call next() stops the chain.
import { chainBudgetMs, HookTimeoutError, unwatch, watch, type Watch } from './hook-budget';
import type { HookRegistration, HookRegistry } from './hook-registry';
import { Context } from './middleware-context';
import type { ChainHost, ChainResult, DispatchDecision, HookTrace } from './middleware-types';

export { HookTimeoutError } from './hook-budget';

export class ChainCancelledError extends Error {
  constructor() {
    super('the dispatch was cancelled');
  }
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
  ownSignal?: AbortSignal;

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
    else if (this.host.signal?.aborted) this.reject(new ChainCancelledError());
    else this.resolve({ decision: this.decision, trace: this.trace, ignored: this.ignored });
  }
}

/** What next() gives the last hook: settled already, so not counted among the hooks to wait for. */
const PAST_THE_END: Promise<void> = Promise.resolve();

function step(run: ChainRun, i: number): Promise<void> {
  if (run.host.signal?.aborted) return Promise.reject(new ChainCancelledError());
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

export interface ChainBudget {
  /** Budget for the whole run, in ms (default: chainBudgetMs()). */
  budgetMs?: number;
}

/**
 * Runs the chain once. Throws what a hook throws, ChainCancelledError when the signal aborts, or
 * HookTimeoutError naming the hook still running when the budget is spent (a hook from a hook folder
 * that never settles must not leave the command hanging or silently exiting).
 */
export function runMiddleware(registry: HookRegistry, host: ChainHost, options: ChainBudget = {}): Promise<ChainResult> {
  const budget = options.budgetMs ?? chainBudgetMs();
  let run!: ChainRun;
  const result = new Promise<ChainResult>((resolve, reject) => {
    run = new ChainRun(host, registry.ordered(), resolve, reject);
  });
  // Hook code from a hook folder may never settle while something keeps the process alive. Ours do
  // no I/O and set no timers, so a chain of built-in hooks alone runs without the watch (whose timer,
  // the process's first, was 0.4 ms of each `gsd-review next`).
  if (run.hooks.some((h) => !h.builtin)) {
    run.deadline = watch(budget, () =>
      stuckHook(run, (hook) => run.end(new HookTimeoutError(`hook ${hook} did not finish within ${budget} ms; nothing was dispatched`))),
    );
  }
  run.pending = 1;
  step(run, 0).then(run.stepSettled, run.firstFailed);
  return result;
}
