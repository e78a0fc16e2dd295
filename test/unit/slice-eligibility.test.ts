// One rule for the slice that runs next (model/slice-eligibility.ts), used by the markdown derive,
// GSD-2's database derive and the successor's reading. The three copies it replaces disagreed on a
// dependency naming a slice the milestone does not have: GSD-2 lets that slice wait on both paths,
// and so does @opengsd/gsd-pi 1.16.1 (state/derive/from-db.ts resolveSliceDependencies).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { firstEligibleSlice, type SliceOrder } from '../../src/core/model/slice-eligibility';
import { eligibleSlice } from '../../src/core/gsd2-database/milestone-registry';
import type { SliceRow } from '../../src/core/gsd2-database/snapshot';
import { roadmap } from './helpers/gsd-tree';
import { writeTree } from './helpers/write-tree';
import { fullState, lazyState } from './helpers/state';
import { readSuccessorProject } from '../../src/core/successor';

interface S {
  id: string;
  done?: boolean;
  deferred?: boolean;
  depends?: string[];
}
const order: SliceOrder<S> = {
  id: (s) => s.id,
  closed: (s) => !!s.done,
  deferred: (s) => !!s.deferred,
  depends: (s) => s.depends ?? [],
};
const first = (slices: S[]) => firstEligibleSlice(slices, order)?.id ?? null;

describe('the slice that runs next', () => {
  it('the first open slice, in order, whose dependencies are all closed', () => {
    assert.equal(first([{ id: 'S01', done: true }, { id: 'S02', depends: ['S03'] }, { id: 'S03' }]), 'S03');
    assert.equal(first([{ id: 'S01', done: true }, { id: 'S02', depends: ['S01'] }, { id: 'S03' }]), 'S02');
    assert.equal(first([{ id: 'S01', done: true }]), null);
  });

  it('deferred slices are skipped, and a dependency on one is not met', () => {
    assert.equal(first([{ id: 'S01', deferred: true }, { id: 'S02', depends: ['S01'] }, { id: 'S03' }]), 'S03');
  });

  it('a dependency on a slice the milestone does not have waits', () => {
    assert.equal(first([{ id: 'S01', depends: ['S09'] }]), null);
    assert.equal(first([{ id: 'S01', depends: ['S09'] }, { id: 'S02' }]), 'S02');
    assert.equal(first([{ id: 'S01', depends: ['S02'] }, { id: 'S02', depends: ['S01'] }]), null);
  });

  it('the markdown derive (full and lazy) and the database rows agree: S01 waiting on an unknown S09 leaves S02', () => {
    const root = writeTree({
      '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'Billing', [{ id: 'S01', title: 'Invoices', depends: ['S09'] }, { id: 'S02', title: 'Export' }]),
    });
    assert.equal(fullState(root).activeSlice?.id, 'S02');
    assert.equal(lazyState(root).state.activeSlice?.id, 'S02');
    const row = (id: string, depends: string[]): SliceRow => ({ milestoneId: 'M001', id, title: id, status: 'pending', risk: '', depends, demo: '', sequence: 0, replanTriggeredAt: null, isSketch: false, sketchScope: '' });
    assert.equal(eligibleSlice([row('S01', ['S09']), row('S02', [])])?.id, 'S02');
    assert.equal(eligibleSlice([row('S01', ['S09'])]), undefined);
  });

  it('the successor\'s reading agrees: S01 waiting on an unknown S09 leaves S02, and alone it is blocked', () => {
    const slices = (lines: string) => writeTree({
      '.gsd/phases/01-x7k2m9-checkout/01-ROADMAP.md': `# M001-x7k2m9: Checkout\n\n## Slices\n\n${lines}`,
    });
    const s01 = '- [ ] **S01: Cart** `risk:low` `depends:[S09]`\n';
    const two = readSuccessorProject(path.join(slices(s01 + '- [ ] **S02: Payment** `risk:high` `depends:[]`\n'), '.gsd'));
    assert.equal(two.activeSlice?.id, 'S02');
    const one = readSuccessorProject(path.join(slices(s01), '.gsd'));
    assert.equal(one.phase, 'blocked');
    assert.equal(one.activeSlice, null);
  });
});
