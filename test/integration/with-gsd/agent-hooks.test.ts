import * as assert from 'node:assert/strict';
import { execSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GsdExtensionApi } from '../../../src/extension';
import { emptySqliteDatabase } from '../../unit/helpers/empty-sqlite';
import { EXTENSION_ID, labelOf } from '../helpers/extension';
import { captureWorkbench, checkSeen } from '../helpers/workbench';
import { notificationsDuring } from '../helpers/notifications';
import { freshSample } from '../helpers/sample';
import { skipBecause } from '../../shared/skip-because';
import { acceptPickUntilPreview } from '../helpers/install-preview';

describe('agent hooks from VS Code', () => {
  let api: GsdExtensionApi;
  let root: string;

  before(async () => {
    api = await freshSample();
    root = api.workspace.list()[0].project.root;
  });

  it('GSD: Install Agent Hooks shows the preview with Install on it (no dialog over it), then says one short thing', async () => {
    const { result, messages } = await notificationsDuring(async () => {
      const installing = vscode.commands.executeCommand<string[] | undefined>('gsdReviewLoop.installAgentHooks');
      // The hosts pick: VS Code's agent is picked already.
      const preview = await acceptPickUntilPreview();
      assert.ok(preview, 'the preview is the active editor');
      assert.equal(preview.languageId, 'markdown');
      const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', preview.uri)) ?? [];
      assert.deepEqual(lenses.map((l) => l.command?.title), ['$(check) Install these files', 'Cancel']);
      // Above the "Hooks on:" line, under the title: a lens above line 1 can be scrolled out of sight.
      assert.match(preview.lineAt(lenses[0].range.start.line).text, /^Hooks on: /);
      assert.equal(fs.existsSync(path.join(root, '.github', 'hooks', 'gsd-review-loop.json')), false, 'nothing written before Install');
      await vscode.commands.executeCommand('notifications.showList');
      const view = await captureWorkbench('install-preview', ['Install these files', 'GSD: Install Agent Hooks — preview']);
      await vscode.commands.executeCommand('notifications.hideList');
      checkSeen(view, (v) => assert.deepEqual(Object.values(v.seen), [true, true]));
      await vscode.commands.executeCommand(lenses[0].command!.command, ...(lenses[0].command!.arguments ?? []));
      return installing;
    });
    assert.equal(result!.length, 4);
    // The word about this VS Code comes only where it matters: before 1.109.3 (the floor) it runs no agent hooks.
    const [major, minor] = vscode.version.split('.').map(Number);
    const caveat = major === 1 && minor < 110 ? ` This VS Code (${vscode.version}) runs no agent hooks (they came in 1.109.3).` : '';
    assert.deepEqual(messages, ['GSD: read the preview of the 4 files, then install them.', `GSD: agent hooks installed for VS Code agent and Copilot CLI (4 files).${caveat}`]);
    assert.ok(fs.existsSync(path.join(root, '.github', 'hooks', 'gsd-review-loop.json')));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // Back to before, for the tests below, which install through the API.
    fs.rmSync(path.join(root, '.github'), { recursive: true, force: true });
  });

  it('GSD: Install Agent Hooks writes the hook file, its launcher and the reviewer agent; the machine-specific part goes to the home folder', async () => {
    const written = await api.installAgentHooks(api.workspace.list()[0]);
    const hooksDir = path.join('.github', 'hooks');
    // In the order written: the launchers, the agent, then the hook file that runs them (hook-install.ts).
    assert.deepEqual(written, [path.join(hooksDir, 'gsd-review-loop.sh'), path.join(hooksDir, 'gsd-review-loop.ps1'), path.join('.github', 'agents', 'gsd-reviewer.agent.md'), path.join(hooksDir, 'gsd-review-loop.json')]);
    const text = fs.readFileSync(path.join(root, hooksDir, 'gsd-review-loop.json'), 'utf8');
    const hooks = JSON.parse(text);
    const cli = path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'cli.js');
    // Only the events the bridge acts on, and no path of this machine in the repository.
    // The review guard (PreToolUse) is a project-level hook: agent-file hooks run only in trusted folders.
    assert.deepEqual(Object.keys(hooks.hooks), ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PreCompact', 'SubagentStart', 'SubagentStop', 'Stop']);
    assert.equal(hooks.hooks.Stop[0].command, 'sh .github/hooks/gsd-review-loop.sh --host vscode --event Stop');
    assert.ok(!text.includes(cli) && !text.includes(root));
    assert.equal(fs.readFileSync(path.join(os.homedir(), '.gsd-review-loop', 'bridge'), 'utf8'), `${process.execPath}\n${cli}\n`);
    assert.match(fs.readFileSync(path.join(root, '.github', 'agents', 'gsd-reviewer.agent.md'), 'utf8'), /^---\nname: gsd-reviewer\n/);
    assert.deepEqual(await api.installAgentHooks(api.workspace.list()[0]), []);
  });

  it('runs the installed command like the agent would, and the panel shows the hook event', async function () {
    const hooks = JSON.parse(fs.readFileSync(path.join(root, '.github', 'hooks', 'gsd-review-loop.json'), 'utf8'));
    const command: string = hooks.hooks.SessionStart[0].command;
    // Wait for the panel to hear of the hook call (not polling the tree: that would build the node
    // before the view asked for it).
    const heard = new Promise<void>((resolve) => {
      const sub = api.panel.onDidRefresh((r) => {
        if (r.full || r.ids.some((id) => id.endsWith('#hooks'))) {
          sub.dispose();
          resolve();
        }
      });
    });
    // As VS Code runs it: in the workspace root, a snake_case payload with a timestamp.
    const out = execSync(command, { cwd: root, input: JSON.stringify({ timestamp: new Date().toISOString(), hook_event_name: 'SessionStart', session_id: 'vscode-agent', cwd: root, source: 'new' }), encoding: 'utf8' });
    assert.match(JSON.parse(out).hookSpecificOutput.additionalContext, /^GSD project: phase /);
    await heard;
    const group = api.panel.getChildren().find((n) => labelOf(api.panel.getTreeItem(n)) === 'Recent hook events');
    assert.ok(group, 'no Recent hook events group');
    assert.equal(labelOf(api.panel.getTreeItem(api.panel.getChildren(group)[0])), 'SessionStart · context');
    await vscode.commands.executeCommand('workbench.view.extension.gsdReviewLoop');
    await api.treeView.reveal(api.panel.getChildren(group)[0], { select: true, focus: false });
    const view = await captureWorkbench('hook-events', ['Recent hook events', 'SessionStart · context']);
    if (!view) return skipBecause(this, 'no screenshot: the test runner does not drive this workbench (GSD_WORKBENCH_BRIDGE unset)');
    assert.deepEqual(Object.values(view.seen), [true, true]);
  });

  it('on a GSD-2 database project also gives the VS Code agent GSD\'s gsd-workflow server (.vscode/mcp.json), leaving .mcp.json as GSD wrote it', async () => {
    const db = path.join(root, '.gsd', 'gsd.db');
    const claudeMcp = path.join(root, '.mcp.json');
    const vscodeMcp = path.join(root, '.vscode', 'mcp.json');
    const hadVscodeDir = fs.existsSync(path.join(root, '.vscode'));
    // `.mcp.json` in the shape `/gsd mcp init` writes (gsd-2 mcp-project-config.ts).
    const gsdEntry = { command: 'gsd-mcp-server-not-installed', cwd: root, env: { GSD_PERSIST_WRITE_GATE_STATE: '1', GSD_WORKFLOW_PROJECT_ROOT: root } };
    const mcpText = `${JSON.stringify({ mcpServers: { 'gsd-workflow': gsdEntry } }, null, 2)}\n`;
    try {
      fs.writeFileSync(db, emptySqliteDatabase());
      fs.writeFileSync(claudeMcp, mcpText);
      const written = await api.installAgentHooks(api.workspace.list()[0]);
      assert.deepEqual(written, [path.join('.vscode', 'mcp.json')]);
      assert.deepEqual(JSON.parse(fs.readFileSync(vscodeMcp, 'utf8')), { servers: { 'gsd-workflow': { type: 'stdio', ...gsdEntry } } });
      assert.equal(fs.readFileSync(claudeMcp, 'utf8'), mcpText);
      assert.deepEqual(await api.installAgentHooks(api.workspace.list()[0]), []);
    } finally {
      for (const f of [db, claudeMcp, vscodeMcp]) fs.rmSync(f, { force: true });
      if (!hadVscodeDir) fs.rmSync(path.join(root, '.vscode'), { recursive: true, force: true });
    }
  });
});
