// Our review loop as GSD's review gate on a successor project, as a person sees it in the real
// workbench: installed with the CLI the extension ships (`install-hooks --host gsd`), two cycles
// recorded by `gsd-review gate --done` as the reviewer in GSD's hook session runs it, GSD's side
// played as gsd-pi 1.16.1 does it (cycle counts in .gsd/hook-state.json before each session; the
// artifact deleted when it re-runs the task). Runs after successor.test.ts, which checks that the
// extension alone writes nothing under .gsd; this file puts back what it changed.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SHOW_VIEW_CONTAINER } from '../../../src/vscode/contributions/contribution-ids';
import type { GsdExtensionApi } from '../../../src/extension';
import type { PanelNode } from '../../../src/vscode/panel/panel-node';
import { activateExtension, EXTENSION_ID, labelOf } from '../helpers/extension';
import { notificationsDuring } from '../helpers/notifications';
import { captureWorkbench, checkSeen } from '../helpers/workbench';
import { acceptPickUntilPreview } from '../helpers/install-preview';
import { waitFor } from '../helpers/wait-for';

const UNIT = 'M001/S02/T02';
const KEY = `gsd-review-loop/execute-task/${UNIT}`;

describe("our review loop as GSD's review gate (@opengsd/gsd-pi 1.x)", () => {
  let api: GsdExtensionApi;
  let root: string;
  let gsdDir: string;
  let home: string;
  let prefsBefore: Buffer;
  const artifact = () => path.join(gsdDir, 'phases', '01-checkout-flow', 'S02-T02-CODE-REVIEW.md');
  const capture = () => path.join(root, 'src', 'capture.ts');
  const item = (n: PanelNode) => api.panel.getTreeItem(n);
  const find = (nodes: PanelNode[], label: RegExp) => {
    const n = nodes.find((c) => label.test(labelOf(item(c))));
    assert.ok(n, `no item matching ${label} among ${nodes.map((c) => labelOf(item(c))).join(' | ')}`);
    return n;
  };
  const t02 = () => find(api.panel.getChildren(find(api.panel.getChildren(find(api.panel.getChildren(), /^M001\b/)), /^S02\b/)), /^T02\b/);

  function gsdReview(...args: string[]): { status: number | null; stdout: string; stderr: string } {
    const dist = path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist');
    // VS Code's own runtime runs as Node with ELECTRON_RUN_AS_NODE (desktop); code-server's host is Node.
    return spawnSync(process.execPath, [path.join(dist, 'cli.js'), ...args, '--root', root], { encoding: 'utf8', env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', HOME: home, GSD_HOME: path.join(home, '.gsd') } });
  }

  /** GSD starting the gate's session for cycle `n` (rule-registry.ts _startHook, then persistState). */
  function gsdStartsCycle(n: number): void {
    fs.writeFileSync(path.join(gsdDir, 'hook-state.json'), JSON.stringify({ cycleCounts: { [KEY]: n }, redispatchedGateKeys: [], activeHook: { hookName: 'gsd-review-loop', triggerUnitType: 'execute-task', triggerUnitId: UNIT, cycle: n, pendingRetry: false }, hookQueue: [], retryPending: false, retryTrigger: null, savedAt: new Date().toISOString() }, null, 2));
  }

  function review(n: number, issues: string[]): string {
    return ['---', 'task: T02', `cycle: ${n}`, 'verdict: pending', '---', `# Code review: ${UNIT} (cycle ${n})`, '', '## Issues', ...issues, '', '## Notes', 'Read the capture path.', ''].join('\n');
  }

  before(async function () {
    this.timeout(120_000);
    api = await activateExtension();
    const handle = api.workspace.list()[0];
    root = handle.project.root;
    gsdDir = handle.project.gsdDir;
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'gate-home-'));
    prefsBefore = fs.readFileSync(path.join(gsdDir, 'PREFERENCES.md'));
    fs.writeFileSync(capture(), 'export function capture(amount: number) {\n  const key = undefined;\n  return charge(amount, key);\n}\ndeclare function charge(amount: number, key?: string): Promise<void>;\n');
    const installed = gsdReview('install-hooks', '--host', 'gsd');
    assert.equal(installed.status, 0, installed.stderr);

    gsdStartsCycle(1);
    fs.writeFileSync(artifact(), review(1, ['- [ ] **major** `src/capture.ts:2` No idempotency key: a retried webhook charges twice.', '- [ ] **minor** `src/capture.ts:1` The amount is a float; use integer cents.']));
    const d1 = gsdReview('gate', UNIT, '--done');
    assert.equal(d1.status, 0, d1.stderr);
    // GSD reads needs-rework and re-runs the task: the artifact goes (auto-post-unit.ts prepareHookRetry).
    fs.rmSync(artifact());
    gsdStartsCycle(2);
    fs.writeFileSync(artifact(), review(2, ['- [ ] **major** `src/capture.ts:2` No idempotency key: a retried webhook charges twice.', '- [x] **minor** `src/capture.ts:1` The amount is a float; use integer cents.']));
    const d2 = gsdReview('gate', UNIT, '--done');
    assert.equal(d2.status, 0, d2.stderr);
    assert.match(d2.stdout, /verdict needs-rework/);
    fs.rmSync(artifact());
    fs.writeFileSync(path.join(gsdDir, 'hook-state.json'), JSON.stringify({ cycleCounts: { [KEY]: 2 }, activeHook: null, hookQueue: [], retryPending: false, retryTrigger: null }, null, 2));
    api.workspace.refresh();
  });

  after(() => {
    const un = gsdReview('uninstall-hooks', '--host', 'gsd');
    assert.equal(un.status, 0, un.stderr);
    assert.deepEqual(fs.readFileSync(path.join(gsdDir, 'PREFERENCES.md')), prefsBefore, 'uninstall gave back the bytes');
    fs.rmSync(path.join(gsdDir, 'hook-state.json'), { force: true });
    fs.rmSync(path.join(gsdDir, 'gsd-review-loop'), { recursive: true, force: true });
    fs.rmSync(capture(), { force: true });
    api.workspace.refresh();
  });

  it('shows the task in its fix cycle, with both recorded review cycles under it', async () => {
    await waitFor('T02 in its fix cycle', () => /cycle 3: fixing/.test(labelOf(item(t02()))));
    const cycles = api.panel.getChildren(t02()).filter((n) => /^Review cycle/.test(labelOf(item(n))));
    assert.deepEqual(
      cycles.slice(0, 2).map((n) => [labelOf(item(n)), item(n).description]),
      [
        ['Review cycle 1', 'changes requested · 2 open · 0 resolved'],
        ['Review cycle 2', 'changes requested · 1 open · 1 resolved'],
      ],
    );
    // A click opens the cycle's record, which GSD does not delete.
    const opened = item(cycles[1]).command?.arguments?.[0] as vscode.Uri;
    assert.match(opened.fsPath, /gsd-review-loop[/\\]gate[/\\]M001[/\\]S02[/\\]T02[/\\]CODE-REVIEW-C2\.md$/);
    assert.match((item(t02()).tooltip as vscode.MarkdownString).value, /No idempotency key/);
  });

  it('compares cycle 2 with cycle 1 in a diff editor', async () => {
    const cycle2 = find(api.panel.getChildren(t02()), /^Review cycle 2$/);
    await vscode.commands.executeCommand('gsdReviewLoop.compareWithPreviousCycle', cycle2);
    await waitFor('the diff editor', () => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab!;
    assert.equal(tab.label, 'T02 review: cycle 1 ↔ cycle 2');
    const diff = tab.input as vscode.TabInputTextDiff;
    // Each side is that cycle's record, as --done left it (with the verdict GSD read).
    const [before, after] = await Promise.all([vscode.workspace.openTextDocument(diff.original), vscode.workspace.openTextDocument(diff.modified)]);
    assert.match(before.getText(), /cycle: 1[\s\S]*- \[ \] \*\*minor\*\* `src\/capture\.ts:1`/);
    assert.match(after.getText(), /cycle: 2[\s\S]*- \[x\] \*\*minor\*\* `src\/capture\.ts:1`/);
    assert.match(after.getText(), /verdict: needs-rework/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('puts the open finding at its line in the code (a thread) and in Problems', async function () {
    this.timeout(90_000);
    const uri = vscode.Uri.file(capture());
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    // The open issue's thread, expanded at line 2; the one ticked fixed in cycle 2 is there too, resolved.
    const open = () => api.findings.threads.threadsOf(capture()).find((t) => t.thread.state === vscode.CommentThreadState.Unresolved);
    await waitFor('the finding thread on src/capture.ts', () => open() !== undefined);
    const { thread } = open()!;
    assert.equal(thread.range?.start.line, 1);
    assert.equal(thread.label, 'major · T02 cycle 2');
    const resolved = api.findings.threads.threadsOf(capture()).filter((t) => t.thread.state === vscode.CommentThreadState.Resolved);
    assert.deepEqual(resolved.map((t) => t.thread.range?.start.line), [0]);
    await waitFor('the Problems entry', () => vscode.languages.getDiagnostics(uri).some((d) => d.source === 'GSD review'));
    const [d] = vscode.languages.getDiagnostics(uri).filter((x) => x.source === 'GSD review');
    assert.equal(d.range.start.line, 1);
    assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    assert.match(d.message, /No idempotency key.*T02, review cycle 2/);

    await vscode.commands.executeCommand(SHOW_VIEW_CONTAINER);
    await Promise.resolve(vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar')).catch(() => undefined);
    await api.treeView.reveal(t02(), { expand: true, select: true, focus: false });
    await vscode.window.showTextDocument(uri, { preview: false });
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    const expect = ['cycle 3: fixing', 'Review cycle 2', 'No idempotency key', 'GSD review'];
    const view = await captureWorkbench('successor-review-gate', expect, 45_000);
    checkSeen(view, (v) => assert.deepEqual(Object.values(v.seen), expect.map(() => true), JSON.stringify(v.seen)));
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('at the cap the open issue becomes a pending action of the task', async () => {
    for (let n = 3; n <= 5; n++) {
      gsdStartsCycle(n);
      fs.writeFileSync(artifact(), review(n, ['- [ ] **major** `src/capture.ts:2` No idempotency key: a retried webhook charges twice.']));
      const done = gsdReview('gate', UNIT, '--done');
      assert.equal(done.status, 0, done.stderr);
      assert.match(done.stdout, n < 5 ? /verdict needs-rework/ : /verdict advisory/);
      if (n < 5) fs.rmSync(artifact());
    }
    api.workspace.refresh();
    await waitFor('T02 stopped at the cap', () => /failed after 5/.test(labelOf(item(t02()))));
    const group = find(api.panel.getChildren(), /^Pending actions/);
    const texts = api.panel.getChildren(group).map((n) => labelOf(item(n)));
    assert.ok(texts.some((t) => /No idempotency key/.test(t)), texts.join(' | '));
    fs.rmSync(artifact(), { force: true });
  });
});

describe("GSD: Install Agent Hooks on a successor project installs our review gate", () => {
  let api: GsdExtensionApi;
  let gsdDir: string;
  before(async () => {
    api = await activateExtension();
    gsdDir = api.workspace.list()[0].project.gsdDir;
  });

  it('offers the gate for this project, previews PREFERENCES.md and the guard, and installs them on Install', async function () {
    this.timeout(60_000);
    const prefs = path.join(gsdDir, 'PREFERENCES.md');
    const before = fs.readFileSync(prefs);
    const { result, messages } = await notificationsDuring(async () => {
      const installing = vscode.commands.executeCommand<string[] | undefined>('gsdReviewLoop.installAgentHooks');
      // The scope pick: "for this project" is first.
      const preview = await acceptPickUntilPreview();
      assert.ok(preview, 'the preview is the active editor');
      const text = preview.getText();
      assert.match(text, /^GSD's review gate: after each execute-task in auto mode/m);
      assert.match(text, /## Update \.gsd\/PREFERENCES\.md/);
      assert.match(text, /- name: gsd-review-loop\n/);
      assert.match(text, /## Create \.gsd\/extensions\/gsd-review-loop-guard\.js/);
      assert.deepEqual(fs.readFileSync(prefs), before, 'nothing written before Install');
      const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', preview.uri)) ?? [];
      assert.deepEqual(lenses.map((l) => l.command?.title), ['$(check) Install these files', 'Cancel']);
      const view = await captureWorkbench('successor-install-gate-preview', ['Install these files', "GSD's review gate"]);
      checkSeen(view, (v) => assert.deepEqual(Object.values(v.seen), [true, true], JSON.stringify(v.seen)));
      await vscode.commands.executeCommand(lenses[0].command!.command, ...(lenses[0].command!.arguments ?? []));
      return installing;
    });
    assert.ok(result && result.includes(path.join('.gsd', 'PREFERENCES.md')), JSON.stringify(result));
    assert.ok(messages.some((m) => /the review gate is installed \(\d files\)\. GSD runs it in auto mode/.test(m)), messages.join(' | '));
    assert.match(fs.readFileSync(prefs, 'utf8'), /# >>> gsd-review-loop post_unit_hooks/);
    assert.ok(fs.existsSync(path.join(gsdDir, 'extensions', 'gsd-review-loop-guard.js')));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // Taken out again with the CLI: PREFERENCES.md byte for byte as it was.
    const dist = path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist');
    const un = spawnSync(process.execPath, [path.join(dist, 'cli.js'), 'uninstall-hooks', '--host', 'gsd', '--root', path.dirname(gsdDir)], { encoding: 'utf8', env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } });
    assert.equal(un.status, 0, un.stderr);
    assert.deepEqual(fs.readFileSync(prefs), before);
    assert.equal(fs.existsSync(path.join(gsdDir, 'extensions', 'gsd-review-loop-guard.js')), false);
  });
});
