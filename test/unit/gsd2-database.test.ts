// State of GSD-2 database projects, built by the tests from the schema facts (helpers/gsd2-database.ts).
// Every expectation is GSD-2's own answer: gsd-build/gsd-2 at 76568edc, src/resources/extensions/gsd/
// state.ts `deriveStateFromDb` (function named per test), and where GSD-2's test suite has the same
// case, the answer it recorded (its conformance corpus, docs/project-kinds.md "Conformance with GSD-2":
// db-scenarios.json, test named per case).
// Needs node:sqlite (Node ≥ 22.5): run with Node 24 from the registry; skipped under Node 20.
import * as assert from 'node:assert/strict';
import { readGsd2Database, type Gsd2DatabaseRead } from '../../src/core/gsd2-database';
import { Gsd2Project, skipWithoutSqlite } from './helpers/gsd2-database';
import { roadmap, slicePlan, taskSummary } from './helpers/gsd-tree';

function stateOf(read: Gsd2DatabaseRead) {
  assert.ok('state' in read, `expected a state, got unavailable: ${'unavailable' in read ? read.unavailable : ''}`);
  return read.state;
}

function brief(read: Gsd2DatabaseRead) {
  const s = stateOf(read);
  return { phase: s.phase, milestone: s.activeMilestone?.id ?? null, slice: s.activeSlice?.id ?? null, task: s.activeTask?.id ?? null };
}

