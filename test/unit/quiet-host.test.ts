// Background work waits for a quiet extension host: a host kept busy (as while VS Code starts other
// extensions, a long synchronous piece at a time) holds it back, up to the cap.
import * as assert from 'node:assert/strict';
import { Owner } from '../../src/vscode/lifecycle/owner';
import { whenHostQuiet, type QuietHostOptions } from '../../src/vscode/lifecycle/quiet-host';

const OPTIONS: QuietHostOptions = { probeMs: 20, slackMs: 10, probes: 3, capMs: 2000 };
const turn = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Keeps the event loop busy for `forMs`: 40 ms of synchronous work out of every 50. */
async function busyFor(forMs: number): Promise<void> {
  const end = Date.now() + forMs;
  while (Date.now() < end) {
    const until = Date.now() + 40;
    while (Date.now() < until) {
      // spin: another extension's synchronous work
    }
    await turn(10);
  }
}

describe('quiet host: background work waits for the extension host to be quiet', () => {
  it('runs soon on a quiet host', async () => {
    const owner = new Owner();
    const started = Date.now();
    let ranAt: number | null = null;
    whenHostQuiet(owner, () => (ranAt = Date.now()), OPTIONS);
    await turn(400);
    assert.ok(ranAt !== null, 'it ran');
    assert.ok(ranAt - started < 300, `it ran ${ranAt - started} ms later`);
    owner.dispose();
  });

  it('not while the host is busy; once it is quiet again', async () => {
    const owner = new Owner();
    let ranAt: number | null = null;
    whenHostQuiet(owner, () => (ranAt = Date.now()), OPTIONS);
    await busyFor(600);
    const quietFrom = Date.now();
    assert.equal(ranAt, null, 'it ran while the host was busy');
    await turn(400);
    assert.ok(ranAt !== null && ranAt >= quietFrom, 'it ran once the host was quiet');
    owner.dispose();
  });

  it('after the cap on a host that never quietens', async () => {
    const owner = new Owner();
    let ranAt: number | null = null;
    const started = Date.now();
    whenHostQuiet(owner, () => (ranAt = Date.now()), { ...OPTIONS, capMs: 500 });
    await busyFor(900);
    assert.ok(ranAt !== null, 'the cap ran it');
    assert.ok(ranAt - started >= 500 && ranAt - started < 800, `at ${ranAt - started} ms`);
    owner.dispose();
  });

  it('never, once cancelled or once its owner is disposed', async () => {
    for (const end of ['cancel', 'dispose'] as const) {
      const owner = new Owner();
      let ran = false;
      const cancel = whenHostQuiet(owner, () => (ran = true), OPTIONS);
      if (end === 'cancel') cancel();
      else owner.dispose();
      await turn(300);
      assert.equal(ran, false, end);
      owner.dispose();
    }
  });
});
