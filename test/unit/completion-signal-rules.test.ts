// Automatic completion of a dispatched unit, as the README's "How each unit completes" table says:
// execute-task by its T0n-SUMMARY.md, review-task by its T0n-CODE-REVIEW.md for that cycle,
// plan/complete/replan-slice by S0n-PLAN/SUMMARY/REPLAN.md, plan/validate/complete-milestone by
// M00n-ROADMAP/VALIDATION/SUMMARY.md, each written after the dispatch; fix-task has no file signal.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DispatchRecord } from '../../src/core/dispatch/dispatch-record';
import type { UnitType } from '../../src/core/model/types';
import { completionSignal, signalFile } from '../../src/vscode/dispatch/completion-signal-rules';
import { codeReview, copySample, taskSummary } from './helpers/gsd-tree';
import { fullState } from './helpers/state';

const M2 = 'M002-k7q2xz';

describe('completion signals (which written file completes a dispatched unit)', () => {
  let root: string;
  let milestones: string;
  const record = (unitType: UnitType, unitId: string, dispatchedAt = new Date(Date.now() - 60_000).toISOString(), data?: Record<string, unknown>): DispatchRecord => ({
    unitType,
    unitId,
    prompt: '',
    source: 'default',
    dispatchedAt,
    fingerprint: 'f',
    ...(data ? { data } : {}),
  });

  beforeEach(() => {
    root = copySample();
    milestones = path.join(root, '.gsd', 'milestones');
  });

  it('names the file of each unit type, and none for fix-task', () => {
    const s = fullState(root);
    const slice = path.join(milestones, M2, 'slices', 'S02');
    const cases: Array<[UnitType, string, string | null]> = [
      ['execute-task', `${M2}/S02/T03`, path.join(slice, 'tasks', 'T03-SUMMARY.md')],
      ['review-task', `${M2}/S02/T02`, path.join(slice, 'tasks', 'T02-CODE-REVIEW.md')],
      ['plan-slice', `${M2}/S03`, path.join(milestones, M2, 'slices', 'S03', 'S03-PLAN.md')],
      ['complete-slice', `${M2}/S02`, path.join(slice, 'S02-SUMMARY.md')],
      ['replan-slice', `${M2}/S02`, path.join(slice, 'S02-REPLAN.md')],
      ['plan-milestone', 'M003', path.join(milestones, 'M003', 'M003-ROADMAP.md')],
      ['validate-milestone', 'M001', path.join(milestones, 'M001', 'M001-VALIDATION.md')],
      ['complete-milestone', 'M001', path.join(milestones, 'M001', 'M001-SUMMARY.md')],
      ['fix-task', `${M2}/S02/T02`, null],
    ];
    for (const [type, id, file] of cases) assert.equal(signalFile(s, record(type, id)), file, `${type} ${id}`);
    assert.equal(signalFile(s, record('execute-task', 'M404/S01/T01')), null, 'a milestone not in the state');
  });

  it('completes execute-task when its summary is written after the dispatch, not for another file or an older one', () => {
    const summary = path.join(milestones, M2, 'slices', 'S02', 'tasks', 'T03-SUMMARY.md');
    fs.writeFileSync(summary, taskSummary('T03', 'S02', M2));
    const s = fullState(root);
    const r = record('execute-task', `${M2}/S02/T03`);
    assert.equal(completionSignal(s, r, [summary]), summary);
    assert.equal(completionSignal(s, r, [path.join(path.dirname(summary), 'T02-SUMMARY.md')]), null);
    assert.equal(completionSignal(s, null, [summary]), null, 'no dispatch waiting');
    // Dispatched an hour after the file was written: the file is not the unit's result.
    assert.equal(completionSignal(s, record('execute-task', `${M2}/S02/T03`, new Date(Date.now() + 3_600_000).toISOString()), [summary]), null);
  });

  it('completes review-task only with a well-formed review of the dispatched cycle', () => {
    const review = path.join(milestones, M2, 'slices', 'S02', 'tasks', 'T02-CODE-REVIEW.md');
    const s = fullState(root);
    fs.writeFileSync(review, codeReview('T02', 2, 'approved', [{ text: 'fsync before rename', resolved: true }]));
    assert.equal(completionSignal(s, record('review-task', `${M2}/S02/T02`, undefined, { cycle: 2 }), [review]), review);
    assert.equal(completionSignal(s, record('review-task', `${M2}/S02/T02`, undefined, { cycle: 3 }), [review]), null, 'the review of another cycle');
    fs.writeFileSync(review, 'half a review, no heading\n');
    assert.equal(completionSignal(s, record('review-task', `${M2}/S02/T02`, undefined, { cycle: 2 }), [review]), null, 'not well formed');
  });

  it('never completes on a file that does not exist', () => {
    const s = fullState(root);
    const missing = path.join(milestones, M2, 'slices', 'S02', 'S02-REPLAN.md');
    assert.equal(completionSignal(s, record('replan-slice', `${M2}/S02`), [missing]), null);
  });
});
