// Runtime files (dispatch record, hook log, lifecycle state) never show up as changes in git, in
// any project, and running the tools on the bundled sample in place leaves the repository clean.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildCli, cli } from './helpers/cli';
import { copySample, writeTree } from './helpers/gsd-tree';
import { scenarios } from './helpers/scenarios';

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

/** Untracked files git would offer to commit, as paths relative to the repository. */
function untracked(root: string): string[] {
  return git(root, 'status', '--porcelain', '--untracked-files=all').split('\n').filter((l) => l.startsWith('??')).map((l) => l.slice(3));
}

function committed(root: string): string {
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'project');
  return root;
}

describe('runtime files stay out of git', function () {
  this.timeout(60_000);
  let gsd: string;
  before(async function () {
    if (spawnSync('git', ['--version']).status !== 0) this.skip();
    gsd = await buildCli();
  });

  it('our runtime folder ignores itself in a project with no .gitignore', () => {
    const root = committed(writeTree(scenarios['executing second task']));
    assert.equal(cli(gsd, ['next', '--apply', '--json', '--root', root]).status, 0);
    const hook = cli(gsd, ['hook'], JSON.stringify({ hook_event_name: 'SessionStart', session_id: 's1', cwd: root, source: 'startup' }));
    assert.equal(hook.status, 0);
    const runtime = path.join(root, '.gsd', 'runtime', 'gsd-review-loop');
    assert.ok(fs.existsSync(path.join(runtime, 'dispatch.json')));
    assert.ok(fs.existsSync(path.join(runtime, 'hooks.jsonl')));
    assert.deepEqual(untracked(root), []);
  });

  it('the sample project stays clean after next --apply and a PreCompact hook run in place', () => {
    const root = committed(copySample());
    assert.equal(cli(gsd, ['next', '--apply', '--json', '--root', root]).status, 0);
    const hook = cli(gsd, ['hook'], JSON.stringify({ hook_event_name: 'PreCompact', session_id: 's1', cwd: root, trigger: 'auto' }));
    assert.match(hook.stdout, /CONTINUE\.md/);
    assert.deepEqual(untracked(root), []);
  });
});
