// The actions on a finding's thread: Mark resolved / Reopen tick or untick that issue's checkbox in
// its review file (atomic, that line only, refused under unsaved changes: the project's
// EditorAwareStore), and Add to pending actions carries it forward in the review loop's own state.
// The review loop then decides from the file, as it always does. Read-only projects have none.
import * as vscode from 'vscode';
import { UnsavedChangesError } from '../workspace/editor-aware-store';
import { carryFindingForward } from '../../core/reviews/carry-finding';
import { IssueMovedError, withIssueChecked } from '../../core/reviews/issue-checkbox';
import { COMMANDS } from '../contributions/contribution-ids';
import { registerGuardedCommand } from '../lifecycle/guarded-command';
import type { GsdWorkspace } from '../workspace/gsd-workspace';
import type { FindingThread, FindingThreads } from './finding-threads';

type Outcome = 'written' | 'refused';

function refuse(message: string): Outcome {
  void vscode.window.showWarningMessage(message);
  return 'refused';
}

function explained(error: unknown): string {
  if (error instanceof UnsavedChangesError || error instanceof IssueMovedError) return error.message;
  return `${(error as Error).message ?? String(error)}`;
}

export function registerFindingCommands(workspace: GsdWorkspace, threads: FindingThreads, log: vscode.LogOutputChannel): vscode.Disposable[] {
  const target = (thread: vscode.CommentThread | undefined): FindingThread | null => {
    const found = thread ? threads.findingOf(thread) : undefined;
    if (!found) {
      void vscode.window.showWarningMessage(vscode.l10n.t('GSD: this thread is not a review finding any more; the review changed.'));
      return null;
    }
    if (!threads.writable(found.handle) || found.finding.fromGsd || found.finding.reviewLine < 1) {
      void vscode.window.showInformationMessage(vscode.l10n.t('GSD: this project is read-only here; its review findings are shown, not changed.'));
      return null;
    }
    return found;
  };

  const setChecked = (thread: vscode.CommentThread | undefined, checked: boolean): Outcome => {
    const found = target(thread);
    if (!found) return 'refused';
    const { finding, handle } = found;
    const store = handle.engine.store;
    try {
      const text = store.readText(finding.reviewFile);
      if (text === null) return refuse(vscode.l10n.t('GSD: {0} is gone; nothing was changed.', finding.reviewFile));
      const next = withIssueChecked(text, { line: finding.reviewLine, text: finding.text }, checked);
      if (next === text) return 'written';
      if (store.writeIfUnchanged(finding.reviewFile, next, text) === 'conflict') {
        return refuse(vscode.l10n.t('GSD: the review changed while it was being written; nothing was changed. Try again.'));
      }
    } catch (error) {
      log.warn(`${checked ? 'mark resolved' : 'reopen'} ${finding.unitId} line ${finding.reviewLine}: ${explained(error)}`);
      return refuse(vscode.l10n.t('GSD: the review was not changed: {0}', explained(error)));
    }
    log.info(`${checked ? 'resolved' : 'reopened'} the issue on line ${finding.reviewLine} of ${finding.reviewFile}`);
    // The watcher brings the change in; reading it now shows the thread changed at once.
    workspace.wrote(handle, [finding.reviewFile]);
    return 'written';
  };

  return [
    registerGuardedCommand(log, COMMANDS.markFindingResolved, (thread?: vscode.CommentThread) => setChecked(thread, true)),
    registerGuardedCommand(log, COMMANDS.reopenFinding, (thread?: vscode.CommentThread) => setChecked(thread, false)),
    registerGuardedCommand(log, COMMANDS.addFindingToPendingActions, (thread?: vscode.CommentThread): Outcome => {
      const found = target(thread);
      if (!found) return 'refused';
      const { finding, handle } = found;
      let written: string[] | null;
      try {
        written = carryFindingForward(handle.engine, finding);
        if (!written) void vscode.window.showInformationMessage(vscode.l10n.t('GSD: this finding is already a pending action of {0}.', finding.taskId));
      } catch (error) {
        log.warn(`add to pending actions ${finding.unitId}: ${explained(error)}`);
        return refuse(vscode.l10n.t('GSD: the pending action was not added: {0}', explained(error)));
      }
      if (written) workspace.wrote(handle, written);
      return 'written';
    }),
  ];
}
