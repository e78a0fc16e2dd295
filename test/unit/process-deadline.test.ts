// The CLI's last-resort deadline: `hook` has it from the start (it waits for stdin), `next` and
// `complete` from the moment hook code from a hook folder is loaded (only that code can keep them
// waiting). Run in a child process: the deadline ends the process.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const processExit = path.resolve(__dirname, '../../src/cli/process-exit.ts');

/** A process that guards `command`, optionally arms the deadline, then waits forever on an interval. */
function waitForever(command: string, arm: boolean): { status: number | null; signal: string | null; stderr: string; ms: number } {
  const script = `
    const { guardProcess, armDeadline } = require(${JSON.stringify(processExit)});
    guardProcess(${JSON.stringify(command)});
    ${arm ? 'armDeadline();' : ''}
    setInterval(() => {}, 1000);
  `;
  const started = Date.now();
  // A budget of 100 ms makes the deadline 250 ms; the child is killed after 2 s if nothing ends it.
  const r = spawnSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { env: { ...process.env, GSD_HOOK_BUDGET_MS: '100' }, encoding: 'utf8', timeout: 2000 });
  return { status: r.status, signal: r.signal, stderr: r.stderr, ms: Date.now() - started };
}

describe('the CLI process deadline', function () {
  this.timeout(20_000);

  it('`hook` gives up after its deadline from the start', () => {
    const r = waitForever('hook', false);
    assert.equal(r.signal, null, `never ended: ${r.stderr}`);
    // `hook` always exits 0 (exit 2 would block the agent), and says why on one line.
    assert.equal(r.status, 0);
    assert.match(r.stderr, /^gsd-review: hook did not finish within 250 ms/m);
  });

  it('`next` gives up after its deadline once hook code is loaded', () => {
    const r = waitForever('next', true);
    assert.equal(r.signal, null, `never ended: ${r.stderr}`);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^gsd-review: next did not finish within 250 ms/m);
  });

  it('`next` arms no deadline before hook code is loaded (the built-in hooks cannot keep it waiting)', () => {
    const r = waitForever('next', false);
    assert.equal(r.signal, 'SIGTERM', `ended on its own after ${r.ms} ms: ${r.stderr}`);
  });
});
