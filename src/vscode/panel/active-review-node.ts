// The review cycle in progress (no review file yet): waiting for the reviewer, or fixing its issues.
import * as vscode from 'vscode';
import { REVIEW_LOOP, taskState } from '../../core/hooks/builtin/review-loop/review-loop-state';
import { ACTIVE_REVIEW_CONTEXT } from './context-values';
import { activeReviewNodeId } from './node-ids';
import { PanelNode, type TaskOwner } from './panel-node';

export class ActiveReviewNode extends PanelNode {
  readonly id: string;
  constructor(private readonly task: TaskOwner) {
    super();
    this.id = activeReviewNodeId(task.id);
  }
  treeItem(): vscode.TreeItem {
    const a = taskState(this.task.task()?.extensions[REVIEW_LOOP]).activeReview;
    const item = new vscode.TreeItem(a ? vscode.l10n.t('Review cycle {0}', a.cycle) : vscode.l10n.t('Review'), vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('sync', new vscode.ThemeColor('charts.orange'));
    item.description = a ? (a.status === 'fixing' ? vscode.l10n.t('fixing the open issues') : vscode.l10n.t('waiting for the review')) : '';
    item.contextValue = ACTIVE_REVIEW_CONTEXT;
    return item;
  }
}
