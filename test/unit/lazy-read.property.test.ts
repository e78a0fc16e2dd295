// The lazy read (the CLI's `next`, `hook` and `state`) opens only what GSD's rules need for the
// active unit; the full read (the panel) opens everything. On random milestone registries (summaries
// that succeed or fail, validation verdicts, PARKED files, dependencies, done and open roadmaps,
// CONTEXT drafts, ghost folders, hook state in sidecars) both must reach the same decision, statuses
// and milestone hook state. The
// full read is the reference: it is the one checked against GSD-2's own corpus (npm run conformance).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import fc from 'fast-check';
import { roadmap } from './helpers/gsd-tree';
import { writeTree, type Tree } from './helpers/write-tree';
import { decisionOf, fullState, lazyState } from './helpers/state';

interface MilestoneSpec {
  context: 'none' | 'context' | 'draft';
  dependsOn: number[];
  roadmap: 'none' | 'empty' | 'open' | 'done';
  summary: 'none' | 'complete' | 'failed';
  validation: 'none' | 'pass' | 'needs-remediation' | 'needs-attention';
  parked: boolean;
  /** A hook keeps state on the milestone (its sidecar, `M001-HOOKS.md`). */
  hookState: boolean;
}

const milestoneSpec: fc.Arbitrary<MilestoneSpec> = fc.record({
  context: fc.constantFrom('none', 'context', 'draft'),
  dependsOn: fc.array(fc.integer({ min: 1, max: 7 }), { maxLength: 2 }),
  roadmap: fc.constantFrom('none', 'empty', 'open', 'done'),
  summary: fc.constantFrom('none', 'none', 'complete', 'failed'),
  validation: fc.constantFrom('none', 'none', 'pass', 'needs-remediation', 'needs-attention'),
  parked: fc.constantFrom(false, false, false, true),
  hookState: fc.constantFrom(false, false, true),
});

function treeOf(specs: MilestoneSpec[]): Tree {
  const tree: Tree = {};
  specs.forEach((m, i) => {
    const id = `M00${i + 1}`;
    const dir = `.gsd/milestones/${id}/${id}`;
    const deps = m.dependsOn.map((n) => `M00${n}`);
    const fm = deps.length ? `---\ndepends_on: [${deps.join(', ')}]\n---\n\n` : '';
    if (m.context === 'context') tree[`${dir}-CONTEXT.md`] = `${fm}# ${id}: Feature ${i + 1}\n\nWhy it matters.\n`;
    if (m.context === 'draft') tree[`${dir}-CONTEXT-DRAFT.md`] = `# ${id}: Draft ${i + 1}\n\nStill being discussed.\n`;
    if (m.roadmap === 'empty') tree[`${dir}-ROADMAP.md`] = '';
    if (m.roadmap === 'open' || m.roadmap === 'done') {
      tree[`${dir}-ROADMAP.md`] = roadmap(id, `Feature ${i + 1}`, [
        { id: 'S01', title: 'First', done: true },
        { id: 'S02', title: 'Second', done: m.roadmap === 'done' },
      ]);
    }
    if (m.summary !== 'none') tree[`${dir}-SUMMARY.md`] = `---\nid: ${id}\nstatus: ${m.summary}\n---\n\n# ${id}: Feature ${i + 1}\n\nWhat happened.\n`;
    if (m.validation !== 'none') tree[`${dir}-VALIDATION.md`] = `---\nverdict: ${m.validation}\n---\n\n# Validation\n`;
    if (m.parked) tree[`${dir}-PARKED.md`] = '# Parked\n\nLater.\n';
    if (m.hookState) tree[`${dir}-HOOKS.md`] = `---\nextensions:\n  release-notes:\n    queued: true\n    after: ${id}\n---\n\n# Hook state of milestone ${id}\n`;
    // A folder with none of CONTEXT, ROADMAP or SUMMARY is a ghost GSD skips: keep it on disk.
    if (!Object.keys(tree).some((f) => f.startsWith(`.gsd/milestones/${id}/`))) tree[`.gsd/milestones/${id}/META.json`] = '{}\n';
  });
  return tree;
}

describe('the lazy read reaches the decision the full read reaches (random registries)', () => {
  it('same phase, active units, blockers, progress and milestone statuses', () => {
    fc.assert(
      fc.property(fc.array(milestoneSpec, { minLength: 1, maxLength: 7 }), (specs) => {
        const root = writeTree(treeOf(specs));
        try {
          const full = fullState(root);
          const lazy = lazyState(root).state;
          assert.deepEqual(decisionOf(lazy), decisionOf(full));
          // A hook's state on any milestone is there in both reads, opened whole or not.
          assert.deepEqual(lazy.milestones.map((m) => [m.id, m.extensions]), full.milestones.map((m) => [m.id, m.extensions]));
          // Whatever the lazy read did open, it read as the full read did.
          for (const m of lazy.milestones) {
            if (!m.roadmapLoaded) continue;
            const f = full.milestones.find((x) => x.id === m.id)!;
            assert.deepEqual([m.id, m.title, m.slices.map((s) => [s.id, s.done])], [f.id, f.title, f.slices.map((s) => [s.id, s.done])]);
          }
        } finally {
          fs.rmSync(root, { recursive: true, force: true });
        }
      }),
      { numRuns: 300 },
    );
  });
});
