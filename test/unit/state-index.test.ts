import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeGsdStore } from '../../src/core/files/gsd-store';
import { locateProject } from '../../src/core/state/locate-project';
import { StateIndex } from '../../src/core/state/state-index';
import { decisionOf, fullState } from './helpers/state';
import { codeReview, copySample, taskSummary } from './helpers/gsd-tree';

/** A store that counts reads, to show that a change re-reads only the changed file. */
class CountingStore extends NodeGsdStore {
  readonly read: string[] = [];
  override readText(p: string): string | null {
    this.read.push(p);
    return super.readText(p);
  }
}

describe('StateIndex: incremental re-derivation', () => {
  let root: string;
  let store: CountingStore;
  let index: StateIndex;
  /** The state right after the first derive, before the test changes anything. */
  let first: ReturnType<StateIndex['state']>;
  const s02 = () => path.join(locateProject(root)!.gsdDir, 'milestones', 'M002-k7q2xz', 'slices', 'S02');

  beforeEach(() => {
    root = copySample();
    store = new CountingStore();
    index = new StateIndex(locateProject(root)!, store);
    first = index.state();
    store.read.length = 0;
  });

  it('returns the same state object until something changes, then a new one', () => {
    assert.equal(index.state(), first);
    assert.deepEqual(store.read, []);
    const plan = path.join(s02(), 'S02-PLAN.md');
    fs.appendFileSync(plan, '\n');
    index.changed(plan);
    assert.notEqual(index.state(), first);
  });

  it('re-reads only the changed file and agrees with a fresh full derive', () => {
    const plan = path.join(s02(), 'S02-PLAN.md');
    fs.writeFileSync(plan, fs.readFileSync(plan, 'utf8').replace('- [ ] **T03', '- [x] **T03'));
    index.changed(plan);
    const s = index.state();
    assert.deepEqual(store.read, [plan]);
    assert.equal(s.phase, 'summarizing');
    assert.deepEqual(decisionOf(s), decisionOf(fullState(root)));
  });

  it('picks up a new review file, a new summary with pending actions, and a deleted file', () => {
    const tasks = path.join(s02(), 'tasks');
    const review = path.join(tasks, 'T02-CODE-REVIEW.md');
    fs.writeFileSync(review, codeReview('T02', 2, 'approved', [{ text: 'fsync before rename', resolved: true }]));
    index.changed(review);
    const t02 = index.state().milestones[1].slices[1].tasks[1];
    assert.deepEqual(t02.reviews.map((r) => [r.cycle, r.passed]), [[1, false], [2, true]]);

    const summary = path.join(tasks, 'T03-SUMMARY.md');
    fs.writeFileSync(summary, taskSummary('T03', 'S02', 'M002-k7q2xz', { pendingActions: ['Show zero-match rules last'] }));
    index.changed(summary);
    assert.equal(index.state().phase, 'summarizing');
    assert.deepEqual(index.state().pendingActions.map((a) => a.taskId), ['T02', 'T02', 'T03']);

    fs.unlinkSync(summary);
    index.changed(summary);
    assert.equal(index.state().activeTask?.id, 'T03');
    assert.deepEqual(decisionOf(index.state()), decisionOf(fullState(root)));
  });

  it('drops a whole folder that was removed', () => {
    const m003 = path.join(locateProject(root)!.gsdDir, 'milestones', 'M003');
    fs.rmSync(m003, { recursive: true });
    index.changed(m003);
    assert.deepEqual(index.state().milestones.map((m) => m.id), ['M001', 'M002-k7q2xz']);
  });

  it('keeps unchanged slices as the same objects (no rebuild of the rest of the tree)', () => {
    const before = index.state().milestones[0].slices[0].tasks;
    const plan = path.join(s02(), 'S02-PLAN.md');
    fs.appendFileSync(plan, '\n');
    index.changed(plan);
    assert.equal(index.state().milestones[0].slices[0].tasks, before);
  });

  it('ignores paths outside .gsd', () => {
    const outside = path.join(root, 'src', 'rules.ts');
    fs.appendFileSync(outside, '\n// edited\n');
    assert.equal(index.changed(outside), false);
    assert.equal(index.state(), first);
    assert.deepEqual(store.read, []);
  });
});
