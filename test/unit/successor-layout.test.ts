// Successor projects read from their `.gsd/phases/` markdown alone: what a clone without gsd.db, or
// a Node without node:sqlite (Node 20), gets. Runs under every Node. Expectations come from issue
// 17's facts and gsd-pi's code (cited), never from the reader.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readSuccessorProject, type SuccessorReviewCycle } from '../../src/core/successor';
import { detectProjectKind } from '../../src/core/state/project-kind';
import { GSD_APPLICATION_ID, LATEST_KNOWN_SCHEMA } from '../../src/core/state/schema-versions';
import { writeTree } from './helpers/gsd-tree';
import { snapshotTree } from './helpers/folder-snapshot';
import { S01_T02_KNOWN_ISSUES, sqliteHeaderOnly, writeSuccessorLayout } from './helpers/successor-project';

function lineOf(file: string, text: string): number {
  const i = fs.readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(text));
  assert.ok(i >= 0, `${text} not in ${file}`);
  return i + 1;
}

describe('successor projects: detection without node:sqlite', () => {
  it('a phases/ layout without gsd.db is a successor project (gsd.db is git-ignored, layout-policy.ts)', () => {
    const { gsdDir } = writeSuccessorLayout();
    const r = detectProjectKind(gsdDir, { sqlite: 'off' });
    assert.equal(r.kind, 'successor');
    assert.equal(r.hasPhasesDir, true);
    assert.equal(r.hasCompatMarker, true);
    assert.equal(r.databaseFile, undefined);
    assert.equal(r.tooNew, false);
  });

  it('a milestones/ tree without a database is a markdown project', () => {
    const root = writeTree({ '.gsd/milestones/M001/M001-ROADMAP.md': '# M001: Old\n' });
    assert.equal(detectProjectKind(path.join(root, '.gsd'), { sqlite: 'off' }).kind, 'markdown');
  });

  it('reads application_id and user_version from the SQLite header (db/engine.ts stamps, schema 48)', () => {
    const root = writeTree({ '.gsd/gsd.db': sqliteHeaderOnly(48, GSD_APPLICATION_ID), '.gsd/phases/01-a/01-ROADMAP.md': '# M001: A\n' });
    const r = detectProjectKind(path.join(root, '.gsd'), { sqlite: 'off' });
    assert.equal(r.kind, 'successor');
    assert.equal(r.applicationId, 0x47534442);
    assert.equal(r.userVersion, 48);
    assert.equal(r.schemaVersion, 48);
    assert.equal(r.schemaVersionFrom, 'user_version');
    assert.equal(r.tooNew, false);
  });

  it('a stamped database newer than 51 is refused with one message and nothing else is read', () => {
    const { gsdDir } = writeSuccessorLayout({ '.gsd/gsd.db': sqliteHeaderOnly(LATEST_KNOWN_SCHEMA + 1, GSD_APPLICATION_ID) });
    const r = detectProjectKind(gsdDir, { sqlite: 'off' });
    assert.equal(r.kind, 'successor');
    assert.equal(r.tooNew, true);
    const state = readSuccessorProject(gsdDir, { sqlite: 'off' });
    assert.equal(state.milestones.length, 0);
    assert.equal(state.diagnostics.length, 1);
    assert.match(state.diagnostics[0].message, /schema 52, newer than the 51/);
    assert.equal(state.refused, state.diagnostics[0].message);
    assert.equal(state.phase, 'blocked');
  });

  it('an unstamped database beside milestones/ is a GSD-2 database project; beside phases/ a successor one', () => {
    const gsd2 = writeTree({ '.gsd/gsd.db': sqliteHeaderOnly(0, 0), '.gsd/milestones/M001/M001-ROADMAP.md': '# M001: A\n' });
    assert.equal(detectProjectKind(path.join(gsd2, '.gsd'), { sqlite: 'off' }).kind, 'gsd2-database');
    const succ = writeTree({ '.gsd/gsd.db': sqliteHeaderOnly(0, 0), '.gsd/phases/01-a/01-ROADMAP.md': '# M001: A\n' });
    assert.equal(detectProjectKind(path.join(succ, '.gsd'), { sqlite: 'off' }).kind, 'successor');
  });

  it('a gsd.db that is not SQLite is reported, not trusted', () => {
    const root = writeTree({ '.gsd/gsd.db': 'not a database', '.gsd/milestones/M001/M001-ROADMAP.md': '# M001: A\n' });
    const r = detectProjectKind(path.join(root, '.gsd'), { sqlite: 'off' });
    assert.equal(r.kind, 'markdown');
    assert.match(r.diagnostics[0].message, /not an SQLite database/);
  });
});

