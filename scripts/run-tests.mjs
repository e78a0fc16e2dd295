// `npm test`: type-check, lint, unit tests (mocha), the integration suite inside a real VS Code on the
// floor of engines.vscode and on the latest code-server (GSD_CODE_SERVER_VERSION picks others), the
// .vsix installed by both, then the end-to-end suites: the real Claude Code and Copilot CLI run the
// review loop against a scripted model (docs/testing-with-real-hosts.md), and so does VS Code's Local
// agent in the real workbench (docs/vscode-agent-live.md).
// Streams each step's output, says so when a step has been silent for a while, and ends with one
// plain line that counts every test: "tests: N passed, N failed".
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { countOnce, notProvenLines } from './test-outcomes.mjs';

// The last field names where a step's outcomes go: a file (the unit runs, counted once together) or,
// for steps of several runs, a folder; `label` names the run in what was not proven.
const steps = [
  ['type-check', 'npx', ['tsc', '-p', '.', '--noEmit']],
  ['lint (ESLint with typescript-eslint, import boundaries, no import cycles)', 'npm', ['run', '-s', 'lint']],
  ['unit tests', 'npx', ['mocha', '--reporter', 'test/mocha-outcomes-reporter.cjs'], { file: 'unit-node20.json', label: 'unit' }],
  ['unit tests of the database readers under Node 24 (node:sqlite)', 'node', ['scripts/node-sqlite-tests.mjs'], { file: 'unit-node24.json', label: 'unit' }],
  ['build', 'node', ['esbuild.mjs']],
  ['integration tests (VS Code extension host)', 'node', ['scripts/vscode-host/run-integration.mjs'], { dir: 'integration' }],
  ['package: the .vsix installed by VS Code 1.100.3 and the latest', 'node', ['scripts/packaging/check-vsix.mjs']],
  ['end-to-end tests with the real agent hosts (Claude Code, Copilot CLI)', 'npx', ['mocha', '--config', 'test/e2e/mocharc.json'], { dir: 'e2e-hosts', label: 'e2e (Claude Code, Copilot CLI)' }],
  // The latest code-server only: agent hooks need a recent VS Code (docs/vscode-agent-live.md).
  ["end-to-end tests with VS Code's Local agent in the real workbench (latest code-server)", 'npx', ['mocha', '--config', 'test/e2e/vscode-agent.mocharc.json'], { dir: 'e2e-vscode-agent', label: "e2e (VS Code's Local agent)" }],
];
const QUIET_MS = 10_000;

// Every temporary file of the run (unit test trees, code-server, chromium profiles) goes into one
// folder that is removed at the end, so `npm test` leaves nothing behind in /tmp.
const runTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-test-run-'));
const env = { ...process.env, TMPDIR: runTmp };
let child;
const cleanUp = () => fs.rmSync(runTmp, { recursive: true, force: true });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    // The integration runner stops its servers on the same signal; give it a moment.
    child?.kill(signal);
    setTimeout(() => {
      cleanUp();
      process.exit(130);
    }, 3000);
  });
}

function run(label, cmd, args, stepEnv = {}) {
  return new Promise((resolve) => {
    console.log(`\n▶ ${label}: ${cmd} ${args.join(' ')}`);
    const started = Date.now();
    let lastOutput = Date.now();
    child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, ...stepEnv } });
    let out = '';
    const seen = () => (lastOutput = Date.now());
    child.stdout.on('data', (d) => {
      out += d;
      seen();
      process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      seen();
      process.stderr.write(d);
    });
    const beat = setInterval(() => {
      if (Date.now() - lastOutput < QUIET_MS) return;
      console.log(`  … ${label} still running (${Math.round((Date.now() - started) / 1000)} s)`);
      seen();
    }, 1000);
    child.on('close', (code) => {
      clearInterval(beat);
      const seconds = (Date.now() - started) / 1000;
      console.log(`  (${label}: ${seconds.toFixed(1)} s)`);
      resolve({ code: code ?? 1, out, seconds });
    });
  });
}

const started = Date.now();
let passed = 0;
let failed = 0;
let pending = 0;
let exitCode = 0;
const outcomeRuns = [];
// [label, outcomes] of every run that wrote them: what was skipped or passed on a retry is named from these.
const labelled = [];
try {
  for (const [label, cmd, args, where] of steps) {
    const outcomesFile = where?.file ? path.join(runTmp, where.file) : null;
    const outcomesDir = where?.dir ? path.join(runTmp, 'outcomes', where.dir) : null;
    const stepEnv = outcomesFile ? { GSD_TEST_OUTCOMES: outcomesFile } : outcomesDir ? { GSD_TEST_OUTCOMES_DIR: outcomesDir, ...(where.label ? { GSD_TEST_OUTCOMES_LABEL: where.label } : {}) } : {};
    const { code, out } = await run(label, cmd, args, stepEnv);
    if (outcomesDir && fs.existsSync(outcomesDir)) {
      for (const name of fs.readdirSync(outcomesDir).sort()) {
        const outcomes = JSON.parse(fs.readFileSync(path.join(outcomesDir, name), 'utf8'));
        labelled.push([outcomes[0]?.run ?? where.label ?? where.dir, outcomes]);
      }
    }
    if (outcomesFile && fs.existsSync(outcomesFile)) {
      // Counted once, below, from the outcome files (not from the "N passing" lines).
      const outcomes = JSON.parse(fs.readFileSync(outcomesFile, 'utf8'));
      outcomeRuns.push(outcomes);
      labelled.push([where.label, outcomes]);
    } else {
      for (const m of out.matchAll(/^\s*(\d+) passing/gm)) passed += Number(m[1]);
      for (const m of out.matchAll(/^\s*(\d+) failing/gm)) failed += Number(m[1]);
      for (const m of out.matchAll(/^\s*(\d+) pending/gm)) pending += Number(m[1]);
    }
    if (code !== 0) {
      console.error(`\n✖ ${label} failed (exit ${code})`);
      exitCode = code;
      if (failed === 0 && countOnce(outcomeRuns).failed === 0) failed = 1;
      break;
    }
  }
} finally {
  const unit = countOnce(outcomeRuns);
  if (outcomeRuns.length > 0) {
    console.log(`\nunit tests, each counted once: ${unit.passed} passed, ${unit.failed} failed, ${unit.skipped} skipped (${unit.folded} results of the Node 24 re-run were of tests the Node 20 run already counted)`);
  }
  passed += unit.passed;
  failed += unit.failed;
  pending += unit.skipped;
  cleanUp();
}
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
const unproven = notProvenLines(labelled);
if (unproven.length > 0) console.log(`\n${unproven.join('\n')}`);
console.log(`\ntests: ${passed} passed, ${failed} failed${pending ? `, ${pending} skipped` : ''} (${minutes} min)`);
process.exit(exitCode);
