// What every review panel node shares: the base class, the context it renders from, and the small
// helpers of its tree items (status icons, markdown tooltips, open-file commands, the "next" mark).
import * as vscode from 'vscode';
import type { ProjectHandle } from '../workspace/gsd-workspace';
import type { TaskEntry } from '../../core/model/types';
import { opening, type Opening } from './opening';
import type { ProjectSnapshot } from './project-snapshot';

export interface NodeFactory {
  /** The cached node for `id` (made once), with its parent recorded for TreeView.reveal. */
  node<T extends PanelNode>(id: string, make: () => T, parent?: PanelNode): T;
}

/**
 * A node holds only ids and looks its data up in the project's snapshot, so the same node object
 * (and TreeItem.id) survives every refresh and a refresh of one node is enough when only its unit changed.
 */
export abstract class PanelNode {
  abstract readonly id: string;
  parent: PanelNode | undefined;
  abstract treeItem(): vscode.TreeItem;
  children(): PanelNode[] {
    return [];
  }
}

/** What a task's child nodes (review cycles, the active review) read of their task's node. */
export interface TaskOwner {
  readonly id: string;
  readonly taskId: string;
  task(): TaskEntry | null;
}

export interface PanelContext {
  handle: ProjectHandle;
  nodes: NodeFactory;
  /** This refresh's snapshot of the project. */
  snapshot(): ProjectSnapshot;
  /** The panel shows several projects, this one under its own root node. */
  underProjectRoot: boolean;
  /** The first top level is handed with every row closed, until it is opened (first-unfold.ts). */
  folded(): boolean;
}

const COLLAPSIBLE: Record<Opening, vscode.TreeItemCollapsibleState> = {
  none: vscode.TreeItemCollapsibleState.None,
  collapsed: vscode.TreeItemCollapsibleState.Collapsed,
  expanded: vscode.TreeItemCollapsibleState.Expanded,
};

/** How a node opens (see opening.ts: VS Code's batched fetching decides what may open by itself). */
export function collapsible(panel: PanelContext, hasChildren: boolean, wantsOpen: boolean): vscode.TreeItemCollapsibleState {
  return COLLAPSIBLE[opening(hasChildren, wantsOpen && !panel.folded(), panel.underProjectRoot)];
}

const ICONS: Record<string, [string, string?]> = {
  done: ['pass-filled', 'testing.iconPassed'],
  complete: ['pass-filled', 'testing.iconPassed'],
  // Not the play icon: that one marks the unit Next Unit dispatches (and the status bar names), which
  // may be another than GSD's active task; telling them apart by colour alone was not enough.
  active: ['target', 'charts.blue'],
  pending: ['circle-large-outline'],
  blocked: ['circle-slash', 'problemsWarningIcon.foreground'],
  replanning: ['sync', 'problemsWarningIcon.foreground'],
  parked: ['debug-pause'],
};

export function statusIcon(status: string): vscode.ThemeIcon {
  const [id, color] = ICONS[status] ?? ['circle-large-outline'];
  return new vscode.ThemeIcon(id, color ? new vscode.ThemeColor(color) : undefined);
}

export function openAt(file: string, line?: number): vscode.Command {
  const args: unknown[] = [vscode.Uri.file(file)];
  if (line) args.push({ selection: new vscode.Range(line - 1, 0, line - 1, 0) } satisfies vscode.TextDocumentShowOptions);
  return { command: 'vscode.open', title: vscode.l10n.t('Open'), arguments: args };
}

export function md(text: string): vscode.MarkdownString {
  const m = new vscode.MarkdownString(text);
  m.supportThemeIcons = true;
  return m;
}

/** Text taken from the project's files (a title, an issue) in a tooltip: its code spans as code, the rest as written. */
export { markdownText as esc } from './project-text';

/** A slice or milestone that is the next unit: "next" in its label, after the id. */
export function markNext(item: vscode.TreeItem, panel: PanelContext, unitId: string, id: string): void {
  const next = panel.snapshot().next;
  if (next?.unitId !== unitId) return;
  item.label = `${id} · ${vscode.l10n.t('next')}`;
  item.tooltip = md(`${typeof item.tooltip === 'object' ? (item.tooltip as vscode.MarkdownString).value : ''}\n\n${vscode.l10n.t('**Next unit:** `{0}` (decided by {1}): what GSD: Next Unit dispatches now.', next.unitType, next.source)}`);
}
