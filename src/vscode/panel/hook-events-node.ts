// The agent hooks' recent calls (time, event, what the bridge answered), newest first.
import * as vscode from 'vscode';
import { HOOK_EVENTS_CONTEXT } from './context-values';
import { HookEventNode } from './hook-event-node';
import { hookEventNodeId, hookEventsNodeId } from './node-ids';
import { md, PanelNode, type PanelContext } from './panel-node';

export class HookEventsNode extends PanelNode {
  readonly id: string;
  constructor(private readonly panel: PanelContext) {
    super();
    this.id = hookEventsNodeId(panel.handle.project.gsdDir);
  }
  treeItem(): vscode.TreeItem {
    const last = this.panel.snapshot().hookEvents[0];
    const item = new vscode.TreeItem(vscode.l10n.t('Recent hook events'), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('plug');
    item.description = last ? vscode.l10n.t('last: {0} {1}', last.event, new Date(last.at).toLocaleTimeString()) : '';
    item.tooltip = md(vscode.l10n.t('Calls of `gsd-review hook` by the agent (VS Code agent hooks or Claude Code hooks), newest first.'));
    item.contextValue = HOOK_EVENTS_CONTEXT;
    return item;
  }
  override children(): PanelNode[] {
    const gsdDir = this.panel.handle.project.gsdDir;
    return this.panel.snapshot().hookEvents.map((e, i) => this.panel.nodes.node(hookEventNodeId(gsdDir, i), () => new HookEventNode(hookEventNodeId(gsdDir, i)), this).update(e));
  }
}