describe('GSD-2 database state (deriveStateFromDb rules)', function () {
  let projects: Gsd2Project[] = [];
  const project = (options?: ConstructorParameters<typeof Gsd2Project>[0]) => {
    const p = new Gsd2Project(options);
    projects.push(p);
    return p;
  };
  const read = (p: Gsd2Project) => readGsd2Database(p.gsdDir);

  before(skipWithoutSqlite);
  afterEach(() => {
    for (const p of projects) p.remove();
    projects = [];
  });

  describe('milestones', () => {
    it('an empty database is pre-planning with no active milestone (derive-state-db: empty DB)', () => {
      const r = read(project());
      assert.deepEqual(brief(r), { phase: 'pre-planning', milestone: null, slice: null, task: null });
      assert.equal(r.source, 'gsd2-database');
      assert.ok('schemaVersion' in r && r.schemaVersion === 29);
    });

    it('a milestone with no slices is pre-planning; needs-discussion status makes it needs-discussion', () => {
      assert.deepEqual(brief(read(project().milestone({ id: 'M001' }))), { phase: 'pre-planning', milestone: 'M001', slice: null, task: null });
      assert.deepEqual(brief(read(project().milestone({ id: 'M001', status: 'needs-discussion' }))), { phase: 'needs-discussion', milestone: 'M001', slice: null, task: null });
    });

    it('every milestone closed is complete; closed means complete, done, skipped or closed (status-guards.ts)', () => {
      const p = project()
        .milestone({ id: 'M001', status: 'complete' })
        .milestone({ id: 'M002', status: 'done' })
        .milestone({ id: 'M003', status: 'skipped' })
        .milestone({ id: 'M004', status: 'closed' });
      const s = stateOf(read(p));
      assert.equal(s.phase, 'complete');
      assert.deepEqual(s.progress.milestones, { done: 4, total: 4 });
      assert.deepEqual(s.milestones.map((m) => m.status), ['complete', 'complete', 'complete', 'complete']);
    });

    it('parked milestones are skipped; only parked ones left is pre-planning without a blocker (handleNoActiveMilestone)', () => {
      const p = project().milestone({ id: 'M001', status: 'parked' }).milestone({ id: 'M002' });
      assert.deepEqual(brief(read(p)), { phase: 'pre-planning', milestone: 'M002', slice: null, task: null });
      const onlyParked = stateOf(read(project().milestone({ id: 'M001', status: 'complete' }).milestone({ id: 'M002', status: 'parked' })));
      assert.equal(onlyParked.phase, 'pre-planning');
      assert.equal(onlyParked.activeMilestone, null);
      assert.deepEqual(onlyParked.blockers, []);
    });

    it('unmet milestone dependencies leave it pending; all pending is blocked with the dependencies named', () => {
      const p = project().milestone({ id: 'M001', dependsOn: ['M002'] }).milestone({ id: 'M002', dependsOn: ['M001'] });
      const s = stateOf(read(p));
      assert.equal(s.phase, 'blocked');
      assert.equal(s.blockers.length, 2);
      assert.match(s.blockers[0], /M001.*M002/);
      // multi-milestone deps via DB: M001 complete, M002 depends on it → M002 active, planning S01.
      const q = project()
        .milestone({ id: 'M001', status: 'complete' })
        .milestone({ id: 'M002', dependsOn: ['M001'] })
        .slice({ milestoneId: 'M002', id: 'S01' });
      assert.deepEqual(brief(read(q)), { phase: 'planning', milestone: 'M002', slice: 'S01', task: null });
    });

    it('a queued shell (status queued, no slices) gives way to a later milestone (stale-queued-milestone: multiple queued shells skipped)', () => {
      const p = project()
        .milestone({ id: 'M068', status: 'queued' })
        .milestone({ id: 'M069', status: 'queued' })
        .milestone({ id: 'M070' })
        .slice({ milestoneId: 'M070', id: 'S01' });
      const s = stateOf(read(p));
      assert.deepEqual(brief(read(p)), { phase: 'planning', milestone: 'M070', slice: 'S01', task: null });
      assert.deepEqual(s.milestones.map((m) => [m.id, m.status]), [['M068', 'pending'], ['M069', 'pending'], ['M070', 'active']]);
      // …and is taken when nothing else is eligible (queued milestone with DB row not flagged as ghost).
      const q = project().milestone({ id: 'M001', status: 'complete' }).milestone({ id: 'M002', status: 'queued' });
      assert.deepEqual(brief(read(q)), { phase: 'pre-planning', milestone: 'M002', slice: null, task: null });
    });

    it('milestone titles drop GSD\'s "M001: " prefix', () => {
      const s = stateOf(read(project().milestone({ id: 'M001', title: 'M001: Flight Simulator' })));
      assert.deepEqual(s.activeMilestone, { id: 'M001', title: 'Flight Simulator' });
    });
  });

  describe('milestone validation (handleAllSlicesDone)', () => {
    const allDone = () => project().milestone({ id: 'M001' }).slice({ id: 'S01', status: 'complete' }).slice({ id: 'S02', status: 'complete' });

    it('all slices closed and no validation verdict is validating-milestone', () => {
      assert.deepEqual(brief(read(allDone())), { phase: 'validating-milestone', milestone: 'M001', slice: null, task: null });
    });

    it('a pass verdict is completing-milestone; the newest assessment counts', () => {
      const p = allDone().assessment('M001', 'needs-remediation', '2026-11-19T10:00:00Z').assessment('M001', 'pass', '2026-11-20T10:00:00Z');
      assert.deepEqual(brief(read(p)), { phase: 'completing-milestone', milestone: 'M001', slice: null, task: null });
    });

    it('needs-remediation with every slice done is blocked', () => {
      const s = stateOf(read(allDone().assessment('M001', 'needs-remediation')));
      assert.equal(s.phase, 'blocked');
      assert.equal(s.blockers.length, 1);
      assert.match(s.blockers[0], /needs-remediation/);
    });

    it('needs-attention parks the milestone and the next one becomes active', () => {
      const p = allDone().assessment('M001', 'needs-attention').milestone({ id: 'M002' });
      const s = stateOf(read(p));
      assert.deepEqual(brief(read(p)), { phase: 'pre-planning', milestone: 'M002', slice: null, task: null });
      assert.equal(s.milestones[0].status, 'parked');
    });

    it('an assessment of another scope is not a validation verdict', () => {
      const p = allDone().assessment('M001', 'pass', '2026-11-20T10:00:00Z', 'slice-assessment');
      assert.equal(brief(read(p)).phase, 'validating-milestone');
    });
  });

  describe('slices and tasks', () => {
    it('the first open task of the first eligible slice is executing, with progress from the status columns', () => {
      const p = project()
        .milestone({ id: 'M001' })
        .slice({ id: 'S01', status: 'complete' })
        .slice({ id: 'S02', depends: ['S01'] })
        .slice({ id: 'S03', depends: ['S02'] })
        .task({ sliceId: 'S01', id: 'T01', status: 'complete' })
        .task({ sliceId: 'S02', id: 'T01', status: 'complete' })
        .task({ sliceId: 'S02', id: 'T02', title: 'Wire the engine' })
        .task({ sliceId: 'S02', id: 'T03' });
      const s = stateOf(read(p));
      assert.deepEqual(brief(read(p)), { phase: 'executing', milestone: 'M001', slice: 'S02', task: 'T02' });
      assert.deepEqual(s.activeTask, { id: 'T02', title: 'Wire the engine' });
      assert.deepEqual(s.progress, { milestones: { done: 0, total: 1 }, slices: { done: 1, total: 3 }, tasks: { done: 1, total: 3 } });
      const m = s.milestones[0];
      assert.deepEqual(m.slices.map((x) => [x.id, x.status]), [['S01', 'done'], ['S02', 'active'], ['S03', 'blocked']]);
      assert.deepEqual(m.slices[1].tasks.map((t) => [t.id, t.status, t.done]), [['T01', 'done', true], ['T02', 'active', false], ['T03', 'pending', false]]);
      assert.equal(m.slices[1].tasks[1].estimate, '30m');
      assert.equal(m.slices[1].tasks[0].oneLiner, 'T01 done');
      assert.equal(m.slices[1].tasks[1].oneLiner, undefined);
      assert.equal(m.roadmapLoaded, true);
      assert.deepEqual(m.slices[1].tasks[1].files, ['src/t02.ts']);
    });

    it('an active slice without task rows is planning; all tasks closed is summarizing', () => {
      assert.deepEqual(brief(read(project().milestone({ id: 'M001' }).slice({ id: 'S01' }))), { phase: 'planning', milestone: 'M001', slice: 'S01', task: null });
      const p = project().milestone({ id: 'M001' }).slice({ id: 'S01' }).task({ id: 'T01', status: 'complete' }).task({ id: 'T02', status: 'skipped' });
      assert.deepEqual(brief(read(p)), { phase: 'summarizing', milestone: 'M001', slice: 'S01', task: null });
    });

    it('no eligible slice is blocked', () => {
      const p = project().milestone({ id: 'M001' }).slice({ id: 'S01', depends: ['S02'] }).slice({ id: 'S02', depends: ['S01'] });
      const s = stateOf(read(p));
      assert.equal(s.phase, 'blocked');
      assert.equal(s.activeSlice, null);
      assert.equal(s.blockers.length, 1);
    });
  });

  describe('order by the sequence columns, not the ids', () => {
    it('slices and tasks run in sequence order', () => {
      const p = project()
        .milestone({ id: 'M001' })
        .slice({ id: 'S01', sequence: 2 })
        .slice({ id: 'S02', sequence: 1 })
        .task({ sliceId: 'S02', id: 'T01', sequence: 2 })
        .task({ sliceId: 'S02', id: 'T02', sequence: 1 });
      const s = stateOf(read(p));
      assert.deepEqual(brief(read(p)), { phase: 'executing', milestone: 'M001', slice: 'S02', task: 'T02' });
      assert.deepEqual(s.milestones[0].slices.map((x) => x.id), ['S02', 'S01']);
      assert.deepEqual(s.milestones[0].slices[0].tasks.map((t) => t.id), ['T02', 'T01']);
    });

    it('milestones with a positive sequence come first, by sequence, then the rest by id (getAllMilestones)', () => {
      const p = project()
        .milestone({ id: 'M001' })
        .milestone({ id: 'M002', sequence: 2 })
        .milestone({ id: 'M003', sequence: 1 })
        .milestone({ id: 'M000' });
      const s = stateOf(read(p));
      assert.deepEqual(s.milestones.map((m) => m.id), ['M003', 'M002', 'M000', 'M001']);
      assert.equal(s.activeMilestone?.id, 'M003');
    });
  });

  describe('phases only the database shows', () => {
    it('evaluating-gates while a gate-evaluate gate (Q3/Q4) is pending, with no active task (gate-dispatch.test.ts)', () => {
      const p = project().milestone({ id: 'M001' }).slice({ id: 'S01' }).task({ id: 'T01' }).gate('M001', 'S01', 'Q3').gate('M001', 'S01', 'Q4');
      assert.deepEqual(brief(read(p)), { phase: 'evaluating-gates', milestone: 'M001', slice: 'S01', task: null });
    });

    it('resolved gates, and pending gates of other turns (Q5 task-scoped, Q8 complete-slice), do not hold execution', () => {
      const p = project()
        .milestone({ id: 'M001' })
        .slice({ id: 'S01' })
        .task({ id: 'T01' })
        .gate('M001', 'S01', 'Q3', 'complete')
        .gate('M001', 'S01', 'Q4', 'omitted')
        .gate('M001', 'S01', 'Q5', 'pending', { scope: 'task', taskId: 'T01' })
        .gate('M001', 'S01', 'Q8');
      assert.deepEqual(brief(read(p)), { phase: 'executing', milestone: 'M001', slice: 'S01', task: 'T01' });
    });

    it('refining for a sketch slice without a plan (progressive-planning: sketch slice → refining)', () => {
      const p = project().milestone({ id: 'M001' }).slice({ id: 'S01', status: 'complete' }).slice({ id: 'S02', isSketch: true });
      const s = stateOf(read(p));
      assert.deepEqual(brief(read(p)), { phase: 'refining', milestone: 'M001', slice: 'S02', task: null });
      assert.equal(s.milestones[0].slices[1].isSketch, true);
    });

    it('a sketch slice that already has a PLAN is read as healed: planning (progressive-planning: auto-heals stale sketch flag)', () => {
      const p = project({ files: { '.gsd/milestones/M001/slices/S02/S02-PLAN.md': slicePlan('S02', 'Second', []) } })
        .milestone({ id: 'M001' })
        .slice({ id: 'S01', status: 'complete' })
        .slice({ id: 'S02', isSketch: true });
      const r = read(p);
      assert.deepEqual(brief(r), { phase: 'planning', milestone: 'M001', slice: 'S02', task: null });
      assert.ok(r.diagnostics.some((d) => d.severity === 'info' && /sketch/.test(d.message)));
    });

    it('escalating-task while a task has a valid, unanswered escalation artifact (detectPendingEscalation)', () => {
      const artifact = '.gsd/milestones/M001/slices/S01/tasks/T01-ESCALATION.json';
      const body = {
        version: 1,
        taskId: 'T01',
        sliceId: 'S01',
        milestoneId: 'M001',
        question: 'Keep the REST endpoint or move to gRPC?',
        options: [
          { id: 'rest', label: 'Keep REST', tradeoffs: 'No client changes' },
          { id: 'grpc', label: 'Move to gRPC', tradeoffs: 'Faster, new tooling' },
        ],
        recommendation: 'rest',
        recommendationRationale: 'Smaller change',
        continueWithDefault: false,
        createdAt: '2026-11-20T09:00:00Z',
      };
      const build = (content: object | string) => {
        const p = project({ files: { [artifact]: typeof content === 'string' ? content : JSON.stringify(content) } });
        return p
          .milestone({ id: 'M001' })
          .slice({ id: 'S01' })
          .task({ id: 'T01', escalationPending: true, escalationArtifactPath: `${p.root}/${artifact}` })
          .task({ id: 'T02' });
      };
      const s = stateOf(read(build(body)));
      assert.deepEqual({ phase: s.phase, task: s.activeTask?.id }, { phase: 'escalating-task', task: 'T01' });
      assert.equal(s.blockers.length, 1);
      // Answered (respondedAt set) or not a valid artifact: GSD goes on executing.
      assert.equal(stateOf(read(build({ ...body, respondedAt: '2026-11-20T09:30:00Z' }))).phase, 'executing');
      const broken = read(build({ ...body, options: [body.options[0]] }));
      assert.equal(stateOf(broken).phase, 'executing');
      assert.ok(broken.diagnostics.some((d) => /escalation/.test(d.message)));
    });

    it('deferred slices are skipped and not counted as done (deferred-slice-dispatch.test.ts)', () => {
      const p = project()
        .milestone({ id: 'M001' })
        .slice({ id: 'S01', status: 'complete' })
        .slice({ id: 'S02', status: 'deferred' })
        .slice({ id: 'S03' });
      const s = stateOf(read(p));
      assert.deepEqual(brief(read(p)), { phase: 'planning', milestone: 'M001', slice: 'S03', task: null });
      assert.deepEqual(s.progress.slices, { done: 1, total: 3 });
      assert.deepEqual(s.milestones[0].slices.map((x) => [x.id, x.status, x.gsdStatus]), [['S01', 'done', 'complete'], ['S02', 'pending', 'deferred'], ['S03', 'active', 'pending']]);
    });

    it('all slices deferred is blocked: no slice eligible (deferred-slice-dispatch.test.ts)', () => {
      const p = project().milestone({ id: 'M001' }).slice({ id: 'S01', status: 'deferred' }).slice({ id: 'S02', status: 'deferred' });
      const s = stateOf(read(p));
      assert.equal(s.phase, 'blocked');
      assert.equal(s.activeMilestone?.id, 'M001');
      assert.equal(s.activeSlice, null);
    });

    it('a skipped slice counts as closed: the slice depending on it is eligible', () => {
      const p = project().milestone({ id: 'M001' }).slice({ id: 'S01', status: 'skipped' }).slice({ id: 'S02', depends: ['S01'] });
      const s = stateOf(read(p));
      assert.deepEqual(brief(read(p)), { phase: 'planning', milestone: 'M001', slice: 'S02', task: null });
      assert.deepEqual(s.milestones[0].slices.map((x) => [x.status, x.gsdStatus]), [['done', 'skipped'], ['active', 'pending']]);
    });
  });

  describe('replanning-slice', () => {
    const blocked = () =>
      project()
        .milestone({ id: 'M001' })
        .slice({ id: 'S01' })
        .task({ id: 'T01', status: 'complete', blockerDiscovered: true })
        .task({ id: 'T02' });

    it('a closed task that discovered a blocker asks for a replan until replan_history has one (detectBlockers)', () => {
      const s = stateOf(read(blocked()));
      assert.deepEqual({ phase: s.phase, task: s.activeTask?.id }, { phase: 'replanning-slice', task: 'T02' });
      assert.deepEqual(s.replanTrigger, { taskId: 'T01', reason: 'blocker' });
      assert.equal(s.milestones[0].slices[0].status, 'replanning');
      const answered = stateOf(read(blocked().replan('M001', 'S01', 'T01')));
      assert.equal(answered.phase, 'executing');
      assert.deepEqual(answered.milestones[0].slices[0].replannedTasks, ['T01']);
    });

    it('a blocker on a task still open does not ask for a replan', () => {
      const p = project().milestone({ id: 'M001' }).slice({ id: 'S01' }).task({ id: 'T01', blockerDiscovered: true });
      assert.equal(brief(read(p)).phase, 'executing');
    });

    it('triage\'s replan_triggered_at asks for a replan (derive-state-db: replanning-slice via DB)', () => {
      const p = project().milestone({ id: 'M001' }).slice({ id: 'S01', replanTriggeredAt: '2026-11-20T11:00:00Z' }).task({ id: 'T01' });
      const s = stateOf(read(p));
      assert.deepEqual(brief(read(p)), { phase: 'replanning-slice', milestone: 'M001', slice: 'S01', task: 'T01' });
      assert.deepEqual(s.replanTrigger, { taskId: 'T01', reason: 'triage' });
      assert.equal(stateOf(read(p.replan('M001', 'S01', null))).phase, 'executing');
    });
  });

  describe('the database is the truth, not the markdown', () => {
    it('a roadmap, plan and SUMMARY saying done do not complete what the DB has open (derive-state-db: disk SUMMARY does not complete a pending DB task)', () => {
      const files = {
        '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'Flight', [
          { id: 'S01', title: 'Cockpit', done: true },
          { id: 'S02', title: 'Engine' },
        ]),
        '.gsd/milestones/M001/slices/S01/S01-PLAN.md': slicePlan('S01', 'Cockpit', [
          { id: 'T01', title: 'Panel', done: true },
          { id: 'T02', title: 'Gauges', done: true },
        ]),
        '.gsd/milestones/M001/slices/S01/tasks/T01-SUMMARY.md': taskSummary('T01', 'S01', 'M001'),
        '.gsd/milestones/M001/slices/S01/tasks/T02-SUMMARY.md': taskSummary('T02', 'S01', 'M001'),
      };
      const p = project({ files })
        .milestone({ id: 'M001', title: 'M001: Flight' })
        .slice({ id: 'S01', title: 'Cockpit' })
        .slice({ id: 'S02', title: 'Engine' })
        .task({ id: 'T01', title: 'Panel', status: 'complete' })
        .task({ id: 'T02', title: 'Gauges' });
      const s = stateOf(read(p));
      assert.deepEqual(brief(read(p)), { phase: 'executing', milestone: 'M001', slice: 'S01', task: 'T02' });
      assert.equal(s.milestones[0].slices[0].done, false);
      assert.equal(s.milestones[0].dir, `${p.gsdDir}/milestones/M001`);
      assert.equal(s.milestones[0].slices[0].dir, `${p.gsdDir}/milestones/M001/slices/S01`);
    });

    it('a milestone only on disk is not imported (derive-state-db: disk-only milestone auto-synced into DB (#2416))', () => {
      const p = project({
        files: {
          '.gsd/milestones/M001/M001-SUMMARY.md': '# M001 Summary\n\nDone.\n',
          '.gsd/milestones/M002/M002-CONTEXT.md': '# M002: Queued\n\nQueued milestone.\n',
        },
      }).milestone({ id: 'M001', title: 'First', status: 'complete' });
      const s = stateOf(read(p));
      assert.equal(s.phase, 'complete');
      assert.equal(s.activeMilestone, null);
      assert.deepEqual(s.milestones.map((m) => [m.id, m.status]), [['M001', 'complete']]);
    });

    it('QUEUE-ORDER.json on disk does not order milestones; the sequence column does (derive-state-helpers: ignores QUEUE-ORDER.json and uses DB sequence)', () => {
      const p = project({
        files: {
          '.gsd/QUEUE-ORDER.json': JSON.stringify({ order: ['M003', 'M001', 'M002'], updatedAt: '2026-11-20T10:00:00Z' }),
          '.gsd/milestones/M001/M001-CONTEXT.md': '# M001\n\nContext.\n',
          '.gsd/milestones/M002/M002-CONTEXT.md': '# M002\n\nContext.\n',
          '.gsd/milestones/M003/M003-CONTEXT.md': '# M003\n\nContext.\n',
        },
      })
        .milestone({ id: 'M001', title: 'First', sequence: 2 })
        .milestone({ id: 'M002', title: 'Second', sequence: 1 })
        .milestone({ id: 'M003', title: 'Third', sequence: 3 });
      const s = stateOf(read(p));
      assert.deepEqual(brief(read(p)), { phase: 'pre-planning', milestone: 'M002', slice: null, task: null });
      assert.deepEqual(s.milestones.map((m) => m.id), ['M002', 'M001', 'M003']);
    });

    it('milestones that exist only as folders are not in the state (derive-state-db: empty DB does not import markdown milestones)', () => {
      const p = project({ files: { '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'Only on disk', [{ id: 'S01', title: 'A' }]) } });
      const s = stateOf(read(p));
      assert.equal(s.phase, 'pre-planning');
      assert.deepEqual(s.milestones, []);
    });
  });
});
