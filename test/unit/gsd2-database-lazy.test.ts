// The CLI's lazy read of a GSD-2 database project (`gsd-review state`, issue 16 item 6): task rows only
// of the slice the derivation looks into, the other slices' progress counted in SQL. The reference is
// the full read of the same database (every row, as the panel reads it), whose answers the other
// gsd2-database tests hold to GSD-2's own rules: whatever the lazy read claims must be what the full
// read says, and what it did not read must say so (`planLoaded: false`, `tasks: null` in the JSON).
// Needs node:sqlite (Node ≥ 22.5): run with Node 24 from the registry; skipped under Node 20.
import * as assert from 'node:assert/strict';
import { stateJson, type StateJson } from '../../src/cli/state-json';
import { openProject } from '../../src/core/project/open-project';
import { Gsd2Project, skipWithoutSqlite } from './helpers/gsd2-database';

const ISSUES = 'Totals round per line.\n\nPending actions:\n- Round the cart total once, not per line\n';

function reads(p: Gsd2Project): { lazy: StateJson; full: StateJson } {
  // Through JSON, as `state --json` prints it: what is not read must not be printed as if it were.
  const json = (full: boolean): StateJson => JSON.parse(JSON.stringify(stateJson(openProject(p.root, { reading: full ? 'full' : 'lazy' }).state(), full))) as StateJson;
  return { lazy: json(false), full: json(true) };
}

/** Every claim of the lazy read against the full read; returns the slices it left unread. */
function assertAgrees(lazy: StateJson, full: StateJson): string[] {
  assert.equal(lazy.read, 'lazy');
  assert.equal(full.read, 'full');
  const { milestones: lm, read: _l, ...lazyRest } = lazy;
  const { milestones: fm, read: _f, ...fullRest } = full;
  assert.deepEqual(lazyRest, fullRest, 'phase, active units, blockers, progress, pending actions, diagnostics');
  assert.deepEqual(
    lm.map((m) => m.id),
    fm.map((m) => m.id),
  );
  const unread: string[] = [];
  lm.forEach((m, i) => {
    const f = fm[i];
    assert.ok(m.slices && f.slices, `${m.id}: every slice row is read`);
    const { slices: ls, ...mRest } = m;
    const { slices: fs, ...fRest } = f;
    assert.deepEqual(mRest, fRest, `milestone ${m.id}`);
    assert.equal(ls!.length, fs!.length);
    ls!.forEach((s, j) => {
      const fsl = fs![j];
      if (s.planLoaded) {
        assert.deepEqual(s, fsl, `slice ${m.id}/${s.id} read in full`);
        return;
      }
      unread.push(`${m.id}/${s.id}`);
      assert.equal(s.tasks, null, `${m.id}/${s.id}: tasks not read are not printed`);
      assert.ok(fsl.progress);
      assert.equal(s.extensions, null, `${m.id}/${s.id}: hook state not read is not printed`);
      const { tasks: _lt, planLoaded: _lp, progressLoaded, extensions: _le, ...sRest } = s;
      const { tasks: _ft, planLoaded: fp, extensions: _fe, ...fsRest } = fsl;
      assert.equal(fp, true);
      assert.equal(progressLoaded, true);
      assert.deepEqual(sRest, fsRest, `slice ${m.id}/${s.id}: all but its tasks, progress counted in SQL`);
      assert.notEqual(`${m.id}/${s.id}`, `${lazy.activeMilestone?.id}/${lazy.activeSlice?.id}`, 'the active slice is read');
    });
  });
  return unread;
}

