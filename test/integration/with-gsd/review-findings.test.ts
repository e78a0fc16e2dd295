// Review findings where the code is (issue 26) in the real workbench: the sample's T02 review
// (`src/rules-file.ts:57`) as a comment thread on that line, in the Problems panel with its quick
// fixes, following edits; and marked resolved from its thread, after which the review loop
// advances from the file. Expectations are the sample's facts and what the host shows.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GsdExtensionApi } from '../../../src/extension';
import { freshSample } from '../helpers/sample';
import { waitFor } from '../helpers/wait-for';
import { captureWorkbench, checkSeen } from '../helpers/workbench';
import { completeAnswering } from '../helpers/notifications';

const M2 = 'M002-k7q2xz';

describe('review findings as comment threads, Problems entries and thread actions', () => {
  let api: GsdExtensionApi;
  let root: string;
  let tasks: string;
  let rulesFile: string;
  const config = () => vscode.workspace.getConfiguration('gsdReviewLoop');
  const threads = () => api.findings.threads.threadsOf(rulesFile);
  const open = async (file: string) => vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file), { preview: false });

  before(async () => {
    api = await freshSample();
    root = api.workspace.list()[0].project.root;
    tasks = path.join(api.workspace.list()[0].project.gsdDir, 'milestones', M2, 'slices', 'S02', 'tasks');
    rulesFile = path.join(root, 'src', 'rules-file.ts');
    // Unsaved edits must stay unsaved here (newer workbenches may save after a delay).
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Workspace);
  });

  after(async () => {
    await config().update('dispatch.target', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('puts the open issue of T02\'s latest review on src/rules-file.ts line 57, with its severity, text, cycle and review', async function () {
    this.timeout(90_000);
    await open(rulesFile);
    await waitFor('the thread on rules-file.ts', () => threads().length === 1);
    const [{ thread }] = threads();
    assert.equal(thread.range?.start.line, 56);
    assert.equal(thread.state, vscode.CommentThreadState.Unresolved);
    assert.equal(thread.label, 'major · T02 cycle 1');
    // As the comment reads: markdown's escapes taken out.
    const body = (thread.comments[0].body as vscode.MarkdownString).value.replace(/\\(.)/g, '$1');
    assert.match(body, /The temporary file is written next to rules\.yaml but never fsynced before rename\./);
    assert.match(body, /T02-CODE-REVIEW-C1\.md, line 10/);
    assert.equal(thread.contextValue, 'gsdReviewLoop.finding.open.writable');
    await vscode.commands.executeCommand('revealLine', { lineNumber: 50, at: 'top' });
    const view = await captureWorkbench('thread-rules-file-57', ['never fsynced before rename', 'major · T02 cycle 1'], 45_000);
    checkSeen(view, (v) => assert.deepEqual(v.seen, { 'never fsynced before rename': true, 'major · T02 cycle 1': true }, v.screenshot));
  });

  it('keeps the thread on its line while the file is edited above it, and says the line may have moved', async () => {
    const editor = await open(rulesFile);
    await editor.edit((e) => e.insert(new vscode.Position(2, 0), '// one\n// two\n// three\n'));
    await waitFor('the thread to move down three lines', () => threads()[0]?.thread.range?.start.line === 59);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await waitFor('the thread to move back', () => threads()[0]?.thread.range?.start.line === 56);
  });

  it('lists the unit in flight\'s open issues in Problems (source "GSD review", code T02) with Show in review panel and Open review', async function () {
    this.timeout(60_000);
    const uri = vscode.Uri.file(rulesFile);
    await waitFor('the Problems entry', () => vscode.languages.getDiagnostics(uri).some((d) => d.source === 'GSD review'));
    const [d] = vscode.languages.getDiagnostics(uri).filter((x) => x.source === 'GSD review');
    assert.equal(d.code, 'T02');
    assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(d.range.start.line, 56);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, d.range, vscode.CodeActionKind.QuickFix.value);
    assert.deepEqual(actions.map((a) => a.title).filter((t) => t === 'Show in review panel' || t === 'Open review'), ['Show in review panel', 'Open review']);
    // The issue without a file in the sample (src/commands/rule.ts) is listed on its review file.
    const review = vscode.Uri.file(path.join(tasks, 'T02-CODE-REVIEW-C1.md'));
    assert.deepEqual(vscode.languages.getDiagnostics(review).filter((x) => x.source === 'GSD review').map((x) => x.range.start.line + 1), [11]);
    // Problems shows plain text: the review's code span reads as a quote, not as raw backticks.
    assert.deepEqual(vscode.languages.getDiagnostics(review).filter((x) => x.source === 'GSD review').map((x) => x.message), [
      'minor: "rule remove" of a missing pattern exits 0; it should say nothing matched and exit 1. (T02, review cycle 1)',
    ]);
    await config().update('reviewFindings.problems', 'off', vscode.ConfigurationTarget.Workspace);
    await waitFor('Problems to be emptied by the setting', () => !vscode.languages.getDiagnostics(uri).some((x) => x.source === 'GSD review'));
    await config().update('reviewFindings.problems', undefined, vscode.ConfigurationTarget.Workspace);
    await waitFor('the Problems entry back', () => vscode.languages.getDiagnostics(uri).some((x) => x.source === 'GSD review'));
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    const view = await captureWorkbench('problems-panel', ['never fsynced before rename', 'GSD review']);
    checkSeen(view, (v) => assert.deepEqual(v.seen, { 'never fsynced before rename': true, 'GSD review': true }, v.screenshot));
    await vscode.commands.executeCommand('workbench.action.closePanel');
  });

  it('keeps an issue whose file does not exist on its review file, with a note', async () => {
    const review = path.join(tasks, 'T02-CODE-REVIEW-C1.md');
    await open(review);
    await waitFor('the threads on the review file', () => api.findings.threads.threadsOf(review).length === 1);
    const [{ thread }] = api.findings.threads.threadsOf(review);
    assert.equal(thread.range?.start.line, 10);
    assert.match((thread.comments[0].body as vscode.MarkdownString).value.replace(/\\(.)/g, '$1'), /`src\/commands\/rule\.ts` does not exist/);
    // The review's code span is a code span in the comment (markdown as written, not escaped backticks shown raw).
    assert.match((thread.comments[0].body as vscode.MarkdownString).value, /(^|[^\\])`rule remove` of a missing pattern exits 0/);
  });

  it('refuses Mark resolved while the review has unsaved changes, and writes nothing', async () => {
    const review = path.join(tasks, 'T02-CODE-REVIEW-C1.md');
    const before = fs.readFileSync(review, 'utf8');
    const editor = await open(review);
    await editor.edit((e) => e.insert(new vscode.Position(editor.document.lineCount - 1, 0), 'typed, not saved\n'));
    await open(rulesFile);
    const outcome = await vscode.commands.executeCommand('gsdReviewLoop.markFindingResolved', threads()[0].thread);
    assert.equal(outcome, 'refused');
    assert.equal(fs.readFileSync(review, 'utf8'), before);
    await open(review);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('after a fix cycle shows the new review only, and Mark resolved from the thread ticks that line; the loop then passes the task', async function () {
    this.timeout(120_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await config().update('dispatch.target', 'editor', vscode.ConfigurationTarget.Workspace);
    // The fix of cycle 2 is dispatched and done; the reviewer's cycle-2 review keeps the fsync issue open.
    const hooks = path.join(tasks, 'T02-HOOKS.md');
    await vscode.commands.executeCommand('gsdReviewLoop.nextUnit');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('gsdReviewLoop.completeUnit');
    await waitFor('the fix to be recorded', () => /status: pending_review/.test(fs.readFileSync(hooks, 'utf8')));
    const live = path.join(tasks, 'T02-CODE-REVIEW.md');
    const review2 = `---\ntask: T02\ncycle: 2\nverdict: approved\n---\n# Code review: T02 (cycle 2)\n\n## Issues\n\n- [ ] **major** \`src/rules-file.ts:57\` The temporary file is still not fsynced before the rename.\n- [x] **minor** \`src/commands/rule.ts:22\` exit 1 when nothing matched\n\n## Notes\n\nOne left.\n`;
    fs.writeFileSync(live, review2);
    await open(rulesFile);
    await waitFor('the cycle-2 thread', () => threads().length === 1 && threads()[0].finding.cycle === 2);
    // One thread on the line: cycle 1's was disposed, not kept beside it.
    assert.equal(threads()[0].thread.label, 'major · T02 cycle 2');

    const outcome = await vscode.commands.executeCommand('gsdReviewLoop.markFindingResolved', threads()[0].thread);
    assert.equal(outcome, 'written');
    const after = fs.readFileSync(live, 'utf8');
    assert.equal(after, review2.replace('- [ ] **major**', '- [x] **major**'), 'only the checkbox of that line changed');
    await waitFor('the thread to show resolved', () => threads()[0]?.thread.state === vscode.CommentThreadState.Resolved);
    assert.equal(threads()[0].thread.collapsibleState, vscode.CommentThreadCollapsibleState.Collapsed);
    assert.equal(threads()[0].thread.contextValue, 'gsdReviewLoop.finding.resolved.writable');
    // Expanded for the screenshot: a resolved thread starts collapsed.
    threads()[0].thread.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
    await vscode.commands.executeCommand('revealLine', { lineNumber: 50, at: 'top' });
    const view = await captureWorkbench('thread-resolved-after-fix-cycle', ['still not fsynced before the rename']);
    checkSeen(view, (v) => assert.deepEqual(v.seen, { 'still not fsynced before the rename': true }, v.screenshot));

    // The loop reviews cycle 2 and decides from the file: no open issue left, the task passes.
    await api.statusBar.update();
    // The unit Next Unit dispatches now has the play icon (docs/using-the-panel.md, "The status bar").
    assert.equal(api.statusBar.text, '$(play-circle) GSD: review-task T02');
    await vscode.commands.executeCommand('gsdReviewLoop.nextUnit');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // The review file was ticked before this dispatch, so Complete asks first (its signal, a review
    // written after the dispatch, is missing): answered as a user would, Complete Anyway.
    await completeAnswering('Complete Anyway', 'complete-anyway-after-fix-cycle');
    await waitFor('T02 to pass review', () => /passed: true/.test(fs.readFileSync(hooks, 'utf8')));
    assert.match(fs.readFileSync(hooks, 'utf8'), /outcome:\s*\n\s+cycles: 2\s*\n\s+passed: true/);
    await api.statusBar.update();
    // The status bar has moved on from T02's review.
    assert.doesNotMatch(api.statusBar.text, /T02/);
    // No open issue of T02 is left in Problems.
    assert.ok(!vscode.languages.getDiagnostics(vscode.Uri.file(rulesFile)).some((d) => d.source === 'GSD review' && d.code === 'T02'));
  });
});
