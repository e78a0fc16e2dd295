// The seven rules where our markdown derivation used to differ from GSD-2's (gsd-build/gsd-2 at
// 76568edc, `_deriveStateImpl` in src/resources/extensions/gsd/state.ts with `isGhostMilestone`,
// queue-order.ts `sortByQueueOrder`, files.ts `parseContextDependsOn`). Each test builds a realistic
// tree, states what GSD-2's code derives for it, checks the full and the lazy read, and then checks
// that the incremental StateIndex follows when the new input appears or goes.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultDecision } from '../../src/core/dispatch/default-dispatch';
import { classifyGsdPath } from '../../src/core/files/gsd-layout';
import { locateProject } from '../../src/core/state/locate-project';
import { parseQueueOrder, sortByQueueOrder } from '../../src/core/parse/queue-order';
import { StateIndex } from '../../src/core/state/state-index';
import type { GSDState } from '../../src/core/model/types';
import { decisionOf, fullState, lazyState } from './helpers/state';
import { roadmap, slicePlan, taskSummary, writeTree, type Tree } from './helpers/gsd-tree';

interface Want {
  phase: string;
  milestone: string | null;
  slice?: string | null;
  task?: string | null;
  blockers?: number;
}

function check(s: GSDState, want: Want, how: string): void {
  assert.equal(s.phase, want.phase, `${how}: phase`);
  assert.equal(s.activeMilestone?.id ?? null, want.milestone, `${how}: milestone`);
  if (want.slice !== undefined) assert.equal(s.activeSlice?.id ?? null, want.slice, `${how}: slice`);
  if (want.task !== undefined) assert.equal(s.activeTask?.id ?? null, want.task, `${how}: task`);
  if (want.blockers !== undefined) assert.equal(s.blockers.length, want.blockers, `${how}: blockers ${JSON.stringify(s.blockers)}`);
}

/** Full read, lazy read (the CLI), and both agreeing on every decision input. */
function expectState(root: string, want: Want): GSDState {
  const full = fullState(root);
  check(full, want, 'full read');
  const lazy = lazyState(root).state;
  check(lazy, want, 'lazy read');
  assert.deepEqual(decisionOf(lazy), decisionOf(full));
  return full;
}

const M = (root: string, ...rest: string[]) => path.join(locateProject(root)!.gsdDir, 'milestones', ...rest);

function summary(id: string, title: string): string {
  return `---\nid: ${id}\nstatus: complete\ncompleted_at: 2026-10-02T09:00:00Z\n---\n\n# ${id}: ${title}\n\n**Shipped ${title.toLowerCase()}.**\n\n## What Happened\n\nAll slices merged.\n`;
}

function validation(verdict: string): string {
  return `---\nverdict: ${verdict}\nremediation_round: 0\n---\n\n# Milestone validation\n\nSuccess criteria re-checked against the running app.\n`;
}

function context(id: string, title: string, dependsOn?: string[]): string {
  const fm = dependsOn ? `---\ndepends_on: [${dependsOn.join(', ')}]\n---\n\n` : '';
  return `${fm}# ${id}: ${title}\n\n## Why\n\nUsers asked for ${title.toLowerCase()}.\n`;
}

/** M001 finished (roadmap ticked, validated, summarised). */
const finishedM001: Tree = {
  '.gsd/milestones/M001/M001-CONTEXT.md': context('M001', 'Login'),
  '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'Login', [{ id: 'S01', title: 'Password login', done: true }]),
  '.gsd/milestones/M001/M001-VALIDATION.md': validation('pass'),
  '.gsd/milestones/M001/M001-SUMMARY.md': summary('M001', 'Login'),
};

/** M001 with its one slice done, and the milestone files given (name → text) beside its roadmap. */
function slicesDone(files: Record<string, string>): string {
  const tree: Tree = {
    '.gsd/milestones/M001/M001-CONTEXT.md': context('M001', 'Alerts'),
    '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'Alerts', [{ id: 'S01', title: 'Email alerts', done: true }]),
  };
  for (const [name, text] of Object.entries(files)) tree[`.gsd/milestones/M001/${name}`] = text;
  return writeTree(tree);
}

