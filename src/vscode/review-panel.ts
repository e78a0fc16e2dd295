// The review panel: a tree of GSD projects → milestones → slices → tasks, built from core state.
// Each kind of node is one small class with its own TreeItem; ids are stable across refreshes.
import * as vscode from 'vscode';
import type { MilestoneEntry, SliceEntry, TaskEntry } from '../core/types';
import type { GsdWorkspace, ProjectHandle } from './gsd-workspace';

export interface PanelNode {
  treeItem(): vscode.TreeItem;
  children(): PanelNode[];
}

const STATUS_ICONS: Record<string, [string, string?]> = {
  done: ['pass-filled', 'testing.iconPassed'],
  complete: ['pass-filled', 'testing.iconPassed'],
  active: ['play-circle', 'charts.blue'],
  pending: ['circle-large-outline'],
  blocked: ['circle-slash', 'problemsWarningIcon.foreground'],
  replanning: ['sync', 'problemsWarningIcon.foreground'],
  parked: ['debug-pause'],
};

function statusIcon(status: string): vscode.ThemeIcon {
  const [id, color] = STATUS_ICONS[status] ?? ['circle-large-outline'];
  return new vscode.ThemeIcon(id, color ? new vscode.ThemeColor(color) : undefined);
}

function openCommand(file: string | undefined): vscode.Command | undefined {
  return file ? { command: 'vscode.open', title: 'Open', arguments: [vscode.Uri.file(file)] } : undefined;
}

class TaskNode implements PanelNode {
  constructor(
    private readonly parentId: string,
    private readonly task: TaskEntry,
  ) {}

  treeItem(): vscode.TreeItem {
    const t = this.task;
    const item = new vscode.TreeItem(`${t.id}: ${t.title}`, vscode.TreeItemCollapsibleState.None);
    item.id = `${this.parentId}/${t.id}`;
    item.iconPath = statusIcon(t.status);
    item.description = [t.estimate, t.reviews.length ? `${t.reviews.length} review${t.reviews.length > 1 ? 's' : ''}` : '', t.pendingActions.length ? `${t.pendingActions.length} pending` : '']
      .filter(Boolean)
      .join(' · ');
    item.contextValue = `gsd.task.${t.status}`;
    item.command = openCommand(t.summaryFile ?? t.planFile);
    return item;
  }

  children(): PanelNode[] {
    return [];
  }
}

class SliceNode implements PanelNode {
  constructor(
    private readonly parentId: string,
    private readonly slice: SliceEntry,
  ) {}

  private get id(): string {
    return `${this.parentId}/${this.slice.id}`;
  }

  treeItem(): vscode.TreeItem {
    const s = this.slice;
    const state = s.status === 'active' || s.status === 'replanning' ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
    const item = new vscode.TreeItem(`${s.id}: ${s.title}`, s.tasks.length ? state : vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = statusIcon(s.status);
    item.description = s.tasks.length ? `${s.progress.done}/${s.progress.total}` : s.status === 'done' ? '' : 'not planned';
    item.contextValue = `gsd.slice.${s.status}`;
    item.command = openCommand(s.planFile);
    return item;
  }

  children(): PanelNode[] {
    return this.slice.tasks.map((t) => new TaskNode(this.id, t));
  }
}

class MilestoneNode implements PanelNode {
  constructor(
    private readonly parentId: string,
    private readonly milestone: MilestoneEntry,
  ) {}

  private get id(): string {
    return `${this.parentId}/${this.milestone.id}`;
  }

  treeItem(): vscode.TreeItem {
    const m = this.milestone;
    const expanded = m.status === 'active' ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
    const item = new vscode.TreeItem(`${m.id}: ${m.title}`, m.slices.length ? expanded : vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = statusIcon(m.status);
    item.description = m.slices.length ? `${m.progress.done}/${m.progress.total} slices` : m.status;
    item.contextValue = `gsd.milestone.${m.status}`;
    item.command = openCommand(m.roadmapFile);
    return item;
  }

  children(): PanelNode[] {
    return this.milestone.slices.map((s) => new SliceNode(this.id, s));
  }
}

class ProjectNode implements PanelNode {
  constructor(
    private readonly workspace: GsdWorkspace,
    private readonly handle: ProjectHandle,
  ) {}

  treeItem(): vscode.TreeItem {
    const state = this.workspace.state(this.handle);
    const item = new vscode.TreeItem(this.handle.folder.name, vscode.TreeItemCollapsibleState.Expanded);
    item.id = `gsd:${this.handle.project.gsdDir}`;
    item.iconPath = new vscode.ThemeIcon('root-folder');
    item.description = `${state.phase}${state.activeTask ? ` · ${state.activeTask.id}` : ''}`;
    item.tooltip = new vscode.MarkdownString(`**${state.phase}**\n\n${state.nextAction}`);
    item.contextValue = 'gsd.project';
    return item;
  }

  children(): PanelNode[] {
    const state = this.workspace.state(this.handle);
    return state.milestones.map((m) => new MilestoneNode(`gsd:${this.handle.project.gsdDir}`, m));
  }
}

export class ReviewPanelProvider implements vscode.TreeDataProvider<PanelNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<PanelNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly workspace: GsdWorkspace) {
    this.subscription = workspace.onDidChange(() => this.changed.fire(undefined));
  }

  getTreeItem(node: PanelNode): vscode.TreeItem {
    return node.treeItem();
  }

  getChildren(node?: PanelNode): PanelNode[] {
    if (node) return node.children();
    const projects = this.workspace.list().map((p) => new ProjectNode(this.workspace, p));
    // One project: show its milestones at the top level; several: one root per folder.
    return projects.length === 1 ? projects[0].children() : projects;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
