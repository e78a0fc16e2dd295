// mocha's spec reporter, which also writes each test's outcome (file, full title, passed / failed /
// skipped) as JSON to $GSD_TEST_OUTCOMES when that is set. scripts/run-tests.mjs counts each test
// once from these files: the Node 24 re-run of the database tests repeats tests of the Node 20 run.
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_RUN_END } = Mocha.Runner.constants;

class OutcomesReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const file = process.env.GSD_TEST_OUTCOMES;
    if (!file) return;
    const outcomes = [];
    const note = (state) => (test) => outcomes.push({ file: test.file ? path.relative(process.cwd(), test.file) : null, title: test.fullTitle(), state });
    runner.on(EVENT_TEST_PASS, note('passed'));
    runner.on(EVENT_TEST_FAIL, note('failed'));
    runner.on(EVENT_TEST_PENDING, note('skipped'));
    runner.once(EVENT_RUN_END, () => fs.writeFileSync(file, JSON.stringify(outcomes)));
  }
}

module.exports = OutcomesReporter;
