// Our review loop as the successor's blocking post-unit gate, run through `gsd-review` as GSD's hook
// session runs it, with GSD's side played by this test as gsd-pi 1.16.1 does it (cited per step):
// - before the hook session: cycleCounts["<hook>/execute-task/<M/S/T>"] + 1 and the activeHook,
//   persisted to `.gsd/hook-state.json` (rule-registry.ts _startHook, auto-post-unit.ts
//   checkPostUnitHooks then persistHookState);
// - after it: the artifact's frontmatter verdict, read case-insensitively with the `yaml` package
//   (verdict-parser.ts extractFrontmatterVerdict): pass / advisory go on, needs-rework retries;
// - on retry-task: the task's summary and the on_block artifact deleted (auto-post-unit.ts
//   prepareHookRetry), then execute-task runs again and the gate after it.
// Expectations are what GSD would read and what a person sees in `state --json`; none is read
// back from our own answers.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { buildCli, cli } from './helpers/cli';
import { writeSuccessorLayout } from './helpers/successor-project';
import { presentTask } from '../../src/vscode/panel/task-presentation';
import { taskState } from '../../src/core/hooks/builtin/review-loop/review-loop-state';

const UNIT = 'M001/S02/T01';
const PHASE = '.gsd/phases/01-checkout-flow';
const ARTIFACT = `${PHASE}/S02-T01-CODE-REVIEW.md`;
const SUMMARY = `${PHASE}/S02-T01-SUMMARY.md`;
const KEY = `gsd-review-loop/execute-task/${UNIT}`;

/** What GSD reads from the artifact: verdict-parser.ts extractFrontmatterVerdict, re-stated here. */
function gsdVerdict(root: string): string | undefined {
  const file = path.join(root, ARTIFACT);
  if (!fs.existsSync(file)) return undefined;
  const trimmed = fs.readFileSync(file, 'utf8').trimStart();
  if (!trimmed.startsWith('---')) return undefined;
  const rest = trimmed.slice(trimmed.indexOf('\n') + 1);
  const end = rest.indexOf('\n---');
  if (end === -1) return undefined;
  const data = parseYaml(rest.slice(0, end)) as Record<string, unknown>;
  const key = Object.keys(data).find((k) => k.toLowerCase() === 'verdict');
  const v = key ? String(data[key]).trim().toLowerCase() : undefined;
  return v === 'passed' ? 'pass' : v;
}

/** GSD starting the hook for the next cycle (rule-registry.ts _startHook + persistState). */
function gsdStartsGate(root: string): number {
  const file = path.join(root, '.gsd', 'hook-state.json');
  const state = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : { cycleCounts: {}, redispatchedGateKeys: [], hookQueue: [], retryPending: false, retryTrigger: null };
  const cycle = (state.cycleCounts[KEY] ?? 0) + 1;
  state.cycleCounts[KEY] = cycle;
  state.activeHook = { hookName: 'gsd-review-loop', triggerUnitType: 'execute-task', triggerUnitId: UNIT, cycle, pendingRetry: false, completionOperationId: `op-${cycle}` };
  state.savedAt = new Date().toISOString();
  fs.writeFileSync(file, JSON.stringify(state, null, 2));
  return cycle;
}

/** GSD acting on needs-rework with on_block retry-task: summary and on_block artifact deleted, task re-run. */
function gsdRetriesTask(root: string, summary: string): void {
  fs.rmSync(path.join(root, SUMMARY), { force: true });
  fs.rmSync(path.join(root, ARTIFACT), { force: true });
  const file = path.join(root, '.gsd', 'hook-state.json');
  const state = JSON.parse(fs.readFileSync(file, 'utf8'));
  state.activeHook = null;
  fs.writeFileSync(file, JSON.stringify(state, null, 2));
  // The executor runs again and writes its summary.
  fs.writeFileSync(path.join(root, SUMMARY), summary);
}

