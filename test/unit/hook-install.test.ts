// install-hooks / uninstall-hooks: merging into the user's own settings and hook files, and
// leaving them byte for byte as they were after uninstall.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyFileChanges, readOrNull, revertFileChanges } from '../../src/core/files/file-changes';
import { INSTALLED_EVENTS, planInstall, planUninstall } from '../../src/core/agent-hooks/hook-install';
import { buildCli, cli } from './helpers/cli';
import { roadmap, writeTree } from './helpers/gsd-tree';

// A project's own Claude Code settings, as people write them (permissions, env, their own hooks in
// matcher groups, including on events we also use), and an own Copilot hook file.
const USER_SETTINGS = `{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "permissions": {
    "allow": ["Bash(npm run test:*)", "Read(~/.zshrc)"],
    "deny": ["Read(./.env)"]
  },
  "env": { "NODE_ENV": "development" },
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Write|Edit",
        "hooks": [{ "type": "command", "command": "npx prettier --write \\"$CLAUDE_FILE_PATHS\\"" }]
      }
    ],
    "Stop": [
      {
        "hooks": [{ "type": "command", "command": "say done", "timeout": 5 }]
      }
    ]
  }
}
`;
const USER_GITHUB_HOOK = `{
  "version": 1,
  "hooks": {
    "PostToolUse": [{ "type": "command", "command": "npm run lint -- --fix", "timeout": 60 }]
  }
}
`;

function project(): string {
  return writeTree({
    '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'Invoicing', [{ id: 'S01', title: 'Invoice PDFs' }]),
    '.claude/settings.json': USER_SETTINGS,
    '.github/hooks/lint.json': USER_GITHUB_HOOK,
    '.github/agents/docs-writer.agent.md': '---\nname: docs-writer\n---\nWrites docs.\n',
  });
}

const home = () => fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-home-'));

function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(root, p)] = fs.readFileSync(p, 'utf8');
    }
  };
  walk(root);
  return out;
}

