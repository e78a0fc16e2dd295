// The one row under a slice opened while the project is still being read: its tasks come with the
// read (the slice's row then refreshes), and an opened row with nothing under it looked empty.
import * as vscode from 'vscode';
import { PanelNode } from './panel-node';

export class ReadingTasksNode extends PanelNode {
  constructor(readonly id: string) {
    super();
  }
  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Reading its tasks…'), vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('loading~spin');
    return item;
  }
}