function review(cycle: number, issues: string[], task = 'T01'): string {
  return ['---', `task: ${task}`, `cycle: ${cycle}`, 'verdict: pending', '---', `# Code review: ${UNIT} (cycle ${cycle})`, '', '## Issues', ...issues, '', '## Notes', 'Checked the capture path.', ''].join('\n');
}

/** The summary the re-run task writes (the successor's summary shape: successor-project.ts flatTaskSummary). */
const SUMMARY_TEXT = '---\nid: T01\nparent: S02\nmilestone: M001\nkey_files:\n  - src/payments/capture.ts\ncompleted_at: 2026-11-28T10:00:00Z\n---\n# T01: Payment intent\n\nFixed.\n';

function project(): { root: string; home: string } {
  const { root } = writeSuccessorLayout({ 'src/payments/capture.ts': 'export function capture(amount: number) {\n  return charge(amount);\n}\n' });
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gate-home-'));
  return { root, home };
}

describe('successor gate: the review loop as GSD runs it', function () {
  this.timeout(120_000);
  let script: string;
  before(async () => {
    script = await buildCli();
  });
  const run = (root: string, home: string, ...args: string[]) => cli(script, [...args, '--root', root], undefined, { HOME: home, GSD_HOME: path.join(home, '.gsd') });

  function install(root: string, home: string): void {
    const r = run(root, home, 'install-hooks', '--host', 'gsd');
    assert.equal(r.status, 0, r.stderr);
  }

  it('three cycles: needs-rework, the artifact deleted as GSD does, needs-rework, pass', () => {
    const { root, home } = project();
    install(root, home);

    // Cycle 1: two issues.
    assert.equal(gsdStartsGate(root), 1);
    const g1 = run(root, home, 'gate', UNIT, '--json');
    assert.equal(g1.status, 0, g1.stderr);
    assert.equal(g1.json.cycle, 1);
    assert.equal(g1.json.maxCycles, 5);
    assert.equal(g1.json.reviewFile, ARTIFACT);
    assert.equal(g1.json.unitId, UNIT);
    fs.writeFileSync(path.join(root, ARTIFACT), review(1, ['- [ ] **major** `src/payments/capture.ts:2` No idempotency key on capture.', '- [ ] **minor** `src/payments/capture.ts:1` Amount is a float.']));
    const d1 = run(root, home, 'gate', UNIT, '--done', '--json');
    assert.equal(d1.status, 0, d1.stderr);
    assert.deepEqual([d1.json.cycle, d1.json.verdict, d1.json.openIssues], [1, 'needs-rework', 2]);
    assert.equal(gsdVerdict(root), 'needs-rework', 'GSD reads needs-rework');
    // What the re-run task is pointed at (our pre-dispatch entry names this path).
    const issues = fs.readFileSync(path.join(root, '.gsd/gsd-review-loop/gate/M001/S02/T01/OPEN-ISSUES.md'), 'utf8');
    assert.match(issues, /No idempotency key on capture/);
    assert.match(issues, /Amount is a float/);

    gsdRetriesTask(root, SUMMARY_TEXT);
    assert.equal(fs.existsSync(path.join(root, ARTIFACT)), false);

    // Cycle 2: the earlier issues are in the instructions; one fixed, one still open.
    assert.equal(gsdStartsGate(root), 2);
    const g2 = run(root, home, 'gate', UNIT);
    assert.equal(g2.status, 0, g2.stderr);
    assert.match(g2.stdout, /review cycle 2 of at most 5/);
    assert.match(g2.stdout, /Issues of cycle 1/);
    assert.match(g2.stdout, /No idempotency key on capture/);
    fs.writeFileSync(path.join(root, ARTIFACT), review(2, ['- [x] **major** `src/payments/capture.ts:2` No idempotency key on capture.', '- [ ] **minor** `src/payments/capture.ts:1` Amount is a float.']));
    const d2 = run(root, home, 'gate', UNIT, '--done', '--json');
    assert.deepEqual([d2.json.cycle, d2.json.verdict, d2.json.openIssues, d2.json.resolvedIssues], [2, 'needs-rework', 1, 1]);
    assert.equal(gsdVerdict(root), 'needs-rework');

    gsdRetriesTask(root, SUMMARY_TEXT);

    // Cycle 3: nothing open.
    assert.equal(gsdStartsGate(root), 3);
    fs.writeFileSync(path.join(root, ARTIFACT), review(3, ['- [x] **minor** `src/payments/capture.ts:1` Amount is a float.']));
    const d3 = run(root, home, 'gate', UNIT, '--done');
    assert.equal(d3.status, 0, d3.stderr);
    assert.match(d3.stdout, /verdict pass/);
    assert.equal(gsdVerdict(root), 'pass', 'GSD reads pass and goes on');

    // Every cycle is visible in the state, with its issues, though GSD deleted two of the reviews.
    const state = run(root, home, 'state', '--json');
    assert.equal(state.status, 0, state.stderr);
    const task = state.json.milestones[0].slices[1].tasks[0];
    assert.deepEqual(task.reviews.slice(0, 3).map((r: { cycle: number; openIssues: unknown[]; resolvedIssues: unknown[] }) => [r.cycle, r.openIssues.length, r.resolvedIssues.length]), [[1, 2, 0], [2, 1, 1], [3, 0, 1]]);
    assert.equal(task.reviews[0].openIssues[0].location, 'src/payments/capture.ts:2');
    assert.deepEqual(task.extensions['review-loop'].outcome && [task.extensions['review-loop'].outcome.cycles, task.extensions['review-loop'].outcome.passed], [3, true]);
    assert.equal(task.extensions['successor-gate'].state, 'passed');
  });

  it('at the cap with issues open: advisory, and the issues become the task\'s pending actions', () => {
    const { root, home } = project();
    install(root, home);
    const open = '- [ ] **major** `src/payments/capture.ts:2` No idempotency key on capture.';
    for (let cycle = 1; cycle <= 5; cycle++) {
      assert.equal(gsdStartsGate(root), cycle);
      fs.writeFileSync(path.join(root, ARTIFACT), review(cycle, [open]));
      const d = run(root, home, 'gate', UNIT, '--done', '--json');
      assert.equal(d.status, 0, d.stderr);
      assert.equal(d.json.verdict, cycle < 5 ? 'needs-rework' : 'advisory', `cycle ${cycle}`);
      assert.equal(gsdVerdict(root), cycle < 5 ? 'needs-rework' : 'advisory');
      if (cycle < 5) gsdRetriesTask(root, SUMMARY_TEXT);
    }
    const state = run(root, home, 'state', '--json').json;
    const task = state.milestones[0].slices[1].tasks[0];
    assert.equal(task.reviews.filter((r: { snapshot: boolean }) => r.snapshot).length, 5);
    const pending = task.pendingActions.filter((p: { source: string }) => p.source === 'review-loop');
    assert.equal(pending.length, 1);
    assert.match(pending[0].text, /No idempotency key on capture/);
    assert.ok(state.pendingActions.some((p: { text: string }) => /No idempotency key/.test(p.text)), 'listed with the project\'s pending actions');
    assert.equal(task.extensions['successor-gate'].state, 'capped');
    // A sixth cycle is not one GSD would read.
    fs.writeFileSync(path.join(root, '.gsd/hook-state.json'), JSON.stringify({ cycleCounts: { [KEY]: 6 }, activeHook: null }));
    const over = run(root, home, 'gate', UNIT, '--done');
    assert.equal(over.status, 1);
    assert.match(over.stderr, /cycle 6 of at most 5/);
  });

  describe('hostile reviews: a clear line, exit 1, nothing recorded', () => {
    let root: string;
    let home: string;
    beforeEach(() => {
      ({ root, home } = project());
      install(root, home);
      gsdStartsGate(root);
    });
    const done = () => run(root, home, 'gate', UNIT, '--done');
    function nothingRecorded(): void {
      assert.equal(fs.existsSync(path.join(root, '.gsd/gsd-review-loop/gate/M001/S02/T01')), false, 'no record');
      assert.notEqual(gsdVerdict(root), 'pass');
      assert.notEqual(gsdVerdict(root), 'needs-rework');
    }

    it('no review written yet, or an empty one', () => {
      let r = done();
      assert.equal(r.status, 1);
      assert.match(r.stderr, /no review at \.gsd\/phases\/01-checkout-flow\/S02-T01-CODE-REVIEW\.md yet/);
      fs.writeFileSync(path.join(root, ARTIFACT), '\n  \n');
      r = done();
      assert.equal(r.status, 1);
      assert.match(r.stderr, /is empty/);
      nothingRecorded();
    });

    it('a review of another task, or of another cycle', () => {
      fs.writeFileSync(path.join(root, ARTIFACT), review(1, ['- [ ] **major** `src/a.ts:1` x'], 'T02'));
      let r = done();
      assert.equal(r.status, 1);
      assert.match(r.stderr, /a review of T02, but this gate is M001\/S02\/T01/);
      fs.writeFileSync(path.join(root, ARTIFACT), review(3, ['- [ ] **major** `src/a.ts:1` x']));
      r = done();
      assert.match(r.stderr, /says cycle 3, but GSD is on cycle 1/);
      nothingRecorded();
    });

    it('a huge review, and one that is not text', () => {
      fs.writeFileSync(path.join(root, ARTIFACT), review(1, Array.from({ length: 40_000 }, (_, i) => `- [ ] **minor** \`src/a.ts:${i + 1}\` issue number ${i} of a review that never ends`)));
      let r = done();
      assert.equal(r.status, 1);
      assert.match(r.stderr, /is over 256 KB/);
      fs.writeFileSync(path.join(root, ARTIFACT), Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0x01, 0x02]));
      r = done();
      assert.equal(r.status, 1);
      assert.match(r.stderr, /not text/);
      nothingRecorded();
    });

    it('a review file that is a link leading out of the project', () => {
      const outside = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'outside-')), 'review.md');
      fs.writeFileSync(outside, review(1, []));
      fs.symlinkSync(outside, path.join(root, ARTIFACT));
      const r = done();
      assert.equal(r.status, 1);
      assert.match(r.stderr, /cannot be used/);
      assert.equal(fs.readFileSync(outside, 'utf8'), review(1, []), 'the file outside is untouched');
      nothingRecorded();
    });

    it('a unit id that names another folder is not a task id', () => {
      const r = run(root, home, 'gate', 'M001/../../etc/T01');
      assert.equal(r.status, 2);
      assert.match(r.stderr, /is not a task id like M001\/S01\/T01/);
    });

    it('no frontmatter, or no Issues section', () => {
      fs.writeFileSync(path.join(root, ARTIFACT), '# Review\n\n- [ ] **major** `src/a.ts:1` x\n');
      let r = done();
      assert.equal(r.status, 1);
      assert.match(r.stderr, /no task: line|no frontmatter/);
      fs.writeFileSync(path.join(root, ARTIFACT), '---\ntask: T01\ncycle: 1\n---\n# Review\n\nAll fine.\n');
      r = done();
      assert.equal(r.status, 1);
      assert.match(r.stderr, /Issues/);
      nothingRecorded();
    });
  });

  it('a shared CODE-REVIEW.md in the phase folder (GSD would read it for every task) is refused', () => {
    const { root, home } = project();
    install(root, home);
    gsdStartsGate(root);
    fs.writeFileSync(path.join(root, PHASE, 'CODE-REVIEW.md'), '---\nverdict: pass\n---\n');
    const r = run(root, home, 'gate', UNIT);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /CODE-REVIEW\.md is a CODE-REVIEW\.md for more than one task/);
  });

  it('before GSD started the gate, and without the hook installed, it says what to do', () => {
    const { root, home } = project();
    let r = run(root, home, 'gate', UNIT);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /not installed .*install-hooks --host gsd/);
    install(root, home);
    r = run(root, home, 'gate', UNIT);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /GSD has not started this gate for M001\/S02\/T01/);
  });
});

