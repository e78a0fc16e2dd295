// Which panel nodes a real state change refreshes: derived from the sample before and after an edit
// of GSD's files, as the extension sees it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { locateProject } from '../../src/core/state/locate-project';
import { stateChanges } from '../../src/core/state/state-changes';
import { nextMarkIds, refreshPlan } from '../../src/vscode/panel/refresh-plan';
import { copySample } from './helpers/gsd-tree';
import { fullState } from './helpers/state';

const M2 = 'M002-k7q2xz';

describe('panel refresh plan', () => {
  let root: string;
  let gsd: string;
  beforeEach(() => {
    root = copySample();
    gsd = locateProject(root)!.gsdDir;
  });
  const id = (unit: string) => `gsd:${gsd}/${unit}`;
  /** Nodes the view has built so far: both S02 tasks and an S01 task, their review cycles. */
  const known = () => [`gsd:${gsd}`, id(M2), id(`${M2}/S01`), id(`${M2}/S01/T01`), id(`${M2}/S02`), id(`${M2}/S02/T01`), `${id(`${M2}/S02/T01`)}#cycle-2`, id(`${M2}/S02/T03`), id('M001')];

  it('ticking a task in a slice plan refreshes that slice and the nodes under it, not the other slices nor the milestone line', () => {
    const before = fullState(root);
    const plan = path.join(gsd, 'milestones', M2, 'slices', 'S02', 'S02-PLAN.md');
    fs.writeFileSync(plan, fs.readFileSync(plan, 'utf8').replace('- [ ] **T03', '- [x] **T03'));
    const changes = stateChanges(before, fullState(root));
    const got = refreshPlan(gsd, changes, false, known());
    assert.equal(got.full, false);
    const ids = got.full ? [] : got.ids;
    for (const want of [id(`${M2}/S02`), id(`${M2}/S02/T01`), `${id(`${M2}/S02/T01`)}#cycle-2`, id(`${M2}/S02/T03`)]) assert.ok(ids.includes(want), `${want} not in ${ids.join(', ')}`);
    // The milestone counts slices, and S02 is not complete before its summary: its line stays.
    for (const not of [id(M2), id(`${M2}/S01`), id(`${M2}/S01/T01`), id('M001')]) assert.ok(!ids.includes(not), `${not} refreshed`);
    // The phase moved on (all of S02 done): the project's own nodes too.
    assert.ok(ids.includes(`gsd:${gsd}`) && ids.includes(`gsd:${gsd}#pending`));
  });

  it('rebuilds everything when a milestone is added or removed, or the pending actions group comes or goes', () => {
    const before = fullState(root);
    fs.rmSync(path.join(gsd, 'milestones', 'M003'), { recursive: true });
    assert.deepEqual(refreshPlan(gsd, stateChanges(before, fullState(root)), false, known()), { full: true });
    const none = { project: false, milestones: new Set<string>(), slices: new Set<string>(), structure: false };
    assert.deepEqual(refreshPlan(gsd, none, true, known()), { full: true });
    assert.deepEqual(refreshPlan(gsd, none, false, known()), { full: false, ids: [] });
  });

  it('moves the "next" mark between the old and the new unit, and the project line', () => {
    assert.deepEqual(nextMarkIds(gsd, `${M2}/S02/T02`, `${M2}/S02/T03`), [`gsd:${gsd}`, id(`${M2}/S02/T02`), id(`${M2}/S02/T03`)]);
    assert.deepEqual(nextMarkIds(gsd, null, 'M003'), [`gsd:${gsd}`, id('M003')]);
    assert.deepEqual(nextMarkIds(gsd, 'M003', 'M003'), [`gsd:${gsd}`, id('M003')]);
  });
});
