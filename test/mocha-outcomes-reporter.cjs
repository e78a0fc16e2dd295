// mocha's spec reporter, which also writes each test's outcome as JSON when $GSD_TEST_OUTCOMES
// names a file (or $GSD_TEST_OUTCOMES_DIR a folder, one file per run): its file, full title, state
// (passed / failed / skipped), why it was skipped (test/shared/skip-because.ts keeps the reason on
// the test or its suite), and, for a test that passed only on a retry, the failure before. scripts/
// run-tests.mjs counts each test once from these files and names what the run did not prove.
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_TEST_RETRY, EVENT_RUN_END } = Mocha.Runner.constants;

/** The reason a skipped test carries, on itself or on a suite above it. */
function skipReasonOf(test) {
  for (let r = test; r; r = r.parent) if (typeof r.skipReason === 'string') return r.skipReason;
  return test.isPending() && !test.fn ? 'declared without a body (it.skip or a pending test)' : 'skipped without a reason given';
}

function outcomesFile() {
  if (process.env.GSD_TEST_OUTCOMES) return process.env.GSD_TEST_OUTCOMES;
  const dir = process.env.GSD_TEST_OUTCOMES_DIR;
  if (!dir) return null;
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, `${process.env.GSD_TEST_OUTCOMES_LABEL ?? 'mocha'}-${process.pid}-${Date.now()}.json`.replace(/[^\w.-]+/g, '_'));
}

/** Collects outcomes on any mocha runner (also the integration suite's, inside VS Code). */
function collectOutcomes(runner, label) {
  const file = outcomesFile();
  if (!file) return;
  const outcomes = [];
  const retried = new Map();
  const where = (test) => (test.file ? path.relative(process.cwd(), test.file) : null);
  const note = (state) => (test) => {
    const o = { file: where(test), title: test.fullTitle(), state };
    if (label) o.run = label;
    if (state === 'skipped') o.reason = skipReasonOf(test);
    if (state === 'passed' && retried.has(test.fullTitle())) o.passedOnRetry = retried.get(test.fullTitle());
    if (state === 'passed' && typeof test.unproven === 'string') o.unproven = test.unproven;
    outcomes.push(o);
  };
  runner.on(EVENT_TEST_RETRY, (test, err) => retried.set(test.fullTitle(), String((err && err.message) || err).split('\n')[0]));
  runner.on(EVENT_TEST_PASS, note('passed'));
  runner.on(EVENT_TEST_FAIL, note('failed'));
  runner.on(EVENT_TEST_PENDING, note('skipped'));
  runner.once(EVENT_RUN_END, () => fs.writeFileSync(file, JSON.stringify(outcomes)));
}

class OutcomesReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    collectOutcomes(runner, process.env.GSD_TEST_OUTCOMES_LABEL);
  }
}

module.exports = OutcomesReporter;
module.exports.collectOutcomes = collectOutcomes;
