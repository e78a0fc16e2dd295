// Background work waits for a quiet extension host: a host kept busy (as while VS Code starts other
// extensions, a long synchronous piece at a time) holds it back, up to the cap.
import * as assert from 'node:assert/strict';
import { Owner } from '../../src/vscode/lifecycle/owner';
import { whenHostQuiet, type QuietHostOptions } from '../../src/vscode/lifecycle/quiet-host';
import { busyFor } from './helpers/busy-host';

const OPTIONS: QuietHostOptions = { probeMs: 20, slackMs: 10, probes: 3, capMs: 2000 };
const turn = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('quiet host: background work waits for the extension host to be quiet', () => {
  it('runs soon on a quiet host', async () => {
    const owner = new Owner();
    const started = Date.now();
    let ranAt: number | null = null;
    whenHostQuiet(owner, () => (ranAt = Date.now()), OPTIONS);
    for (let waited = 0; ranAt === null && waited < OPTIONS.capMs - 100; waited += 20) await turn(20);
    assert.ok(ranAt !== null, 'it ran');
    assert.ok(ranAt - started < OPTIONS.capMs, `it waited for the cap (${ranAt - started} ms)`);
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
    assert.ok(ranAt - started >= 500, `at ${ranAt - started} ms, before the cap`);
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
