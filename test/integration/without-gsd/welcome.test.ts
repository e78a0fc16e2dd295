import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension, EXTENSION_ID } from '../helpers/extension';
import { captureWorkbench } from '../helpers/workbench';

describe('in a workspace without .gsd', () => {
  it('does not activate at startup', () => {
    assert.equal(vscode.extensions.getExtension(EXTENSION_ID)!.isActive, false);
  });

  it('offers a welcome view in place of the panel, shown while no project is found', async () => {
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON;
    const welcome = pkg.contributes.viewsWelcome.find((w: { view: string }) => w.view === 'gsdReviewLoop.reviewPanel');
    assert.equal(welcome.when, '!gsdReviewLoop.projectFound');
    assert.match(welcome.contents, /No GSD project/);
    // Opening the container activates the extension (onView), which finds nothing.
    await vscode.commands.executeCommand('workbench.view.extension.gsd');
    const api = await activateExtension();
    assert.equal(api.workspace.list().length, 0);
    assert.deepEqual(api.panel.getChildren(), []);
  });

  it('shows the welcome text in the real workbench', async function () {
    await vscode.commands.executeCommand('workbench.view.extension.gsd');
    const view = await captureWorkbench('welcome', ['No GSD project in this workspace', 'Open Folder']);
    if (!view) return this.skip();
    assert.deepEqual(Object.values(view.seen), [true, true], JSON.stringify(view.seen));
  });

  it('GSD: Next Unit says there is no project instead of failing', async () => {
    const result = await vscode.commands.executeCommand('gsdReviewLoop.nextUnit');
    assert.equal(result, undefined);
  });
});
