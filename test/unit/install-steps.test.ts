// Install and uninstall in steps that each leave hooks a host can run (issue 35, 2): a hook file that
// names a launcher which is gone makes `sh` exit 2, which Claude Code and VS Code read as "block",
// on every event. So an uninstall takes our entries out of the hook file before the launcher goes,
// an install writes the launcher before the entries that run it, and a step that fails takes back
// the ones done before it. Checked as the host sees it: every command of ours in the hook file, run
// through `sh` as the host runs it, must exit 0 after any step, also after a kill in the middle.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyFileChanges, readOrNull } from '../../src/core/agent-hooks/file-changes';
import { planInstall, planUninstall } from '../../src/core/agent-hooks/hook-install';
import { buildCli, cli } from './helpers/cli';
import { roadmap, writeTree } from './helpers/gsd-tree';
import { skipBecause } from '../shared/skip-because';

const USER_SETTINGS = '{\n  "model": "opus",\n  "permissions": { "allow": ["Bash(npm test)"] }\n}\n';

function project(): string {
  return writeTree({
    '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'Invoicing', [{ id: 'S01', title: 'Invoice PDFs' }]),
    '.claude/settings.json': USER_SETTINGS,
  });
}

const home = () => fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-home-'));
const HOOK_FILE = { claude: '.claude/settings.json', vscode: '.github/hooks/gsd-review-loop.json' } as const;
const LAUNCHER = { claude: '.claude/hooks/gsd-review-loop.sh', vscode: '.github/hooks/gsd-review-loop.sh' } as const;

/** Our commands in the host's hook file, as the host reads it. */
function ourCommands(root: string, host: 'claude' | 'vscode'): string[] {
  const text = readOrNull(path.join(root, HOOK_FILE[host]));
  if (text === null) return [];
  const hooks = (JSON.parse(text) as { hooks?: Record<string, Array<Record<string, unknown>>> }).hooks ?? {};
  const commands = Object.values(hooks).flatMap((list) => list.flatMap((e) => (host === 'claude' ? ((e.hooks as Array<{ command: string }>) ?? []).map((h) => h.command) : [String(e.linux ?? e.bash ?? e.command)])));
  return commands.filter((c) => c.includes('gsd-review-loop.sh'));
}

/** The exit status of each of our commands, run through `sh` in the project with no CLI to find (the launcher then says so and exits 0). */
function exitsOfOurHooks(root: string, host: 'claude' | 'vscode'): number[] {
  const bare = home();
  return ourCommands(root, host).map((command) => spawnSync('/bin/sh', ['-c', command], { cwd: root, input: '{}', env: { PATH: '/usr/bin:/bin', HOME: bare, CLAUDE_PROJECT_DIR: root } }).status ?? -1);
}

function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of fs.readdirSync(root, { recursive: true }).map(String)) {
    const p = path.join(root, rel);
    if (fs.lstatSync(p).isFile()) out[rel] = fs.readFileSync(p, 'utf8');
  }
  return out;
}

