// One rule for the slice that runs next (model/slice-eligibility.ts), used by the markdown derive,
// GSD-2's database derive and the successor's reading. The three copies it replaces disagreed on a
// dependency naming a slice the milestone does not have; GSD-2 lets that slice wait on both paths.
import * as assert from 'node:assert/strict';
import { firstEligibleSlice, type SliceOrder } from '../../src/core/model/slice-eligibility';
import { eligibleSlice } from '../../src/core/gsd2-database/milestone-registry';
import type { SliceRow } from '../../src/core/gsd2-database/snapshot';
import { roadmap } from './helpers/gsd-tree';
import { writeTree } from './helpers/write-tree';
import { fullState, lazyState } from './helpers/state';

interface S {
  id: string;
  done?: boolean;
  deferred?: boolean;
  depends?: string[];
}
const order = (unknownDependency?: 'waits' | 'met'): SliceOrder<S> => ({
  id: (s) => s.id,
  closed: (s) => !!s.done,
  deferred: (s) => !!s.deferred,
  depends: (s) => s.depends ?? [],
  ...(unknownDependency ? { unknownDependency } : {}),
});
const first = (slices: S[], unknown?: 'waits' | 'met') => firstEligibleSlice(slices, order(unknown))?.id ?? null;

describe('the slice that runs next', () => {
  it('the first open slice, in order, whose dependencies are all closed', () => {
    assert.equal(first([{ id: 'S01', done: true }, { id: 'S02', depends: ['S03'] }, { id: 'S03' }]), 'S03');
    assert.equal(first([{ id: 'S01', done: true }, { id: 'S02', depends: ['S01'] }, { id: 'S03' }]), 'S02');
    assert.equal(first([{ id: 'S01', done: true }]), null);
  });

  it('deferred slices are skipped, and a dependency on one is not met', () => {
    assert.equal(first([{ id: 'S01', deferred: true }, { id: 'S02', depends: ['S01'] }, { id: 'S03' }]), 'S03');
  });

  it('a dependency on a slice the milestone does not have waits (GSD-2); the successor\'s reading takes it as met', () => {
    const slices = [{ id: 'S01', depends: ['S09'] }];
    assert.equal(first(slices), null);
    assert.equal(first(slices, 'waits'), null);
    assert.equal(first(slices, 'met'), 'S01');
    // `met` does not reach a known slice that is still open.
    assert.equal(first([{ id: 'S01', depends: ['S02'] }, { id: 'S02', depends: ['S01'] }], 'met'), null);
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
});