describe('GSD-2 conformance: the seven rules', () => {
  it('skips milestone folders with no CONTEXT, ROADMAP or SUMMARY (only META.json), unless a worktree exists', () => {
    const root = writeTree({
      '.gsd/milestones/M001/META.json': JSON.stringify({ createdAt: '2026-10-01T08:00:00Z' }) + '\n',
      '.gsd/milestones/M002/M002-CONTEXT-DRAFT.md': context('M002', 'Search'),
    });
    fs.mkdirSync(M(root, 'M003'));
    // GSD-2: M001 and M003 are ghosts, M002 is the first real one and has only a draft.
    const s = expectState(root, { phase: 'needs-discussion', milestone: 'M002', blockers: 0 });
    assert.deepEqual(s.milestones.map((m) => m.id), ['M002']);

    // A worktree for M001 shows it is being worked on: no longer a ghost, and first in line.
    const index = new StateIndex(locateProject(root)!);
    index.state();
    const wt = path.join(locateProject(root)!.gsdDir, 'worktrees', 'M001');
    fs.mkdirSync(wt, { recursive: true });
    index.changed(path.dirname(wt));
    index.changed(wt);
    check(index.state(), { phase: 'pre-planning', milestone: 'M001' }, 'after worktree');
    assert.deepEqual(decisionOf(index.state()), decisionOf(fullState(root)));
    fs.rmSync(path.dirname(wt), { recursive: true });
    index.changed(path.dirname(wt));
    check(index.state(), { phase: 'needs-discussion', milestone: 'M002' }, 'after worktree removed');

    // The META.json-only folder gets its CONTEXT: a real milestone now, and the first one.
    const ctx = M(root, 'M001', 'M001-CONTEXT.md');
    fs.writeFileSync(ctx, context('M001', 'Accounts'));
    index.changed(ctx);
    check(index.state(), { phase: 'pre-planning', milestone: 'M001' }, 'after M001 got its context');
    assert.deepEqual(index.state().milestones.map((m) => m.id), ['M001', 'M002']);
  });

  it('treats an empty ROADMAP file as no roadmap (the milestone is not a ghost, and its draft asks for discussion)', () => {
    const root = writeTree({
      '.gsd/milestones/M001/M001-ROADMAP.md': '',
      '.gsd/milestones/M001/M001-CONTEXT-DRAFT.md': context('M001', 'Billing'),
    });
    // GSD-2: roadmap content '' is falsy, so no roadmap; the file exists, so no ghost; draft only.
    expectState(root, { phase: 'needs-discussion', milestone: 'M001', slice: null });
  });

  it('orders milestones by .gsd/QUEUE-ORDER.json: listed ids first, the rest by number', () => {
    const plain = (id: string, title: string) => ({
      [`.gsd/milestones/${id}/${id}-CONTEXT.md`]: context(id, title),
      [`.gsd/milestones/${id}/${id}-ROADMAP.md`]: roadmap(id, title, [{ id: 'S01', title: `${title} basics` }]),
    });
    const root = writeTree({
      ...plain('M001', 'Export'),
      ...plain('M002', 'Import'),
      ...plain('M003', 'Sharing'),
      ...plain('M004', 'Audit log'),
      // M009 has no folder and is ignored; M004 is not listed and comes after the listed ones.
      '.gsd/QUEUE-ORDER.json': JSON.stringify({ order: ['M009', 'M003', 'M001'], updatedAt: '2026-10-03T12:00:00Z' }, null, 2) + '\n',
    });
    const s = expectState(root, { phase: 'planning', milestone: 'M003', slice: 'S01' });
    assert.deepEqual(s.milestones.map((m) => m.id), ['M003', 'M001', 'M002', 'M004']);

    const index = new StateIndex(locateProject(root)!);
    check(index.state(), { phase: 'planning', milestone: 'M003' }, 'index');
    const queue = path.join(locateProject(root)!.gsdDir, 'QUEUE-ORDER.json');
    fs.writeFileSync(queue, JSON.stringify({ order: ['M002'], updatedAt: '2026-10-04T12:00:00Z' }));
    index.changed(queue);
    check(index.state(), { phase: 'planning', milestone: 'M002' }, 'index after reorder');
    assert.deepEqual(index.state().milestones.map((m) => m.id), ['M002', 'M001', 'M003', 'M004']);
    fs.writeFileSync(queue, '{ "order": [');
    index.changed(queue);
    // A file GSD-2 cannot read leaves the numeric order (loadJsonFileOrNull gives null); we also warn.
    check(index.state(), { phase: 'planning', milestone: 'M001' }, 'index after a broken queue file');
    assert.ok(index.state().diagnostics.some((d) => d.file === queue && d.severity === 'warning'));
    assert.equal(classifyGsdPath('QUEUE-ORDER.json').kind, 'queue-order');
  });

  it('enters replanning-slice for S01-REPLAN-TRIGGER.md until a REPLAN exists', () => {
    const slice = '.gsd/milestones/M001/slices/S01';
    const root = writeTree({
      '.gsd/milestones/M001/M001-CONTEXT.md': context('M001', 'Checkout'),
      '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'Checkout', [{ id: 'S01', title: 'Cart' }, { id: 'S02', title: 'Payment', depends: ['S01'] }]),
      [`${slice}/S01-PLAN.md`]: slicePlan('S01', 'Cart', [{ id: 'T01', title: 'Cart model', done: true }, { id: 'T02', title: 'Cart page' }]),
      [`${slice}/tasks/T01-PLAN.md`]: '# T01: Cart model\n\nModel the cart.\n',
      [`${slice}/tasks/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001'),
      [`${slice}/tasks/T02-PLAN.md`]: '# T02: Cart page\n\nRender the cart.\n',
    });
    const index = new StateIndex(locateProject(root)!);
    check(index.state(), { phase: 'executing', milestone: 'M001', slice: 'S01', task: 'T02', blockers: 0 }, 'before triage');

    const trigger = M(root, 'M001', 'slices', 'S01', 'S01-REPLAN-TRIGGER.md');
    fs.writeFileSync(trigger, '# Replan trigger\n\nCapture C3 (cart must support saved carts) was triaged as replan.\n');
    index.changed(trigger);
    // GSD-2: no completed task reported a blocker, the trigger exists and no REPLAN does.
    const s = expectState(root, { phase: 'replanning-slice', milestone: 'M001', slice: 'S01', task: 'T02', blockers: 1 });
    assert.deepEqual(s.replanTrigger, { taskId: 'T02', reason: 'triage' });
    // What runs next: GSD's replan-slice unit, pointed at the trigger that says why.
    const next = defaultDecision(s)!;
    assert.equal(next.unitType, 'replan-slice');
    assert.equal(next.unitId, 'M001/S01');
    assert.match(next.prompt, /read \.gsd\/milestones\/M001\/slices\/S01\/S01-REPLAN-TRIGGER\.md for why/);
    assert.match(next.prompt, /"\*\*Blocker Task:\*\* T02"/);
    assert.deepEqual(decisionOf(index.state()), decisionOf(s));
    assert.equal(classifyGsdPath('milestones/M001/slices/S01/S01-REPLAN-TRIGGER.md').kind, 'slice-replan-trigger');

    const replan = M(root, 'M001', 'slices', 'S01', 'S01-REPLAN.md');
    fs.writeFileSync(replan, '# S01 replan\n\n**Blocker Task:** T02\n\nSaved carts move to a new task T03.\n');
    index.changed(replan);
    // GSD-2's loop protection: a REPLAN ends the triage replan.
    check(index.state(), { phase: 'executing', milestone: 'M001', slice: 'S01', task: 'T02', blockers: 0 }, 'after the replan');
  });

  it('parks a milestone whose validation says needs-attention and moves on to the next', () => {
    const root = writeTree({
      '.gsd/milestones/M001/M001-CONTEXT.md': context('M001', 'Notifications'),
      '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'Notifications', [{ id: 'S01', title: 'Email', done: true }, { id: 'S02', title: 'Push', done: true }]),
      '.gsd/milestones/M001/M001-VALIDATION.md': validation('pass'),
      '.gsd/milestones/M002/M002-CONTEXT.md': context('M002', 'Digest'),
      '.gsd/milestones/M002/M002-ROADMAP.md': roadmap('M002', 'Digest', [{ id: 'S01', title: 'Weekly digest' }]),
    });
    const index = new StateIndex(locateProject(root)!);
    check(index.state(), { phase: 'completing-milestone', milestone: 'M001' }, 'validated pass');

    const file = M(root, 'M001', 'M001-VALIDATION.md');
    fs.writeFileSync(file, validation('needs-attention'));
    index.changed(file);
    const s = expectState(root, { phase: 'planning', milestone: 'M002', slice: 'S01', blockers: 0 });
    assert.deepEqual(s.milestones.map((m) => [m.id, m.status]), [['M001', 'parked'], ['M002', 'active']]);
    assert.deepEqual(decisionOf(index.state()), decisionOf(s));
  });

  it('reads a verdict the validation states in its body, after a check mark, as GSD-2 does', () => {
    // GSD-2's verdict-parser.ts: with no `verdict:` key, `**Verdict:** ✅ needs-attention` in the body.
    const root = writeTree({
      '.gsd/milestones/M001/M001-CONTEXT.md': context('M001', 'Notifications'),
      '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'Notifications', [{ id: 'S01', title: 'Email', done: true }]),
      '.gsd/milestones/M001/M001-VALIDATION.md': '# M001 validation\n\n**Verdict:** ✅ needs-attention\n\nThe digest email is not sent on weekends.\n',
      '.gsd/milestones/M002/M002-CONTEXT.md': context('M002', 'Digest'),
      '.gsd/milestones/M002/M002-ROADMAP.md': roadmap('M002', 'Digest', [{ id: 'S01', title: 'Weekly digest' }]),
    });
    const s = expectState(root, { phase: 'planning', milestone: 'M002', slice: 'S01', blockers: 0 });
    assert.deepEqual(s.milestones.map((m) => [m.id, m.status]), [['M001', 'parked'], ['M002', 'active']]);
  });

  it('completes a milestone by its SUMMARY as GSD-2\'s classifier does: a closed status wins, then failure signals', () => {
    // milestone-summary-classifier.ts at 76568edc, with status-guards.ts isClosedStatus (complete,
    // done, skipped, closed). A failed SUMMARY leaves the milestone to be completed again.
    const cases: Array<[string, string, string]> = [
      ['skipped is closed, whatever the body says', '---\nstatus: skipped\n---\n\n# M001: Alerts\n\nVerification failed twice, then the scope moved.\n', 'complete'],
      ['completed is no closed status: the BLOCKER heading decides', '---\nstatus: completed\n---\n\n# M001: Alerts\n\n# BLOCKER\n\nThe SMTP relay is down.\n', 'completing-milestone'],
      ['passed is no closed status either', '---\nstatus: passed\n---\n\n# M001: Alerts\n\nverification failed on CI\n', 'completing-milestone'],
      ['auto-mode recovery wrote it', '# M001: Alerts\n\nAuto-mode recovery failed after 3 attempts.\n', 'completing-milestone'],
      ['an outcome line says not complete', '# M001: Alerts\n\nOutcome: not complete\n', 'completing-milestone'],
      ['a handwritten summary with no signal stays terminal', '# M001: Alerts\n\nShipped email alerts.\n', 'complete'],
    ];
    for (const [why, text, want] of cases) {
      const root = slicesDone({ 'M001-VALIDATION.md': validation('pass'), 'M001-SUMMARY.md': text });
      const s = expectState(root, { phase: want, milestone: want === 'complete' ? null : 'M001', blockers: 0 });
      assert.equal(s.milestones[0].status, want === 'complete' ? 'complete' : 'active', why);
    }
  });

  it('takes the validation verdict as GSD-2\'s extractVerdict does: a frontmatter decides alone, the body only without one', () => {
    // verdict-parser.ts at 76568edc: `^---\\n(…)\\n---` then `verdict:\\s*([\\w-]+)` in it; without a
    // block, `\\*\\*Verdict:?\\*\\*\\s*(?:✅\\s*)?(\\w[\\w-]*)` in the text. No verdict: validate again.
    const cases: Array<[string, string, string]> = [
      ['a frontmatter without verdict hides the body\'s', '---\nremediation_round: 1\n---\n\n**Verdict:** needs-attention\n', 'validating-milestone'],
      ['a quoted verdict is not read', '---\nverdict: "needs-attention"\n---\n\n# Validation\n', 'validating-milestone'],
      ['a CRLF frontmatter is no block to GSD-2, and its body has no **Verdict**', '---\r\nverdict: needs-attention\r\n---\r\n\r\n# Validation\r\n', 'validating-milestone'],
      ['a colon after the bold is no verdict', '# Validation\n\n**Verdict**: needs-attention\n', 'validating-milestone'],
      ['the body\'s verdict, without frontmatter', '# Validation\n\n**Verdict** needs-attention\n', 'parked'],
      ['`verdict:` anywhere in the block, Passed as pass', '---\nuat_verdict: Passed\n---\n', 'completing-milestone'],
    ];
    for (const [why, text, want] of cases) {
      const root = slicesDone({ 'M001-VALIDATION.md': text });
      if (want === 'parked') {
        const s = expectState(root, { phase: 'pre-planning', milestone: null, blockers: 0 });
        assert.deepEqual(s.milestones.map((m) => [m.id, m.status]), [['M001', 'parked']], why);
      } else {
        expectState(root, { phase: want, milestone: 'M001', blockers: 0 });
      }
    }
  });

  it('after the active milestone: validated with every slice done is complete, needs-attention parks, anything else is pending', () => {
    const done = (id: string, title: string) => roadmap(id, title, [{ id: 'S01', title: 'Only slice', done: true }]);
    const root = writeTree({
      '.gsd/milestones/M001/M001-CONTEXT.md': context('M001', 'Search'),
      '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'Search', [{ id: 'S01', title: 'Index' }]),
      '.gsd/milestones/M002/M002-ROADMAP.md': done('M002', 'Export'),
      '.gsd/milestones/M002/M002-VALIDATION.md': validation('pass'),
      '.gsd/milestones/M003/M003-ROADMAP.md': done('M003', 'Import'),
      '.gsd/milestones/M003/M003-VALIDATION.md': validation('needs-remediation'),
      '.gsd/milestones/M004/M004-ROADMAP.md': done('M004', 'Sharing'),
      '.gsd/milestones/M004/M004-VALIDATION.md': validation('needs-attention'),
      '.gsd/milestones/M005/M005-CONTEXT.md': context('M005', 'Themes', ['M001']),
      '.gsd/milestones/M005/M005-ROADMAP.md': done('M005', 'Themes'),
      '.gsd/milestones/M006/M006-ROADMAP.md': roadmap('M006', 'Billing', [{ id: 'S01', title: 'Plans' }]),
      '.gsd/milestones/M006/M006-VALIDATION.md': validation('pass'),
    });
    // GSD-2: once a milestone is active, a later one is complete only when its roadmap is done and a
    // verdict other than needs-remediation was given; with needs-attention it is parked.
    const s = expectState(root, { phase: 'planning', milestone: 'M001', slice: 'S01', blockers: 0 });
    assert.deepEqual(s.milestones.map((m) => [m.id, m.status]), [
      ['M001', 'active'], ['M002', 'complete'], ['M003', 'pending'], ['M004', 'parked'], ['M005', 'pending'], ['M006', 'pending'],
    ]);
    // The lazy read opened the roadmaps those statuses rest on, and no other (M005: pending whatever it says).
    const lazy = lazyState(root).state.milestones.map((m) => [m.id, m.status, m.roadmapLoaded]);
    assert.deepEqual(lazy, [
      ['M001', 'active', true], ['M002', 'complete', true], ['M003', 'pending', false], ['M004', 'parked', true], ['M005', 'pending', false], ['M006', 'pending', true],
    ]);
  });

  it('is pre-planning, not complete, when every milestone left is parked', () => {
    const root = writeTree({
      ...finishedM001,
      '.gsd/milestones/M002/M002-CONTEXT.md': context('M002', 'Reports'),
      '.gsd/milestones/M002/M002-ROADMAP.md': roadmap('M002', 'Reports', [{ id: 'S01', title: 'CSV report', done: true }]),
      '.gsd/milestones/M002/M002-VALIDATION.md': validation('needs-attention'),
      '.gsd/milestones/M003/M003-CONTEXT.md': context('M003', 'Dark mode'),
      '.gsd/milestones/M003/M003-PARKED.md': '# Parked\n\nWaiting for the design system.\n',
    });
    // GSD-2: M001 complete, M002 parked by its verdict, M003 parked by its file; no pending entry.
    const s = expectState(root, { phase: 'pre-planning', milestone: null, slice: null, task: null, blockers: 0 });
    assert.deepEqual(s.milestones.map((m) => [m.id, m.status]), [['M001', 'complete'], ['M002', 'parked'], ['M003', 'parked']]);
    assert.match(s.nextAction, /M002, M003/);
  });

  it('compares suffixed ids in depends_on as written, not upper-cased', () => {
    const root = writeTree({
      '.gsd/milestones/M004-0zjrg0/M004-0zjrg0-ROADMAP.md': roadmap('M004-0zjrg0', 'Storage', [{ id: 'S01', title: 'Blob store', done: true }]),
      '.gsd/milestones/M004-0zjrg0/M004-0zjrg0-VALIDATION.md': validation('pass'),
      '.gsd/milestones/M004-0zjrg0/M004-0zjrg0-SUMMARY.md': summary('M004-0zjrg0', 'Storage'),
      '.gsd/milestones/M005-b0m2hl/M005-b0m2hl-CONTEXT.md': context('M005-b0m2hl', 'Sync', ['M004-0zjrg0']),
      '.gsd/milestones/M006-k3v9pw/M006-k3v9pw-CONTEXT.md': context('M006-k3v9pw', 'Conflicts', ['M005-B0M2HL']),
    });
    const s = expectState(root, { phase: 'pre-planning', milestone: 'M005-b0m2hl', blockers: 0 });
    // M006's upper-cased id names no milestone GSD-2 knows, so it stays pending with the id as written.
    assert.deepEqual(s.milestones.find((m) => m.id === 'M006-k3v9pw')?.dependsOn, ['M005-B0M2HL']);
  });

  it('checks depends_on only while a milestone has unfinished slices', () => {
    const root = writeTree({
      '.gsd/milestones/M001/M001-CONTEXT.md': context('M001', 'Onboarding'),
      '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'Onboarding', [{ id: 'S01', title: 'Welcome tour' }]),
      // M002's slices are all done though M001 is not: its depends_on no longer holds it back.
      '.gsd/milestones/M002/M002-CONTEXT.md': context('M002', 'Invites', ['M001']),
      '.gsd/milestones/M002/M002-ROADMAP.md': roadmap('M002', 'Invites', [{ id: 'S01', title: 'Invite link', done: true }]),
      '.gsd/QUEUE-ORDER.json': JSON.stringify({ order: ['M002', 'M001'], updatedAt: '2026-10-05T08:00:00Z' }),
    });
    // GSD-2: M002 (first in the queue) has every slice done and no VALIDATION → validating it.
    expectState(root, { phase: 'validating-milestone', milestone: 'M002', blockers: 0 });

    // With an unfinished slice, the same depends_on blocks M002 and M001 runs first.
    fs.writeFileSync(M(root, 'M002', 'M002-ROADMAP.md'), roadmap('M002', 'Invites', [{ id: 'S01', title: 'Invite link', done: true }, { id: 'S02', title: 'Invite limits' }]));
    const s = expectState(root, { phase: 'planning', milestone: 'M001', slice: 'S01' });
    assert.deepEqual(s.milestones.map((m) => [m.id, m.status]), [['M002', 'pending'], ['M001', 'active']]);
  });
});

describe('queue order parsing', () => {
  it('keeps string ids, ignores the rest, and reports a file without an order list', () => {
    assert.deepEqual(parseQueueOrder('{"order":["M002",3,"M001"]}', 'q').order, ['M002', 'M001']);
    const bad = parseQueueOrder('{"updatedAt":"x"}', 'q');
    assert.equal(bad.order, null);
    assert.equal(bad.diagnostics[0].severity, 'warning');
    const items = ['M001', 'M002', 'M003'].map((id) => ({ id }));
    assert.deepEqual(sortByQueueOrder(items, ['M003', 'M404']).map((i) => i.id), ['M003', 'M001', 'M002']);
    assert.deepEqual(sortByQueueOrder(items, null).map((i) => i.id), ['M001', 'M002', 'M003']);
  });
});
