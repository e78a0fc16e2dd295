// The reviewer's findings on the original pending-actions change (seed 004), as tests.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BUILTIN_HOOKS } from '../../src/builtin-hooks';
import { afterDispatch, dispatchNextUnit } from './helpers/one-shot-dispatch';
import { roadmap, slicePlan, taskSummary, writeTree } from './helpers/gsd-tree';

const M = '.gsd/milestones/M001';
const S = `${M}/slices/S01`;
const PREFS = '---\ngsd_hooks:\n  enabled:\n    - name: pending-actions\n---\n';

interface TaskSpec {
  id: string;
  completedAt?: string;
  actions?: string[];
}

function slice(tasks: TaskSpec[], open: string[] = ['T09'], extra: Record<string, string> = {}): string {
  const files: Record<string, string> = {
    '.gsd/PREFERENCES.md': PREFS,
    [`${M}/M001-ROADMAP.md`]: roadmap('M001', 'Billing', [{ id: 'S01', title: 'Invoices' }]),
    [`${S}/S01-PLAN.md`]: slicePlan('S01', 'Invoices', [...tasks.map((t) => ({ id: t.id, title: `Task ${t.id}`, done: true })), ...open.map((id) => ({ id, title: `Task ${id}` }))]),
    ...extra,
  };
  for (const t of tasks) {
    files[`${S}/tasks/${t.id}-SUMMARY.md`] = taskSummary(t.id, 'S01', 'M001', {
      completedAt: t.completedAt ?? '2026-11-01T10:00:00Z',
      ...(t.actions ? { pendingActions: t.actions } : {}),
    });
  }
  return writeTree(files);
}

const next = (root: string) => dispatchNextUnit({ root, builtins: BUILTIN_HOOKS });
const replanFor = async (root: string) => {
  const d = (await next(root)).decision;
  return d?.unitType === 'replan-slice' ? d.data?.triggerTaskId : null;
};

describe('pending actions', () => {
  it('sends the slice to replan-slice for the latest completed task with pending actions', async () => {
    const root = slice([{ id: 'T01' }, { id: 'T02', completedAt: '2026-11-02T10:00:00Z', actions: ['Add the VAT column to the CSV export'] }]);
    const out = await next(root);
    assert.deepEqual([out.decision?.unitType, out.decision?.unitId, out.decision?.source], ['replan-slice', 'M001/S01', 'pending-actions']);
    assert.match(out.decision!.prompt, /Add the VAT column/);
    assert.match(out.decision!.prompt, /\*\*Blocker Task:\*\* T02/);
  });

  it('a replan recorded for an earlier task does not suppress a later task\'s replan', async () => {
    const root = slice(
      [
        { id: 'T01', completedAt: '2026-11-01T10:00:00Z', actions: ['Cache fonts'] },
        { id: 'T02', completedAt: '2026-11-02T10:00:00Z', actions: ['Retry the mail server'] },
      ],
      ['T09'],
      { [`${S}/S01-REPLAN.md`]: '# S01 replan\n\n**Blocker Task:** T01\n\nAdded T04 for font caching.\n' },
    );
    assert.equal(await replanFor(root), 'T02');
  });

  it('orders completion by completed_at, then plan order, never by file listing', async () => {
    // T03 is last in the plan and in the folder, but T02 finished later.
    const root = slice([
      { id: 'T01', completedAt: '2026-11-01T09:00:00Z' },
      { id: 'T02', completedAt: '2026-11-03T12:00:00Z', actions: ['Handle leap years'] },
      { id: 'T03', completedAt: '2026-11-02T08:00:00Z' },
    ]);
    assert.equal(await replanFor(root), 'T02');
    // Same times: plan order decides, and the later task in the plan has no actions.
    const tie = slice([
      { id: 'T01', completedAt: '2026-11-01T09:00:00Z', actions: ['Old follow-up'] },
      { id: 'T02', completedAt: '2026-11-01T09:00:00Z' },
    ]);
    assert.equal(await replanFor(tie), null);
  });

  describe('the same rule whichever way the replan was recorded', () => {
    const tasks = [{ id: 'T01', completedAt: '2026-11-01T10:00:00Z', actions: ['Cache fonts'] }, { id: 'T02', completedAt: '2026-11-02T10:00:00Z', actions: ['Retry mail'] }];
    const planWith = (fm: string) => ({ [`${S}/S01-PLAN.md`]: slicePlan('S01', 'Invoices', [{ id: 'T01', title: 'a', done: true }, { id: 'T02', title: 'b', done: true }, { id: 'T09', title: 'c' }], fm) });
    const cases: Array<[string, Record<string, string>, string | null]> = [
      ['GSD REPLAN.md names the task', { [`${S}/S01-REPLAN.md`]: '**Blocker Task:** T02\n' }, null],
      ['GSD REPLAN.md names another task', { [`${S}/S01-REPLAN.md`]: '**Blocker Task:** T01\n' }, 'T02'],
      ['hook state names the task', planWith('extensions:\n  pending-actions:\n    replannedFor: [T02]\n'), null],
      ['hook state names another task', planWith('extensions:\n  pending-actions:\n    replannedFor: [T01]\n'), 'T02'],
    ];
    for (const [name, extra, expected] of cases) {
      it(`${name} → ${expected ? `replan for ${expected}` : 'no replan'}`, async () => {
        assert.equal(await replanFor(slice(tasks, ['T09'], extra)), expected);
      });
    }
  });

  it('records the answered task in its own state when the replan finishes, and moves on', async () => {
    const root = slice([{ id: 'T01', actions: ['Cache fonts'] }]);
    const plan = fs.readFileSync(path.join(root, S, 'S01-PLAN.md'), 'utf8');
    assert.equal((await dispatchNextUnit({ root, builtins: BUILTIN_HOOKS, apply: true })).decision?.unitType, 'replan-slice');
    await afterDispatch({ root, builtins: BUILTIN_HOOKS });
    assert.match(fs.readFileSync(path.join(root, S, 'S01-HOOKS.md'), 'utf8'), /^---\nextensions:\n {2}pending-actions:\n {4}replannedFor:\n {6}- T01\n---\n/);
    assert.equal(fs.readFileSync(path.join(root, S, 'S01-PLAN.md'), 'utf8'), plan, "GSD's slice plan is not written");
    const after = await next(root);
    assert.deepEqual([after.decision?.unitType, after.decision?.unitId], ['execute-task', 'M001/S01/T09']);
  });

  it('carries earlier tasks\' pending actions into the next execute-task prompt', async () => {
    const root = slice([{ id: 'T01', actions: ['Cache fonts'] }], ['T02'], { [`${S}/S01-REPLAN.md`]: '**Blocker Task:** T01\n' });
    const out = await next(root);
    assert.deepEqual([out.decision?.unitType, out.decision?.unitId, out.decision?.source], ['execute-task', 'M001/S01/T02', 'pending-actions']);
    assert.match(out.decision!.prompt, /Pending actions carried forward from earlier tasks of this slice[^\n]*\n- T01: Cache fonts/);
  });

  it('asks for the replan before the slice is summarised', async () => {
    const root = slice([{ id: 'T01' }, { id: 'T02', completedAt: '2026-11-02T00:00:00Z', actions: ['Document the flag'] }], []);
    const out = await next(root);
    assert.equal(out.phase, 'summarizing');
    assert.equal(out.decision?.unitType, 'replan-slice');
  });
});
