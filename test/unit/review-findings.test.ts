// Review findings where the code is (issue 26), the core side: placing each issue of a task's latest
// review cycle, keeping unusable places on the review, ticking one checkbox, the task in flight, and
// carrying a finding forward into the review loop's own state. Expectations are the sample's facts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openProject } from '../../src/core/project/open-project';
import { locationInText, parseFindingLocation } from '../../src/core/reviews/finding-locations';
import { reviewFindings, severityOf, unplacedNote } from '../../src/core/reviews/review-findings';
import { IssueMovedError, withIssueChecked } from '../../src/core/reviews/issue-checkbox';
import { lineAfterEdit, lineEditBetween } from '../../src/core/reviews/line-tracking';
import { taskInFlight } from '../../src/core/reviews/unit-in-flight';
import { carryFindingForward, pendingActionText } from '../../src/core/reviews/carry-finding';
import { readCodeReview } from '../../src/core/parse/code-review';
import { briefCycle, verdictCycle } from '../../src/core/successor/review-verdicts';

const SAMPLE = path.join(__dirname, '..', '..', 'sample-project');
const M2 = 'M002-k7q2xz';

function sampleCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-findings-'));
  fs.cpSync(SAMPLE, dir, { recursive: true });
  return dir;
}

describe('finding locations', () => {
  it('reads the places reviews write', () => {
    assert.deepEqual(parseFindingLocation('src/rules-file.ts:57'), { path: 'src/rules-file.ts', line: 57 });
    assert.deepEqual(parseFindingLocation('./src/a.ts:3:14'), { path: 'src/a.ts', line: 3 });
    assert.deepEqual(parseFindingLocation('src/a.ts:10-20'), { path: 'src/a.ts', line: 10 });
    assert.deepEqual(parseFindingLocation('src/a.ts#L7'), { path: 'src/a.ts', line: 7 });
    assert.deepEqual(parseFindingLocation('src\\win\\b.ts:2'), { path: 'src/win/b.ts', line: 2 });
    assert.deepEqual(parseFindingLocation('README.md'), { path: 'README.md', line: null });
  });

  it('refuses places outside the project, URLs and words', () => {
    for (const raw of ['/etc/passwd:1', '../outside.ts:3', 'src/../../x.ts:1', 'https://example.com/a.ts:4', 'C:/x.ts:1', 'categorise', '', 'a b.ts:1']) {
      assert.equal(parseFindingLocation(raw), null, raw);
    }
  });

  it('finds a place in the free text of a GSD rework finding', () => {
    assert.deepEqual(locationInText('Double capture. Fix: key it. See `src/cart.ts:12`.'), { path: 'src/cart.ts', line: 12 });
    assert.deepEqual(locationInText('retries in lib/pay.ts:40 are not keyed'), { path: 'lib/pay.ts', line: 40 });
    assert.equal(locationInText('Use `idempotencyKey` everywhere.'), null);
  });
});

describe("GSD's own findings (successor)", () => {
  it('places a rework finding by the place in its text, and a stopping verdict by the place in its rationale', () => {
    const brief = briefCycle({ id: 'RB-1', milestoneId: 'M001', sliceId: 'S02', taskId: 'T01', createdAt: '', updatedAt: '', findings: [
      { findingId: 'F1', severity: 'blocking', description: 'Double capture.', requiredFix: 'Key it.', status: 'pending', evidence: 'seen at `src/pay.ts:40`' },
      { findingId: 'F2', severity: 'advisory', description: 'Naming.', requiredFix: '', status: 'pending', evidence: '' },
    ] }, '/p/.gsd/gsd.db');
    assert.deepEqual(brief.openIssues.map((i) => i.location), ['src/pay.ts:40', undefined]);
    const stop = verdictCycle({ hook: 'code-review', verdict: 'needs-rework', rationale: 'Key missing (`src/cart.ts:3`).' }, 'a.md', 'artifact', 'T01');
    assert.deepEqual(stop.openIssues.map((i) => [i.location, i.severity]), [['src/cart.ts:3', 'needs-rework']]);
    assert.deepEqual(verdictCycle({ hook: 'code-review', verdict: 'pass', rationale: 'Fine (`src/cart.ts:3`).' }, 'a.md', 'artifact', 'T01').openIssues, []);
    assert.deepEqual(verdictCycle({ hook: 'code-review', verdict: 'needs-rework', rationale: 'No place named.' }, 'a.md', 'artifact', 'T01').openIssues, []);
  });
});