describe('GSD-2 database: the lazy read agrees with the full read (node:sqlite)', function () {
  let projects: Gsd2Project[] = [];
  const project = () => {
    const p = new Gsd2Project();
    projects.push(p);
    return p;
  };

  before(skipWithoutSqlite);
  afterEach(() => {
    for (const p of projects) p.remove();
    projects = [];
  });

  /** M001 done (with a known issue left open), M002 under way: S01 done, S02 the active one, S03 and S04 waiting. */
  function laterMilestone(): Gsd2Project {
    const p = project()
      .milestone({ id: 'M001', status: 'complete', sequence: 1 })
      .milestone({ id: 'M002', sequence: 2 })
      .milestone({ id: 'M003', status: 'queued', sequence: 3 })
      .slice({ milestoneId: 'M001', id: 'S01', status: 'complete', sequence: 1 })
      .slice({ milestoneId: 'M001', id: 'S02', status: 'complete', sequence: 2 })
      .slice({ milestoneId: 'M002', id: 'S01', status: 'complete', sequence: 1 })
      .slice({ milestoneId: 'M002', id: 'S02', sequence: 2, depends: ['S01'] })
      .slice({ milestoneId: 'M002', id: 'S03', sequence: 3, depends: ['S02'] })
      .slice({ milestoneId: 'M002', id: 'S04', status: 'deferred', sequence: 4 });
    for (const [mid, sid, statuses] of [
      ['M001', 'S01', ['complete', 'complete', 'skipped']],
      ['M001', 'S02', ['done', 'complete']],
      ['M002', 'S01', ['complete', 'closed', 'complete']],
      ['M002', 'S02', ['complete', 'pending', 'pending']],
      ['M002', 'S03', ['pending', 'pending']],
      ['M002', 'S04', ['pending']],
    ] as const) {
      statuses.forEach((status, i) =>
        p.task({ milestoneId: mid, sliceId: sid, id: `T0${i + 1}`, status, sequence: i + 1, knownIssues: mid === 'M001' && sid === 'S02' && i === 0 ? ISSUES : '' }),
      );
    }
    return p;
  }

  it('the active slice in a later milestone: only its tasks read, every other slice counted, pending actions of unread slices kept', () => {
    const { lazy, full } = reads(laterMilestone());
    assert.deepEqual([lazy.phase, lazy.activeMilestone?.id, lazy.activeSlice?.id, lazy.activeTask?.id], ['executing', 'M002', 'S02', 'T02']);
    const unread = assertAgrees(lazy, full);
    assert.deepEqual(unread, ['M001/S01', 'M001/S02', 'M002/S01', 'M002/S03', 'M002/S04']);
    // The known issue of M001/S02/T01 (a slice not read) is still a pending action.
    assert.deepEqual(
      lazy.pendingActions.map((a) => [a.milestoneId, a.sliceId, a.taskId, a.text]),
      [['M001', 'S02', 'T01', 'Round the cart total once, not per line']],
    );
    // Progress counted in SQL: skipped and closed count as closed, as isClosedStatus says.
    const m1 = lazy.milestones[0].slices!;
    assert.deepEqual(m1[0].progress, { done: 3, total: 3 });
  });

  it('gates pending on the active slice: evaluating-gates, the same in both reads', () => {
    const p = laterMilestone().gate('M002', 'S02', 'Q3').gate('M002', 'S03', 'Q4');
    const { lazy, full } = reads(p);
    assert.equal(lazy.phase, 'evaluating-gates');
    assertAgrees(lazy, full);
  });

  it('the gates GSD opens for every planned task (Q5-Q7) change nothing; a Q3 kept at task scope still counts for gate-evaluate, as GSD counts it', () => {
    const p = laterMilestone();
    for (const gate of ['Q5', 'Q6', 'Q7']) p.gate('M002', 'S02', gate, 'pending', { scope: 'task', taskId: 'T02' }).gate('M002', 'S03', gate, 'pending', { scope: 'task', taskId: 'T01' });
    let { lazy, full } = reads(p);
    assert.equal(lazy.phase, 'executing');
    assertAgrees(lazy, full);
    // gsd-db.ts getPendingGatesForTurn(mid, sid, 'gate-evaluate') asks for gate ids, whatever the scope.
    p.gate('M002', 'S02', 'Q3', 'pending', { scope: 'task', taskId: 'T02' });
    ({ lazy, full } = reads(p));
    assert.equal(lazy.phase, 'evaluating-gates');
    assertAgrees(lazy, full);
  });

  it('known issues of unread slices: a `Pending actions:` line in any case or bold is found; text without one (GSD\'s "None.") gives none', () => {
    const p = laterMilestone()
      .run("UPDATE tasks SET known_issues = 'None.' WHERE milestone_id = 'M001' AND slice_id = 'S01'")
      .run("UPDATE tasks SET known_issues = '**PENDING ACTIONS:**\n- Check the rounding\n' WHERE milestone_id = 'M002' AND slice_id = 'S01' AND id = 'T01'")
      .run("UPDATE tasks SET known_issues = 'pending Actions\n- Log the retry\n' WHERE milestone_id = 'M002' AND slice_id = 'S04' AND id = 'T01'");
    const { lazy, full } = reads(p);
    assertAgrees(lazy, full);
    assert.deepEqual(
      lazy.pendingActions.map((a) => [a.milestoneId, a.sliceId, a.taskId, a.text]),
      [
        ['M001', 'S02', 'T01', 'Round the cart total once, not per line'],
        ['M002', 'S01', 'T01', 'Check the rounding'],
        ['M002', 'S04', 'T01', 'Log the retry'],
      ],
    );
  });

  it('replanning: a blocker found by a closed task, then answered by a replan; and triage asking for one', () => {
    const blocker = laterMilestone().run("UPDATE tasks SET blocker_discovered = 1 WHERE milestone_id = 'M002' AND slice_id = 'S02' AND id = 'T01'");
    let { lazy, full } = reads(blocker);
    assert.equal(lazy.phase, 'replanning-slice');
    assert.deepEqual(lazy.replanTrigger, { taskId: 'T01', reason: 'blocker' });
    assertAgrees(lazy, full);

    blocker.replan('M002', 'S02', 'T01');
    ({ lazy, full } = reads(blocker));
    assert.equal(lazy.phase, 'executing');
    assertAgrees(lazy, full);

    const triage = laterMilestone().run("UPDATE slices SET replan_triggered_at = '2026-11-20T11:00:00Z' WHERE milestone_id = 'M002' AND id = 'S02'");
    ({ lazy, full } = reads(triage));
    assert.equal(lazy.phase, 'replanning-slice');
    assertAgrees(lazy, full);
  });

  it('all complete, validating and summarizing: no slice is active, so no task row is read', () => {
    const done = project().milestone({ id: 'M001', status: 'complete' }).milestone({ id: 'M002', status: 'done' });
    done.slice({ milestoneId: 'M001', id: 'S01', status: 'complete' }).task({ milestoneId: 'M001', sliceId: 'S01', id: 'T01', status: 'complete', knownIssues: ISSUES });
    done.slice({ milestoneId: 'M002', id: 'S01', status: 'complete' }).task({ milestoneId: 'M002', sliceId: 'S01', id: 'T01', status: 'complete' });
    let { lazy, full } = reads(done);
    assert.equal(lazy.phase, 'complete');
    assert.deepEqual(assertAgrees(lazy, full), ['M001/S01', 'M002/S01']);
    assert.equal(lazy.pendingActions.length, 1);

    const validating = project().milestone({ id: 'M001' }).slice({ id: 'S01', status: 'complete' }).task({ id: 'T01', status: 'complete' });
    ({ lazy, full } = reads(validating));
    assert.equal(lazy.phase, 'validating-milestone');
    assert.deepEqual(assertAgrees(lazy, full), ['M001/S01']);

    const summarizing = project().milestone({ id: 'M001' }).slice({ id: 'S01' }).task({ id: 'T01', status: 'complete' }).slice({ id: 'S02', sequence: 2 }).task({ sliceId: 'S02', id: 'T01' });
    ({ lazy, full } = reads(summarizing));
    assert.equal(lazy.phase, 'summarizing');
    assert.deepEqual(assertAgrees(lazy, full), ['M001/S02']);
  });

  it('an active slice with no task rows (planning) and a slice with no tasks elsewhere: 0 of 0 counted, the same as the full read', () => {
    const p = project().milestone({ id: 'M001' }).slice({ id: 'S01', sequence: 1 }).slice({ id: 'S02', sequence: 2 });
    const { lazy, full } = reads(p);
    assert.equal(lazy.phase, 'planning');
    assert.deepEqual(assertAgrees(lazy, full), ['M001/S02']);
    assert.deepEqual(lazy.milestones[0].slices![1].progress, { done: 0, total: 0 });
  });

  it('hook state (sidecars): read for the milestones and the slice read, with its tasks; not read (null) for the others', () => {
    const p = laterMilestone().write({
      '.gsd/milestones/M002/M002-HOOKS.md': '---\nextensions:\n  review-loop:\n    note: milestone\n---\n',
      '.gsd/milestones/M002/slices/S02/S02-HOOKS.md': '---\nextensions:\n  review-loop:\n    note: active slice\n---\n',
      '.gsd/milestones/M002/slices/S02/tasks/T01-HOOKS.md': '---\nextensions:\n  review-loop:\n    note: active task\n---\n',
      '.gsd/milestones/M002/slices/S03/S03-HOOKS.md': '---\nextensions:\n  review-loop:\n    note: later slice\n---\n',
    });
    const { lazy, full } = reads(p);
    assertAgrees(lazy, full);
    const m2 = lazy.milestones[1];
    assert.deepEqual(m2.extensions, { 'review-loop': { note: 'milestone' } });
    assert.deepEqual(m2.slices![1].extensions, { 'review-loop': { note: 'active slice' } });
    assert.deepEqual(m2.slices![1].tasks![0].extensions, { 'review-loop': { note: 'active task' } });
    assert.deepEqual(full.milestones[1].slices![2].extensions, { 'review-loop': { note: 'later slice' } });
  });

  it('the JSON of the lazy read leaves out the unread tasks (smaller than the full read)', () => {
    const p = laterMilestone();
    const { lazy, full } = reads(p);
    assert.ok(JSON.stringify(lazy).length < JSON.stringify(full).length);
    assert.equal(lazy.milestones[1].slices![1].tasks!.length, 3);
  });
});
