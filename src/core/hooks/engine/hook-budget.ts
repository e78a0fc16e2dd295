// Time budgets for user hook code: it runs on every agent event, and hosts kill a hook process after
// 30 s (VS Code, Claude Code's default), so our own commands must give up on a hook well before.

/** Budget of one run of the middleware chain, and of one hook module's registration, in ms. */
export const CHAIN_BUDGET_MS = 10_000;

/** The chain budget; `GSD_HOOK_BUDGET_MS` lowers or raises it (tests, slow machines). */
export function chainBudgetMs(): number {
  const env = Number(process.env.GSD_HOOK_BUDGET_MS);
  return Number.isFinite(env) && env > 0 ? env : CHAIN_BUDGET_MS;
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
}

// One timer serves every watched deadline: arming a timer per dispatch cost more than the whole
// chain of ten middlewares (npm run bench). The timer keeps the process alive only while something
// is watched, so a promise that can never settle still ends in its deadline, not a silent exit.
const watched = new Set<Watch>();
let timer: NodeJS.Timeout | null = null;
let timerAt = Infinity;

function arm(at: number, now: number): void {
  if (timer) clearTimeout(timer);
  timerAt = at;
  timer = setTimeout(expire, Math.max(1, Math.ceil(at - now)));
}

function expire(): void {
  timer = null;
  timerAt = Infinity;
  const now = performance.now();
  let earliest = Infinity;
  for (const w of [...watched]) {
    if (w.deadline <= now) {
      watched.delete(w);
      w.onExpire();
    } else if (w.deadline < earliest) earliest = w.deadline;
  }
  if (watched.size > 0 && earliest < Infinity) arm(earliest, now);
}

/** Calls `onExpire` after `ms` unless `unwatch` comes first. */
export function watch(ms: number, onExpire: () => void): Watch {
  const now = performance.now();
  const w: Watch = { deadline: now + ms, onExpire };
  watched.add(w);
  if (!timer || w.deadline < timerAt) arm(w.deadline, now);
  else timer.ref();
  return w;
}

export function unwatch(w: Watch): void {
  watched.delete(w);
  if (watched.size === 0 && timer) timer.unref();
}
