// A write lock a repository commits. Our lock is a folder holding one holder's name; a folder with
// another file in it (the only way git can commit a folder) once could never be removed as stale, and
// one whose time is set in the future (an unpacked archive keeps times) never looked stale: either way
// every write of ours waited 12 s and then gave up, for good. A holder's name committed with it
// (another machine's, dated ahead) is taken over too.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { dispatchNextUnit } from './helpers/one-shot-dispatch';
import { withGsdLock } from '../../src/core/files/gsd-lock';
import { roadmap, slicePlan, taskSummary, writeTree } from './helpers/gsd-tree';

const M = '.gsd/milestones/M001';
const TASKS = `${M}/slices/S01/tasks`;
const LOCK = '.gsd/gsd-review-loop/write.lock';

function project(): string {
  return writeTree({
    [`${M}/M001-ROADMAP.md`]: roadmap('M001', 'Invoicing', [{ id: 'S01', title: 'Invoice PDFs' }]),
    [`${M}/slices/S01/S01-PLAN.md`]: slicePlan('S01', 'Invoice PDFs', [{ id: 'T01', title: 'Render invoice', done: true }, { id: 'T02', title: 'Attach logo' }]),
    [`${TASKS}/T01-PLAN.md`]: '# T01: Render invoice\n',
    [`${TASKS}/T02-PLAN.md`]: '# T02: Attach logo\n',
    [`${TASKS}/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001', { completedAt: '2026-11-20T10:00:00Z' }),
  });
}

describe('a write lock planted in the repository', function () {
  // Without the fix each write waits out LOCK_WAIT_MS (12 s) and throws; the timeout only bounds it.
  this.timeout(30_000);

  it('a lock folder with a committed file in it is not a lock of ours: writes go ahead', async () => {
    const root = project();
    fs.mkdirSync(path.join(root, LOCK), { recursive: true });
    fs.writeFileSync(path.join(root, LOCK, '.gitkeep'), '');
    const applied = await dispatchNextUnit({ root, apply: true });
    // T01 is done, T02 is not: GSD's next unit is T02's execution.
    assert.deepEqual([applied.decision?.unitType, applied.decision?.unitId], ['execute-task', 'M001/S01/T02']);
    assert.ok(fs.existsSync(path.join(root, '.gsd/gsd-review-loop/dispatch.json')), 'the dispatch was not recorded');
  });

  it('a lock folder dated in the future is taken over like a stale one', () => {
    const root = project();
    fs.mkdirSync(path.join(root, LOCK), { recursive: true });
    const future = new Date(Date.now() + 365 * 24 * 3600 * 1000);
    fs.utimesSync(path.join(root, LOCK), future, future);
    assert.equal(withGsdLock(path.join(root, '.gsd'), () => 'written'), 'written');
  });

  for (const [name, at] of [
    ['dated a year ahead', Date.now() + 365 * 24 * 3600 * 1000],
    ['dated a year back', Date.now() - 365 * 24 * 3600 * 1000],
  ] as const) {
    it(`a holder's name committed in the lock folder (another machine's, ${name}) is taken over`, () => {
      const root = project();
      fs.mkdirSync(path.join(root, LOCK, `holder.4242.0badf00d.${at}.abcdef12`), { recursive: true });
      assert.equal(withGsdLock(path.join(root, '.gsd'), () => 'written'), 'written');
      assert.ok(!fs.existsSync(path.join(root, LOCK)), 'the lock was released');
    });
  }

  it('a file linked from inside the planted folder is removed as a name, its target kept', () => {
    const root = project();
    const victim = path.join(root, 'precious.txt');
    fs.writeFileSync(victim, 'keep me\n');
    fs.mkdirSync(path.join(root, LOCK), { recursive: true });
    fs.symlinkSync(victim, path.join(root, LOCK, 'link'));
    assert.equal(withGsdLock(path.join(root, '.gsd'), () => 'written'), 'written');
    assert.equal(fs.readFileSync(victim, 'utf8'), 'keep me\n');
  });
});
