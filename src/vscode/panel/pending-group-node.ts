// The top-level "Pending actions" group: every pending action of the project, with its task.
import * as vscode from 'vscode';
import { PENDING_GROUP_CONTEXT } from './context-values';
import { pendingActionNodeId, pendingGroupNodeId } from './node-ids';
import { collapsible, md, PanelNode, type PanelContext } from './panel-node';
import { PendingActionNode } from './pending-action-node';

export class PendingGroupNode extends PanelNode {
  readonly id: string;
  constructor(private readonly panel: PanelContext) {
    super();
    this.id = pendingGroupNodeId(panel.handle.project.gsdDir);
  }
  treeItem(): vscode.TreeItem {
    const n = this.panel.snapshot().state.pendingActions.length;
    const item = new vscode.TreeItem(vscode.l10n.t('Pending actions'), collapsible(this.panel, n > 0, true));
    item.id = this.id;
    item.description = String(n);
    item.iconPath = new vscode.ThemeIcon('checklist', new vscode.ThemeColor('problemsWarningIcon.foreground'));
    item.tooltip = md(
      this.panel.snapshot().state.readOnly
        ? vscode.l10n.t('Known issues GSD recorded per task (`## Known Issues` of the task summaries), shown read-only: GSD decides what happens to them.')
        : vscode.l10n.t('Required follow-up from task summaries (`## Known Issues` → `Pending actions:`) and from reviews that hit the cycle cap. The latest completed task with pending actions sends its slice to **replan-slice**.'),
    );
    item.contextValue = PENDING_GROUP_CONTEXT;
    return item;
  }
  override children(): PanelNode[] {
    const gsdDir = this.panel.handle.project.gsdDir;
    return this.panel.snapshot().state.pendingActions.map((a, i) => {
      const id = pendingActionNodeId(gsdDir, a, i, 'all');
      return this.panel.nodes.node(id, () => new PendingActionNode(a, id, true), this).update(a);
    });
  }
}
