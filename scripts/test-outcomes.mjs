// What `npm test` says from the outcome files its mocha runs write (test/mocha-outcomes-reporter.cjs):
// the unit tests counted once (the Node 24 re-run repeats some), and what the run did not prove,
// named right above the last line: each skipped test with its reason, each test that passed only on
// a retry with the failure before.

/**
 * The unit runs' outcomes, each test once. The Node 24 run repeats the database test files of the
 * Node 20 run: a test of both counts once, failed if it failed in either, else passed if it passed in
 * either (a test Node 20 skipped for want of node:sqlite and Node 24 ran is passed, not skipped), else
 * skipped. Returns the counts and how many results the merge folded away.
 */
export function countOnce(runs) {
  const byTest = new Map();
  let results = 0;
  const rank = { failed: 2, passed: 1, skipped: 0 };
  for (const outcomes of runs) {
    for (const o of outcomes) {
      results++;
      const key = `${o.file}\u0000${o.title}`;
      const before = byTest.get(key);
      if (!before || rank[o.state] > rank[before]) byTest.set(key, o.state);
    }
  }
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const state of byTest.values()) counts[state]++;
  return { ...counts, folded: results - byTest.size };
}

const MAX_LISTED = 40;

/**
 * The lines naming what was not proven: skipped tests (a unit test skipped under Node 20 that the
 * Node 24 run passed is proven), tests that passed only on a retry, and tests that passed without a
 * check they could not make here (the page of a workbench no runner drives). `runs`: [label, outcomes][];
 * the unit runs share the label `unit` (their tests are the same tests).
 */
export function notProvenLines(runs) {
  const proven = new Set();
  for (const [label, outcomes] of runs) for (const o of outcomes) if (o.state === 'passed') proven.add(`${label}\u0000${o.file}\u0000${o.title}`);
  const skipped = [];
  const retried = [];
  const partial = [];
  const seen = new Set();
  for (const [label, outcomes] of runs) {
    for (const o of outcomes) {
      const key = `${label}\u0000${o.file}\u0000${o.title}`;
      if (o.state === 'skipped' && !proven.has(key) && !seen.has(key)) {
        seen.add(key);
        skipped.push(`  - ${label}: ${o.title} — ${o.reason ?? 'no reason given'}`);
      }
      if (o.state === 'passed' && o.passedOnRetry) retried.push(`  - ${label}: ${o.title} — failed first: ${o.passedOnRetry}`);
      if (o.state === 'passed' && o.unproven) partial.push(`  - ${label}: ${o.title} — without ${o.unproven}`);
    }
  }
  const lines = [];
  const list = (head, items) => {
    if (items.length === 0) return;
    lines.push(head, ...items.slice(0, MAX_LISTED));
    if (items.length > MAX_LISTED) lines.push(`  … and ${items.length - MAX_LISTED} more`);
  };
  list(`skipped (${skipped.length}), not proven by this run:`, skipped);
  list(`passed only on a retry (${retried.length}):`, retried);
  list(`passed without part of their checks (${partial.length}):`, partial);
  return lines;
}
