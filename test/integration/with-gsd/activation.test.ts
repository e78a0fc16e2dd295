import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension, EXTENSION_ID, labelOf } from '../helpers/extension';
import { captureWorkbench } from '../helpers/workbench';

describe('in a workspace with .gsd', () => {
  it('activates on its own because the workspace contains .gsd', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    // workspaceContains:.gsd activates it at startup; give the host a moment if it is still starting.
    for (let i = 0; i < 50 && !ext.isActive; i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(ext.isActive, true);
  });

  it('registers GSD: Next Unit, Refresh and Show Log', async () => {
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['gsd.nextUnit', 'gsd.refresh', 'gsd.showLog']) assert.ok(commands.includes(id), `${id} is not registered`);
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON;
    const next = pkg.contributes.commands.find((c: { command: string }) => c.command === 'gsd.nextUnit');
    assert.deepEqual([next.category, next.title], ['GSD', 'Next Unit']);
  });

  it('contributes the GSD view container, and opening it shows the review panel', async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('workbench.view.extension.gsd'), 'no view container "gsd"');
    assert.ok(commands.includes('gsd.reviewPanel.focus'), 'no view gsd.reviewPanel');
    await vscode.commands.executeCommand('workbench.view.extension.gsd');
    await vscode.commands.executeCommand('gsd.reviewPanel.focus');
  });

  it('finds the project and lists its milestones in the panel', async () => {
    const api = await activateExtension();
    assert.equal(api.workspace.list().length, 1);
    const roots = api.panel.getChildren().map((n) => api.panel.getTreeItem(n));
    assert.deepEqual(roots.map(labelOf), ['Pending actions', 'M001: CSV import core', 'M002-k7q2xz: Categorisation rules', 'M003: Budget alerts']);
    assert.ok(roots.every((r) => typeof r.id === 'string' && r.id.length > 0));
  });

  it('shows the panel in the real workbench', async function () {
    await vscode.commands.executeCommand('workbench.view.extension.gsd');
    const view = await captureWorkbench('gsd-panel', ['M002-k7q2xz: Categorisation rules', 'S02: Rule editor commands', 'T03: rule list with match counts']);
    if (!view) return this.skip();
    assert.deepEqual(Object.values(view.seen), [true, true, true], JSON.stringify(view.seen));
  });

  it('answers GSD: Next Unit from the shared core', async () => {
    const result = await vscode.commands.executeCommand<{ phase: string; nextAction: string }>('gsd.nextUnit');
    assert.equal(result.phase, 'executing');
    assert.match(result.nextAction, /T03/);
    // The status bar names the unit the hooks would dispatch: the review loop's fix of T02.
    const api = await activateExtension();
    await api.statusBar.update();
    assert.match(api.statusBar.text, /GSD: fix-task T02/);
  });
});
