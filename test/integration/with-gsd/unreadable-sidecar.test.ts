// A task whose hook-state sidecar someone broke (T02-HOOKS.md, not valid YAML) is shown blocked by
// that file in the status bar and the panel, Next Unit dispatches nothing and leads its warning with
// the reason: never the review loop starting again at cycle 1.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GsdExtensionApi } from '../../../src/extension';
import type { NextUnitResult } from '../../../src/vscode/dispatch/next-unit-command';
import { labelOf } from '../helpers/extension';
import { notificationsDuring } from '../helpers/notifications';
import { freshSample } from '../helpers/sample';
import { waitFor } from '../helpers/wait-for';
import { captureWorkbench, readStatusBar, checkSeen } from '../helpers/workbench';

const M2 = 'M002-k7q2xz';

describe('a task whose hook-state file is broken', () => {
  let api: GsdExtensionApi;
  let sidecar: string;
  let intact: string;
  const handle = () => api.workspace.list()[0];
  const t02Label = () => {
    const node = api.panel.unitNode(handle(), M2, 'S02', 'T02');
    return node ? labelOf(api.panel.getTreeItem(node)) : '';
  };

  before(async () => {
    api = await freshSample();
    sidecar = path.join(handle().project.gsdDir, 'milestones', M2, 'slices', 'S02', 'tasks', 'T02-HOOKS.md');
    intact = fs.readFileSync(sidecar, 'utf8');
    await vscode.commands.executeCommand('workbench.view.extension.gsdReviewLoop');
  });

  after(() => fs.writeFileSync(sidecar, intact));

  it('is blocked by that file in the status bar and the panel, with the reason; never review cycle 1', async () => {
    await waitFor('the bar to name the fix', () => api.statusBar.text === '$(play-circle) GSD: fix-task T02');
    fs.writeFileSync(sidecar, intact.replace('      cycle: 2\n', '      cycle: [2\n'));
    await waitFor(() => `the bar to say T02 is blocked (it says "${api.statusBar.text}")`, () => api.statusBar.text === '$(error) GSD: T02 blocked by T02-HOOKS.md');
    assert.match(api.statusBar.tooltip, /^\*\*M002-k7q2xz\/S02\/T02 is blocked:\*\* its hook-state file `T02-HOOKS\.md` cannot be read \(line \d+: frontmatter is not valid YAML: /);
    await waitFor(() => `the panel to mark T02 blocked (it says "${t02Label()}")`, () => t02Label() === 'T02 · blocked by T02-HOOKS.md');
    const item = api.panel.getTreeItem(api.panel.unitNode(handle(), M2, 'S02', 'T02')!);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'error');
    assert.match((item.tooltip as vscode.MarkdownString).value, /\*\*Blocked:\*\* its hook-state file `T02-HOOKS\.md` cannot be read/);
    assert.doesNotMatch((item.tooltip as vscode.MarkdownString).value, /Review:\*\* none yet/);
    // Its review cycle on disk is still listed under it.
    assert.ok(api.panel.getChildren(api.panel.unitNode(handle(), M2, 'S02', 'T02')!).some((c) => /^Review cycle 1/.test(labelOf(api.panel.getTreeItem(c)))));
    // Problems names the file, as before.
    const problems = vscode.languages.getDiagnostics(vscode.Uri.file(sidecar));
    assert.ok(problems.some((d) => d.severity === vscode.DiagnosticSeverity.Error && /not valid YAML/.test(d.message)), JSON.stringify(problems));
    const view = await readStatusBar('unreadable-sidecar', 'GSD: T02 blocked by T02-HOOKS.md');
    checkSeen(view, (v) => assert.deepEqual(v.statusBar, ['GSD: T02 blocked by T02-HOOKS.md']));
    const shot = await captureWorkbench('unreadable-sidecar-panel', ['T02 · blocked by T02-HOOKS.md'], 20_000, undefined, undefined, 'T02 · blocked by T02-HOOKS.md');
    if (shot) assert.deepEqual(Object.values(shot.seen), [true]);
  });

  it('makes Next Unit dispatch nothing, its warning leading with the reason and offering the file', async () => {
    const { result, messages } = await notificationsDuring(() => vscode.commands.executeCommand<NextUnitResult>('gsdReviewLoop.nextUnit'));
    assert.equal(result!.target, null);
    assert.equal(handle().engine.currentUnit(), null, 'nothing in flight');
    assert.equal(messages.length, 1);
    assert.match(messages[0], /^GSD: nothing dispatched\. M002-k7q2xz\/S02\/T02 is blocked by its hook-state file: T02-HOOKS\.md line \d+: frontmatter is not valid YAML: .+\. Fix that file; /);
    assert.doesNotMatch(messages[0], /\/tmp\/|review-task|review cycle 1/);
  });

  it('goes back to the fix of cycle 2 once the file is fixed', async () => {
    fs.writeFileSync(sidecar, intact);
    await waitFor(() => `the bar to name the fix again (it says "${api.statusBar.text}")`, () => api.statusBar.text === '$(play-circle) GSD: fix-task T02');
    await waitFor('the panel row', () => t02Label() === 'T02 · next · cycle 2: fixing');
  });
});
