// State read back from our own files, edited into wrong shapes (by hand, a merge, another tool): each
// wrong value is a diagnostic naming the file and the key, `next` and `complete` keep working, a
// stored cycle past max_cycles never dispatches past the cap, and an invalid max_cycles is said.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildCli, cli } from './helpers/cli';
import { codeReview, roadmap, slicePlan, taskSummary, writeTree } from './helpers/gsd-tree';

const M = '.gsd/milestones/M001';
const TASKS = `${M}/slices/S01/tasks`;
const R = 'milestones/M001/slices/S01/tasks';

/** T01 done and under review; its PLAN frontmatter carries `block` as extensions.review-loop (YAML lines). */
function project(block: string, maxCycles: string = '5'): string {
  return writeTree({
    '.gsd/PREFERENCES.md': `---\ngsd_hooks:\n  enabled:\n    - name: review-loop\n      options: { max_cycles: ${maxCycles} }\n    - name: pending-actions\n---\n`,
    [`${M}/M001-ROADMAP.md`]: roadmap('M001', 'Invoicing', [{ id: 'S01', title: 'Invoice PDFs' }]),
    [`${M}/slices/S01/S01-PLAN.md`]: slicePlan('S01', 'Invoice PDFs', [{ id: 'T01', title: 'Render invoice', done: true }, { id: 'T02', title: 'Attach logo' }]),
    [`${TASKS}/T01-PLAN.md`]: `---\nid: T01\nextensions:\n  review-loop:\n${block}---\n# T01: Render invoice\n`,
    [`${TASKS}/T02-PLAN.md`]: '# T02: Attach logo\n',
    [`${TASKS}/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001', { completedAt: '2026-11-20T10:00:00Z' }),
    [`${TASKS}/T01-CODE-REVIEW-C1.md`]: codeReview('T01', 1, 'changes-requested', [{ text: 'Totals are rounded per line.', location: 'src/invoice.ts:88' }]),
  });
}

const diagText = (json: { diagnostics: Array<{ file: string; message: string }> }) => json.diagnostics.map((d) => `${d.file}: ${d.message}`).join('\n');

describe('validated state (class 7)', function () {
  this.timeout(60_000);
  let gsd: string;
  before(async () => {
    gsd = await buildCli();
  });
  const run = (root: string, ...args: string[]) => {
    const r = cli(gsd, [...args, '--root', root, '--json']);
    assert.equal(r.status, 0, `${args.join(' ')} failed: ${r.stderr}`);
    return r.json;
  };

  const wrongShapes: Array<[string, string, RegExp]> = [
    ['lastReviewPath: 5', '    activeReview:\n      taskId: T01\n      cycle: 2\n      status: fixing\n      lastReviewPath: 5\n', /extensions\.review-loop\.activeReview\.lastReviewPath/],
    ['history: "abc"', '    history: abc\n', /extensions\.review-loop\.history\b/],
    ['[null] in history', '    history:\n      - null\n', /extensions\.review-loop\.history\[0\]/],
    ['[null] in pendingActions', '    pendingActions:\n      - null\n', /extensions\.review-loop\.pendingActions\[0\]/],
    ['a list for the block', '    - 1\n', /extensions\.review-loop\b/],
  ];
  for (const [name, block, key] of wrongShapes) {
    it(`${name}: a diagnostic naming T01-PLAN.md and the key, and next/complete keep working`, () => {
      const root = project(block);
      const next = run(root, 'next');
      assert.match(diagText(next), new RegExp(`T01-PLAN\\.md: review-loop: ${key.source}`));
      const applied = run(root, 'next', '--apply');
      assert.equal(applied.unitId, 'M001/S01/T01');
      fs.writeFileSync(path.join(root, TASKS, 'T01-CODE-REVIEW.md'), codeReview('T01', applied.data.cycle, 'approved', []));
      run(root, 'complete');
      assert.equal(run(root, 'next').unitId, 'M001/S01/T02', 'the slice moves on after the approved review');
    });
  }

  it('a stored cycle above max_cycles never dispatches past the cap; open issues become pending actions', () => {
    const root = project(`    activeReview:\n      taskId: T01\n      cycle: 99\n      status: fixing\n      lastReviewPath: ${R}/T01-CODE-REVIEW-C1.md\n`);
    const next = run(root, 'next', '--apply');
    assert.doesNotMatch(next.prompt ?? '', /cycle 99/);
    assert.notEqual(next.unitType, 'fix-task');
    assert.notEqual(next.unitType, 'review-task');
    assert.match(diagText(next), /review cycle 99 of T01 is past max_cycles 5/);
    // The old block moved out of the plan into the sidecar, where the capped outcome is recorded.
    assert.doesNotMatch(fs.readFileSync(path.join(root, TASKS, 'T01-PLAN.md'), 'utf8'), /extensions/);
    const sidecar = fs.readFileSync(path.join(root, TASKS, 'T01-HOOKS.md'), 'utf8');
    assert.match(sidecar, /passed: false/);
    assert.match(sidecar, /Totals are rounded per line/);
  });

  it('deleting activeReview does not restart the count: the loop resumes after the recorded cycles', () => {
    const history = (cycles: number[]) => cycles.map((c) => `      - cycle: ${c}\n        verdict: changes-requested\n        openIssues: 1\n        resolvedIssues: 0\n        reviewPath: ${R}/T01-CODE-REVIEW-C1.md\n`).join('');
    // Two cycles recorded: the next review is cycle 3, not cycle 1.
    const resumed = run(project(`    history:\n${history([1, 2])}`), 'next');
    assert.equal(resumed.unitType, 'review-task');
    assert.equal(resumed.unitId, 'M001/S01/T01');
    assert.equal(resumed.data.cycle, 3);
    assert.match(resumed.prompt, /review cycle 3 of at most 5/);
    // All five recorded: past the cap, the loop stops, says so, and the work goes on with T02.
    const capped = run(project(`    history:\n${history([1, 2, 3, 4, 5])}`), 'next');
    assert.equal(capped.unitType, 'execute-task', `dispatched ${capped.unitType}: ${capped.reason}`);
    assert.equal(capped.unitId, 'M001/S01/T02');
    assert.match(diagText(capped), /T01-PLAN\.md: review-loop: review cycle 6 of T01 is past max_cycles 5/);
  });

  it('an invalid max_cycles is a diagnostic, not a silent 5', () => {
    for (const bad of ['lots', '0', '2.5', '[3]']) {
      const next = run(project('    history: []\n', bad), 'next');
      assert.match(diagText(next), /max_cycles of the review-loop hook is .*; it must be a whole number from 1 to 50/, `max_cycles: ${bad}`);
    }
  });

  it('wrong types in PREFERENCES.md gsd_hooks: named, and the hooks still run', () => {
    const root = project('    history: []\n');
    fs.writeFileSync(path.join(root, '.gsd', 'PREFERENCES.md'), '---\ngsd_hooks:\n  enabled:\n    - name: review-loop\n      options: [5]\n  disabled:\n    - null\n---\n');
    const next = run(root, 'next');
    assert.match(diagText(next), /PREFERENCES\.md: gsd_hooks\.enabled: options of hook review-loop must be a mapping/);
    assert.match(diagText(next), /PREFERENCES\.md: gsd_hooks\.disabled\[0\] is null, not a hook name/);
    assert.equal(next.source, 'review-loop');
  });

  it('a folder where the review file belongs: complete says so and keeps the review open', () => {
    const root = project('    history: []\n');
    run(root, 'next', '--apply');
    fs.mkdirSync(path.join(root, TASKS, 'T01-CODE-REVIEW.md'));
    const done = run(root, 'complete');
    assert.match(diagText(done), /T01-CODE-REVIEW\.md/);
    assert.equal(run(root, 'next').unitType, 'review-task');
  });

  it('a dispatch record with wrong types: named, and complete/next keep working', () => {
    const root = project('    history: []\n');
    const runtime = path.join(root, '.gsd', 'gsd-review-loop');
    fs.mkdirSync(runtime, { recursive: true });
    fs.writeFileSync(path.join(runtime, 'dispatch.json'), JSON.stringify({ current: { unitType: 5, unitId: ['x'] }, history: [null, 'abc'] }));
    const next = run(root, 'next', '--apply');
    assert.match(diagText(next), /dispatch\.json: dispatch record: current\.unitType is not understood/);
    assert.match(diagText(next), /history\[0\]/);
    assert.equal(next.unitType, 'review-task');
  });
});
