// The review panel's TreeDataProvider: nodes are cached by id (one object per unit for the life of
// the view), a state change refreshes only the nodes of the units that changed, and every refresh
// renders from one snapshot per project taken after the change.
import * as vscode from 'vscode';
import { markFirstChildren } from '../workspace/paint-timing';
import { OPEN_ONLY, rowsToOpen, type PanelView } from './first-unfold';
import { whenHostQuiet, type QuietHostOptions } from '../lifecycle/quiet-host';
import type { GsdWorkspace, NextUnitChange, ProjectChange, ProjectHandle } from '../workspace/gsd-workspace';
import { hookEventsNodeId, projectNodeId, unitNodeId } from './node-ids';
import { PanelNode, type NodeFactory, type PanelContext } from './panel-node';
import { ProjectNode, projectChildren } from './project-node';
import { ProjectSnapshots, type ProjectSnapshot } from './project-snapshot';
import { byProject, nextMarkIds, nodesOfRemovedUnits, refreshPlan } from './refresh-plan';
import { Owner } from '../lifecycle/owner';
import type { InFlightChange, UnitsInFlight } from '../dispatch/units-in-flight';

export interface PanelRefresh {
  /** True when the whole tree was refreshed. */
  full: boolean;
  ids: string[];
  at: number;
}

/**
 * VS Code's extension host merges the onDidChangeTreeData fires that come within 200 ms of each other
 * into one refresh, and runs its refreshes one after another (extHostTreeViews.ts: Event.debounce of
 * 200 ms, leading, and _refreshQueue). Fires further apart than this are refreshes of their own.
 */
const PROJECT_REFRESH_SPACING_MS = 250;

/**
 * After the panel's first top level, the time left to the workbench to draw it before the full read
 * starts, when its open rows were handed open (several projects, or no view to open them with):
 * VS Code draws the rows once it also has the children of the open ones (more round trips), and a
 * read running meanwhile takes the CPU it draws with (npm run bench:paint: with 300 ms the rows came
 * after the read, with 1,500 ms before it).
 */
const FIRST_LOOK_DRAW_MS = 1000;

/** After the first rows were opened (VS Code's reveal resolves once drawn), before the read starts. */
const OPENED_DRAW_MS = 100;

/** A host quiet this long has sent the reply with the first top level (see getChildren). */
const REPLY_SENT: QuietHostOptions = { probeMs: 15, slackMs: 10, probes: 2, capMs: 1000 };

/** The read starts this long after the first top level even if the rows are still being opened. */
const OPENING_CAP_MS = 4000;

