// The review panel's words for a task, from the sample project as derived and from the unit
// GSD: Next Unit really decides (hooks included), not from the default dispatch's active task.
import * as assert from 'node:assert/strict';
import { BUILTIN_HOOKS } from '../../src/builtin-hooks';
import { dispatchNextUnit } from './helpers/one-shot-dispatch';
import { REVIEW_LOOP, taskState } from '../../src/core/hooks/builtin/review-loop/review-loop-state';
import type { GSDState, TaskEntry } from '../../src/core/model/types';
import { presentTask, type NextUnitRef } from '../../src/vscode/panel/task-presentation';
import { copySample } from './helpers/gsd-tree';
import { fullState } from './helpers/state';

const M2 = 'M002-k7q2xz';

describe('review panel: how a task is shown', () => {
  let state: GSDState;
  let next: NextUnitRef;
  const task = (id: string): TaskEntry => state.milestones[1].slices[1].tasks.find((t) => t.id === id)!;
  const show = (id: string) => presentTask(task(id), taskState(task(id).extensions[REVIEW_LOOP]), next, `${M2}/S02/${id}`);

  before(async () => {
    const root = copySample();
    state = fullState(root);
    const out = await dispatchNextUnit({ root, builtins: BUILTIN_HOOKS });
    next = out.decision!;
  });

  it('the sample: Next Unit decides fix-task T02 while the default dispatch would execute T03', () => {
    // The facts the issue reports; the panel must follow the first, not the second.
    assert.deepEqual([next.unitType, next.unitId, next.source], ['fix-task', `${M2}/S02/T02`, 'review-loop']);
    assert.equal(state.activeTask?.id, 'T03');
  });

  it('marks "next" on the unit Next Unit dispatches, and only there', () => {
    assert.equal(show('T02').label, 'T02 · next · cycle 2: fixing');
    assert.equal(show('T02').description, '2 pending · rule add / remove commands');
    assert.equal(show('T03').label, 'T03');
    assert.equal(show('T01').label, 'T01 · passed in 3');
  });

  it('puts the state in the label and the title in the description, so a narrow sidebar cuts the title', () => {
    for (const id of ['T01', 'T02', 'T03']) {
      const shown = show(id);
      assert.ok(shown.description.endsWith(task(id).title), shown.description);
      assert.ok(!shown.label.includes(task(id).title));
    }
    // A 300 px sidebar (VS Code's default) shows about 30 characters of a task row at its depth
    // (the demo's screenshot cut "T02 · next · cycle 2: fixing · 2 pending" after 33).
    assert.ok(show('T02').label.length <= 30, show('T02').label);
    // The same for the row in flight in either half of a cycle (the demo's cut "T02 · in flight · cycle 2: in revie…").
    const t02 = task('T02');
    for (const status of ['pending_review', 'fixing'] as const) {
      const recorded = t02.extensions[REVIEW_LOOP] as { activeReview: Record<string, unknown> };
      const review = taskState({ ...recorded, activeReview: { ...recorded.activeReview, status } });
      assert.equal(review.activeReview?.status, status);
      const flying = presentTask(t02, review, next, `${M2}/S02/T02`, undefined, { inFlight: { unitType: 'review-task', unitId: `${M2}/S02/T02`, ago: 'now' } });
      assert.equal(flying.label, 'T02 · in flight · cycle 2');
    }
  });

  it('the tooltip tells the review: cycle, status, open issues, pending actions and the summary one-liner', () => {
    const tip = show('T02').tooltip;
    assert.match(tip, /\*\*Review cycle 2:\*\* fixing the issues of the last review/);
    assert.match(tip, /\*\*Next unit:\*\* `fix-task` \(decided by review-loop\)/);
    assert.match(tip, /\*\*Open issues\*\* \(review cycle 1\):\n- \*\*major\*\* `src\/rules-file\.ts:57` The temporary file is written next to rules\.yaml but never fsynced before rename\./);
    assert.match(tip, /\*\*Pending actions\*\* \(2\):\n- Keep CRLF line endings of rules\.yaml when writing \(test is pending\)/);
    // T02-SUMMARY.md's bold line, its code spans as code (no raw backticks shown).
    assert.match(tip, /\n`ledgerline rule add` and `rule remove` edit rules\.yaml and keep the user's comments\.\n/);
    // Its code spans in the open issues and pending actions too.
    assert.match(tip, /- \*\*minor\*\* `src\/commands\/rule\.ts:22` `rule remove` of a missing pattern exits 0/);
    assert.match(tip, /- Refuse `rule add` when the same pattern/);
    // A task being fixed is not just "done", and its summary's verification is named as the summary's.
    assert.match(tip, /\nStatus: fixing review issues · summary verification: mixed · estimate 1h\n/);
    const t01 = show('T01').tooltip;
    assert.match(t01, /\*\*Review:\*\* passed in 3 cycles/);
    assert.match(t01, /No open issues in review cycle 3\./);
    assert.match(show('T03').tooltip, /\*\*Review:\*\* none yet/);
  });

  it('a review of 50,000 open issues and a summary of 50,000 pending actions: the tooltip lists 20 of each and says how many more', () => {
    const t = task('T02');
    const last = t.reviews[t.reviews.length - 1];
    const issues = Array.from({ length: 50_000 }, (_, i) => ({ ...last.openIssues[0], text: `Finding ${i}`, line: 10 + i }));
    const pending = Array.from({ length: 50_000 }, (_, i) => ({ ...t.pendingActions[0], text: `Action ${i}` }));
    const hostile = { ...t, reviews: [...t.reviews.slice(0, -1), { ...last, openIssues: issues }], pendingActions: pending } as TaskEntry;
    const tip = presentTask(hostile, taskState(t.extensions[REVIEW_LOOP]), next, `${M2}/S02/T02`).tooltip;
    // In full, 50,000 of them kept the extension host from answering for minutes (tooltip-list.ts).
    assert.equal(tip.match(/Finding \d+/g)?.length, 20);
    assert.match(tip, /Finding 19\n- … and 49,980 more \(see the review\)/);
    assert.match(tip, /\*\*Pending actions\*\* \(50000\):/);
    assert.equal(tip.match(/Action \d+/g)?.length, 20);
    assert.match(tip, /- Action 19\n- … and 49,980 more/);
    assert.ok(tip.length < 5000, `${tip.length} characters`);
  });

  it('with no decision (nothing to dispatch) no task is "next"', () => {
    const t = task('T02');
    assert.equal(presentTask(t, taskState(t.extensions[REVIEW_LOOP]), null, `${M2}/S02/T02`).label, 'T02 · cycle 2: fixing');
  });
});