describe('install and uninstall leave hooks that run after every step', function () {
  this.timeout(120_000);

  for (const host of ['claude', 'vscode'] as const) {
    it(`${host}: an uninstall stopped by a hook file changed since its preview takes nothing away, and the hooks still run`, () => {
      const root = project();
      const h = home();
      assert.deepEqual(applyFileChanges(planInstall({ root, host, user: false, home: h }, readOrNull).changes, h).conflicts, []);
      assert.equal(ourCommands(root, host).length, 7);
      const plan = planUninstall({ root, host, user: false, home: h }, readOrNull);
      // The user edits the hook file between the preview and the confirmation.
      const file = path.join(root, HOOK_FILE[host]);
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('{\n', '{\n  "edited": true,\n'));
      const edited = snapshot(root);
      const result = applyFileChanges(plan.changes, h);
      assert.deepEqual(exitsOfOurHooks(root, host), [0, 0, 0, 0, 0, 0, 0]);
      assert.deepEqual(snapshot(root), edited);
      assert.deepEqual(result.applied, []);
      assert.equal(result.conflicts.length, 1, result.conflicts.join('\n'));
      assert.match(result.conflicts[0], /changed since it was read.*nothing was changed/);
    });

    it(`${host}: an install stopped at its hook file takes back the launcher and agent it wrote`, () => {
      const root = project();
      const h = home();
      const plan = planInstall({ root, host, user: false, home: h }, readOrNull);
      // The hook file changes after the preview (for vscode: one appears where there was none).
      const file = path.join(root, HOOK_FILE[host]);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, host === 'claude' ? USER_SETTINGS.replace('opus', 'sonnet') : '{ "version": 1, "hooks": {} }\n');
      const edited = snapshot(root);
      const result = applyFileChanges(plan.changes, h);
      assert.deepEqual(snapshot(root), edited);
      assert.ok(!fs.existsSync(path.join(root, LAUNCHER[host])));
      assert.match(result.conflicts.join('\n'), /changed since it was read.*nothing was changed/);
    });
  }

  describe('through the CLI', () => {
    let gsd: string;
    before(async () => {
      gsd = await buildCli();
    });

    it('uninstall-hooks with an immutable settings file (chattr +i): one line saying why, exit 1, nothing taken away', function () {
      const root = project();
      const h = home();
      assert.equal(cli(gsd, ['install-hooks', '--root', root, '--host', 'claude'], undefined, { HOME: h }).status, 0);
      const settings = path.join(root, '.claude/settings.json');
      const before = snapshot(root);
      // Root on a file system with attributes only (ext4, xfs, …); elsewhere this case cannot be made.
      if (spawnSync('chattr', ['+i', settings]).status !== 0) return skipBecause(this, 'chattr +i is not supported on this file system');
      try {
        const r = cli(gsd, ['uninstall-hooks', '--root', root, '--host', 'claude'], undefined, { HOME: h });
        assert.equal(r.status, 1);
        assert.equal(r.stdout, '');
        assert.match(r.stderr, /^gsd-review: .*\.claude\/settings\.json: cannot write it \(EPERM: operation not permitted\); nothing was changed\n$/);
      } finally {
        spawnSync('chattr', ['-i', settings]);
      }
      assert.deepEqual(snapshot(root), before);
      assert.deepEqual(exitsOfOurHooks(root, 'claude'), [0, 0, 0, 0, 0, 0, 0]);
    });

    // A process killed at a step (a preload sends SIGKILL to itself at that call): whatever it left, the hooks run.
    const killAt = (call: 'renameSync' | 'unlinkSync' | 'rmSync', suffix: string): string => {
      const file = path.join(home(), 'kill.cjs');
      fs.writeFileSync(file, `const fs = require('node:fs');\nconst own = fs.${call};\nfs.${call} = function (a, b, ...rest) {\n  if (String(${call === 'renameSync' ? 'b' : 'a'}).endsWith(${JSON.stringify(suffix)})) process.kill(process.pid, 'SIGKILL');\n  return own.call(this, a, b, ...rest);\n};\n`);
      return file;
    };
    const cases: Array<[string, 'install-hooks' | 'uninstall-hooks', 'claude' | 'vscode', 'renameSync' | 'unlinkSync' | 'rmSync', string]> = [
      ['uninstall, killed as it writes settings.json', 'uninstall-hooks', 'claude', 'renameSync', 'settings.json'],
      ['uninstall, killed as it removes the launcher', 'uninstall-hooks', 'claude', 'unlinkSync', 'gsd-review-loop.sh'],
      ['uninstall, killed as it removes the launcher', 'uninstall-hooks', 'claude', 'rmSync', 'gsd-review-loop.sh'],
      ['install, killed as it writes settings.json', 'install-hooks', 'claude', 'renameSync', 'settings.json'],
      ['uninstall, killed as it removes gsd-review-loop.json', 'uninstall-hooks', 'vscode', 'unlinkSync', 'gsd-review-loop.json'],
      ['uninstall, killed as it removes gsd-review-loop.json', 'uninstall-hooks', 'vscode', 'rmSync', 'gsd-review-loop.json'],
      ['uninstall, killed as it removes the launcher', 'uninstall-hooks', 'vscode', 'unlinkSync', 'gsd-review-loop.sh'],
      ['install, killed as it writes gsd-review-loop.json', 'install-hooks', 'vscode', 'renameSync', 'gsd-review-loop.json'],
    ];
    for (const [name, command, host, call, suffix] of cases) {
      it(`${host}: ${name} (${call}): the hooks left behind run`, () => {
        const root = project();
        const h = home();
        if (command === 'uninstall-hooks') assert.equal(cli(gsd, ['install-hooks', '--root', root, '--host', host], undefined, { HOME: h }).status, 0);
        const r = spawnSync(process.execPath, ['--require', killAt(call, suffix), gsd, command, '--root', root, '--host', host], { encoding: 'utf8', env: { ...process.env, HOME: h } });
        // Killed where the step is (a step that never comes, with another call, runs to the end).
        assert.ok(r.signal === 'SIGKILL' || r.status === 0, `${r.signal} ${r.status} ${r.stderr}`);
        assert.deepEqual(exitsOfOurHooks(root, host).filter((s) => s !== 0), []);
        // The next run finishes the job from what was left.
        assert.equal(cli(gsd, [command, '--root', root, '--host', host], undefined, { HOME: h }).status, 0);
        assert.equal(ourCommands(root, host).length, command === 'install-hooks' ? 7 : 0);
        // The killed process's temp file (it died before its rename) is tidied by the next run.
        const temps = ['.claude', '.github/hooks'].flatMap((d) => (fs.existsSync(path.join(root, d)) ? fs.readdirSync(path.join(root, d)) : [])).filter((n) => n.endsWith('.tmp'));
        assert.deepEqual(temps, []);
      });
    }
  });
});
