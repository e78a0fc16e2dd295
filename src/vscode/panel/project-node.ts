// A project's root node (shown only when the workspace has several GSD projects) and the top level
// of a project: its pending actions group, its milestones, its recent hook events.
import * as vscode from 'vscode';
import { PROJECT_CONTEXT } from './context-values';
import { HookEventsNode } from './hook-events-node';
import { MilestoneNode } from './milestone-node';
import { hookEventsNodeId, pendingGroupNodeId, projectNodeId, successorHeaderNodeId, unitNodeId } from './node-ids';
import { md, PanelNode, type PanelContext } from './panel-node';
import { PendingGroupNode } from './pending-group-node';
import { SuccessorHeaderNode } from './successor-header-node';

export class ProjectNode extends PanelNode {
  readonly id: string;
  constructor(private readonly panel: PanelContext) {
    super();
    this.id = projectNodeId(panel.handle.project.gsdDir);
  }
  treeItem(): vscode.TreeItem {
    const { state: s, next } = this.panel.snapshot();
    const item = new vscode.TreeItem(this.panel.handle.folder.name, vscode.TreeItemCollapsibleState.Expanded);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('root-folder');
    item.description = next ? vscode.l10n.t('next: {0} {1} · {2}', next.unitType, next.unitId.split('/').pop() ?? '', s.phase) : s.phase;
    item.tooltip = md(`**${this.panel.handle.project.root}**\n\n${vscode.l10n.t('Phase `{0}`. {1}', s.phase, s.nextAction)}`);
    item.contextValue = PROJECT_CONTEXT;
    item.resourceUri = vscode.Uri.file(this.panel.handle.project.gsdDir);
    return item;
  }
  override children(): PanelNode[] {
    return projectChildren(this.panel, this);
  }
}

/**
 * A project's top level: the pending actions group (when there are any), then its milestones. While
 * the project is read the group waits: its count would be the active slice's alone.
 */
export function projectChildren(panel: PanelContext, parent?: PanelNode): PanelNode[] {
  const { state: s, hookEvents, reading } = panel.snapshot();
  const gsdDir = panel.handle.project.gsdDir;
  const out: PanelNode[] = [];
  if (s.readOnly) out.push(panel.nodes.node(successorHeaderNodeId(gsdDir), () => new SuccessorHeaderNode(panel), parent));
  if (s.pendingActions.length && !reading) out.push(panel.nodes.node(pendingGroupNodeId(gsdDir), () => new PendingGroupNode(panel), parent));
  for (const m of s.milestones) out.push(panel.nodes.node(unitNodeId(gsdDir, m.id), () => new MilestoneNode(panel, m.id), parent));
  if (hookEvents.length) out.push(panel.nodes.node(hookEventsNodeId(gsdDir), () => new HookEventsNode(panel), parent));
  return out;
}
