// When the read after activation starts: after the wait, or when a view says it has drawn the first
// look; a view that draws it takes the start over, so the wait no longer starts it (panel-tree.test.ts
// has the panel's side).
import * as assert from 'node:assert/strict';
import { Owner } from '../../src/vscode/lifecycle/owner';
import { StepwiseReads } from '../../src/vscode/workspace/stepwise-reads';
import { busyFor } from './helpers/busy-host';

const turn = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs a read of `steps` steps; resolves with when its first step ran (Date.now()), or null when it never did. */
function readOf(reads: StepwiseReads, steps: number): { firstStep: () => number | null; done: Promise<number | null> } {
  let first: number | null = null;
  let left = steps;
  const done = reads.run(
    () => {
      first ??= Date.now();
      return left-- > 0;
    },
    () => true,
  );
  return { firstStep: () => first, done };
}

describe('stepwise reads: when the read after activation starts', () => {
  it('after the wait, when no view says anything', async () => {
    const owner = new Owner();
    const reads = new StepwiseReads(owner, 50, () => false);
    const read = readOf(reads, 3);
    await turn(20);
    assert.equal(read.firstStep(), null, 'not before the wait');
    assert.equal(await read.done, 3);
    owner.dispose();
  });

  it('after the wait, not while the extension host is busy (VS Code starting other extensions)', async () => {
    const owner = new Owner();
    const reads = new StepwiseReads(owner, 30, () => false, { probeMs: 20, slackMs: 10, probes: 3, capMs: 5000 });
    const read = readOf(reads, 1);
    await busyFor(500);
    assert.equal(read.firstStep(), null, 'the read started while the host was busy');
    assert.equal(await read.done, 1);
    owner.dispose();
  });

  it('at once when a view has drawn the first look', async () => {
    const owner = new Owner();
    const reads = new StepwiseReads(owner, 10_000, () => false);
    const read = readOf(reads, 2);
    reads.start();
    assert.equal(await read.done, 2);
    owner.dispose();
  });

  it('a view that took the start over: the wait passes and nothing starts, until the view says so', async () => {
    const owner = new Owner();
    const reads = new StepwiseReads(owner, 30, () => false);
    const read = readOf(reads, 1);
    reads.leaveStartToView();
    await turn(120);
    assert.equal(read.firstStep(), null, 'the wait started the read');
    reads.start();
    assert.equal(await read.done, 1);
    owner.dispose();
  });
});