describe('review findings of a project', () => {
  it("places the sample's T02 issues: rules-file.ts:57 in the code, both from its latest cycle's file", () => {
    const state = openProject(SAMPLE, { reading: 'full' }).state();
    const index = reviewFindings(state);
    const t02 = index.all.filter((f) => f.unitId === `${M2}/S02/T02`);
    assert.deepEqual(t02.map((f) => [f.severity, f.location, f.resolved, f.cycle, path.basename(f.reviewFile), f.reviewLine]), [
      ['major', { path: 'src/rules-file.ts', line: 57 }, false, 1, 'T02-CODE-REVIEW-C1.md', 10],
      ['minor', { path: 'src/commands/rule.ts', line: 22 }, false, 1, 'T02-CODE-REVIEW-C1.md', 11],
    ]);
    assert.deepEqual(index.byFile.get(path.join(SAMPLE, 'src', 'rules-file.ts'))?.map((f) => f.taskId), ['T02']);
    // T01's latest cycle (3) has only resolved issues: they are there, resolved, none from cycles 1 and 2.
    const t01 = index.all.filter((f) => f.unitId === `${M2}/S02/T01`);
    assert.deepEqual([...new Set(t01.map((f) => f.cycle))], [3]);
    assert.ok(t01.length > 0 && t01.every((f) => f.resolved));
  });

  it('keeps an issue without a usable place on its review, and says why', () => {
    const root = sampleCopy();
    const tasks = path.join(root, '.gsd', 'milestones', M2, 'slices', 'S02', 'tasks');
    const c1 = path.join(tasks, 'T02-CODE-REVIEW-C1.md');
    fs.writeFileSync(c1, fs.readFileSync(c1, 'utf8').replace('`src/commands/rule.ts:22`', '`../../etc/passwd:1`').replace('**major** `src/rules-file.ts:57` ', '**major** '));
    const index = reviewFindings(openProject(root, { reading: 'full' }).state());
    const onReview = index.byReview.get(c1) ?? [];
    assert.deepEqual(onReview.map((f) => unplacedNote(f, null)), ['The review names no place in the code for this issue.', 'Its place `../../etc/passwd:1` is not a file inside the project.']);
  });

  it('ranks severity words for Problems', () => {
    assert.deepEqual(['major', 'critical', 'blocking', 'minor', 'advisory', 'nit', undefined].map(severityOf), ['error', 'error', 'error', 'warning', 'warning', 'info', 'warning']);
  });

  it('takes the task under review as in flight, then the dispatched task, else the active task', () => {
    const state = openProject(SAMPLE, { reading: 'full' }).state();
    assert.equal(taskInFlight(state, null), `${M2}/S02/T02`);
    assert.equal(taskInFlight(state, `${M2}/S02/T03`), `${M2}/S02/T03`);
    assert.equal(taskInFlight(state, `${M2}/S02`), `${M2}/S02/T02`);
  });
});

describe('ticking one issue of a review', () => {
  const review = '---\ntask: T02\ncycle: 2\n---\n## Issues\n\n- [ ] **major** `a.ts:1` first\r\n- [x] **minor** second\n';
  it('changes that checkbox only, keeping line endings', () => {
    const out = withIssueChecked(review, { line: 7, text: 'first' }, true);
    assert.equal(out, review.replace('- [ ] **major**', '- [x] **major**'));
    assert.equal(withIssueChecked(out, { line: 7, text: 'first' }, false), review);
    const parsed = readCodeReview(out, 'r.md');
    assert.deepEqual([parsed.openIssues.length, parsed.resolvedIssues.length], [0, 2]);
  });

  it('refuses when the line is not that issue any more', () => {
    assert.throws(() => withIssueChecked(review, { line: 8, text: 'first' }, true), IssueMovedError);
    assert.throws(() => withIssueChecked(review, { line: 40, text: 'first' }, true), IssueMovedError);
    assert.throws(() => withIssueChecked(review, { line: 5, text: 'first' }, true), IssueMovedError);
  });
});

describe('lines following edits', () => {
  it('moves a line below an insertion, keeps one above, and works out the edit from the texts', () => {
    const edit = lineEditBetween(['a', 'b', 'c', 'd'], ['a', 'x', 'y', 'b', 'c', 'd'])!;
    assert.deepEqual(edit, { startLine: 1, endLine: 0, newLineCount: 2 });
    assert.deepEqual([0, 1, 3].map((l) => lineAfterEdit(l, edit)), [0, 3, 5]);
    assert.equal(lineEditBetween(['a'], ['a']), null);
    // A revert that replaces the whole text with what it was before the insertion puts lines back.
    const back = lineEditBetween(['a', 'x', 'y', 'b', 'c', 'd'], ['a', 'b', 'c', 'd'])!;
    assert.equal(lineAfterEdit(lineAfterEdit(3, edit), back), 3);
  });
});

describe('carrying a finding forward', () => {
  it("appends it to the task's pending actions in the review loop's sidecar, once, and GSD's files stay as they were", () => {
    const root = sampleCopy();
    const project = openProject(root, { reading: 'full' });
    const tasks = path.join(root, '.gsd', 'milestones', M2, 'slices', 'S02', 'tasks');
    const plan = fs.readFileSync(path.join(tasks, 'T02-PLAN.md'), 'utf8');
    const finding = reviewFindings(project.state()).all.find((f) => f.location?.path === 'src/rules-file.ts')!;
    const written = carryFindingForward(project, finding);
    assert.ok(written?.includes(path.join(tasks, 'T02-HOOKS.md')), String(written));
    assert.equal(carryFindingForward(project, finding), null, 'a second time adds nothing');
    assert.equal(fs.readFileSync(path.join(tasks, 'T02-PLAN.md'), 'utf8'), plan);
    const hooks = fs.readFileSync(path.join(tasks, 'T02-HOOKS.md'), 'utf8');
    assert.match(hooks, /pendingActions:\n\s+- "?\[major\] src\/rules-file\.ts:57: The temporary file is written next to rules\.yaml but never fsynced before rename\. \(carried forward from review cycle 1\)/);
    assert.match(hooks, /status: fixing/, 'the rest of the block is kept');
    // The derived state lists it as a pending action of T02, as the panel shows it.
    const fresh = openProject(root, { reading: 'full' }).state();
    assert.ok(fresh.pendingActions.some((a) => a.taskId === 'T02' && a.text === pendingActionText(finding)));
  });
});
