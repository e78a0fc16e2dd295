// Issue 24, uncovered class: every earlier test ran as root, for whom no permission is ever refused.
// Here the CLI runs as `nobody` (setpriv) on projects it may read but not write, and with a home folder
// that is another user's: reading goes on, a write is refused in one clear line with nothing written
// and no stack trace, an agent's hook event is still answered (exit 0), and a commit still gets a
// journal key (the temp folder's) when the home folder is not ours.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildCli } from './helpers/cli';
import { roadmap, slicePlan, writeTree } from './helpers/gsd-tree';
import { skipBecause } from '../shared/skip-because';

const NOBODY = 65534;

function project(): string {
  const root = writeTree({
    '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'Invoicing', [{ id: 'S01', title: 'Invoice PDFs' }]),
    '.gsd/milestones/M001/slices/S01/S01-PLAN.md': slicePlan('S01', 'Invoice PDFs', [{ id: 'T01', title: 'Render invoice' }]),
    '.gsd/milestones/M001/slices/S01/tasks/T01-PLAN.md': '# T01: Render invoice\n',
  });
  fs.chmodSync(root, 0o755);
  return root;
}

/** Every file and folder under `root` as it is now: what a refused write must leave. */
function snapshot(root: string): string[] {
  return (fs.readdirSync(root, { recursive: true }) as string[]).sort().map((n) => {
    const p = path.join(root, n);
    const s = fs.lstatSync(p);
    return `${n} ${s.isFile() ? fs.readFileSync(p, 'utf8').length : 'dir'}`;
  });
}

describe('files and folders we may not write (as a non-root user)', function () {
  this.timeout(120_000);
  let cliDir: string;

  before(async function () {
    if (process.platform === 'win32' || typeof process.getuid !== 'function' || process.getuid() !== 0) {
      // Only root can switch to another user here; as a user, these refusals are what every run meets.
      skipBecause(this, 'only root can run these as another user');
    }
    if (spawnSync('setpriv', ['--version']).status !== 0) skipBecause(this, 'no setpriv to switch users');
    cliDir = path.dirname(await buildCli());
    fs.chmodSync(cliDir, 0o755);
    // `npm test` puts every temporary file in one private (0700) folder: let the other user through
    // the folders above the CLI and the test trees, as /tmp lets everyone through.
    for (let dir = path.dirname(cliDir); dir !== path.dirname(dir); dir = path.dirname(dir)) {
      const mode = fs.statSync(dir).mode;
      if ((mode & 0o001) === 0) fs.chmodSync(dir, mode | 0o001);
    }
  });

  function asNobody(args: string[], env: NodeJS.ProcessEnv, input?: string) {
    const r = spawnSync('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', process.execPath, path.join(cliDir, args[0]), ...args.slice(1)], {
      encoding: 'utf8',
      input,
      timeout: 60_000,
      env: { PATH: process.env.PATH, ...env },
    });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  it('a project we may only read: state reads it; next --apply is refused in one line and writes nothing', () => {
    const root = project();
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-nobody-'));
    fs.chmodSync(tmp, 0o1777);
    const env = { HOME: '/root', TMPDIR: tmp };
    const state = asNobody(['cli.js', 'state', '--root', root], env);
    assert.equal(state.status, 0, state.stderr);
    assert.match(state.stdout, /task: {6}T01 Render invoice/);
    const before = snapshot(root);
    const next = asNobody(['cli.js', 'next', '--apply', '--root', root], env);
    assert.notEqual(next.status, 0, 'a dispatch that could not be recorded was reported as done');
    assert.match(next.stderr, /EACCES|permission denied/i);
    assert.doesNotMatch(next.stderr, /\n\s+at /, 'a stack trace instead of a message');
    assert.deepEqual(snapshot(root), before, 'something was written');
    // An agent's event on that project: answered, never blocked.
    const hook = asNobody(['hook.js'], env, JSON.stringify({ hook_event_name: 'SessionStart', session_id: 's1', cwd: root, source: 'startup' }));
    assert.equal(hook.status, 0, hook.stderr);
    assert.doesNotMatch(hook.stderr, /\n\s+at /);
  });

  it("a project of ours with another user's home folder: the dispatch is recorded, its journal key kept in the temp folder", () => {
    const root = project();
    for (const p of [root, ...(fs.readdirSync(root, { recursive: true }) as string[]).map((n) => path.join(root, n))]) fs.chownSync(p, NOBODY, NOBODY);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-nobody-'));
    fs.chmodSync(tmp, 0o1777);
    const next = asNobody(['cli.js', 'next', '--apply', '--json', '--root', root], { HOME: '/root', TMPDIR: tmp });
    assert.equal(next.status, 0, next.stderr);
    const record = JSON.parse(fs.readFileSync(path.join(root, '.gsd', 'gsd-review-loop', 'dispatch.json'), 'utf8')) as { current: { unitId: string } };
    assert.equal(record.current.unitId, 'M001/S01/T01');
    assert.ok(!fs.existsSync('/root/.gsd-review-loop-nobody'), 'nothing written in the other user\'s home');
    const keyDir = path.join(tmp, `gsd-review-loop-${NOBODY}`);
    if (fs.existsSync(keyDir)) {
      const s = fs.statSync(keyDir);
      assert.equal(s.uid, NOBODY);
      assert.equal(s.mode & 0o077, 0, 'the key folder is readable by others');
    }
  });
});
