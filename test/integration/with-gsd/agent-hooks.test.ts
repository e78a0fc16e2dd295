import * as assert from 'node:assert/strict';
import { execSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GsdExtensionApi } from '../../../src/extension';
import { emptySqliteDatabase } from '../../unit/helpers/empty-sqlite';
import { EXTENSION_ID, labelOf } from '../helpers/extension';
import { captureWorkbench, checkSeen, clickNotificationButton } from '../helpers/workbench';
import { waitFor } from '../helpers/wait-for';
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

  it('a .vscode/mcp.json with "servers" twice: VS Code reads the last one, and Install writes nothing into the first', async () => {
    const db = path.join(root, '.gsd', 'gsd.db');
    const claudeMcp = path.join(root, '.mcp.json');
    const vscodeMcp = path.join(root, '.vscode', 'mcp.json');
    const hadVscodeDir = fs.existsSync(path.join(root, '.vscode'));
    const gsdEntry = { command: 'gsd-mcp-server-not-installed', cwd: root };
    const twice = '{\n  "servers": { "docs": { "type": "stdio", "command": "npx" } },\n  "servers": { "lint": { "type": "stdio", "command": "lint-server" } }\n}\n';
    try {
      fs.writeFileSync(db, emptySqliteDatabase());
      fs.writeFileSync(claudeMcp, `${JSON.stringify({ mcpServers: { 'gsd-workflow': gsdEntry } }, null, 2)}\n`);
      fs.mkdirSync(path.join(root, '.vscode'), { recursive: true });
      fs.writeFileSync(vscodeMcp, twice);
      // VS Code's own reading of the file: its `mcp` configuration holds the last "servers" only.
      const servers = () => {
        const seen = vscode.workspace.getConfiguration('mcp', vscode.Uri.file(root)).inspect<Record<string, unknown>>('servers');
        return Object.keys(seen?.workspaceFolderValue ?? seen?.workspaceValue ?? {});
      };
      await waitFor(() => `VS Code to read ${vscodeMcp} (its mcp servers now: ${servers().join(', ') || 'none'})`, () => servers().length > 0);
      assert.deepEqual(servers(), ['lint']);
      const { result: written, messages } = await notificationsDuring(() => api.installAgentHooks(api.workspace.list()[0]));
      assert.ok(!written?.includes(path.join('.vscode', 'mcp.json')), `written: ${written?.join(', ')}`);
      assert.equal(fs.readFileSync(vscodeMcp, 'utf8'), twice);
      assert.match(messages.join('\n'), /mcp\.json:3: "servers" appears twice \(VS Code reads only the last\); left as it is/);
    } finally {
      for (const f of [db, claudeMcp, vscodeMcp]) fs.rmSync(f, { force: true });
      if (!hadVscodeDir) fs.rmSync(path.join(root, '.vscode'), { recursive: true, force: true });
    }
  });

  describe('GSD: Undo Agent Hooks Install', function () {
    // Up to three looks at the palette, each waiting up to 10 s in the page for what it should show.
    this.timeout(120_000);
    const UNDO = 'GSD: Undo Agent Hooks Install';
    const INSTALL = 'GSD: Install Agent Hooks';
    /** The repository's files as the user has them (our `.gsd` aside): path → text. */
    const repoFiles = (): Map<string, string> => {
      const out = new Map<string, string>();
      for (const rel of fs.readdirSync(root, { recursive: true }).map(String)) {
        if (rel === '.gsd' || rel.startsWith(`.gsd${path.sep}`)) continue;
        const file = path.join(root, rel);
        out.set(rel, fs.lstatSync(file).isDirectory() ? '<folder>' : fs.readFileSync(file, 'utf8'));
      }
      return out;
    };
    /**
     * The palette filtered to the Undo command, read in the page (null without the runner's browser).
     * `listed`: whether it should list it. Without it the palette still shows Install Agent Hooks
     * (among "similar commands"): that row proves the palette was open when the Undo was not there.
     * The runner waits up to 10 s for each text asked about, the one that should show first.
     */
    const palette = async (shot: string, listed: boolean) => {
      const expect = listed ? [UNDO] : [INSTALL, UNDO];
      let view: Awaited<ReturnType<typeof captureWorkbench>> = null;
      // The workbench can take the focus back and close the palette before the shot: try again.
      for (let attempt = 0; attempt < 3; attempt++) {
        await vscode.commands.executeCommand('workbench.action.quickOpen', `>${UNDO}`);
        view = await captureWorkbench(shot, expect, 25_000);
        await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
        if (!view || view.seen[expect[0]]) break;
      }
      return view;
    };
    const settingsFile = () => path.join(root, '.claude', 'settings.json');
    const usersSettings = `${JSON.stringify({ permissions: { allow: ['Bash(npm test)'] }, env: { MY_OWN: '1' } }, null, 2)}\n`;

    beforeEach(async () => {
      api = await freshSample();
      // The user's own Claude Code settings, which the install merges into.
      fs.mkdirSync(path.dirname(settingsFile()), { recursive: true });
      fs.writeFileSync(settingsFile(), usersSettings);
    });
    afterEach(() => fs.rmSync(path.join(root, '.claude'), { recursive: true, force: true }));

    it('after the toast has gone, is in the palette and puts every file back as it was, the merged settings byte for byte; then leaves the palette', async () => {
      const before = repoFiles();
      const written = await api.installAgentHooks(api.workspace.list()[0], ['vscode', 'claude']);
      assert.ok(written && written.includes(path.join('.claude', 'settings.json')), `the install merged the user's settings: ${written}`);
      assert.notEqual(fs.readFileSync(settingsFile(), 'utf8'), usersSettings);
      // The toast with its Undo goes (into the bell, and cleared from there too).
      await vscode.commands.executeCommand('notifications.clearAll');
      const shown = await palette('undo-install-palette', true);
      checkSeen(shown, (v) => assert.equal(v.seen[UNDO], true, 'the palette lists GSD: Undo Agent Hooks Install after an install'));
      const { messages } = await notificationsDuring(() => vscode.commands.executeCommand('gsdReviewLoop.undoAgentHooksInstall'));
      assert.deepEqual(messages, ['GSD: agent hooks removed again.']);
      assert.equal(fs.readFileSync(settingsFile(), 'utf8'), usersSettings);
      // Every file and folder the install made is gone, and nothing else changed.
      assert.deepEqual([...repoFiles()].sort(), [...before].sort());
      const gone = await palette('undo-install-palette-after-undo', false);
      checkSeen(gone, (v) => assert.deepEqual(v.seen, { [INSTALL]: true, [UNDO]: false }, 'the palette still lists the Undo with nothing to undo'));
    });

    it("the install toast's Undo, clicked from the bell after the palette's Undo, says the install was undone already and changes nothing", async () => {
      await vscode.commands.executeCommand('notifications.clearAll');
      await api.installAgentHooks(api.workspace.list()[0], ['vscode', 'claude']);
      await vscode.commands.executeCommand('gsdReviewLoop.undoAgentHooksInstall');
      const undone = repoFiles();
      await vscode.commands.executeCommand('notifications.showList');
      const clicked = await notificationsDuring(async (shown) => {
        const view = await clickNotificationButton('undo-install-stale-toast', 'agent hooks installed for', 'Undo');
        // The click runs the command in this host a moment later: it says what it did.
        if (view) await waitFor('the clicked Undo to say what it did', () => shown.length > 0);
        return view;
      });
      await vscode.commands.executeCommand('notifications.hideList');
      // Without the runner's browser nothing was clicked: noted as not proven.
      checkSeen(clicked.result, () => {
        assert.deepEqual(clicked.messages, ['GSD: that install was already undone, or another came after it; nothing was changed.']);
        assert.deepEqual([...repoFiles()].sort(), [...undone].sort());
      });
    });

    it('never overwrites a change the user made since the install: says which file, undoes nothing, and is not offered again', async () => {
      await api.installAgentHooks(api.workspace.list()[0], ['vscode', 'claude']);
      await vscode.commands.executeCommand('notifications.clearAll');
      // The user goes on editing the merged settings after the install.
      const edited = fs.readFileSync(settingsFile(), 'utf8').replace('"MY_OWN": "1"', '"MY_OWN": "2"');
      fs.writeFileSync(settingsFile(), edited);
      const after = repoFiles();
      const { messages } = await notificationsDuring(() => vscode.commands.executeCommand('gsdReviewLoop.undoAgentHooksInstall'));
      assert.deepEqual(messages, [`GSD: the agent hooks were not removed, so that your changes stay: ${path.join('.claude', 'settings.json')} was changed since the install; nothing was changed.`]);
      // All or nothing: the user's edit, and every hook file with it, as they were.
      assert.equal(fs.readFileSync(settingsFile(), 'utf8'), edited);
      assert.deepEqual([...repoFiles()].sort(), [...after].sort());
      const gone = await palette('undo-install-palette-after-refusal', false);
      checkSeen(gone, (v) => assert.deepEqual(v.seen, { [INSTALL]: true, [UNDO]: false }, 'the palette still offers an Undo that would be refused again'));
    });
  });
});
