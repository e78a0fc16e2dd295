// The review panel's TreeDataProvider: nodes are cached by id (one object per unit for the life of
// the view), and a state change refreshes only the nodes of the units that changed.
import * as vscode from 'vscode';
import type { GsdWorkspace, NextUnitChange, ProjectChange, ProjectHandle } from './gsd-workspace';
import { PanelNode, ProjectNode, projectChildren, type NodeFactory } from './panel-nodes';

export interface PanelRefresh {
  /** True when the whole tree was refreshed. */
  full: boolean;
  ids: string[];
  at: number;
}

export class ReviewPanelProvider implements vscode.TreeDataProvider<PanelNode>, NodeFactory, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<PanelNode | PanelNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly refreshed = new vscode.EventEmitter<PanelRefresh>();
  /** For tests and the benchmark: what each refresh covered. */
  readonly onDidRefresh = this.refreshed.event;
  private readonly cache = new Map<string, PanelNode>();
  private readonly subscriptions: vscode.Disposable[];
  private pendingGroups = new Map<string, boolean>();

  constructor(private readonly workspace: GsdWorkspace) {
    this.subscriptions = [
      workspace.onDidChangeProjects(() => this.refreshAll()),
      workspace.onDidChangeState((change) => this.refreshUnits(change)),
      workspace.onDidChangeNextUnit((change) => this.refreshNext(change)),
      workspace.onDidLogHookEvent((handle) => {
        const group = this.cache.get(`gsd:${handle.project.gsdDir}#hooks`);
        // The group appears with the first event: that changes the top level.
        this.changed.fire(group ?? undefined);
        this.refreshed.fire({ full: !group, ids: group ? [group.id] : [], at: Date.now() });
      }),
      this.changed,
      this.refreshed,
    ];
  }

  node<T extends PanelNode>(id: string, make: () => T, parent?: PanelNode): T {
    let n = this.cache.get(id) as T | undefined;
    if (!n) {
      n = make();
      this.cache.set(id, n);
    }
    n.parent = parent;
    return n;
  }

  /** A cached node by id (tests, reveal). */
  find(id: string): PanelNode | undefined {
    return this.cache.get(id);
  }

  private ctx(handle: ProjectHandle) {
    return { workspace: this.workspace, handle, nodes: this as NodeFactory };
  }

  getTreeItem(node: PanelNode): vscode.TreeItem {
    return node.treeItem();
  }

  getChildren(node?: PanelNode): PanelNode[] {
    if (node) return node.children();
    const projects = this.workspace.list();
    for (const p of projects) this.pendingGroups.set(p.project.gsdDir, this.workspace.state(p).pendingActions.length > 0);
    // One project: its content at the top level. Several (multi-root): one root node per folder.
    if (projects.length === 1) return projectChildren(this.ctx(projects[0]));
    return projects.map((p) => this.node(`gsd:${p.project.gsdDir}`, () => new ProjectNode(this.ctx(p))));
  }

  getParent(node: PanelNode): PanelNode | undefined {
    return node.parent;
  }

  /** The node of a unit (creating the nodes on the way), for TreeView.reveal. */
  unitNode(handle: ProjectHandle, milestoneId: string, sliceId?: string, taskId?: string): PanelNode | undefined {
    const base = `gsd:${handle.project.gsdDir}`;
    const path = [`${base}/${milestoneId}`];
    if (sliceId) path.push(`${path[0]}/${sliceId}`);
    if (sliceId && taskId) path.push(`${path[1]}/${taskId}`);
    let level = this.getChildren();
    if (this.workspace.list().length > 1) {
      const project = level.find((n) => n.id === base);
      level = project ? this.getChildren(project) : [];
    }
    let found: PanelNode | undefined;
    for (const id of path) {
      found = level.find((n) => n.id === id);
      if (!found) return undefined;
      level = this.getChildren(found);
    }
    return found;
  }

  private refreshAll(): void {
    this.cache.clear();
    this.changed.fire(undefined);
    this.refreshed.fire({ full: true, ids: [], at: Date.now() });
  }

  private refreshUnits({ handle, changes }: ProjectChange): void {
    const root = `gsd:${handle.project.gsdDir}`;
    const hasPending = this.workspace.state(handle).pendingActions.length > 0;
    const groupToggled = this.pendingGroups.get(handle.project.gsdDir) !== hasPending;
    if (changes.structure || groupToggled) {
      this.pendingGroups.set(handle.project.gsdDir, hasPending);
      this.changed.fire(undefined);
      this.refreshed.fire({ full: true, ids: [], at: Date.now() });
      return;
    }
    const ids = new Set<string>();
    for (const m of changes.milestones) ids.add(`${root}/${m}`);
    for (const s of changes.slices) {
      ids.add(`${root}/${s}`);
      // A slice's task nodes are children; their items change with it.
      for (const key of this.cache.keys()) if (key.startsWith(`${root}/${s}/`)) ids.add(key);
    }
    if (changes.project) {
      ids.add(root);
      ids.add(`${root}#pending`);
    }
    const nodes = [...ids].map((id) => this.cache.get(id)).filter((n): n is PanelNode => n !== undefined);
    if (nodes.length) this.changed.fire(nodes);
    this.refreshed.fire({ full: false, ids: nodes.map((n) => n.id), at: Date.now() });
  }

  /** The "next" mark moves with the unit GSD: Next Unit would dispatch: the old and new units' nodes. */
  private refreshNext({ handle, before, after }: NextUnitChange): void {
    const root = `gsd:${handle.project.gsdDir}`;
    const ids = [root, ...[before, after].filter((u): u is string => u !== null).map((u) => `${root}/${u}`)];
    const nodes = [...new Set(ids)].map((id) => this.cache.get(id)).filter((n): n is PanelNode => n !== undefined);
    // Not announced on onDidRefresh, which reports refreshes for file changes only.
    if (nodes.length) this.changed.fire(nodes);
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
  }
}
