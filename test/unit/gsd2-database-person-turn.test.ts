// GSD-2 stops for a person in an escalation (and in needs-discussion, blocked, paused): with our
// built-in hooks, `next` must not hand that turn to the review loop. Ahead of a blocker replan the
// review still comes first, as GSD-2's post-unit hooks run before its replan. Real gsd.db trees.
import * as assert from 'node:assert/strict';
import { BUILTIN_HOOKS } from '../../src/builtin-hooks';
import { dispatchNextUnit } from './helpers/one-shot-dispatch';
import { REVIEW_LOOP } from '../../src/core/hooks/builtin/review-loop/review-loop-state';
import type { TaskEntry } from '../../src/core/model/types';
import { personTurn } from '../../src/core/model/person-turn';
import { presentTask } from '../../src/vscode/panel/task-presentation';
import { taskState } from '../../src/core/hooks/builtin/review-loop/review-loop-state';
import { Gsd2Project, skipWithoutSqlite } from './helpers/gsd2-database';
import { roadmap, slicePlan, taskSummary } from './helpers/gsd-tree';

const S = '.gsd/milestones/M001/slices/S01';
/** What GSD has rendered from the rows by the time T01 is complete. */
const RENDERED = {
  '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'Billing', [{ id: 'S01', title: 'Invoices' }]),
  [`${S}/S01-PLAN.md`]: slicePlan('S01', 'Invoices', [{ id: 'T01', title: 'Invoice model', done: true }, { id: 'T02', title: 'CSV export' }]),
  [`${S}/tasks/T01-PLAN.md`]: '# T01: Invoice model\n',
  [`${S}/tasks/T02-PLAN.md`]: '# T02: CSV export\n',
  [`${S}/tasks/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001'),
};

const ARTIFACT = '.gsd/milestones/M001/slices/S01/tasks/T01-ESCALATION.json';
/** The artifact gsd_task_complete's `escalation` leaves (escalation.ts writeEscalationArtifact's shape). */
const ESCALATION = {
  version: 1,
  taskId: 'T01',
  sliceId: 'S01',
  milestoneId: 'M001',
  question: 'Store amounts as integer cents or as decimals?',
  options: [
    { id: 'cents', label: 'Integer cents', tradeoffs: 'Exact; every caller converts' },
    { id: 'decimal', label: 'Decimal strings', tradeoffs: 'Readable; needs a decimal library' },
  ],
  recommendation: 'cents',
  recommendationRationale: 'No rounding surprises',
  continueWithDefault: false,
  createdAt: '2026-11-20T09:00:00Z',
};

describe('our hooks and a person\'s turn on a GSD-2 database project (node:sqlite)', function () {
  this.timeout(20_000);
  before(skipWithoutSqlite);
  const made: Gsd2Project[] = [];
  afterEach(() => {
    for (const p of made.splice(0)) p.remove();
  });

  /** T01 done (so the review loop would review it), T02 open; `t01` adds to T01's row. */
  function project(t01: { escalationPending?: boolean; blockerDiscovered?: boolean }, files: Record<string, string> = {}): Gsd2Project {
    const p = new Gsd2Project({ files: { ...RENDERED, ...files } });
    made.push(p);
    return p
      .milestone({ id: 'M001', title: 'M001: Billing', status: 'active' })
      .slice({ id: 'S01', title: 'Invoices', sequence: 1 })
      .task({ id: 'T01', title: 'Invoice model', status: 'complete', sequence: 1, ...t01, escalationArtifactPath: t01.escalationPending ? `${p.root}/${ARTIFACT}` : null })
      .task({ id: 'T02', title: 'CSV export', sequence: 2 });
  }

  it('an escalation waiting for the user: no review-task, the blocker says why', async () => {
    const p = project({ escalationPending: true }, { [ARTIFACT]: JSON.stringify(ESCALATION) });
    const out = await dispatchNextUnit({ root: p.root, builtins: BUILTIN_HOOKS });
    assert.equal(out.phase, 'escalating-task');
    assert.equal(out.decision, null);
    assert.match(out.blocker ?? '', /T01 is waiting for a decision from the user/);
    assert.deepEqual(out.hooks.trace, []);
  });

  it('once the user answered (respondedAt), the review loop reviews T01 again', async () => {
    const p = project({ escalationPending: true }, { [ARTIFACT]: JSON.stringify({ ...ESCALATION, respondedAt: '2026-11-20T09:30:00Z' }) });
    const out = await dispatchNextUnit({ root: p.root, builtins: BUILTIN_HOOKS });
    assert.equal(out.phase, 'executing');
    assert.equal(`${out.decision?.unitType} ${out.decision?.unitId} ${out.decision?.source}`, `review-task M001/S01/T01 ${REVIEW_LOOP}`);
  });

  it('ahead of a blocker replan the review comes first, as GSD-2\'s post-unit hooks do', async () => {
    const p = project({ blockerDiscovered: true });
    const out = await dispatchNextUnit({ root: p.root, builtins: BUILTIN_HOOKS });
    assert.equal(out.phase, 'replanning-slice');
    assert.equal(`${out.decision?.unitType} ${out.decision?.unitId}`, 'review-task M001/S01/T01');
  });
});

describe('the panel says why a review waits', () => {
  const done: TaskEntry = {
    id: 'T01', title: 'Invoice model', status: 'done', done: true, files: [], planLine: 0, blockerDiscovered: false, pendingActions: [], reviews: [], extensions: {},
  };
  const escalation = { phase: 'escalating-task' as const, blockers: ['Task T01 is waiting for a decision from the user.'], nextAction: 'Answer the escalation of T01 with GSD (/gsd escalate) before the loop goes on.' };

  it('in an escalation a finished task that is not reviewed yet says "review waits" and why', () => {
    const shown = presentTask(done, taskState(undefined), null, 'M001/S01/T01', undefined, { personTurn: personTurn(escalation) });
    assert.equal(shown.label, 'T01 · review waits');
    assert.match(shown.tooltip, /\*\*The review waits:\*\* GSD is waiting for you \(escalating-task\): Task T01 is waiting for a decision from the user\./);
  });

  it('while GSD is executing nothing waits, and a task whose review is over does not wait', () => {
    assert.equal(personTurn({ ...escalation, phase: 'executing' }), null);
    assert.equal(presentTask(done, taskState(undefined), null, 'M001/S01/T01', undefined, { personTurn: null }).label, 'T01');
    const passed = taskState({ outcome: { cycles: 1, passed: true, completedAt: '2026-11-20T10:00:00Z' } });
    assert.equal(presentTask(done, passed, null, 'M001/S01/T01', undefined, { personTurn: personTurn(escalation) }).label, 'T01 · passed in 1');
  });
});
