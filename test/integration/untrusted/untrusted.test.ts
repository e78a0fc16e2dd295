// The sample project in Restricted Mode (workspace trust on, folder not trusted). Reading works;
// everything that would run a command or workspace code is refused with a message and leaves no
// trace: terminal dispatch, Replan slice, Install Agent Hooks, hook code from .gsd/extensions.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GsdExtensionApi } from '../../../src/extension';
import type { NextUnitResult } from '../../../src/vscode/dispatch/next-unit-command';
import { activateExtension, labelOf } from '../helpers/extension';
import { notificationsDuring } from '../helpers/notifications';
import { captureWorkbench } from '../helpers/workbench';
import { snapshotTree } from '../../unit/helpers/folder-snapshot';
import { skipBecause } from '../../shared/skip-because';

const M2 = 'M002-k7q2xz';

describe('Restricted Mode (untrusted workspace)', () => {
  let api: GsdExtensionApi;
  let root: string;
  let gsdDir: string;
  const config = () => vscode.workspace.getConfiguration('gsdReviewLoop');

  before(async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'this suite needs a window in Restricted Mode');
    api = await activateExtension();
    root = api.workspace.list()[0].project.root;
    gsdDir = api.workspace.list()[0].project.gsdDir;
  });

  after(async () => {
    await config().update('dispatch.target', undefined, vscode.ConfigurationTarget.Global);
  });

  it('still reads the project: the panel lists its milestones', async function () {
    const roots = api.panel.getChildren().map((n) => api.panel.getTreeItem(n));
    assert.deepEqual(roots.map(labelOf), ['Pending actions', 'M001', 'M002-k7q2xz', 'M003']);
    await vscode.commands.executeCommand('workbench.view.extension.gsdReviewLoop');
    const view = await captureWorkbench('restricted-mode-panel', ['Restricted Mode', 'Categorisation rules']);
    if (!view) return skipBecause(this, 'no screenshot: the test runner does not drive this workbench (GSD_WORKBENCH_BRIDGE unset)');
    assert.deepEqual(Object.values(view.seen), [true, true], JSON.stringify(view.seen));
  });

  it('refuses to dispatch to a terminal, and writes nothing', async function () {
    await config().update('dispatch.target', 'terminal', vscode.ConfigurationTarget.Global);
    // The setting is in effect here (user settings are not restricted): the refusal is the trust check's.
    assert.equal(config().get('dispatch.target'), 'terminal');
    const before = snapshotTree(root);
    const terminals = vscode.window.terminals.length;
    const { result, messages } = await notificationsDuring(() => vscode.commands.executeCommand<NextUnitResult>('gsdReviewLoop.nextUnit'));
    // What the user sees first: the refusal, no terminal, no file.
    assert.deepEqual(messages, ['GSD: dispatching to a terminal runs a command, which is refused in an untrusted workspace. Trust the workspace, or set gsdReviewLoop.dispatch.target to "editor".']);
    assert.equal(vscode.window.terminals.length, terminals);
    assert.deepEqual(snapshotTree(root), before);
    assert.equal(result!.target, null);
    const view = await captureWorkbench('terminal-refused', ['refused in an untrusted workspace']);
    if (!view) return skipBecause(this, 'no screenshot: the test runner does not drive this workbench (GSD_WORKBENCH_BRIDGE unset)');
    assert.deepEqual(Object.values(view.seen), [true], JSON.stringify(view.seen));
  });

  it('offers no Replan slice CodeLens on Known Issues, and refuses the command, writing nothing', async () => {
    const summary = vscode.Uri.file(path.join(gsdDir, 'milestones', M2, 'slices', 'S02', 'tasks', 'T02-SUMMARY.md'));
    // The lenses as the editor gets them, from every provider the host has for this file.
    await vscode.window.showTextDocument(summary, { preview: true });
    const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', summary)) ?? [];
    const titles = lenses.map((l) => l.command?.title ?? '');
    assert.ok(titles.some((t) => /pending action/.test(t)), titles.join(' | '));
    assert.ok(titles.includes('Show in review panel'), titles.join(' | '));
    assert.ok(!titles.includes('Replan slice'), titles.join(' | '));
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    const before = snapshotTree(gsdDir);
    const { result, messages } = await notificationsDuring(() => vscode.commands.executeCommand('gsdReviewLoop.replanSlice', summary));
    assert.equal(result, undefined);
    assert.deepEqual(messages, ['GSD: dispatching a replan is refused in an untrusted workspace.']);
    assert.deepEqual(snapshotTree(gsdDir), before);
  });

  it('refuses to install agent hooks, says so, and writes nothing in the folder', async () => {
    const before = snapshotTree(root);
    const { result, messages } = await notificationsDuring(() => api.installAgentHooks(api.workspace.list()[0]));
    assert.deepEqual(messages, ['GSD: installing agent hooks makes the agent run a command; that is refused in an untrusted workspace.']);
    // No .github/hooks, .claude/settings.json or .vscode/mcp.json: nothing anywhere in the folder.
    assert.deepEqual(snapshotTree(root), before);
    assert.equal(result, undefined);
  });

  it('does not run hook code from .gsd/extensions, and says so', async () => {
    const hookDir = path.join(gsdDir, 'extensions', 'my-policy');
    const marker = path.join(root, 'workspace-hook-ran');
    fs.mkdirSync(hookDir, { recursive: true });
    fs.writeFileSync(path.join(hookDir, 'gsd-hooks.js'), `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');
module.exports = function (api) {
  api.registerHook('my-policy', async (ctx, next) => { ctx.decision = { unitType: 'replan-slice', unitId: '${M2}/S02', prompt: 'from the workspace' }; await next(); });
};\n`);
    const prefs = path.join(gsdDir, 'PREFERENCES.md');
    const original = fs.existsSync(prefs) ? fs.readFileSync(prefs, 'utf8') : null;
    // Our settings file is read before gsd_hooks: set aside while this test sets the hooks there.
    const settings = path.join(gsdDir, 'gsd-review-loop.yaml');
    const originalSettings = fs.existsSync(settings) ? fs.readFileSync(settings, 'utf8') : null;
    fs.rmSync(settings, { force: true });
    fs.writeFileSync(prefs, '---\nversion: 1\ngsd_hooks:\n  enabled:\n    - name: my-policy\n      source: my-policy\n---\n');
    try {
      await config().update('dispatch.target', 'editor', vscode.ConfigurationTarget.Global);
      const result = (await vscode.commands.executeCommand<NextUnitResult>('gsdReviewLoop.nextUnit'))!;
      assert.notEqual(result.outcome?.decision?.source, 'my-policy');
      assert.deepEqual(result.outcome?.hooks.skipped.map((s) => s.name), ['my-policy']);
      assert.match(result.outcome!.hooks.skipped[0].reason, /trusted workspace/);
      assert.equal(fs.existsSync(marker), false, 'the workspace hook ran');
    } finally {
      if (original === null) fs.rmSync(prefs, { force: true });
      else fs.writeFileSync(prefs, original);
      if (originalSettings === null) fs.rmSync(settings, { force: true });
      else fs.writeFileSync(settings, originalSettings);
      fs.rmSync(path.join(gsdDir, 'extensions'), { recursive: true, force: true });
    }
  });

  it('shows review findings as threads without Mark resolved or Add to pending actions, and refuses them if called', async function () {
    this.timeout(60_000);
    const file = path.join(root, 'src', 'rules-file.ts');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
    const deadline = Date.now() + 20_000;
    while (api.findings.threads.threadsOf(file).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const [shown] = api.findings.threads.threadsOf(file);
    assert.ok(shown, 'no thread on src/rules-file.ts');
    assert.equal(shown.thread.range?.start.line, 56);
    assert.equal(shown.thread.contextValue, 'gsdReviewLoop.finding.open', 'no write actions in Restricted Mode');
    const before = snapshotTree(gsdDir);
    assert.equal(await vscode.commands.executeCommand('gsdReviewLoop.markFindingResolved', shown.thread), 'refused');
    assert.equal(await vscode.commands.executeCommand('gsdReviewLoop.addFindingToPendingActions', shown.thread), 'refused');
    assert.deepEqual(snapshotTree(gsdDir), before);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
