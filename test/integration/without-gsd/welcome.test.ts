import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension, EXTENSION_ID } from '../helpers/extension';
import { captureWorkbench } from '../helpers/workbench';

describe('in a workspace without .gsd', () => {
  it('does not activate at startup', () => {
    assert.equal(vscode.extensions.getExtension(EXTENSION_ID)!.isActive, false);
  });

  it('opening the panel activates the extension, which finds no project and shows no nodes', async () => {
    // Opening the container activates the extension (onView), which finds nothing.
    await vscode.commands.executeCommand('workbench.view.extension.gsdReviewLoop');
    const api = await activateExtension();
    assert.equal(api.workspace.list().length, 0);
    assert.deepEqual(api.panel.getChildren(), []);
  });

  it('shows the welcome text in the real workbench', async function () {
    await vscode.commands.executeCommand('workbench.view.extension.gsdReviewLoop');
    const view = await captureWorkbench('welcome', ['No GSD project in this workspace', 'Open Folder']);
    if (!view) return this.skip();
    assert.deepEqual(Object.values(view.seen), [true, true], JSON.stringify(view.seen));
  });

  it('GSD: Next Unit says there is no project instead of failing', async () => {
    const result = await vscode.commands.executeCommand('gsdReviewLoop.nextUnit');
    assert.equal(result, undefined);
  });
});
