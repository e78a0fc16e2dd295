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
  deadline: number;
  onExpire: () => void;
  /** Set by unwatch; the entry leaves the list at the next sweep. */
  done: boolean;
}

// One timer serves every watched deadline: arming a timer per dispatch cost more than the whole
// chain of ten middlewares (npm run bench), and so did a Set of deadlines (an add and a delete per
// run): finished entries are only flagged, and swept when the timer fires or the list has grown.
// The timer keeps the process alive only while something is watched, so a promise that can never
// settle still ends in its deadline, not a silent exit.
let watched: Watch[] = [];
let live = 0;
let timer: NodeJS.Timeout | null = null;
let timerAt = Infinity;
// Whether the timer keeps the process alive. Dropping that when nothing is watched waits for the
// next turn of the event loop: toggling it on every dispatch cost a tenth of a chain of ten hooks.
let refed = false;
let unrefQueued = false;

function arm(at: number, now: number): void {
  if (timer) clearTimeout(timer);
  timerAt = at;
  timer = setTimeout(expire, Math.max(1, Math.ceil(at - now)));
  refed = true;
}

function unrefWhenIdle(): void {
  unrefQueued = false;
  if (live === 0 && timer && refed) {
    timer.unref();
    refed = false;
  }
}

function expire(): void {
  timer = null;
  refed = false;
  timerAt = Infinity;
  const now = performance.now();
  const due: Watch[] = [];
  let earliest = Infinity;
  const kept: Watch[] = [];
  for (const w of watched) {
    if (w.done) continue;
    if (w.deadline <= now) {
      w.done = true;
      live--;
      due.push(w);
    } else {
      kept.push(w);
      if (w.deadline < earliest) earliest = w.deadline;
    }
  }
  watched = kept;
  if (live > 0 && earliest < Infinity) arm(earliest, now);
  for (const w of due) w.onExpire();
}

/** Calls `onExpire` after `ms` unless `unwatch` comes first. */
export function watch(ms: number, onExpire: () => void): Watch {
  const now = performance.now();
  const w: Watch = { deadline: now + ms, onExpire, done: false };
  if (watched.length >= 64 && watched.length > 2 * live) watched = watched.filter((x) => !x.done);
  watched.push(w);
  live++;
  if (!timer || w.deadline < timerAt) arm(w.deadline, now);
  else if (!refed) {
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