describe('successor projects: state from the .gsd/phases layout', () => {
  it('reads milestones, slices (remediation included) and tasks from phases/NN-slug', () => {
    const { gsdDir } = writeSuccessorLayout();
    const s = readSuccessorProject(gsdDir);
    assert.equal(s.source, 'successor');
    assert.equal(s.readOnly, true);
    assert.equal(s.readFrom, 'layout');
    assert.deepEqual(s.milestones.map((m) => [m.id, m.title, path.basename(m.dir)]), [
      ['M001', 'Checkout flow', '01-checkout-flow'],
      ['M002', 'Order history', '02-order-history'],
    ]);
    const m1 = s.milestones[0];
    assert.equal(m1.roadmapFile, path.join(m1.dir, '01-ROADMAP.md'));
    assert.deepEqual(m1.slices.map((x) => x.id), ['S01', 'S02', 'R01']);
    assert.equal((m1.slices[2].extensions.successor as { remediation: boolean }).remediation, true);
    assert.equal(m1.slices[2].planFile, path.join(m1.dir, '01-R01-PLAN.md'));
    assert.equal(m1.slices[1].planFile, path.join(m1.dir, '01-02-PLAN.md'));
    assert.deepEqual(m1.slices[1].depends, ['S01']);
    // Tasks are the checkboxes of the plan's <tasks> block: `- [x] **T01**: Title _(est)_`.
    const s02 = m1.slices[1];
    assert.deepEqual(s02.tasks.map((t) => [t.id, t.title, t.done, t.estimate]), [
      ['T01', 'Payment intent', true, '30m'],
      ['T02', 'Capture payment', false, '30m'],
      ['T03', 'Refunds', false, undefined],
    ]);
    assert.deepEqual(s02.tasks[0].files, ['src/s02-t01.ts']);
    assert.equal(s02.tasks[0].verify, 'npm test -- --grep T01');
    assert.equal(s02.tasks[1].planLine, lineOf(s02.planFile!, '**T02**'));
    assert.equal(s02.tasks[0].planFile, undefined, 'the successor has no task plan files');
  });

  it('finds S01-T01-SUMMARY.md in the phase folder, and the older T01-SUMMARY.md', () => {
    const { gsdDir } = writeSuccessorLayout();
    const s = readSuccessorProject(gsdDir);
    const [m1, m2] = s.milestones;
    assert.equal(m1.slices[0].tasks[1].summaryFile, path.join(m1.dir, 'S01-T02-SUMMARY.md'));
    assert.equal(m1.slices[0].tasks[1].completedAt, '2026-10-01T09:30:00Z');
    // M002's T01 has only the old name; its box is unchecked, but a summary means GSD completed it.
    assert.equal(m2.slices[0].tasks[0].summaryFile, path.join(m2.dir, 'T01-SUMMARY.md'));
    assert.equal(m2.slices[0].tasks[0].done, true);
    assert.equal(m2.slices[0].tasks[1].done, false);
  });

  it('shows the known issues of task summaries as pending actions, at their lines', () => {
    const { gsdDir } = writeSuccessorLayout();
    const s = readSuccessorProject(gsdDir);
    const t = s.milestones[0].slices[0].tasks[1];
    const file = t.summaryFile!;
    // Two open bullets; the ticked one is dealt with.
    assert.equal(S01_T02_KNOWN_ISSUES.split('\n').length, 3);
    assert.deepEqual(t.pendingActions.map((a) => [a.text, a.line, a.file, a.source]), [
      ['Rounding of totals over 1,000 is off by one cent.', lineOf(file, 'Rounding of totals'), file, 'gsd-known-issues'],
      ['Cart is not persisted across sessions.', lineOf(file, 'Cart is not persisted'), file, 'gsd-known-issues'],
    ]);
    // Prose without bullets is one action; GSD's "None." is none.
    const s02t01 = s.milestones[0].slices[1].tasks[0];
    assert.deepEqual(s02t01.pendingActions.map((a) => a.text), ['Webhook retries are not idempotent yet; a duplicate event can double-charge.']);
    assert.deepEqual(s.milestones[0].slices[0].tasks[0].pendingActions, []);
    assert.deepEqual(s.pendingActions.map((a) => `${a.milestoneId}/${a.sliceId}/${a.taskId}`), ['M001/S01/T02', 'M001/S01/T02', 'M001/S02/T01']);
  });

  it("shows a blocking hook's artifact verdict as a review cycle (needs-rework: not passed)", () => {
    const { gsdDir } = writeSuccessorLayout();
    const s = readSuccessorProject(gsdDir);
    assert.deepEqual(s.reviewHooks, ['code-review'], 'only hooks with criticality: blocking review');
    const t01 = s.milestones[0].slices[1].tasks[0];
    const cycles = t01.reviews as SuccessorReviewCycle[];
    assert.equal(cycles.length, 1);
    assert.equal(cycles[0].cycle, 1);
    assert.equal(cycles[0].name, 'code-review');
    assert.equal(cycles[0].gsdVerdict, 'needs-rework', 'verdicts are lower-cased (verdict-parser.ts)');
    assert.equal(cycles[0].passed, false);
    assert.equal(cycles[0].verdict, 'changes-requested');
    assert.equal(cycles[0].rationale, 'Idempotency key missing on capture.');
    assert.equal(cycles[0].file, path.join(s.milestones[0].dir, 'S02-T01-REVIEW.md'));
    assert.equal(cycles[0].from, 'artifact');
    assert.deepEqual(s.milestones[0].slices[1].tasks[1].reviews, []);
  });

  it('reads `passed` and outcome.verdict the way GSD does (pass, advisory continue)', () => {
    const { gsdDir } = writeSuccessorLayout({
      '.gsd/phases/01-checkout-flow/S01-T01-REVIEW.md': '---\noutcome:\n  verdict: advisory\n---\n',
      '.gsd/phases/01-checkout-flow/S01-T02-REVIEW.md': '---\nverdict: passed\n---\n',
    });
    const s = readSuccessorProject(gsdDir);
    const [t1, t2] = s.milestones[0].slices[0].tasks;
    assert.deepEqual((t1.reviews as SuccessorReviewCycle[]).map((c) => [c.gsdVerdict, c.passed]), [['advisory', true]]);
    assert.deepEqual((t2.reviews as SuccessorReviewCycle[]).map((c) => [c.gsdVerdict, c.passed]), [['pass', true]]);
  });

  it('derives the active units, phase and progress with GSD phase strings', () => {
    const { gsdDir } = writeSuccessorLayout();
    const s = readSuccessorProject(gsdDir);
    assert.deepEqual(s.activeMilestone, { id: 'M001', title: 'Checkout flow' });
    assert.deepEqual(s.activeSlice, { id: 'S02', title: 'Payment' });
    assert.deepEqual(s.activeTask, { id: 'T02', title: 'Capture payment' });
    assert.equal(s.phase, 'executing');
    assert.equal(s.milestones[0].status, 'active');
    assert.equal(s.milestones[0].slices[0].status, 'done');
    assert.equal(s.milestones[0].slices[1].status, 'active');
    assert.equal(s.milestones[0].slices[1].tasks[1].status, 'active');
    assert.deepEqual(s.progress.tasks, { done: 4, total: 8 });
    assert.deepEqual(s.progress.slices, { done: 1, total: 4 });
    assert.deepEqual(s.progress.milestones, { done: 0, total: 2 });
    assert.deepEqual(s.milestones[0].slices[1].progress, { done: 1, total: 3 });
  });

  it('a task paused by a needs-attention verdict blocks the project', () => {
    const { gsdDir } = writeSuccessorLayout({ '.gsd/phases/01-checkout-flow/S02-T02-REVIEW.md': '---\nverdict: needs-attention\nrationale: PCI scope unclear.\n---\n' });
    const s = readSuccessorProject(gsdDir);
    assert.equal(s.phase, 'blocked');
    assert.match(s.blockers[0], /code-review said needs-attention for T02: PCI scope unclear\./);
  });

  it('reads the state-version stamps and the worktrees beside .gsd', () => {
    const { gsdDir } = writeSuccessorLayout();
    const s = readSuccessorProject(gsdDir);
    assert.deepEqual(s.layoutStateVersion, { revision: 42, authorityEpoch: 1 });
    assert.deepEqual(s.worktrees, ['M001']);
  });

  it('says in one diagnostic line why only the markdown was read', () => {
    const { gsdDir } = writeSuccessorLayout();
    const s = readSuccessorProject(gsdDir);
    const why = s.diagnostics.filter((d) => /read from the \.gsd\/phases markdown only/.test(d.message));
    assert.equal(why.length, 1);
    assert.match(why[0].message, /no gsd\.db/);
    assert.equal(s.statusFrom, 'layout');
  });

  it('leaves .gsd byte-identical', () => {
    const { gsdDir } = writeSuccessorLayout();
    const before = snapshotTree(gsdDir);
    readSuccessorProject(gsdDir);
    detectProjectKind(gsdDir);
    assert.deepEqual(snapshotTree(gsdDir), before);
  });

  it('team milestone ids: 01-abc123-<slug> (layout-policy.ts canonicalPhaseDirName)', () => {
    const root = writeTree({
      '.gsd/phases/01-x7k2m9-checkout/01-01-PLAN.md': '# S01: Cart\n\n**Milestone:** M001-x7k2m9\n**Slice:** S01\n\n<tasks>\n- [ ] **T01**: Cart _(1h)_\n</tasks>\n',
      '.gsd/phases/02-q4w8e1-payments/02-ROADMAP.md': '# M002-q4w8e1: Payments\n\n## Slices\n\n- [ ] **S01: Intent** `risk:low` `depends:[]`\n',
    });
    const s = readSuccessorProject(path.join(root, '.gsd'));
    assert.deepEqual(s.milestones.map((m) => [m.id, m.title]), [['M001-x7k2m9', 'checkout'], ['M002-q4w8e1', 'Payments']]);
    assert.deepEqual(s.milestones[0].slices[0].tasks.map((t) => [t.id, t.estimate]), [['T01', '1h']]);
  });

  it('follows a symlinked .gsd and reports its real path', () => {
    const { root: target } = writeSuccessorLayout();
    const root = writeTree({ 'README.md': 'app\n' });
    fs.symlinkSync(path.join(target, '.gsd'), path.join(root, '.gsd'));
    const s = readSuccessorProject(path.join(root, '.gsd'));
    assert.equal(s.root, root);
    assert.equal(s.gsdDir, fs.realpathSync(path.join(target, '.gsd')));
    assert.equal(s.milestones.length, 2);
  });

  it('bad input gives diagnostics, never a throw', () => {
    const { gsdDir } = writeSuccessorLayout({
      '.gsd/phases/01-checkout-flow/01-02-PLAN.md': '# S02: Payment\n\n<tasks>\n- [x] **T01**: Payment intent\n- [?] T02 broken\n',
      '.gsd/phases/01-checkout-flow/S01-T01-SUMMARY.md': '---\ncompleted_at: [unclosed\n---\n# T01\n',
    });
    const s = readSuccessorProject(gsdDir);
    const msgs = s.diagnostics.map((d) => d.message).join('\n');
    assert.match(msgs, /task line not understood/);
    assert.match(msgs, /<tasks> block is never closed/);
    assert.match(msgs, /frontmatter is not valid YAML/);
    assert.deepEqual(s.milestones[0].slices[1].tasks.map((t) => t.id), ['T01']);
  });
});