describe("successor gate: a .gsd GSD moved to its own state folder (gsd-pi 1.16.1 leaves .gsd a link to $GSD_HOME/projects/<hash>)", function () {
  this.timeout(120_000);
  let script: string;
  before(async () => {
    script = await buildCli();
  });

  it('names every file through the project\'s .gsd, and uninstall still cleans up what install made', () => {
    const { root } = writeSuccessorLayout({});
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gate-home-'));
    const env = { HOME: home, GSD_HOME: path.join(home, '.gsd') };
    const run = (...args: string[]) => cli(script, [...args, '--root', root], undefined, env);
    const prefsBefore = fs.readFileSync(path.join(root, '.gsd', 'PREFERENCES.md'));
    assert.equal(run('install-hooks', '--host', 'gsd').status, 0);
    // What GSD does on the first /gsd auto: the folder moves, a link stays.
    const moved = path.join(home, '.gsd', 'projects', '5e8b5f9ae212');
    fs.mkdirSync(path.dirname(moved), { recursive: true });
    fs.renameSync(path.join(root, '.gsd'), moved);
    fs.symlinkSync(moved, path.join(root, '.gsd'));
    gsdStartsGate(root);
    const g = run('gate', UNIT, '--json');
    assert.equal(g.status, 0, g.stderr);
    assert.equal(g.json.reviewFile, ARTIFACT);
    assert.equal(g.json.task.planFile, `${PHASE}/01-02-PLAN.md`);
    const text = run('gate', UNIT).stdout;
    assert.match(text, /From \.gsd\/phases\/01-checkout-flow\/01-02-PLAN\.md:/);
    assert.doesNotMatch(text, /projects\/5e8b5f9ae212|\.\.\//);
    fs.writeFileSync(path.join(root, ARTIFACT), review(1, ['- [ ] **major** `src/pay.ts:1` Capture is not idempotent.']));
    const d = run('gate', UNIT, '--done', '--json');
    assert.equal(d.status, 0, d.stderr);
    assert.equal(d.json.snapshot, '.gsd/gsd-review-loop/gate/M001/S02/T01/CODE-REVIEW-C1.md');
    assert.equal(d.json.openIssuesFile, '.gsd/gsd-review-loop/gate/M001/S02/T01/OPEN-ISSUES.md');
    const guard = cli(script, ['gate', UNIT, '--guard', '--root', root], JSON.stringify({ toolName: 'write', input: { path: 'src/pay.ts', content: 'x' } }), env);
    assert.match(guard.json.reason, /writes only \.gsd\/phases\/01-checkout-flow\/S02-T01-CODE-REVIEW\.md/);
    // Recorded: the review file stays as --done left it.
    assert.match(cli(script, ['gate', UNIT, '--guard', '--root', root], JSON.stringify({ toolName: 'write', input: { path: ARTIFACT, content: '---\nverdict: pending\n---\n' } }), env).json.reason, /recorded already/);
    assert.equal(run('uninstall-hooks', '--host', 'gsd').status, 0);
    assert.deepEqual(fs.readFileSync(path.join(moved, 'PREFERENCES.md')), prefsBefore);
    assert.equal(fs.existsSync(path.join(moved, 'extensions')), false, 'the extensions folder install made is gone again');
  });
});

describe('successor gate: a hostile repository (the hostile review of 2026-11-28)', function () {
  this.timeout(120_000);
  let script: string;
  before(async () => {
    script = await buildCli();
  });
  function setup(extra: Record<string, string> = {}) {
    const { root } = writeSuccessorLayout(extra);
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gate-home-'));
    const env = { HOME: home, GSD_HOME: path.join(home, '.gsd') };
    const run = (...args: string[]) => cli(script, [...args, '--root', root], undefined, env);
    return { root, home, env, run };
  }

  it('M3: records planted as links to GSD\'s files are refused, and GSD\'s files stay as they were', () => {
    const { root, run } = setup();
    assert.equal(run('install-hooks', '--host', 'gsd').status, 0);
    gsdStartsGate(root);
    const dir = path.join(root, '.gsd/gsd-review-loop/gate/M001/S02/T01');
    fs.mkdirSync(dir, { recursive: true });
    fs.symlinkSync('../../../../../PREFERENCES.md', path.join(dir, 'CODE-REVIEW-C1.md'));
    const prefs = fs.readFileSync(path.join(root, '.gsd/PREFERENCES.md'));
    fs.writeFileSync(path.join(root, ARTIFACT), review(1, []));
    const r = run('gate', UNIT, '--done');
    assert.equal(r.status, 1);
    assert.match(r.stderr, /CODE-REVIEW-C1\.md is a link; the gate writes no file through a link/);
    assert.deepEqual(fs.readFileSync(path.join(root, '.gsd/PREFERENCES.md')), prefs);
  });

  it('M4: the gate reads its settings as GSD does (a `---x` line ends GSD\'s frontmatter)', () => {
    const { root, run } = setup({ '.gsd/PREFERENCES.md': '---\nversion: 1\npost_unit_hooks: []\n---x: 1\npost_unit_hooks:\n  - name: gsd-review-loop\n    after: [execute-task]\n    criticality: blocking\n    max_cycles: 1\n    artifact: REVIEW-ELSEWHERE.md\n    prompt: x\n---\n' });
    assert.equal(run('install-hooks', '--host', 'gsd').status, 0);
    gsdStartsGate(root);
    const g = run('gate', UNIT, '--json');
    assert.equal(g.status, 0, g.stderr);
    assert.deepEqual([g.json.maxCycles, g.json.reviewFile], [5, ARTIFACT]);
  });

  it('M6: planted record files are not read as cycles, and a flood of them is bounded', () => {
    const { root, run } = setup();
    assert.equal(run('install-hooks', '--host', 'gsd').status, 0);
    const dir = path.join(root, '.gsd/gsd-review-loop/gate/M001/S02/T01');
    fs.mkdirSync(dir, { recursive: true });
    const issues = (n: number) => Array.from({ length: n }, (_, i) => `- [ ] **minor** \`src/a.ts:${i + 1}\` planted issue ${i}`);
    for (const name of ['x1-C1.md', 'CODE-REVIEW-C99.md', 'CODE-REVIEW-C0.md']) fs.writeFileSync(path.join(dir, name), review(1, ['- [ ] **major** `src/a.ts:1` misnamed']));
    fs.writeFileSync(path.join(dir, 'CODE-REVIEW-C1.md'), review(1, issues(3000)));
    // Another task's record, over the size of any review.
    const t02 = path.join(root, '.gsd/gsd-review-loop/gate/M001/S02/T02');
    fs.mkdirSync(t02, { recursive: true });
    fs.writeFileSync(path.join(t02, 'CODE-REVIEW-C1.md'), review(1, issues(9000)));
    gsdStartsGate(root);
    gsdStartsGate(root);
    const g = run('gate', UNIT);
    assert.equal(g.status, 0, g.stderr);
    assert.doesNotMatch(g.stdout, /planted issue 0\b[\s\S]*planted issue 60\b/, 'at most 50 earlier issues printed');
    assert.match(g.stdout, /\(and \d+ more in/);
    assert.doesNotMatch(g.stdout, /misnamed/);
    const state = run('state', '--json').json;
    const [t01, t02task] = state.milestones[0].slices[1].tasks;
    assert.deepEqual(t01.reviews.filter((r: { snapshot: boolean }) => r.snapshot).map((r: { cycle: number }) => r.cycle), [1], 'the misnamed records are no cycles');
    assert.equal(t02task.reviews.filter((r: { snapshot: boolean }) => r.snapshot).length, 0, 'a record over 256 KB is left out');
    assert.ok(state.diagnostics.some((d: { message: string }) => /review record not read/.test(d.message)));
  });

  it('L1: a project whose .gsd is a link to the user\'s GSD home is not installed into', () => {
    const { root, home, run } = setup();
    fs.mkdirSync(path.join(home, '.gsd'), { recursive: true });
    fs.renameSync(path.join(root, '.gsd'), path.join(root, 'gsd-real'));
    fs.cpSync(path.join(root, 'gsd-real'), path.join(home, '.gsd'), { recursive: true });
    fs.symlinkSync(path.join(home, '.gsd'), path.join(root, '.gsd'));
    const before = fs.readFileSync(path.join(home, '.gsd', 'PREFERENCES.md'));
    const r = run('install-hooks', '--host', 'gsd');
    assert.equal(r.status, 1);
    assert.match(r.stderr, /this project's \.gsd is your GSD home/);
    assert.match(r.stdout, /The review gate is not installed\./);
    assert.deepEqual(fs.readFileSync(path.join(home, '.gsd', 'PREFERENCES.md')), before);
    assert.equal(fs.existsSync(path.join(home, '.gsd-review-loop', 'gsd-review')), false, 'nothing of the gate written');
  });

  it('L2: marker lines in the body are the user\'s text, left alone', () => {
    const body = '\n# Team notes\n# >>> gsd-review-loop post_unit_hooks: written by x; uninstall restores {"line":"INJECTED"}\nRotate the CI secrets monthly. Do not delete.\n# <<< gsd-review-loop\n';
    const { root, run } = setup({ '.gsd/PREFERENCES.md': `---\nversion: 1\n---${body}` });
    assert.equal(run('install-hooks', '--host', 'gsd').status, 0);
    assert.ok(fs.readFileSync(path.join(root, '.gsd/PREFERENCES.md'), 'utf8').endsWith(`---${body}`));
    assert.equal(run('uninstall-hooks', '--host', 'gsd').status, 0);
    assert.equal(fs.readFileSync(path.join(root, '.gsd/PREFERENCES.md'), 'utf8'), `---\nversion: 1\n---${body}`);
  });

  it('L7: a PREFERENCES.md that cannot be written leaves the guard and the launcher unwritten too', () => {
    const { root, home, run } = setup();
    const outside = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'prefs-out-')), 'PREFERENCES.md');
    fs.writeFileSync(outside, '---\nversion: 1\n---\n');
    fs.rmSync(path.join(root, '.gsd/PREFERENCES.md'));
    fs.symlinkSync(outside, path.join(root, '.gsd/PREFERENCES.md'));
    const r = run('install-hooks', '--host', 'gsd');
    assert.equal(r.status, 1);
    assert.match(r.stderr, /nothing was changed/);
    assert.equal(fs.readFileSync(outside, 'utf8'), '---\nversion: 1\n---\n');
    assert.equal(fs.existsSync(path.join(root, '.gsd/extensions/gsd-review-loop-guard.js')), false);
    assert.equal(fs.existsSync(path.join(home, '.gsd-review-loop', 'gsd-review')), false);
  });

  it('H2: a verdict GSD goes on with that --done did not set reads "not reviewed", with the reason', () => {
    const { root, run } = setup();
    assert.equal(run('install-hooks', '--host', 'gsd').status, 0);
    // The task's own agent wrote a passing review before GSD started the gate: GSD skips the gate on it.
    fs.writeFileSync(path.join(root, ARTIFACT), '---\nVerdict: Passed\n---\nReviewed.\n');
    let task = run('state', '--json').json.milestones[0].slices[1].tasks[0];
    assert.equal(task.extensions['successor-gate'].state, 'unrecorded');
    assert.match(task.extensions['successor-gate'].reason, /verdict: pass, which gsd-review gate --done did not set/);
    // A reviewer that rewrote the recorded verdict: the same.
    fs.rmSync(path.join(root, ARTIFACT));
    gsdStartsGate(root);
    fs.writeFileSync(path.join(root, ARTIFACT), review(1, ['- [ ] **major** `src/a.ts:1` Broken.']));
    assert.equal(run('gate', UNIT, '--done').status, 0);
    task = run('state', '--json').json.milestones[0].slices[1].tasks[0];
    assert.equal(task.extensions['successor-gate'].state, 'fixing');
    fs.writeFileSync(path.join(root, ARTIFACT), fs.readFileSync(path.join(root, ARTIFACT), 'utf8').replace('verdict: needs-rework', 'verdict: pass'));
    task = run('state', '--json').json.milestones[0].slices[1].tasks[0];
    assert.equal(task.extensions['successor-gate'].state, 'unrecorded');
  });

  it('L9: a cycle count that is not a whole number is no count of GSD\'s', () => {
    const { root, run } = setup();
    assert.equal(run('install-hooks', '--host', 'gsd').status, 0);
    fs.writeFileSync(path.join(root, '.gsd/hook-state.json'), JSON.stringify({ cycleCounts: { [KEY]: 1.5 }, activeHook: { hookName: 'gsd-review-loop', triggerUnitType: 'execute-task', triggerUnitId: UNIT, cycle: 1.5 } }));
    const r = run('gate', UNIT);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /GSD has not started this gate/);
  });
});

