// The review loop end to end through the CLI, as an agent-driving script would use it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseFrontmatter } from '../../src/core/parse/frontmatter';
import { buildCli, cli } from './helpers/cli';
import { codeReview, roadmap, slicePlan, taskSummary, writeTree } from './helpers/gsd-tree';

const M = '.gsd/milestones/M001';
const TASKS = `${M}/slices/S01/tasks`;

function project(maxCycles = 5): string {
  return writeTree({
    '.gsd/PREFERENCES.md': `---\ngsd_hooks:\n  enabled:\n    - name: review-loop\n      options: { max_cycles: ${maxCycles} }\n    - name: pending-actions\n---\n`,
    [`${M}/M001-ROADMAP.md`]: roadmap('M001', 'Invoicing', [{ id: 'S01', title: 'Invoice PDFs' }, { id: 'S02', title: 'Email', depends: ['S01'] }]),
    [`${M}/slices/S01/S01-PLAN.md`]: slicePlan('S01', 'Invoice PDFs', [{ id: 'T01', title: 'Render invoice', done: true }, { id: 'T02', title: 'Attach logo' }, { id: 'T03', title: 'Page numbers' }]),
    [`${TASKS}/T01-PLAN.md`]: T01_PLAN,
    [`${TASKS}/T02-PLAN.md`]: '# T02: Attach logo\n',
    [`${TASKS}/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001', { completedAt: '2026-11-20T10:00:00Z' }),
  });
}

const T01_PLAN = '---\nid: T01\n---\n# T01: Render invoice\n\nRender an invoice to PDF with pdfkit.\n';

/** The review-loop block of the task's sidecar T01-HOOKS.md, as it is on disk. */
function block(root: string): unknown {
  return (parseFrontmatter(fs.readFileSync(path.join(root, TASKS, 'T01-HOOKS.md'), 'utf8'), 'T01-HOOKS.md').data.extensions as Record<string, unknown> | undefined)?.['review-loop'];
}

const R = 'milestones/M001/slices/S01/tasks';

describe('review loop through the CLI (end to end)', function () {
  this.timeout(60_000);
  let gsd: string;
  before(async () => {
    gsd = await buildCli();
  });
  const run = (root: string, ...args: string[]) => {
    const r = cli(gsd, [...args, '--root', root, '--json']);
    assert.equal(r.status, 0, r.stderr);
    return r.json;
  };
  const writeReview = (root: string, cycle: number, verdict: string, issues: Parameters<typeof codeReview>[3]) =>
    fs.writeFileSync(path.join(root, TASKS, 'T01-CODE-REVIEW.md'), codeReview('T01', cycle, verdict, issues));

  it('review → fix → review → approve, then the slice moves on to its next task', () => {
    const root = project();
    const step1 = run(root, 'next', '--apply');
    assert.deepEqual([step1.unitType, step1.unitId, step1.source, step1.data.cycle], ['review-task', 'M001/S01/T01', 'review-loop', 1]);
    assert.match(step1.prompt, /the only file you write is \.gsd\/milestones\/M001\/slices\/S01\/tasks\/T01-CODE-REVIEW\.md/);
    assert.deepEqual(block(root), { activeReview: { taskId: 'T01', cycle: 1, status: 'pending_review', lastReviewPath: '' }, history: [] });

    writeReview(root, 1, 'changes-requested', [
      { text: 'Totals are rounded per line, not per invoice.', location: 'src/invoice.ts:88' },
      { text: 'No test for an invoice without lines.', severity: 'minor', location: 'test/invoice.test.ts:1' },
    ]);
    run(root, 'complete');
    assert.deepEqual(block(root), {
      activeReview: { taskId: 'T01', cycle: 2, status: 'fixing', lastReviewPath: `${R}/T01-CODE-REVIEW-C1.md` },
      history: [{ cycle: 1, verdict: 'changes-requested', openIssues: 2, resolvedIssues: 0, reviewPath: `${R}/T01-CODE-REVIEW-C1.md` }],
    });
    assert.ok(fs.existsSync(path.join(root, TASKS, 'T01-CODE-REVIEW-C1.md')));

    const step3 = run(root, 'next', '--apply');
    assert.deepEqual([step3.unitType, step3.data.cycle], ['fix-task', 2]);
    assert.match(step3.prompt, /- \[major\] src\/invoice\.ts:88: Totals are rounded per line/);
    assert.match(step3.prompt, /- \[minor\] test\/invoice\.test\.ts:1: No test for an invoice without lines\./);

    run(root, 'complete');
    assert.deepEqual((block(root) as { activeReview: unknown }).activeReview, { taskId: 'T01', cycle: 2, status: 'pending_review', lastReviewPath: `${R}/T01-CODE-REVIEW-C1.md` });

    const step5 = run(root, 'next', '--apply');
    assert.deepEqual([step5.unitType, step5.data.cycle], ['review-task', 2]);
    assert.match(step5.prompt, /The previous review is \.gsd\/milestones\/M001\/slices\/S01\/tasks\/T01-CODE-REVIEW-C1\.md/);

    writeReview(root, 2, 'approved', [
      { text: 'Totals are rounded per line, not per invoice.', location: 'src/invoice.ts:88', resolved: true },
      { text: 'No test for an invoice without lines.', severity: 'minor', resolved: true },
    ]);
    const done = run(root, 'complete');
    assert.equal(done.unitType, 'review-task');
    const final = block(root) as Record<string, unknown>;
    assert.equal(final.activeReview, undefined);
    assert.deepEqual(final.outcome, { cycles: 2, passed: true, completedAt: done.completedAt });
    assert.equal((final.history as unknown[]).length, 2);
    // GSD's own task plan was never written: everything went to the sidecar.
    assert.equal(fs.readFileSync(path.join(root, TASKS, 'T01-PLAN.md'), 'utf8'), T01_PLAN);

    const next = run(root, 'next');
    assert.deepEqual([next.unitType, next.unitId, next.source], ['execute-task', 'M001/S01/T02', 'default']);
    const state = cli(gsd, ['state', '--root', root, '--json']).json;
    assert.deepEqual(state.extensions, {});
    const t01 = state.milestones[0].slices[0].tasks[0];
    assert.deepEqual(t01.reviews.map((r: { cycle: number; passed: boolean }) => [r.cycle, r.passed]), [[1, false], [2, true]]);
  });

  it('stops at the cap and turns the open issues into pending actions, which ask for a replan', () => {
    const root = project(5);
    for (let cycle = 1; cycle <= 5; cycle++) {
      const review = run(root, 'next', '--apply');
      assert.deepEqual([review.unitType, review.data.cycle], ['review-task', cycle]);
      writeReview(root, cycle, 'changes-requested', [{ text: 'The PDF is not deterministic (timestamps embedded).', location: 'src/pdf.ts:12' }]);
      run(root, 'complete');
      if (cycle < 5) {
        assert.equal(run(root, 'next', '--apply').unitType, 'fix-task');
        run(root, 'complete');
      }
    }
    const final = block(root) as Record<string, unknown>;
    assert.equal(final.activeReview, undefined);
    assert.deepEqual((final.outcome as Record<string, unknown>).passed, false);
    assert.equal((final.outcome as Record<string, unknown>).cycles, 5);
    assert.deepEqual(final.pendingActions, ['[major] src/pdf.ts:12: The PDF is not deterministic (timestamps embedded). (still open after review cycle 5)']);
    assert.equal((final.history as unknown[]).length, 5);

    const state = cli(gsd, ['state', '--root', root, '--json']).json;
    assert.deepEqual(state.pendingActions.map((a: { taskId: string; source: string }) => [a.taskId, a.source]), [['T01', 'review-loop']]);
    const replan = run(root, 'next');
    assert.deepEqual([replan.unitType, replan.unitId, replan.source, replan.data.triggerTaskId], ['replan-slice', 'M001/S01', 'pending-actions', 'T01']);
    assert.match(replan.prompt, /The PDF is not deterministic/);
  });

  for (const [name, text, message] of [
    ['missing', null, /wrote no review file/],
    ['empty', '', /empty/],
    ['malformed', '# Looks fine to me\n\nShip it.\n', /malformed/],
    ['for the wrong task', codeReview('T02', 1, 'approved', []), /for T02, not T01/],
    ['for the wrong cycle', codeReview('T01', 3, 'approved', []), /for cycle 3, not cycle 1/],
  ] as const) {
    it(`does not advance on a review file that is ${name}, and says why`, () => {
      const root = project();
      run(root, 'next', '--apply');
      const before = block(root);
      if (text !== null) fs.writeFileSync(path.join(root, TASKS, 'T01-CODE-REVIEW.md'), text);
      const out = run(root, 'complete');
      assert.deepEqual(block(root), before);
      assert.ok(out.diagnostics.some((d: { message: string }) => message.test(d.message)), JSON.stringify(out.diagnostics));
      assert.ok(!fs.existsSync(path.join(root, TASKS, 'T01-CODE-REVIEW-C1.md')));
    });
  }
});
