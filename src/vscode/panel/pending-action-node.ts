// One pending action: its text, where it comes from, and a click that opens the summary at its line.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PendingAction } from '../../core/model/types';
import { PENDING_ACTION_CONTEXT } from './context-values';
import { md, openAt, PanelNode } from './panel-node';
import { markdownText, plainText } from './project-text';
import { pendingSourceLabel } from '../successor/successor-panel';

export class PendingActionNode extends PanelNode {
  constructor(
    private action: PendingAction,
    readonly id: string,
    /** In the top-level group the task is named; under its task it is not. */
    private readonly showTask: boolean,
  ) {
    super();
  }
  /** The node object is kept across refreshes; its action text may have changed. */
  update(action: PendingAction): this {
    this.action = action;
    return this;
  }
  treeItem(): vscode.TreeItem {
    const a = this.action;
    // A row is plain text: its code spans read as quotes; the tooltip renders them as code.
    const item = new vscode.TreeItem(plainText(a.text), vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('circle-small-filled', new vscode.ThemeColor('problemsWarningIcon.foreground'));
    item.description = this.showTask ? `${a.milestoneId}/${a.sliceId}/${a.taskId}` : a.source === 'summary' ? '' : vscode.l10n.t('from {0}', pendingSourceLabel(a));
    item.tooltip = md(`${vscode.l10n.t('**Pending action** of {0} ({1})', a.taskId, pendingSourceLabel(a))}\n\n${markdownText(a.text)}\n\n${path.basename(a.file)}:${a.line}`);
    item.command = openAt(a.file, a.line);
    item.contextValue = PENDING_ACTION_CONTEXT;
    item.resourceUri = vscode.Uri.file(a.file);
    return item;
  }
}
