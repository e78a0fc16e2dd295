// A skipped test says why: the reason is printed where it happens and kept on the test (or, from a
// `before` hook, on its suite), where the outcomes reporter (test/mocha-outcomes-reporter.cjs) reads
// it, so that `npm test` names every skipped test with its reason above its last line.
import type * as Mocha from 'mocha';

export function skipBecause(ctx: Mocha.Context, reason: string): never {
  const runnable = ctx.currentTest ?? ctx.test;
  // From a hook (`before`), the suite's tests are the ones skipped.
  const holder = runnable && (runnable as Mocha.Runnable & { type?: string }).type === 'hook' ? runnable.parent : runnable;
  if (holder) (holder as { skipReason?: string }).skipReason = reason;
  console.log(`      skipped: ${reason}`);
  return ctx.skip();
}
