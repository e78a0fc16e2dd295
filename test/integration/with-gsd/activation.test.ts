import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension, EXTENSION_ID, labelOf } from '../helpers/extension';
import { notificationsDuring } from '../helpers/notifications';
import type { PanelRefresh } from '../../../src/vscode/panel/review-panel-provider';
import { freshSample } from '../helpers/sample';
import { captureWorkbench } from '../helpers/workbench';
import { skipBecause } from '../../shared/skip-because';

describe('in a workspace with .gsd', () => {
  let activeOnItsOwn = false;

  before(async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    // workspaceContains:.gsd activates it at startup; give the host a moment if it is still starting.
    for (let i = 0; i < 50 && !ext.isActive; i++) await new Promise((r) => setTimeout(r, 100));
    activeOnItsOwn = ext.isActive;
    await freshSample();
  });

  it('activates on its own because the workspace contains .gsd', () => {
    assert.equal(activeOnItsOwn, true);
  });

  it('registers in the host every command it contributes, and nothing under gsd.* but the hidden aliases', async () => {
    // The aliases are registered once the host is quiet after activation (at most 5 s later).
    let commands = await vscode.commands.getCommands(true);
    for (let i = 0; i < 100 && !commands.some((id) => id.startsWith('gsd.')); i++) {
      await new Promise((r) => setTimeout(r, 100));
      commands = await vscode.commands.getCommands(true);
    }
    const contributed: string[] = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes.commands.map((c: { command: string }) => c.command);
    assert.equal(contributed.length, 19);
    for (const id of contributed) assert.ok(commands.includes(id), `${id} is not registered in the host`);
    // No other extension here owns the old ids, so each command 0.1.0 had (all but the successor
    // hand-off, the in-flight, install-preview, review-finding and undo-install commands, added since) has its alias, and nothing else of ours is called gsd.*.
    const legacy = commands.filter((id) => id.startsWith('gsd.')).sort();
    const since = [
      'gsdReviewLoop.handOffToGsd',
      'gsdReviewLoop.cancelUnit',
      'gsdReviewLoop.openUnitPrompt',
      'gsdReviewLoop.installFromPreview',
      'gsdReviewLoop.markFindingResolved',
      'gsdReviewLoop.reopenFinding',
      'gsdReviewLoop.addFindingToPendingActions',
      'gsdReviewLoop.undoAgentHooksInstall',
    ];
    const old = contributed.filter((id) => !since.includes(id));
    assert.deepEqual(legacy, old.map((id) => id.replace(/^gsdReviewLoop\./, 'gsd.')).sort());
  });

  it('keeps a keybinding to an old gsd.* id working: the alias runs the renamed command', async () => {
    const api = await activateExtension();
    const refreshed = new Promise<PanelRefresh>((resolve) => {
      const sub = api.panel.onDidRefresh((r) => {
        sub.dispose();
        resolve(r);
      });
    });
    await vscode.commands.executeCommand('gsd.refresh');
    // GSD: Refresh re-discovers the projects: the whole panel is rebuilt.
    assert.equal((await refreshed).full, true);
  });

  it('contributes the GSD view container, and opening it shows the review panel', async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('workbench.view.extension.gsdReviewLoop'), 'no view container "gsdReviewLoop"');
    assert.ok(commands.includes('gsdReviewLoop.reviewPanel.focus'), 'no view gsdReviewLoop.reviewPanel');
    const api = await activateExtension();
    const visibility = (visible: boolean) =>
      new Promise<void>((resolve) => {
        const sub = api.treeView.onDidChangeVisibility((e) => {
          if (e.visible === visible) {
            sub.dispose();
            resolve();
          }
        });
        if (api.treeView.visible === visible) {
          sub.dispose();
          resolve();
        }
      });
    // Closed first, so the view's becoming visible is this test's doing.
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await visibility(false);
    await vscode.commands.executeCommand('workbench.view.extension.gsdReviewLoop');
    await vscode.commands.executeCommand('gsdReviewLoop.reviewPanel.focus');
    await visibility(true);
    assert.equal(api.treeView.visible, true);
  });

  it('finds the project and lists its milestones in the panel', async () => {
    const api = await activateExtension();
    assert.equal(api.workspace.list().length, 1);
    const roots = api.panel.getChildren().map((n) => api.panel.getTreeItem(n));
    assert.deepEqual(roots.map(labelOf), ['Pending actions', 'M001', 'M002-k7q2xz', 'M003']);
    assert.ok(roots.every((r) => typeof r.id === 'string' && r.id.length > 0));
  });

  it('shows the panel in the real workbench', async function () {
    await vscode.commands.executeCommand('workbench.view.extension.gsdReviewLoop');
    const api = await activateExtension();
    await api.statusBar.update();
    // The state that matters leads each task row, so the default sidebar width does not cut it off.
    const view = await captureWorkbench('gsd-panel', ['1/3 · Categorisation rules', '2/3 · Rule editor commands', 'T02 · next · cycle 2: fixing', 'T01 · passed in 3']);
    if (!view) return skipBecause(this, 'no screenshot: the test runner does not drive this workbench (GSD_WORKBENCH_BRIDGE unset)');
    assert.deepEqual(Object.values(view.seen), [true, true, true, true], JSON.stringify(view.seen));
  });

  it('answers GSD: Next Unit from the shared core, with one notification', async () => {
    const { result, messages } = await notificationsDuring(() => vscode.commands.executeCommand<{ phase: string; nextAction: string }>('gsdReviewLoop.nextUnit'));
    assert.equal(messages.length, 1, messages.join('\n'));
    assert.match(messages[0], /^GSD: fix-task M002-k7q2xz\/S02\/T02 dispatched to /);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // The first dispatch of the session that cannot use the chat (no model here) says why in full;
    // the next ones say it in a few words.
    const fellBack = messages[0].includes('dispatched to editor');
    // This host has no language model (no Copilot): the chat cannot take it here.
    const models = await Promise.resolve(vscode.lm.selectChatModels()).then((m) => m.length, () => 0);
    if (models === 0) assert.ok(fellBack, messages[0]);
    if (fellBack) assert.match(messages[0], /\. [^.]+; the prompt is in a new editor instead\.$/);
    await vscode.commands.executeCommand('gsdReviewLoop.cancelUnit');
    const again = await notificationsDuring(() => vscode.commands.executeCommand('gsdReviewLoop.nextUnit'));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (fellBack) assert.match(again.messages[0], /^GSD: fix-task M002-k7q2xz\/S02\/T02 dispatched to editor \(decided by review-loop\)\. The prompt is in a new editor \([^()]+\)\.$/);
    assert.equal(result.phase, 'executing');
    assert.match(result.nextAction, /T03/);
    // The status bar names the unit the hooks would dispatch: the review loop's fix of T02.
    const api = await activateExtension();
    await api.statusBar.update();
    assert.match(api.statusBar.text, /GSD: fix-task T02/);
  });
});
