// Workspace search runs ripgrep on the server; a host installed without `rg` fails it with ENOENT.
// The sample's src/rules.ts holds the one definition searched for.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { freshSample } from '../helpers/sample';
import { captureWorkbench, workbenchBridgeAvailable } from '../helpers/workbench';
import { skipBecause } from '../../shared/skip-because';

describe('workspace search in the host (ripgrep)', () => {
  before(async () => {
    await freshSample();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.view.extension.gsdReviewLoop');
  });

  it('finds the sample\'s files by name', async () => {
    const found = await vscode.workspace.findFiles('**/rules.ts', '**/node_modules/**');
    assert.deepEqual(found.map((u) => vscode.workspace.asRelativePath(u)), ['src/rules.ts']);
  });

  it('finds text in the sample from the Search view', async function () {
    if (!workbenchBridgeAvailable()) skipBecause(this, 'no search in the page: the test runner does not drive this workbench (GSD_WORKBENCH_BRIDGE unset)');
    await vscode.commands.executeCommand('workbench.action.findInFiles', { query: 'export function categorise', triggerSearch: true });
    // No sleep: the screenshot waits (up to 10 s) for these very texts to be drawn.
    const view = await captureWorkbench('search', ['1 result in 1 file', 'rules.ts']);
    assert.ok(view);
    assert.deepEqual(view.seen, { '1 result in 1 file': true, 'rules.ts': true }, `search view: ${view.screenshot}`);
  });
});
