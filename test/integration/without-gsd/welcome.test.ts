import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { GsdExtensionApi } from '../../../src/extension';
import { EXTENSION_ID } from '../helpers/extension';
import { readViewActions } from '../helpers/workbench';
import { skipBecause } from '../../shared/skip-because';

describe('in a workspace without .gsd', () => {
  it('does not activate at startup', () => {
    assert.equal(vscode.extensions.getExtension(EXTENSION_ID)!.isActive, false);
  });

  it('opening the panel activates the extension, which finds no project and shows no nodes', async () => {
    // Opening the container activates the extension (onView), which finds nothing.
    const ext = vscode.extensions.getExtension<GsdExtensionApi>(EXTENSION_ID)!;
    assert.equal(ext.isActive, false);
    await vscode.commands.executeCommand('workbench.view.extension.gsdReviewLoop');
    // The host activates it (onView); the test never calls activate() itself.
    for (let i = 0; i < 100 && !ext.isActive; i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(ext.isActive, true, 'opening the panel did not activate the extension');
    const api = ext.exports;
    assert.equal(api.workspace.list().length, 0);
    assert.deepEqual(api.panel.getChildren(), []);
  });

  it('shows the welcome text in the real workbench', async function () {
    await vscode.commands.executeCommand('workbench.view.extension.gsdReviewLoop');
    const view = await readViewActions('welcome', ['No GSD project in this workspace', 'Open Folder']);
    if (!view) return skipBecause(this, 'no screenshot: the test runner does not drive this workbench (GSD_WORKBENCH_BRIDGE unset)');
    assert.deepEqual(Object.values(view.seen), [true, true], JSON.stringify(view.seen));
    // Nothing to refresh or collapse here: the view's title offers neither.
    assert.deepEqual(view.viewActions!.filter((a) => /Refresh|Collapse/.test(a)), [], JSON.stringify(view.viewActions));
    // The activity bar names the extension, not just "GSD".
    assert.ok(view.activityBar!.includes('GSD Review Loop'), JSON.stringify(view.activityBar));
  });

  it('GSD: Next Unit says there is no project instead of failing', async () => {
    const result = await vscode.commands.executeCommand('gsdReviewLoop.nextUnit');
    assert.equal(result, undefined);
  });
});
