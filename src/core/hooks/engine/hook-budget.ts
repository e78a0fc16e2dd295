// Time budgets for user hook code: it runs on every agent event, and hosts kill a hook process after
// 30 s (VS Code, Claude Code's default), so our own commands must give up on a hook well before.

/** Budget of one run of the middleware chain, and of one hook module's registration, in ms. */
export const CHAIN_BUDGET_MS = 10_000;

let budgetFromEnv: number | undefined;

/**
 * The chain budget; `GSD_HOOK_BUDGET_MS` lowers or raises it (tests, slow machines). Read once per
 * process: reading `process.env` cost a tenth of a whole chain run.
 */
export function chainBudgetMs(): number {
  if (budgetFromEnv === undefined) {
    const env = Number(process.env.GSD_HOOK_BUDGET_MS);
    budgetFromEnv = Number.isFinite(env) && env > 0 ? env : CHAIN_BUDGET_MS;
  }
  return budgetFromEnv;
}

export class HookTimeoutError extends Error {}

/**
 * `promise`, or a HookTimeoutError with `message` after `ms`. The timer is ref'd on purpose: a
 * promise that can never settle must still end in this error rather than in a silent exit.
 */
export async function withinBudget<T>(promise: Promise<T>, ms: number, message: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HookTimeoutError(message())), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
    promise.catch(() => undefined);
  }
}

/** A deadline being watched (see watch). */
export interface Watch {
  /** Ticks of the watch timer still to pass before `onExpire`. */
  ticksLeft: number;
  onExpire: () => void;
  /** Set by unwatch; the entry leaves the list at the next tick. */
  done: boolean;
}

/** How often the watch timer looks at its deadlines: a deadline fires up to two of these late. */
export const WATCH_TICK_MS = 100;

// One timer serves every watched deadline, and watching reads no clock: a timer per dispatch, a Set
// of deadlines, and reading the clock per dispatch each cost a sizeable part of a whole chain of ten
// middlewares (npm run bench). A deadline is counted in ticks of one interval timer that runs while
// something is watched, so it fires between `ms` and `ms` + two ticks after it was set. Finished
// entries are only flagged and leave the list at the next tick. The timer keeps the process alive
// only while something is watched, so a promise that can never settle still ends in its deadline,
// not a silent exit.
let watched: Watch[] = [];
let live = 0;
let timer: NodeJS.Timeout | null = null;
// Whether the timer keeps the process alive. Dropping that when nothing is watched waits for the
// next turn of the event loop: toggling it on every dispatch cost a tenth of a chain of ten hooks.
let refed = false;
let unrefQueued = false;

function unrefWhenIdle(): void {
  unrefQueued = false;
  if (live === 0 && timer && refed) {
    timer.unref();
    refed = false;
  }
}

function tick(): void {
  const due: Watch[] = [];
  const kept: Watch[] = [];
  for (const w of watched) {
    if (w.done) continue;
    if (--w.ticksLeft <= 0) {
      w.done = true;
      live--;
      due.push(w);
    } else kept.push(w);
  }
  watched = kept;
  if (kept.length === 0 && timer) {
    clearInterval(timer);
    timer = null;
    refed = false;
  }
  for (const w of due) w.onExpire();
}

/** Calls `onExpire` after `ms` (at most two ticks later) unless `unwatch` comes first. */
export function watch(ms: number, onExpire: () => void): Watch {
  // +1: the first tick may come at once; a deadline must never fire early.
  const w: Watch = { ticksLeft: Math.ceil(ms / WATCH_TICK_MS) + 1, onExpire, done: false };
  if (watched.length >= 64 && watched.length > 2 * live) watched = watched.filter((x) => !x.done);
  watched.push(w);
  live++;
  if (!timer) {
    timer = setInterval(tick, WATCH_TICK_MS);
    refed = true;
  } else if (!refed) {
    timer.ref();
    refed = true;
  }
  return w;
}

export function unwatch(w: Watch): void {
  if (w.done) return;
  w.done = true;
  live--;
  if (live === 0 && timer && refed && !unrefQueued) {
    unrefQueued = true;
    setImmediate(unrefWhenIdle);
  }
}