export class ReviewPanelProvider extends Owner implements vscode.TreeDataProvider<PanelNode>, NodeFactory, vscode.Disposable {
  private readonly changed = this.own(new vscode.EventEmitter<PanelNode | PanelNode[] | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly refreshed = this.own(new vscode.EventEmitter<PanelRefresh>());
  /** For tests and the benchmark: what each refresh covered. */
  readonly onDidRefresh = this.refreshed.event;
  private readonly cache = new Map<string, PanelNode>();
  private readonly snapshots: ProjectSnapshots;
  private pendingGroups = new Map<string, boolean>();
  /** Refreshes asked for in this turn, told to VS Code once at its end (see requestRefresh()). */
  private toTell: { full: boolean; nodes: Set<PanelNode> } | null = null;
  /** Several projects: the nodes still to tell VS Code, one project per refresh (see refreshNextProject). */
  private projectQueue: Array<{ gsdDir: string | null; nodes: Set<PanelNode> }> = [];
  /** Cancels the pending spacing timer (set while projects' refreshes are spaced out). */
  private spacing: (() => void) | undefined;
  private firstLookGiven = false;
  /** The TreeView showing the panel (showIn). */
  private view: PanelView | undefined;
  /** The first top level is out with its rows closed and not opened yet (first-unfold.ts). */
  private isFolded = false;
  /** The projects the tree was last built for (a Refresh of the same projects keeps the nodes). */
  private shownProjects: readonly ProjectHandle[];

  constructor(
    private readonly workspace: GsdWorkspace,
    inFlight?: UnitsInFlight,
  ) {
    super();
    this.snapshots = new ProjectSnapshots(workspace);
    this.snapshots.retake();
    this.shownProjects = workspace.list();
    if (inFlight) this.own(inFlight.onDidChange((change) => this.refreshInFlight(change)));
    // The age said in an in-flight row's tooltip is read when the row is drawn again.
    if (inFlight) this.own(inFlight.onDidTick(() => this.refreshInFlightRows()));
    for (const d of [
      workspace.onDidChangeProjects(() => this.refreshAll()),
      workspace.onDidChangeState((change) => this.refreshUnits(change)),
      workspace.onDidChangeNextUnit((change) => this.refreshNext(change)),
      workspace.onDidLogHookEvent((handle) => {
        this.snapshots.retake(handle);
        const group = this.cache.get(hookEventsNodeId(handle.project.gsdDir));
        // The group appears with the first event: that changes the project's top level.
        this.requestRefresh(group ?? this.topLevelOf(handle));
        this.refreshed.fire({ full: !group, ids: group ? [group.id] : [], at: Date.now() });
      }),
    ])
      this.own(d);
  }

  /** The TreeView that shows this provider: its first top level is then handed closed and opened after (first-unfold.ts). */
  showIn(view: PanelView): void {
    this.view = view;
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

  private ctx(handle: ProjectHandle): PanelContext {
    return { handle, nodes: this, snapshot: () => this.snapshots.of(handle), underProjectRoot: this.workspace.list().length > 1, folded: () => this.isFolded };
  }

  /**
   * What to refresh when a project's top level changes (milestones, the pending actions group, the
   * hook events group): its root node when the panel shows several projects, else the whole tree.
   * A root alone is one batch of one in VS Code's fetching (see opening.ts), the whole tree is not.
   */
  private topLevelOf(handle: ProjectHandle): PanelNode | undefined {
    return this.workspace.list().length > 1 ? this.cache.get(projectNodeId(handle.project.gsdDir)) : undefined;
  }

  getTreeItem(node: PanelNode): vscode.TreeItem {
    return node.treeItem();
  }

  getChildren(node?: PanelNode): PanelNode[] {
    if (node) return node.children();
    const projects = this.workspace.list();
    for (const p of projects) this.pendingGroups.set(p.project.gsdDir, hasPendingGroup(this.snapshots.of(p)));
    // One project: its content at the top level. Several (multi-root): one root node per folder.
    const top = projects.length === 1 ? projectChildren(this.ctx(projects[0])) : projects.map((p) => this.node(projectNodeId(p.project.gsdDir), () => new ProjectNode(this.ctx(p))));
    markFirstChildren(top.length);
    // The workbench draws these rows (and opens the open ones) before the rest is read.
    if (!this.firstLookGiven) {
      this.firstLookGiven = true;
      // Several projects: one batch of roots, nothing under them opens by itself (opening.ts).
      if (projects.length === 1 && this.view?.visible) {
        this.isFolded = true;
        // The read starts once the rows are opened, not READ_WAIT_MS after activation: on a slow
        // workbench that came first, and the rows opened 2.6–6.4 s after activation, as the read
        // took the CPU (npm run bench:paint on VS Code 1.100.3).
        this.workspace.leaveReadingToView();
        this.after(OPENING_CAP_MS, () => this.workspace.startReading());
        // Opened once the reply with these rows has left: the extension host writes it on a timer
        // set when the request's promise chain ends, then compresses it off the thread and sends
        // it from a callback (ipc.net.ts). The opening's work (40–200 ms) run before that held the
        // rows back as long (npm run bench:paint, VS Code 1.100.3).
        whenHostQuiet(this, () => void this.unfold(), REPLY_SENT);
      } else this.after(FIRST_LOOK_DRAW_MS, () => this.workspace.startReading());
    }
    return top;
  }

  /** Opens the rows the first top level handed closed, one path at a time, then lets the read start. */
  private async unfold(): Promise<void> {
    this.isFolded = false;
    const view = this.view!;
    const opens = (n: PanelNode) => this.getTreeItem(n).collapsibleState === vscode.TreeItemCollapsibleState.Expanded;
    try {
      for (const node of rowsToOpen(this.getChildren(), opens, (n) => this.getChildren(n))) {
        // Hidden meanwhile: reveal would show the view again; its rows stay closed.
        if (this.disposed || !view.visible) break;
        await view.reveal(node, OPEN_ONLY);
      }
    } catch {
      // The tree changed under the reveal (VS Code ignores that too): the rows stay as they are.
    }
    this.after(OPENED_DRAW_MS, () => this.workspace.startReading());
  }

  getParent(node: PanelNode): PanelNode | undefined {
    return node.parent;
  }

  /** The node of a unit (creating the nodes on the way), for TreeView.reveal. */
  unitNode(handle: ProjectHandle, milestoneId: string, sliceId?: string, taskId?: string): PanelNode | undefined {
    const gsdDir = handle.project.gsdDir;
    const path = [unitNodeId(gsdDir, milestoneId)];
    if (sliceId) path.push(unitNodeId(gsdDir, `${milestoneId}/${sliceId}`));
    if (sliceId && taskId) path.push(unitNodeId(gsdDir, `${milestoneId}/${sliceId}/${taskId}`));
    let level = this.getChildren();
    if (this.workspace.list().length > 1) {
      const project = level.find((n) => n.id === projectNodeId(gsdDir));
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

  /**
   * Tells VS Code what to draw again, once per turn: several changes in a row (a state change, then
   * the next unit it moves) become one refresh. (The rows VS Code 1.139 drew under the wrong parent
   * in a multi-root panel came from its batched fetching, not from refreshes: see opening.ts.)
   * `undefined` is the whole tree.
   */
  private requestRefresh(node: PanelNode | PanelNode[] | undefined): void {
    if (!this.toTell) {
      this.toTell = { full: false, nodes: new Set() };
      this.after(0, () => {
        const t = this.toTell;
        this.toTell = null;
        if (!t) return;
        if (t.full) {
          this.projectQueue = [];
          this.changed.fire(undefined);
        } else if (t.nodes.size) this.refreshByProject([...t.nodes]);
      });
    }
    if (node === undefined) this.toTell.full = true;
    else for (const n of Array.isArray(node) ? node : [node]) this.toTell.nodes.add(n);
  }

  /**
   * One project: the nodes at once. Several: one refresh per project, in turn. VS Code fetches the
   * children a refresh opens in batches, and a batch mixing two projects' nodes can be answered
   * with the wrong one's (opening.ts); refreshes of their own never share a batch.
   */
  private refreshByProject(nodes: PanelNode[]): void {
    const handles = this.workspace.list();
    if (handles.length < 2) {
      this.changed.fire(nodes);
      return;
    }
    const byId = new Map(nodes.map((n) => [n.id, n]));
    for (const { gsdDir, ids } of byProject(byId.keys(), handles.map((h) => h.project.gsdDir))) {
      let queued = this.projectQueue.find((q) => q.gsdDir === gsdDir);
      if (!queued) this.projectQueue.push((queued = { gsdDir, nodes: new Set() }));
      for (const id of ids) queued.nodes.add(byId.get(id)!);
    }
    if (!this.spacing) this.refreshNextProject();
  }

  private refreshNextProject(): void {
    this.spacing = undefined;
    const next = this.projectQueue.shift();
    if (!next) return;
    this.changed.fire([...next.nodes]);
    this.spacing = this.after(PROJECT_REFRESH_SPACING_MS, () => this.refreshNextProject());
  }

  private refreshAll(): void {
    this.snapshots.retake();
    const handles = this.workspace.list();
    const same = handles.length === this.shownProjects.length && handles.every((h, i) => h === this.shownProjects[i]);
    this.shownProjects = handles;
    const roots = handles.map((h) => this.cache.get(projectNodeId(h.project.gsdDir)));
    if (same && handles.length > 1 && roots.every((r) => r !== undefined)) {
      // The same projects again (the Refresh command): each root, one refresh per project, rather
      // than the whole tree, whose roots VS Code would fetch in one batch.
      this.requestRefresh(roots as PanelNode[]);
      this.refreshed.fire({ full: true, ids: [], at: Date.now() });
      return;
    }
    this.cache.clear();
    this.requestRefresh(undefined);
    this.refreshed.fire({ full: true, ids: [], at: Date.now() });
  }

  private refreshUnits({ handle, changes }: ProjectChange): void {
    this.snapshots.retake(handle);
    const gsdDir = handle.project.gsdDir;
    // A unit gone from the state takes its nodes with it: kept, they would pile up for the life of
    // the view and be named in refreshes of elements VS Code no longer has.
    for (const id of nodesOfRemovedUnits(gsdDir, this.snapshots.of(handle).state, this.cache.keys())) this.cache.delete(id);
    const hasPending = hasPendingGroup(this.snapshots.of(handle));
    const plan = refreshPlan(gsdDir, changes, this.pendingGroups.get(gsdDir) !== hasPending, this.cache.keys());
    if (plan.full) {
      this.pendingGroups.set(gsdDir, hasPending);
      this.requestRefresh(this.topLevelOf(handle));
      this.refreshed.fire({ full: true, ids: [], at: Date.now() });
      return;
    }
    const nodes = plan.ids.map((id) => this.cache.get(id)).filter((n): n is PanelNode => n !== undefined);
    if (nodes.length) this.requestRefresh(nodes);
    this.refreshed.fire({ full: false, ids: nodes.map((n) => n.id), at: Date.now() });
  }

  /** The "next" mark moves with the unit GSD: Next Unit would dispatch: the old and new units' nodes. */
  private refreshNext({ handle, before, after }: NextUnitChange): void {
    this.snapshots.retake(handle);
    const nodes = nextMarkIds(handle.project.gsdDir, before, after).map((id) => this.cache.get(id)).filter((n): n is PanelNode => n !== undefined);
    // Not announced on onDidRefresh, which reports refreshes for file changes only.
    if (nodes.length) this.requestRefresh(nodes);
  }

  /** The unit in flight moved (dispatched, completed, cancelled): its old and new rows. */
  private refreshInFlight({ handle, before, after }: InFlightChange): void {
    this.snapshots.retake(handle);
    const nodes = nextMarkIds(handle.project.gsdDir, before?.unitId ?? null, after?.unitId ?? null)
      .map((id) => this.cache.get(id))
      .filter((n): n is PanelNode => n !== undefined);
    if (nodes.length) this.requestRefresh(nodes);
  }

  private refreshInFlightRows(): void {
    for (const handle of this.workspace.list()) {
      const flying = this.snapshots.of(handle).inFlight;
      const node = flying ? this.cache.get(nextMarkIds(handle.project.gsdDir, null, flying.unitId).at(-1)!) : undefined;
      if (node) this.requestRefresh(node);
    }
  }
}

/** Whether the project's top level shows the pending actions group (see projectChildren). */
function hasPendingGroup(s: ProjectSnapshot): boolean {
  return s.state.pendingActions.length > 0 && !s.reading;
}
