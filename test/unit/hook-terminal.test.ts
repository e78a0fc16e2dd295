// Issue 24 #10: `dist/hook.js` (what the hook launcher runs) waited for Ctrl-D when its stdin was a
// terminal, while `gsd-review hook` answered at once. Both are run here on a real pseudo-terminal
// (util-linux `script` gives the child one; its own stdin stays open, so no end of input ever comes):
// both must say there is no payload and end by themselves.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { buildCli } from './helpers/cli';
import { writeTree } from './helpers/gsd-tree';
import { skipBecause } from '../shared/skip-because';

/** Long enough for a start on a loaded machine; a process still waiting then is killed and fails the test. */
const HANG_MS = 15_000;

function onTerminal(command: string, cwd: string): Promise<{ ended: boolean; output: string }> {
  return new Promise((resolve) => {
    // `script -q -e -c CMD /dev/null`: CMD runs with a pty as its stdin, stdout and stderr.
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => {
      process.kill(-child.pid!, 'SIGKILL');
      resolve({ ended: false, output });
    }, HANG_MS);
    child.on('exit', () => {
      clearTimeout(timer);
      resolve({ ended: true, output });
    });
  });
}

describe('the hook entry on a terminal', function () {
  this.timeout(2 * HANG_MS + 60_000);
  let dir: string;

  before(async function () {
    if (process.platform === 'win32' || spawnSync('script', ['-qec', 'true', '/dev/null']).status !== 0) skipBecause(this, 'no `script` to give the hook a terminal');
    dir = path.dirname(await buildCli());
  });

  for (const [name, args] of [
    ['dist/hook.js', ['hook.js']],
    ['gsd-review hook', ['cli.js', 'hook']],
  ] as const) {
    it(`${name} with a terminal for stdin says there is no payload and ends`, async () => {
      const root = writeTree({ '.gsd/milestones/M001/M001-ROADMAP.md': '# M001: Invoicing\n' });
      const command = [process.execPath, ...args.map((a, i) => (i === 0 ? path.join(dir, a) : a))].map((a) => `'${a}'`).join(' ');
      const run = await onTerminal(command, root);
      assert.ok(run.ended, `${name} still waited for input on the terminal after ${HANG_MS / 1000} s`);
      assert.match(run.output, /gsd-review hook: no payload \(or over 4 MB\) on stdin; nothing to do/);
    });
  }
});
