// The test that is running, for helpers called from arrow functions (no `this`): the integration
// suite sets it from a root beforeEach hook. A check a test could not make is noted on it, and the
// outcomes reporter lists the test as passed without that part (test/mocha-outcomes-reporter.cjs).
import type * as Mocha from 'mocha';

let current: Mocha.Test | undefined;

export function setCurrentTest(test: Mocha.Test | undefined): void {
  current = test;
}

export function markUnproven(what: string): void {
  if (current) (current as { unproven?: string }).unproven = what;
  console.log(`      not checked: ${what}`);
}