describe('agent hook install and uninstall', () => {
  it('merges into .claude/settings.json and beside .github/hooks, keeping the user\'s hooks and keys, and uninstall restores every byte', () => {
    const root = project();
    const h = home();
    const before = snapshot(root);
    for (const host of ['claude', 'vscode'] as const) {
      const plan = planInstall({ root, host, user: false, home: h }, readOrNull);
      assert.deepEqual(plan.skipped, []);
      assert.deepEqual(applyFileChanges(plan.changes).conflicts, []);
    }
    const settings = JSON.parse(fs.readFileSync(path.join(root, '.claude/settings.json'), 'utf8'));
    const original = JSON.parse(USER_SETTINGS);
    // The user's keys and hooks are all there, unchanged, and ours come after theirs.
    assert.deepEqual(settings.permissions, original.permissions);
    assert.deepEqual(settings.env, original.env);
    assert.deepEqual(settings.hooks.PostToolUse, original.hooks.PostToolUse);
    assert.deepEqual(settings.hooks.Stop[0], original.hooks.Stop[0]);
    assert.equal(settings.hooks.Stop.length, 2);
    assert.match(settings.hooks.Stop[1].hooks[0].command, /\.claude\/hooks\/gsd-review-loop\.sh" --host claude --event Stop$/);
    // Only the events we act on.
    assert.deepEqual(Object.keys(settings.hooks).sort(), [...new Set(['PostToolUse', 'Stop', ...INSTALLED_EVENTS])].sort());
    assert.equal(settings.hooks.PostToolUse.length, 1);
    assert.equal(settings.hooks.SubagentStop[0].matcher, 'gsd-reviewer');
    // The text before our additions is the user's, byte for byte.
    const text = fs.readFileSync(path.join(root, '.claude/settings.json'), 'utf8');
    assert.ok(text.startsWith(USER_SETTINGS.slice(0, USER_SETTINGS.indexOf('"Stop"'))));
    assert.equal(fs.readFileSync(path.join(root, '.github/hooks/lint.json'), 'utf8'), USER_GITHUB_HOOK);
    const ours = JSON.parse(fs.readFileSync(path.join(root, '.github/hooks/gsd-review-loop.json'), 'utf8'));
    assert.deepEqual(Object.keys(ours.hooks), [...INSTALLED_EVENTS]);
    // No path of this machine in any file of the repository.
    for (const [file, content] of Object.entries(snapshot(root))) {
      assert.ok(!content.includes(h) && !content.includes(os.homedir() + '/') && !content.includes(root), `${file} names a path of this machine`);
    }
    // The guard is a project-level PreToolUse (agent-file hooks run only in a trusted folder), its
    // matcher naming the edit tools of Claude Code and Copilot CLI (which reads this file too).
    assert.match(settings.hooks.PreToolUse[0].matcher, /\^\(\?:.*\bWrite\|Edit\|.*\bstr_replace_editor\b/);
    assert.doesNotMatch(fs.readFileSync(path.join(root, '.github/agents/gsd-reviewer.agent.md'), 'utf8'), /^hooks:/m);
    assert.doesNotMatch(fs.readFileSync(path.join(root, '.claude/agents/gsd-reviewer.md'), 'utf8'), /^hooks:/m);

    // Installing again changes nothing.
    for (const host of ['claude', 'vscode'] as const) assert.deepEqual(planInstall({ root, host, user: false, home: h }, readOrNull).changes, []);

    for (const host of ['claude', 'vscode'] as const) {
      const plan = planUninstall({ root, host, user: false, home: h }, readOrNull);
      assert.deepEqual(applyFileChanges(plan.changes).conflicts, []);
    }
    assert.deepEqual(snapshot(root), before);
  });

  it('creates a settings file when there is none, and uninstall removes it again', () => {
    const root = writeTree({ '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'X', [{ id: 'S01', title: 'Y' }]) });
    const h = home();
    const before = snapshot(root);
    applyFileChanges(planInstall({ root, host: 'claude', user: false, home: h }, readOrNull).changes);
    assert.deepEqual(Object.keys(JSON.parse(fs.readFileSync(path.join(root, '.claude/settings.json'), 'utf8')).hooks), [...INSTALLED_EVENTS]);
    applyFileChanges(planUninstall({ root, host: 'claude', user: false, home: h }, readOrNull).changes);
    assert.deepEqual(snapshot(root), before);
  });

  it('user-level install writes into the home folder only, with its absolute paths there', () => {
    const root = project();
    const h = home();
    const before = snapshot(root);
    applyFileChanges(planInstall({ root, host: 'claude', user: true, home: h }, readOrNull).changes);
    applyFileChanges(planInstall({ root, host: 'copilot-cli', user: true, home: h }, readOrNull).changes);
    assert.deepEqual(snapshot(root), before);
    const settings = JSON.parse(fs.readFileSync(path.join(h, '.claude/settings.json'), 'utf8'));
    assert.equal(settings.hooks.Stop[0].hooks[0].command, `sh '${path.join(h, '.claude/hooks/gsd-review-loop.sh')}' --host claude --event Stop --untrusted`);
    assert.ok(fs.existsSync(path.join(h, '.copilot/hooks/gsd-review-loop.json')));
  });

  it('leaves a file that is not ours alone, and refuses a settings file that is not JSON', () => {
    const root = project();
    fs.writeFileSync(path.join(root, '.github/agents/gsd-reviewer.agent.md'), '---\nname: gsd-reviewer\n---\nMy own reviewer.\n');
    const plan = planInstall({ root, host: 'vscode', user: false, home: home() }, readOrNull);
    assert.match(plan.skipped.join('\n'), /gsd-reviewer\.agent\.md exists and is not ours/);
    fs.writeFileSync(path.join(root, '.claude/settings.json'), '{ "hooks": ');
    const bad = planInstall({ root, host: 'claude', user: false, home: home() }, readOrNull);
    assert.match(bad.skipped.join('\n'), /settings\.json:1: not a JSON object; left as it is/);
    assert.ok(!bad.changes.some((c) => c.file.endsWith('settings.json')));
  });

  it('refuses, in one line, a settings file where "hooks" (or an event in it) appears twice: Claude Code reads only the last', () => {
    const twice: Array<[string, string, RegExp]> = [
      ['"hooks" twice', '{\n  "hooks": { "Stop": [] },\n  "model": "opus",\n  "hooks": { "PostToolUse": [{ "hooks": [{ "type": "command", "command": "lint" }] }] }\n}\n', /settings\.json:4: "hooks" appears twice \(Claude Code reads only the last\); left as it is/],
      ['"Stop" twice in "hooks"', '{\n  "hooks": {\n    "Stop": [],\n    "Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }]\n  }\n}\n', /settings\.json:4: "hooks\.Stop" appears twice \(Claude Code reads only the last\); left as it is/],
    ];
    for (const [name, text, said] of twice) {
      const root = project();
      const file = path.join(root, '.claude/settings.json');
      fs.writeFileSync(file, text);
      const plan = planInstall({ root, host: 'claude', user: false, home: home() }, readOrNull);
      assert.deepEqual(applyFileChanges(plan.changes).conflicts, []);
      // What Claude Code would run: JSON.parse keeps the last of two keys. Either ours are there, or nothing was written and it was said.
      const stop = (JSON.parse(fs.readFileSync(file, 'utf8')) as { hooks: Record<string, unknown[]> }).hooks.Stop ?? [];
      assert.equal(JSON.stringify(stop).includes('gsd-review-loop.sh'), false, `${name}: merged where Claude Code reads it, so not refused`);
      assert.equal(fs.readFileSync(file, 'utf8'), text, `${name}: written into the key Claude Code does not read`);
      assert.equal(plan.skipped.length, 1, plan.skipped.join('\n'));
      assert.match(plan.skipped[0], said);
      // Uninstall refuses the same way, and leaves the launcher the file may still run.
      fs.mkdirSync(path.join(root, '.claude/hooks'), { recursive: true });
      fs.writeFileSync(path.join(root, '.claude/hooks/gsd-review-loop.sh'), '#!/bin/sh\n# gsd-review-loop\n');
      const out = planUninstall({ root, host: 'claude', user: false, home: home() }, readOrNull);
      assert.match(out.skipped.join('\n'), said);
      assert.ok(!out.changes.some((c) => c.file.endsWith('gsd-review-loop.sh')));
    }
  });

  it('Undo takes back exactly what was written, and never a file changed since: then nothing, and the hooks stay whole', () => {
    const root = project();
    const before = snapshot(root);
    const { applied } = applyFileChanges(planInstall({ root, host: 'claude', user: false, home: home() }, readOrNull).changes);
    const installed = snapshot(root);
    fs.appendFileSync(path.join(root, '.claude/agents/gsd-reviewer.md'), 'edited by hand\n');
    const undo = revertFileChanges(applied);
    assert.match(undo.conflicts.join('\n'), /gsd-reviewer\.md changed since it was read; nothing was changed/);
    // Taking the rest away would have left a settings file naming a launcher, or a launcher alone, half undone.
    const after = snapshot(root);
    assert.equal(after['.claude/settings.json'], installed['.claude/settings.json']);
    assert.equal(after['.claude/hooks/gsd-review-loop.sh'], installed['.claude/hooks/gsd-review-loop.sh']);
    assert.ok(after['.claude/agents/gsd-reviewer.md'].endsWith('edited by hand\n'));
    // Once the file is as written again, Undo takes everything back.
    fs.writeFileSync(path.join(root, '.claude/agents/gsd-reviewer.md'), installed['.claude/agents/gsd-reviewer.md']);
    assert.deepEqual(revertFileChanges(applied).conflicts, []);
    assert.deepEqual(snapshot(root), before);
  });

  describe('through the CLI', function () {
    this.timeout(60_000);
    let gsd: string;
    before(async () => {
      gsd = await buildCli();
    });

    it('--dry-run shows every file and writes nothing; install then uninstall leaves the project as it was', () => {
      const root = project();
      const h = home();
      const before = snapshot(root);
      const dry = cli(gsd, ['install-hooks', '--root', root, '--host', 'claude', '--dry-run'], undefined, { HOME: h });
      assert.equal(dry.status, 0, dry.stderr);
      assert.match(dry.stdout, /would update \.claude\/settings\.json: Claude Code hooks merged in/);
      assert.match(dry.stdout, /would create \.claude\/agents\/gsd-reviewer\.md/);
      assert.match(dry.stdout, /----- \.claude\/hooks\/gsd-review-loop\.sh\n#!\/bin\/sh/);
      assert.deepEqual(snapshot(root), before);
      assert.equal(cli(gsd, ['install-hooks', '--root', path.join(root, '.gsd'), '--host', 'copilot-cli'], undefined, { HOME: h }).status, 0);
      assert.equal(cli(gsd, ['install-hooks', '--root', root, '--host', 'claude', '--json'], undefined, { HOME: h }).json.changes.length, 3);
      // The machine-specific part goes to the home folder.
      assert.match(fs.readFileSync(path.join(h, '.gsd-review-loop', 'bridge'), 'utf8'), /cli\.js\n$/);
      for (const host of ['claude', 'copilot-cli']) assert.equal(cli(gsd, ['uninstall-hooks', '--root', root, '--host', host], undefined, { HOME: h }).status, 0);
      assert.deepEqual(snapshot(root), before);
    });

    it('a wrong --host or a folder without .gsd is one clear line and exit 2', () => {
      const r = cli(gsd, ['install-hooks', '--root', os.tmpdir(), '--host', 'cursor']);
      assert.equal(r.status, 2);
      assert.equal(r.stderr, 'gsd-review: --host must be one of vscode, claude, copilot-cli, gsd\n');
      const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'no-gsd-'));
      const n = cli(gsd, ['install-hooks', '--root', empty, '--host', 'vscode']);
      assert.equal(n.status, 2);
      assert.match(n.stderr, /^gsd-review: no \.gsd folder at or above .*; give --root the project, or --user for your user-level files\n$/);
    });
  });
});

describe('agent hook install: the user\'s hooks entry by entry', () => {
  // A settings file with comments (Claude Code reads JSON with comments) and a hook of the user's that
  // was added into one of our matcher groups after our install.
  it('re-install and uninstall keep a hook the user put into our group, the comments, and the file', () => {
    const root = writeTree({ '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'X', [{ id: 'S01', title: 'Y' }]) });
    const h = home();
    const file = path.join(root, '.claude/settings.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{\n  // team settings\n  "model": "sonnet"\n}\n');
    applyFileChanges(planInstall({ root, host: 'claude', user: false, home: h }, readOrNull).changes);
    // The user adds a hook of their own into our Stop group.
    const settings = JSON.parse(fs.readFileSync(file, 'utf8').replace('// team settings', ''));
    const ourStop = settings.hooks.Stop[0];
    assert.match(ourStop.hooks[0].command, /gsd-review-loop\.sh/);
    const text = fs.readFileSync(file, 'utf8');
    const at = text.indexOf('"hooks": [', text.indexOf('"Stop"')) + '"hooks": ['.length;
    const mine = '\n          { "type": "command", "command": "notify-send done" }, // mine';
    fs.writeFileSync(file, text.slice(0, at) + mine + text.slice(at));
    const withMine = fs.readFileSync(file, 'utf8');
    // Re-install: ours is taken out entry by entry and put back; the user's stays.
    assert.deepEqual(applyFileChanges(planInstall({ root, host: 'claude', user: false, home: h }, readOrNull).changes).conflicts, []);
    const after = fs.readFileSync(file, 'utf8');
    assert.ok(after.includes('notify-send done'), 'the user\'s hook is gone after re-install');
    assert.ok(after.includes('// team settings') && after.includes('// mine'));
    assert.deepEqual(planInstall({ root, host: 'claude', user: false, home: h }, readOrNull).changes, []);
    // Uninstall: only our entries go; the file (with the user's hook and comments) stays.
    applyFileChanges(planUninstall({ root, host: 'claude', user: false, home: h }, readOrNull).changes);
    const left = fs.readFileSync(file, 'utf8');
    assert.ok(left.includes('notify-send done') && left.includes('// team settings') && left.includes('"model": "sonnet"'));
    assert.ok(!left.includes('gsd-review-loop.sh'));
    assert.notEqual(left, withMine);
  });

  it('uninstall never deletes a settings file that holds anything of the user\'s', () => {
    const root = writeTree({ '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'X', [{ id: 'S01', title: 'Y' }]) });
    const h = home();
    applyFileChanges(planInstall({ root, host: 'claude', user: false, home: h }, readOrNull).changes);
    const file = path.join(root, '.claude/settings.json');
    // Added after our install, beside our hooks.
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^\{/, '{\n  "env": { "A": "1" },'));
    applyFileChanges(planUninstall({ root, host: 'claude', user: false, home: h }, readOrNull).changes);
    assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')), { env: { A: '1' } });
  });

  it('uninstall and Undo remove the folders the install created, once empty, and never one that was there', () => {
    const root = writeTree({ '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'X', [{ id: 'S01', title: 'Y' }]), '.github/workflows/ci.yml': 'on: push\n' });
    const h = home();
    const dirs = () => ['.github', '.github/hooks', '.github/agents', '.claude', '.claude/hooks', '.claude/agents'].filter((d) => fs.existsSync(path.join(root, d)));
    for (const host of ['claude', 'vscode'] as const) applyFileChanges(planInstall({ root, host, user: false, home: h }, readOrNull).changes, h);
    for (const host of ['claude', 'vscode'] as const) applyFileChanges(planUninstall({ root, host, user: false, home: h }, readOrNull).changes, h);
    assert.deepEqual(dirs(), ['.github']);
    const { applied } = applyFileChanges(planInstall({ root, host: 'vscode', user: false, home: h }, readOrNull).changes, h);
    fs.writeFileSync(path.join(root, '.github/hooks/lint.json'), '{}\n');
    revertFileChanges(applied, h);
    // Not empty: the user's file keeps .github/hooks; .github/agents was ours and empty.
    assert.deepEqual(dirs(), ['.github', '.github/hooks']);
  });
});
