// The panel's first look and its read in steps (StateIndex.firstLook / readStep). The panel shows the
// first look while the rest of the project is read a slice per step, so on random projects
// (milestones done, active and pending, slices done and open, task summaries with pending actions):
// - the first look decides what the full read decides and shows every milestone and slice row as it
//   does; only slices other than the active one lack their plan, and pending actions are a subset;
// - after the steps, the state is the full read's, with nothing left to read;
// - a file changed between steps is read as it is now.
// The reference is the full read of a fresh reader (the one checked against GSD-2's own corpus).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { NodeGsdStore } from '../../src/core/files/gsd-store';
import { locateProject } from '../../src/core/state/locate-project';
import { StateIndex } from '../../src/core/state/state-index';
import type { GSDState } from '../../src/core/model/types';
import { roadmap, slicePlan, taskSummary } from './helpers/gsd-tree';
import { writeTree, type Tree } from './helpers/write-tree';
import { decisionOf, fullState } from './helpers/state';

class CountingStore extends NodeGsdStore {
  reads = 0;
  override readText(p: string): string | null {
    this.reads++;
    return super.readText(p);
  }
}

interface SliceSpec {
  /** Tasks done in order: the first `done` of `tasks`. */
  tasks: number;
  done: number;
  /** Pending actions in the last done task's summary. */
  pending: boolean;
}
interface MilestoneSpec {
  slices: SliceSpec[];
  summary: boolean;
}

const sliceSpec: fc.Arbitrary<SliceSpec> = fc
  .record({ tasks: fc.integer({ min: 1, max: 4 }), done: fc.integer({ min: 0, max: 4 }), pending: fc.boolean() })
  .map((s) => ({ ...s, done: Math.min(s.done, s.tasks) }));
const milestoneSpec: fc.Arbitrary<MilestoneSpec> = fc.record({ slices: fc.array(sliceSpec, { minLength: 1, maxLength: 3 }), summary: fc.boolean() });

function treeOf(specs: MilestoneSpec[]): Tree {
  const tree: Tree = {};
  specs.forEach((m, i) => {
    const mid = `M00${i + 1}`;
    const mdir = `.gsd/milestones/${mid}`;
    const slicesDone = m.slices.map((s) => s.done === s.tasks);
    tree[`${mdir}/${mid}-ROADMAP.md`] = roadmap(mid, `Feature ${i + 1}`, m.slices.map((_, j) => ({ id: `S0${j + 1}`, title: `Part ${j + 1}`, done: slicesDone[j] })));
    if (m.summary && slicesDone.every(Boolean)) tree[`${mdir}/${mid}-SUMMARY.md`] = `---\nid: ${mid}\nstatus: complete\n---\n\n# ${mid}: Feature ${i + 1}\n\nShipped.\n`;
    m.slices.forEach((s, j) => {
      const sid = `S0${j + 1}`;
      const sdir = `${mdir}/slices/${sid}`;
      const tasks = Array.from({ length: s.tasks }, (_, k) => ({ id: `T0${k + 1}`, title: `Step ${k + 1}`, done: k < s.done }));
      tree[`${sdir}/${sid}-PLAN.md`] = slicePlan(sid, `Part ${j + 1}`, tasks);
      for (let k = 0; k < s.done; k++) {
        const last = k === s.done - 1;
        tree[`${sdir}/tasks/T0${k + 1}-SUMMARY.md`] = taskSummary(`T0${k + 1}`, sid, mid, last && s.pending ? { pendingActions: [`Follow up on ${mid}/${sid}/T0${k + 1}`] } : {});
      }
    });
  });
  return tree;
}

const rows = (s: GSDState) => s.milestones.map((m) => [m.id, m.title, m.status, m.progress, m.slices.map((x) => [x.id, x.title, x.status, x.done])]);

describe('the first look and the read in steps (random projects)', () => {
  it('the first look decides as the full read and shows the same milestone and slice rows; the steps end in the full state', () => {
    fc.assert(
      fc.property(fc.array(milestoneSpec, { minLength: 1, maxLength: 5 }), (specs) => {
        const root = writeTree(treeOf(specs));
        try {
          const full = fullState(root);
          const store = new CountingStore();
          const index = new StateIndex(locateProject(root)!, store);
          const look = index.firstLook();
          assert.equal(look.complete, false);
          assert.deepEqual(decisionOf(look.state), decisionOf(full));
          assert.deepEqual(rows(look.state), rows(full));
          for (const m of look.state.milestones) {
            for (const s of m.slices) {
              if (!s.planLoaded) continue;
              const f = full.milestones.find((x) => x.id === m.id)!.slices.find((x) => x.id === s.id)!;
              assert.deepEqual(s.tasks, f.tasks);
            }
          }
          for (const a of look.state.pendingActions) assert.ok(full.pendingActions.some((f) => f.file === a.file && f.text === a.text), `pending action ${a.text} is the full read's`);
          let steps = 0;
          while (index.readStep()) steps++;
          assert.equal(steps, 1 + full.milestones.reduce((n, m) => n + m.slices.length, 0), 'the milestones in one step, then one step per slice');
          const readsBefore = store.reads;
          const after = index.state();
          assert.equal(store.reads, readsBefore, 'the state after the steps reads nothing more');
          assert.deepEqual(after, full);
          assert.deepEqual(index.firstLook(), { state: after, complete: true });
          assert.equal(index.readStep(), false);
        } finally {
          fs.rmSync(root, { recursive: true, force: true });
        }
      }),
      { numRuns: 120 },
    );
  });

  it('a summary written between two steps is in the state the steps end in', () => {
    const specs: MilestoneSpec[] = [
      { slices: [{ tasks: 2, done: 2, pending: false }], summary: true },
      { slices: [{ tasks: 2, done: 1, pending: false }], summary: false },
      { slices: [{ tasks: 3, done: 0, pending: false }, { tasks: 2, done: 0, pending: false }], summary: false },
    ];
    const root = writeTree(treeOf(specs));
    try {
      const index = new StateIndex(locateProject(root)!);
      assert.equal(index.firstLook().complete, false);
      assert.equal(index.readStep(), true);
      // M003/S02 is not the active slice: its tasks are read by a later step, or again after this change.
      const written = path.join(root, '.gsd/milestones/M003/slices/S02/tasks/T01-SUMMARY.md');
      fs.mkdirSync(path.dirname(written), { recursive: true });
      fs.writeFileSync(written, taskSummary('T01', 'S02', 'M003', { pendingActions: ['Replan the importer'] }));
      index.changed(written);
      while (index.readStep());
      const state = index.state();
      assert.deepEqual(state, fullState(root));
      assert.deepEqual(state.pendingActions.map((a) => a.text), ['Replan the importer']);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
