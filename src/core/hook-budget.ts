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
