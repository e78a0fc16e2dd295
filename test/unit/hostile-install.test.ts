// install-hooks in a hostile repository: the files it writes (`.claude/…`, `.github/…`) are the
// repository's, so a link planted there must not make the install read or write a file elsewhere
// (`~/.claude/settings.json` through a linked `.claude` would put our hooks in every project of the
// user), a planted temp name must not be written through, and a FIFO or a huge settings file must
// not hang the install or be replaced by a fresh one (losing the user's settings).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyFileChanges, readOrNull } from '../../src/core/files/file-changes';
import { planInstall, planUninstall } from '../../src/core/agent-hooks/hook-install';
import { buildCli } from './helpers/cli';
import { roadmap, writeTree } from './helpers/gsd-tree';

const OUTSIDE_SETTINGS = '{\n  "permissions": { "allow": ["Bash(git status)"] }\n}\n';

function repo(): string {
  return writeTree({ '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'Invoicing', [{ id: 'S01', title: 'Invoice PDFs' }]) });
}

/** A folder outside the repository standing for the user's `~/.claude`. */
function outsideClaude(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-victim-'));
  fs.mkdirSync(path.join(dir, 'hooks'));
  fs.writeFileSync(path.join(dir, 'settings.json'), OUTSIDE_SETTINGS);
  return dir;
}

const home = () => fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-home-'));

function install(root: string, host: 'claude' | 'vscode') {
  const plan = planInstall({ root, host, user: false, home: home() }, readOrNull);
  return { plan, result: applyFileChanges(plan.changes) };
}

describe('install-hooks in a hostile repository', () => {
  it('a .claude folder linked out of the repository gets nothing written or read through it', () => {
    const root = repo();
    const victim = outsideClaude();
    fs.symlinkSync(victim, path.join(root, '.claude'));
    const { plan, result } = install(root, 'claude');
    assert.equal(fs.readFileSync(path.join(victim, 'settings.json'), 'utf8'), OUTSIDE_SETTINGS);
    assert.deepEqual(fs.readdirSync(path.join(victim, 'hooks')), []);
    assert.ok(!fs.existsSync(path.join(victim, 'agents')));
    assert.match([...plan.skipped, ...result.conflicts].join('\n'), /settings\.json leads outside/);
  });

  it('a settings file linked out of the repository is neither merged (read) nor replaced', () => {
    const root = repo();
    const victim = outsideClaude();
    fs.mkdirSync(path.join(root, '.claude'));
    fs.symlinkSync(path.join(victim, 'settings.json'), path.join(root, '.claude', 'settings.json'));
    const { plan } = install(root, 'claude');
    assert.ok(!plan.changes.some((c) => c.file.endsWith('settings.json')), 'the outside text was read into a change');
    assert.ok(fs.lstatSync(path.join(root, '.claude', 'settings.json')).isSymbolicLink());
    assert.equal(fs.readFileSync(path.join(victim, 'settings.json'), 'utf8'), OUTSIDE_SETTINGS);
  });

  it('a link inside the repository is followed: its target gets the merge and the link stays', () => {
    const root = repo();
    fs.mkdirSync(path.join(root, 'config'));
    fs.writeFileSync(path.join(root, 'config', 'claude.json'), OUTSIDE_SETTINGS);
    fs.mkdirSync(path.join(root, '.claude'));
    fs.symlinkSync('../config/claude.json', path.join(root, '.claude', 'settings.json'));
    const { result } = install(root, 'claude');
    assert.deepEqual(result.conflicts, []);
    assert.ok(fs.lstatSync(path.join(root, '.claude', 'settings.json')).isSymbolicLink());
    assert.match(fs.readFileSync(path.join(root, 'config', 'claude.json'), 'utf8'), /gsd-review-loop\.sh/);
    const undo = applyFileChanges(planUninstall({ root, host: 'claude', user: false, home: home() }, readOrNull).changes);
    assert.deepEqual(undo.conflicts, []);
    assert.equal(fs.readFileSync(path.join(root, 'config', 'claude.json'), 'utf8'), OUTSIDE_SETTINGS);
  });

  it('a temp name planted as a link to a file outside is never written through', () => {
    const root = repo();
    const victim = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-victim-')), 'authorized_keys');
    fs.writeFileSync(victim, 'ssh-ed25519 AAAA victim\n');
    fs.mkdirSync(path.join(root, '.github', 'hooks'), { recursive: true });
    // The names the installer's temp files had: `<file>.gsd-<pid>.tmp`; a repository plants them
    // for a range of process ids, here the one it will get.
    for (const f of ['gsd-review-loop.sh', 'gsd-review-loop.ps1', 'gsd-review-loop.json']) fs.symlinkSync(victim, path.join(root, '.github', 'hooks', `${f}.gsd-${process.pid}.tmp`));
    install(root, 'vscode');
    assert.equal(fs.readFileSync(victim, 'utf8'), 'ssh-ed25519 AAAA victim\n');
    assert.match(fs.readFileSync(path.join(root, '.github', 'hooks', 'gsd-review-loop.sh'), 'utf8'), /^#!\/bin\/sh/);
  });

  it('a settings file too large to read is left alone, not replaced by a fresh one', () => {
    const root = repo();
    fs.mkdirSync(path.join(root, '.claude'));
    const big = `{"permissions": {"allow": ["Bash(ls)"]}, "pad": "${'x'.repeat(3 * 1024 * 1024)}"}\n`;
    fs.writeFileSync(path.join(root, '.claude', 'settings.json'), big);
    const { plan, result } = install(root, 'claude');
    assert.equal(fs.readFileSync(path.join(root, '.claude', 'settings.json'), 'utf8'), big);
    assert.match([...plan.skipped, ...result.conflicts].join('\n'), /settings\.json .*too large/);
  });

  describe('through the CLI', function () {
    this.timeout(60_000);
    let gsd: string;
    before(async () => {
      gsd = await buildCli();
    });

    it('a FIFO as .claude/settings.json is one line and exit 1, not a hang', () => {
      const root = repo();
      fs.mkdirSync(path.join(root, '.claude'));
      spawnSync('mkfifo', [path.join(root, '.claude', 'settings.json')]);
      const r = spawnSync(process.execPath, [gsd, 'install-hooks', '--root', root, '--host', 'claude'], { encoding: 'utf8', timeout: 15_000, env: { ...process.env, HOME: home() } });
      assert.equal(r.error, undefined, 'install-hooks hung on a FIFO');
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stderr, /settings\.json is a FIFO \(named pipe\), not a regular file/);
      assert.ok(!/\n\s+at /.test(r.stderr), r.stderr);
      assert.ok(fs.lstatSync(path.join(root, '.claude', 'settings.json')).isFIFO());
    });
  });
});
