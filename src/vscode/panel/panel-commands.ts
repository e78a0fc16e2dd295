// Item actions of the review panel: Compare with previous cycle, Open review, Reveal in Explorer.
import * as vscode from 'vscode';
import { registerGuardedCommand } from '../lifecycle/guarded-command';
import { compareCycles } from '../reviews/review-diff';
import type { PanelNode } from './panel-node';
import { ReviewCycleNode } from './review-cycle-node';
import { TaskNode } from './task-node';
import { COMMANDS } from '../contributions/contribution-ids';

function fileOf(node: PanelNode | undefined): vscode.Uri | undefined {
  return node?.treeItem().resourceUri;
}

export function registerPanelCommands(log: vscode.LogOutputChannel): vscode.Disposable[] {
  return [
    registerGuardedCommand(log, COMMANDS.compareWithPreviousCycle, async (node?: ReviewCycleNode) => {
      const current = node?.review();
      const previous = node?.previous();
      if (!node || !current || !previous) {
        void vscode.window.showInformationMessage(vscode.l10n.t('GSD: pick a review cycle after the first one to compare it with the cycle before.'));
        return;
      }
      await compareCycles(node.task.taskId, previous, current);
    }),
    registerGuardedCommand(log, COMMANDS.openReview, async (node?: ReviewCycleNode | TaskNode) => {
      const review = node instanceof ReviewCycleNode ? node.review() : node instanceof TaskNode ? node.task()?.reviews.at(-1) : undefined;
      if (!review) {
        void vscode.window.showInformationMessage(vscode.l10n.t('GSD: this task has no review yet.'));
        return;
      }
      await vscode.window.showTextDocument(vscode.Uri.file(review.file), { preview: true });
    }),
    registerGuardedCommand(log, COMMANDS.revealInExplorer, async (node?: PanelNode) => {
      const uri = fileOf(node);
      if (uri) await vscode.commands.executeCommand('revealInExplorer', uri);
    }),
  ];
}
