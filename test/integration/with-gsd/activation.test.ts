import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
describe('activation', () => {
  it('activates', async () => {
    const ext = vscode.extensions.getExtension('gsd-review-loop.gsd-review-loop');
    assert.ok(ext);
    await ext.activate();
    assert.ok(ext.isActive);
    await vscode.commands.executeCommand('workbench.view.extension.gsd');
    await new Promise((r) => setTimeout(r, 1500));
  });
});