describe('successor gate: a gate GSD paused on is shown with what to run', function () {
  this.timeout(120_000);
  let script: string;
  before(async () => {
    script = await buildCli();
  });

  it('the cycle budget used up without a verdict GSD could go on with, and a needs-attention verdict, read "paused" with /gsd auto', () => {
    const { root } = writeSuccessorLayout({});
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gate-home-'));
    const env = { HOME: home, GSD_HOME: path.join(home, '.gsd') };
    const run = (...args: string[]) => cli(script, [...args, '--root', root], undefined, env);
    assert.equal(run('install-hooks', '--host', 'gsd').status, 0);
    // GSD ran the hook five times and never read a verdict (the reviewer never ran --done): gate block, auto paused.
    fs.writeFileSync(path.join(root, '.gsd/hook-state.json'), JSON.stringify({ cycleCounts: { [KEY]: 5 }, activeHook: null, hookQueue: [], retryPending: false, retryTrigger: null }));
    fs.writeFileSync(path.join(root, ARTIFACT), review(5, ['- [ ] **major** `src/a.ts:1` x']));
    let task = run('state', '--json').json.milestones[0].slices[1].tasks[0];
    assert.equal(task.extensions['successor-gate'].state, 'paused');
    assert.match(task.extensions['successor-gate'].reason, /after 5 of 5 cycles without a passing verdict/);
    assert.match(task.extensions['successor-gate'].next, /\/gsd auto/);
    const shown = presentTask(task, taskState(task.extensions['review-loop']), null, UNIT);
    assert.match(shown.label, /T01 · .*review paused/);
    assert.match(shown.tooltip, /\*\*Review gate paused:\*\*.*\/gsd auto/);
    // A reviewer that could not run wrote needs-attention (the prompt says to): GSD pauses on it.
    fs.writeFileSync(path.join(root, '.gsd/hook-state.json'), JSON.stringify({ cycleCounts: { [KEY]: 1 }, activeHook: null }));
    fs.writeFileSync(path.join(root, ARTIFACT), '---\nverdict: needs-attention\n---\nGSD Review Loop is not installed on this machine.\n');
    task = run('state', '--json').json.milestones[0].slices[1].tasks[0];
    assert.equal(task.extensions['successor-gate'].state, 'paused');
    assert.match(task.extensions['successor-gate'].reason, /needs-attention/);
  });
});
