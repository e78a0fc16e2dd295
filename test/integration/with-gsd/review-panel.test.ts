import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GsdExtensionApi } from '../../../src/extension';
import type { PanelNode } from '../../../src/vscode/panel/panel-node';
import type { PanelRefresh } from '../../../src/vscode/panel/review-panel-provider';
import { EXTENSION_ID, labelOf } from '../helpers/extension';
import { captureWorkbench } from '../helpers/workbench';
import { freshSample } from '../helpers/sample';
import { whenPanelQuiet } from '../helpers/panel-tree';
import { skipBecause } from '../../shared/skip-because';

const M2 = 'M002-k7q2xz';

describe('review panel', () => {
  let api: GsdExtensionApi;
  let gsd: string;
  let tasks: string;
  const item = (n: PanelNode) => api.panel.getTreeItem(n);
  const child = (n: PanelNode, label: RegExp) => {
    const found = api.panel.getChildren(n).find((c) => label.test(labelOf(item(c))));
    assert.ok(found, `no child matching ${label} under ${labelOf(item(n))}: ${api.panel.getChildren(n).map((c) => labelOf(item(c))).join(', ')}`);
    return found;
  };
  const root = (label: RegExp) => {
    const found = api.panel.getChildren().find((c) => label.test(labelOf(item(c))));
    assert.ok(found, `no root item matching ${label}`);
    return found;
  };
  const s02 = () => child(root(/^M002/), /^S02/);
  const task = (id: string) => child(s02(), new RegExp(`^${id}\\b`));
  /**
   * Resolves with the next refresh of the panel. The bound is generous on purpose: how fast the
   * refresh comes is the benchmark's to measure (bench/), not a test's on a loaded machine; the
   * bound only says the refresh came from the file watcher at all, not never.
   */
  const nextRefresh = () =>
    new Promise<PanelRefresh>((resolve, reject) => {
      const timer = setTimeout(() => {
        sub.dispose();
        reject(new Error('the panel did not refresh within 20 s of the file change'));
      }, 20_000);
      const sub = api.panel.onDidRefresh((r) => {
        clearTimeout(timer);
        sub.dispose();
        resolve(r);
      });
    });

  before(async () => {
    api = await freshSample();
    gsd = api.workspace.list()[0].project.gsdDir;
    tasks = path.join(gsd, 'milestones', M2, 'slices', 'S02', 'tasks');
    // The "next" mark comes from the same decision as GSD: Next Unit, worked out asynchronously.
    await api.statusBar.update();
  });

  it('shows milestones, slices and tasks with status icons, progress and stable ids', async () => {
    const m2 = item(root(/^M002/));
    assert.equal((m2.iconPath as vscode.ThemeIcon).id, 'target');
    assert.equal(labelOf(m2), 'M002-k7q2xz');
    // The title in the description, after the progress: a narrow sidebar cuts it, not the label.
    assert.equal(m2.description, '1/3 · Categorisation rules');
    assert.equal(m2.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
    assert.equal(m2.id, `gsd:${gsd}/${M2}`);
    assert.equal((item(root(/^M001/)).iconPath as vscode.ThemeIcon).id, 'pass-filled');
    assert.equal(item(root(/^M003/)).contextValue, 'gsdReviewLoop.milestone.pending');
    const slices = api.panel.getChildren(root(/^M002/)).map((n) => [labelOf(item(n)), item(n).description, item(n).contextValue]);
    assert.deepEqual(slices, [
      ['S01', '2/2 · Rule engine · high risk', 'gsdReviewLoop.slice.done'],
      ['S02', '2/3 · Rule editor commands · medium risk', 'gsdReviewLoop.slice.active'],
      ['S03', 'not planned · Category report · low risk', 'gsdReviewLoop.slice.blocked'],
    ]);
    const t03 = item(task('T03'));
    // GSD's active task and the unit Next Unit dispatches differ by icon, not only by colour.
    assert.equal((t03.iconPath as vscode.ThemeIcon).id, 'target');
    assert.equal((item(task('T02')).iconPath as vscode.ThemeIcon).id, 'play-circle');
    // The default dispatch's active task, but not what GSD: Next Unit dispatches: not "next".
    assert.equal(labelOf(t03), 'T03');
    assert.equal(t03.description, 'rule list with match counts');
    assert.match((t03.tooltip as vscode.MarkdownString).value, /estimate 30m/);
    // The same id after a refresh that re-reads the project (VS Code keeps expansion and selection by
    // a TreeItem's id), and no other node has it.
    const before = { id: task('T03').id, item: item(task('T03')).id };
    api.workspace.refresh();
    // Until VS Code has fetched the rebuilt tree, so later tests reveal nodes it knows.
    await whenPanelQuiet(api.panel);
    const after = task('T03');
    assert.deepEqual({ id: after.id, item: item(after).id }, before);
    assert.notEqual(item(task('T02')).id, before.item);
  });

  it('marks "next" on exactly the unit GSD: Next Unit dispatches and the status bar names (hooks included)', async () => {
    const cli = path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'cli.js');
    // What the command-line tool, a separate process over the same core, decides now.
    const decided = JSON.parse(execFileSync(process.execPath, [cli, 'next', '--json', '--root', path.dirname(gsd)], { encoding: 'utf8' }));
    assert.deepEqual([decided.unitType, decided.unitId, decided.source], ['fix-task', `${M2}/S02/T02`, 'review-loop']);
    const marked: string[] = [];
    const walk = (nodes: PanelNode[]) => {
      for (const n of nodes) {
        if (/ · next\b/.test(labelOf(item(n)))) marked.push(n.id);
        walk(api.panel.getChildren(n));
      }
    };
    walk(api.panel.getChildren());
    assert.deepEqual(marked, [`gsd:${gsd}/${decided.unitId}`]);
    assert.match(api.statusBar.text, /GSD: fix-task T02$/);
    assert.equal(labelOf(item(task('T02'))), 'T02 · next · cycle 2: fixing');
    assert.equal(item(task('T02')).description, '2 pending · rule add / remove commands');
  });

  it('a task\'s tooltip tells its review: cycle and status, open issues, pending actions, the summary\'s one-liner', () => {
    const tip = item(task('T02')).tooltip;
    assert.ok(tip instanceof vscode.MarkdownString);
    const text = tip.value;
    assert.match(text, /\*\*Review cycle 2:\*\* fixing the issues of the last review/);
    assert.match(text, /\*\*Next unit:\*\* `fix-task` \(decided by review-loop\)/);
    assert.match(text, /\*\*Open issues\*\* \(review cycle 1\):\n- \*\*major\*\* `src\/rules-file\.ts:57` The temporary file/);
    assert.match(text, /\*\*Pending actions\*\* \(2\):\n- Keep CRLF line endings/);
    assert.match(text, /edit rules\.yaml and keep the user's comments\./);
    assert.match((item(task('T01')).tooltip as vscode.MarkdownString).value, /\*\*Review:\*\* passed in 3 cycles/);
  });

  it('lists a task\'s review cycles with open and resolved counts, and its pending actions', () => {
    const t01 = api.panel.getChildren(task('T01')).map((n) => [labelOf(item(n)), item(n).description, item(n).contextValue]);
    assert.deepEqual(t01, [
      ['Review cycle 1', 'changes requested · 3 open · 0 resolved', 'gsdReviewLoop.reviewCycle'],
      ['Review cycle 2', 'changes requested · 1 open · 2 resolved', 'gsdReviewLoop.reviewCycle.hasPrevious'],
      ['Review cycle 3', 'passed · 0 open · 3 resolved', 'gsdReviewLoop.reviewCycle.hasPrevious'],
    ]);
    assert.equal(labelOf(item(task('T01'))), 'T01 · passed in 3');
    assert.equal(item(task('T01')).description, 'Parse and validate rule patterns');
    const t02 = api.panel.getChildren(task('T02')).map((n) => [labelOf(item(n)), item(n).description]);
    assert.deepEqual(t02, [
      ['Review cycle 1', 'changes requested · 2 open · 0 resolved'],
      ['Review cycle 2', 'fixing the open issues'],
      ['Keep CRLF line endings of rules.yaml when writing (test is pending)', ''],
      ['Refuse "rule add" when the same pattern already exists with another category', ''],
    ]);
    const pendingOpen = item(api.panel.getChildren(task('T02'))[2]).command!;
    assert.equal(pendingOpen.command, 'vscode.open');
    assert.equal((pendingOpen.arguments![1] as vscode.TextDocumentShowOptions).selection!.start.line + 1, 44);
    const group = root(/^Pending actions/);
    assert.equal(item(group).description, '2');
    assert.deepEqual(api.panel.getChildren(group).map((n) => item(n).description), [`${M2}/S02/T02`, `${M2}/S02/T02`]);
  });

  it('shows three review cycles and the pending actions group in the real workbench', async function () {
    await vscode.commands.executeCommand('workbench.view.extension.gsdReviewLoop');
    await api.treeView.reveal(task('T01'), { expand: true, select: true, focus: true });
    await api.treeView.reveal(child(task('T02'), /^Review cycle 2/), { expand: true, select: false });
    const view = await captureWorkbench('panel-review-cycles', ['Pending actions', 'Review cycle 3', 'fixing the open issues']);
    if (!view) return skipBecause(this, 'no screenshot: the test runner does not drive this workbench (GSD_WORKBENCH_BRIDGE unset)');
    assert.deepEqual(Object.values(view.seen), [true, true, true], JSON.stringify(view.seen));
  });

  it('opens the diff of a cycle against the one before, as read-only documents', async function () {
    const cycle2 = child(task('T01'), /^Review cycle 2/);
    await vscode.commands.executeCommand('gsdReviewLoop.compareWithPreviousCycle', cycle2);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, 'the active tab is not a diff');
    assert.equal(tab.label, 'T01 review: cycle 1 ↔ cycle 2');
    const diff = tab.input as vscode.TabInputTextDiff;
    assert.equal(diff.original.scheme, 'gsd-review');
    const left = await vscode.workspace.openTextDocument(diff.original);
    const right = await vscode.workspace.openTextDocument(diff.modified);
    assert.match(left.getText(), /cycle: 1/);
    assert.match(right.getText(), /cycle: 2/);
    const view = await captureWorkbench('cycle-diff', ['T01 review: cycle 1 ↔ cycle 2']);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (!view) return skipBecause(this, 'no screenshot: the test runner does not drive this workbench (GSD_WORKBENCH_BRIDGE unset)');
    assert.deepEqual(Object.values(view.seen), [true]);
  });

  it('reflects a new review file on disk, refreshing only that slice', async () => {
    const refreshed = nextRefresh();
    fs.writeFileSync(path.join(tasks, 'T02-CODE-REVIEW.md'), `---\ntask: T02\ncycle: 2\nverdict: approved\n---\n# Code review: T02 (cycle 2)\n\n## Issues\n\n- [x] **major** fsync before rename\n- [x] **minor** exit 1 when nothing matched\n`);
    const r = await refreshed;
    assert.equal(r.full, false);
    assert.ok(r.ids.includes(`gsd:${gsd}/${M2}/S02`), r.ids.join(', '));
    assert.ok(!r.ids.some((id) => id.includes('/M001')), 'an unchanged milestone was refreshed');
    const t02 = api.panel.getChildren(task('T02')).map((n) => labelOf(item(n)));
    assert.deepEqual(t02.slice(0, 2), ['Review cycle 1', 'Review cycle 2']);
    assert.equal(item(child(task('T02'), /^Review cycle 2/)).description, 'passed · 0 open · 2 resolved');
  });

  it('reflects a ticked checkbox and a new summary with pending actions', async () => {
    const plan = path.join(path.dirname(tasks), 'S02-PLAN.md');
    let refreshed = nextRefresh();
    fs.writeFileSync(plan, fs.readFileSync(plan, 'utf8').replace('- [ ] **T03:', '- [x] **T03:'));
    await refreshed;
    assert.equal(item(task('T03')).contextValue, 'gsdReviewLoop.task.done');
    assert.equal(item(s02()).description, '3/3 · Rule editor commands · medium risk');

    refreshed = nextRefresh();
    fs.writeFileSync(path.join(tasks, 'T03-SUMMARY.md'), `---\nid: T03\nparent: S02\nmilestone: ${M2}\ncompleted_at: 2026-11-21T10:00:00Z\nblocker_discovered: false\n---\n\n# T03: rule list with match counts\n\n**Lists rules with match counts.**\n\n## Known Issues\n\nPending actions:\n- Sort rules with zero matches last\n`);
    await refreshed;
    assert.equal(item(root(/^Pending actions/)).description, '3');
    assert.deepEqual(api.panel.getChildren(task('T03')).map((n) => labelOf(item(n))), ['Sort rules with zero matches last']);
  });

  it('puts a broken file in the Problems panel and still shows the rest of the tree', async () => {
    const broken = path.join(tasks, 'T01-SUMMARY.md');
    const refreshed = nextRefresh();
    fs.writeFileSync(broken, '---\nid: T01\ncompleted_at: [2026-10-20\n---\n# T01\n');
    await refreshed;
    const problems = vscode.languages.getDiagnostics(vscode.Uri.file(broken));
    assert.ok(problems.some((d) => /not valid YAML/.test(d.message) && d.source === 'GSD'), JSON.stringify(problems.map((d) => d.message)));
    assert.deepEqual(api.panel.getChildren().map((n) => labelOf(item(n))).slice(1), ['M001', 'M002-k7q2xz', 'M003']);
    assert.equal(api.panel.getChildren(s02()).length, 3);
  });
});
