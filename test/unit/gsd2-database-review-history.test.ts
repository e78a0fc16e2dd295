// Issue 25 item 6: on a GSD-2 database project the panel showed "passed in 3" with no cycles to open
// or compare, though our review files were on disk. The units come from gsd.db; the review files are
// read from the tasks folders as on a markdown project.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { openProject } from '../../src/core/project/open-project';
import { REVIEW_LOOP, taskState } from '../../src/core/hooks/builtin/review-loop/review-loop-state';
import { presentTask } from '../../src/vscode/panel/task-presentation';
import { Gsd2Project, skipWithoutSqlite } from './helpers/gsd2-database';
import { codeReview, slicePlan, taskSummary } from './helpers/gsd-tree';

const TASKS = '.gsd/milestones/M001/slices/S01/tasks';

describe('review history on a GSD-2 database project (node:sqlite)', function () {
  this.timeout(20_000);
  before(skipWithoutSqlite);
  let p: Gsd2Project;
  afterEach(() => p?.remove());

  it('reads T01\'s three review cycles (two snapshots and the live file), each with its file and issues', () => {
    p = new Gsd2Project({
      files: {
        '.gsd/milestones/M001/slices/S01/S01-PLAN.md': slicePlan('S01', 'Invoices', [{ id: 'T01', title: 'Invoice model', done: true }, { id: 'T02', title: 'CSV export' }]),
        [`${TASKS}/T01-PLAN.md`]: '# T01: Invoice model\n',
        [`${TASKS}/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001'),
        [`${TASKS}/T01-CODE-REVIEW-C1.md`]: codeReview('T01', 1, 'changes-requested', [
          { text: 'Totals are off by a cent.', severity: 'major', location: 'src/invoice.ts:12' },
          { text: 'No test for a zero amount.' },
        ]),
        [`${TASKS}/T01-CODE-REVIEW-C2.md`]: codeReview('T01', 2, 'changes-requested', [
          { text: 'Totals are off by a cent.', resolved: true },
          { text: 'No test for a zero amount.' },
        ]),
        [`${TASKS}/T01-CODE-REVIEW.md`]: codeReview('T01', 3, 'approved', [{ text: 'No test for a zero amount.', resolved: true }]),
        [`${TASKS}/T01-HOOKS.md`]: `---\nextensions:\n  ${REVIEW_LOOP}:\n    outcome:\n      cycles: 3\n      passed: true\n      completedAt: "2026-11-20T11:00:00Z"\n---\n`,
      },
    })
      .milestone({ id: 'M001', title: 'M001: Billing', status: 'active' })
      .slice({ id: 'S01', title: 'Invoices', sequence: 1 })
      .task({ id: 'T01', title: 'Invoice model', status: 'complete', sequence: 1 })
      .task({ id: 'T02', title: 'CSV export', sequence: 2 });

    const project = openProject(p.root);
    const state = project.state();
    assert.equal(state.source.kind, 'gsd2-database');
    const t01 = state.milestones[0].slices[0].tasks[0];
    assert.deepEqual(
      t01.reviews.map((r) => [r.cycle, r.verdict, r.openIssues.length, path.basename(r.file)]),
      [
        [1, 'changes-requested', 2, 'T01-CODE-REVIEW-C1.md'],
        [2, 'changes-requested', 1, 'T01-CODE-REVIEW-C2.md'],
        [3, 'approved', 0, 'T01-CODE-REVIEW.md'],
      ],
    );
    // What the panel says: passed in 3, and the last cycle's result (the cycles are its children).
    const shown = presentTask(t01, taskState(t01.extensions[REVIEW_LOOP]), null, 'M001/S01/T01');
    assert.equal(shown.label, 'T01 · passed in 3');
    assert.match(shown.tooltip, /No open issues in review cycle 3\./);
    assert.deepEqual(state.milestones[0].slices[0].tasks[1].reviews, []);
  });
});
