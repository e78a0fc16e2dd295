// Runtime files (dispatch record, hook log, lifecycle state) never show up as changes in git, in
// any project, and running the tools on the bundled sample in place leaves the repository clean.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildCli, cli } from './helpers/cli';
import { copySample, writeTree } from './helpers/gsd-tree';
import { scenarios } from './helpers/scenarios';
import { git, untracked } from './helpers/git';
import { skipBecause } from '../shared/skip-because';

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
    if (spawnSync('git', ['--version']).status !== 0) skipBecause(this, 'git is not on PATH');
    gsd = await buildCli();
  });

  it('our runtime folder ignores itself in a project with no .gitignore', () => {
    const root = committed(writeTree(scenarios['executing second task']));
    assert.equal(cli(gsd, ['next', '--apply', '--json', '--root', root]).status, 0);
    const hook = cli(gsd, ['hook'], JSON.stringify({ hook_event_name: 'SessionStart', session_id: 's1', cwd: root, source: 'startup' }));
    assert.equal(hook.status, 0);
    const runtime = path.join(root, '.gsd', 'gsd-review-loop');
    assert.ok(fs.existsSync(path.join(runtime, 'dispatch.json')));
    // Nothing of ours in GSD's own working folder.
    assert.equal(fs.existsSync(path.join(root, '.gsd', 'runtime')), false);
    assert.ok(fs.existsSync(path.join(runtime, 'hooks.jsonl')));
    // The one new file is the task's hook state, which belongs with the project like GSD's own files.
    assert.deepEqual(untracked(root), ['.gsd/milestones/M001/slices/S01/tasks/T01-HOOKS.md']);
  });

  it('the sample project stays clean after next --apply and a PreCompact hook run in place', () => {
    const root = committed(copySample());
    assert.equal(cli(gsd, ['next', '--apply', '--json', '--root', root]).status, 0);
    const hook = cli(gsd, ['hook'], JSON.stringify({ hook_event_name: 'PreCompact', session_id: 's1', cwd: root, trigger: 'auto' }));
    assert.equal(hook.status, 0);
    // The checkpoint is on disk (Claude Code's compaction gets nothing on stdout), and git ignores it.
    const written = (fs.readdirSync(path.join(root, '.gsd'), { recursive: true }) as string[]).filter((n) => n.endsWith('-CONTINUE.md'));
    assert.deepEqual(written.map((n) => n.split(path.sep).join('/')), ['milestones/M002-k7q2xz/slices/S02/S02-CONTINUE.md']);
    assert.deepEqual(untracked(root), []);
  });
});

describe('runtime records of an older version move out of GSD\'s runtime folder, once', function () {
  this.timeout(60_000);
  let gsd: string;
  before(async function () {
    gsd = await buildCli();
  });

  const OLD = path.join('.gsd', 'runtime', 'gsd-review-loop');
  const NEW = path.join('.gsd', 'gsd-review-loop');

  /** A project an older version dispatched in: a unit in flight, its hook log, a prompt, GSD's own runtime files beside ours. */
  function olderProject(): string {
    const root = writeTree(scenarios['executing second task']);
    assert.equal(cli(gsd, ['next', '--apply', '--json', '--root', root]).status, 0);
    // Put the records where an older version kept them, next to files of GSD's own.
    fs.mkdirSync(path.join(root, '.gsd', 'runtime'), { recursive: true });
    fs.renameSync(path.join(root, NEW), path.join(root, OLD));
    fs.writeFileSync(path.join(root, OLD, 'hooks.jsonl'), '{"at":"2026-11-01T10:00:00.000Z","event":"Stop","sessionId":"s0","answer":"none","ms":3}\n');
    fs.writeFileSync(path.join(root, '.gsd', 'runtime', 'uat-count-M001-S01.json'), '{"count":1}\n');
    return root;
  }

  it('a dispatch in flight survives the move: `complete` finds it in the new folder', () => {
    const root = olderProject();
    const before = fs.readFileSync(path.join(root, OLD, 'dispatch.json'), 'utf8');
    const state = cli(gsd, ['state', '--json', '--root', root]);
    assert.equal(state.status, 0, state.stderr);
    assert.equal(fs.existsSync(path.join(root, OLD)), false, 'the old folder is gone');
    assert.equal(fs.readFileSync(path.join(root, NEW, 'dispatch.json'), 'utf8'), before);
    assert.match(fs.readFileSync(path.join(root, NEW, 'hooks.jsonl'), 'utf8'), /"sessionId":"s0"/);
    assert.ok(fs.existsSync(path.join(root, NEW, '.gitignore')));
    // GSD's own runtime files are not ours to move.
    assert.equal(fs.readFileSync(path.join(root, '.gsd', 'runtime', 'uat-count-M001-S01.json'), 'utf8'), '{"count":1}\n');
    const done = cli(gsd, ['complete', '--json', '--root', root]);
    // Without the record `complete` would fail with "no unit has been dispatched".
    assert.equal(done.status, 0, done.stderr);
    assert.equal((JSON.parse(done.stdout) as { unitId: string }).unitId, 'M001/S01/T01');
  });

  it('when both folders exist, what the new one lacks moves in and the old folder goes', () => {
    const root = olderProject();
    fs.mkdirSync(path.join(root, NEW));
    fs.writeFileSync(path.join(root, NEW, 'hooks.jsonl'), '{"at":"2026-11-02T10:00:00.000Z","event":"Stop","sessionId":"s9","answer":"none","ms":3}\n');
    fs.mkdirSync(path.join(root, OLD, 'hook-answers'));
    fs.writeFileSync(path.join(root, OLD, 'hook-answers', 'k.json'), '{}');
    assert.equal(cli(gsd, ['state', '--json', '--root', root]).status, 0);
    assert.equal(fs.existsSync(path.join(root, OLD)), false);
    assert.ok(fs.existsSync(path.join(root, NEW, 'dispatch.json')), 'the dispatch record moved in');
    assert.match(fs.readFileSync(path.join(root, NEW, 'hooks.jsonl'), 'utf8'), /"sessionId":"s9"/, 'the newer log is kept');
    assert.equal(fs.existsSync(path.join(root, NEW, 'hook-answers', 'k.json')), false, 'an old cache is not carried over');
  });

  it('an old runtime folder linked out of .gsd is left alone, and nothing is read or written through it', () => {
    const root = writeTree(scenarios['executing second task']);
    const victim = fs.mkdtempSync(path.join(fs.realpathSync(require('node:os').tmpdir()), 'gsd-victim-'));
    fs.writeFileSync(path.join(victim, 'dispatch.json'), '{"planted":true}');
    fs.mkdirSync(path.join(root, '.gsd', 'runtime'), { recursive: true });
    fs.symlinkSync(victim, path.join(root, OLD));
    const r = cli(gsd, ['state', '--json', '--root', root]);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(fs.lstatSync(path.join(root, OLD)).isSymbolicLink(), 'the link is left as it is');
    assert.deepEqual(fs.readdirSync(victim), ['dispatch.json']);
    assert.equal(fs.existsSync(path.join(root, NEW, 'dispatch.json')), false, 'the planted record was not taken in');
  });
});
