// The review panel's nodes. Each kind is one small class; a node holds only ids and looks its data
// up in the current state, so the same node object (and TreeItem.id) survives every refresh and a
// refresh of one node is enough when only its unit changed.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readHookLog, type HookLogEntry } from '../core/agent-hooks/hook-log';
import { findUnit } from '../core/model/find-unit';
import { REVIEW_LOOP, taskState } from '../core/hooks/builtin/review-loop/review-loop-state';
import type { GSDState, MilestoneEntry, PendingAction, ReviewCycle, SliceEntry, TaskEntry } from '../core/model/types';
import type { GsdWorkspace, ProjectHandle } from './gsd-workspace';
import { gsdReviewInDatabase, gsdReviewLabel, pendingSourceLabel, successorHeaderItem } from './successor-panel';
import { presentTask, type NextUnitRef } from './task-presentation';

export interface NodeFactory {
  /** The cached node for `id` (made once), with its parent recorded for TreeView.reveal. */
  node<T extends PanelNode>(id: string, make: () => T, parent?: PanelNode): T;
}

export abstract class PanelNode {
  abstract readonly id: string;
  parent: PanelNode | undefined;
  abstract treeItem(): vscode.TreeItem;
  children(): PanelNode[] {
    return [];
  }
}

interface Ctx {
  workspace: GsdWorkspace;
  handle: ProjectHandle;
  nodes: NodeFactory;
}

const ICONS: Record<string, [string, string?]> = {
  done: ['pass-filled', 'testing.iconPassed'],
  complete: ['pass-filled', 'testing.iconPassed'],
  active: ['play-circle', 'charts.blue'],
  pending: ['circle-large-outline'],
  blocked: ['circle-slash', 'problemsWarningIcon.foreground'],
  replanning: ['sync', 'problemsWarningIcon.foreground'],
  parked: ['debug-pause'],
};

function icon(status: string): vscode.ThemeIcon {
  const [id, color] = ICONS[status] ?? ['circle-large-outline'];
  return new vscode.ThemeIcon(id, color ? new vscode.ThemeColor(color) : undefined);
}

export function openAt(file: string, line?: number): vscode.Command {
  const args: unknown[] = [vscode.Uri.file(file)];
  if (line) args.push({ selection: new vscode.Range(line - 1, 0, line - 1, 0) } satisfies vscode.TextDocumentShowOptions);
  return { command: 'vscode.open', title: vscode.l10n.t('Open'), arguments: args };
}

function md(text: string): vscode.MarkdownString {
  const m = new vscode.MarkdownString(text);
  m.supportThemeIcons = true;
  return m;
}

const base = (handle: ProjectHandle) => `gsd:${handle.project.gsdDir}`;

function stateOf(c: Ctx): GSDState {
  return c.workspace.state(c.handle);
}

/** The unit GSD: Next Unit would dispatch (hooks included), as the status bar shows it. */
function nextDecision(c: Ctx): NextUnitRef | null {
  return c.workspace.nextUnit(c.handle)?.decision ?? null;
}

/** A slice or milestone that is the next unit: "next" in its label, before the title. */
function markNext(item: vscode.TreeItem, c: Ctx, unitId: string, id: string, title: string): void {
  const next = nextDecision(c);
  if (next?.unitId !== unitId) return;
  item.label = `${id} · ${vscode.l10n.t('next')}`;
  item.description = [title, typeof item.description === 'string' ? item.description : ''].filter(Boolean).join(' · ');
  item.tooltip = md(`${typeof item.tooltip === 'object' ? (item.tooltip as vscode.MarkdownString).value : ''}\n\n${vscode.l10n.t('**Next unit:** `{0}` (decided by {1}): what GSD: Next Unit dispatches now.', next.unitType, next.source)}`);
}

function findMilestone(c: Ctx, mid: string): MilestoneEntry | null {
  return findUnit(stateOf(c), mid).milestone;
}
function findSlice(c: Ctx, mid: string, sid: string): SliceEntry | null {
  return findUnit(stateOf(c), mid, sid).slice;
}
function findTask(c: Ctx, mid: string, sid: string, tid: string): TaskEntry | null {
  return findUnit(stateOf(c), mid, sid, tid).task;
}

export class ProjectNode extends PanelNode {
  readonly id: string;
  constructor(private readonly c: Ctx) {
    super();
    this.id = base(c.handle);
  }
  treeItem(): vscode.TreeItem {
    const s = stateOf(this.c);
    const item = new vscode.TreeItem(this.c.handle.folder.name, vscode.TreeItemCollapsibleState.Expanded);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('root-folder');
    const next = nextDecision(this.c);
    item.description = next ? vscode.l10n.t('next: {0} {1} · {2}', next.unitType, next.unitId.split('/').pop() ?? '', s.phase) : s.phase;
    item.tooltip = md(`**${this.c.handle.project.root}**\n\n${vscode.l10n.t('Phase `{0}`. {1}', s.phase, s.nextAction)}`);
    item.contextValue = 'gsd.project';
    item.resourceUri = vscode.Uri.file(this.c.handle.project.gsdDir);
    return item;
  }
  override children(): PanelNode[] {
    return projectChildren(this.c, this);
  }
}

/** A project's top level: the pending actions group (when there are any), then its milestones. */
export function projectChildren(c: Ctx, parent?: PanelNode): PanelNode[] {
  const s = stateOf(c);
  const out: PanelNode[] = [];
  if (c.workspace.isReadOnly(c.handle)) out.push(c.nodes.node(`${base(c.handle)}#successor`, () => new SuccessorHeaderNode(c), parent));
  if (s.pendingActions.length) out.push(c.nodes.node(`${base(c.handle)}#pending`, () => new PendingGroupNode(c), parent));
  for (const m of s.milestones) out.push(c.nodes.node(`${base(c.handle)}/${m.id}`, () => new MilestoneNode(c, m.id), parent));
  if (readHookLog(c.handle.project.gsdDir, 1).length) out.push(c.nodes.node(`${base(c.handle)}#hooks`, () => new HookEventsNode(c), parent));
  return out;
}

/** A successor project's header: what it is, read-only, and where its state came from. */
export class SuccessorHeaderNode extends PanelNode {
  readonly id: string;
  constructor(private readonly c: Ctx) {
    super();
    this.id = `${base(c.handle)}#successor`;
  }
  treeItem(): vscode.TreeItem {
    return successorHeaderItem(this.id, stateOf(this.c));
  }
}

/** The agent hooks' recent calls (time, event, what the bridge answered). */
export class HookEventsNode extends PanelNode {
  readonly id: string;
  constructor(private readonly c: Ctx) {
    super();
    this.id = `${base(c.handle)}#hooks`;
  }
  treeItem(): vscode.TreeItem {
    const last = readHookLog(this.c.handle.project.gsdDir, 1)[0];
    const item = new vscode.TreeItem(vscode.l10n.t('Recent hook events'), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('plug');
    item.description = last ? vscode.l10n.t('last: {0} {1}', last.event, new Date(last.at).toLocaleTimeString()) : '';
    item.tooltip = md(vscode.l10n.t('Calls of `gsd-review hook` by the agent (VS Code agent hooks or Claude Code hooks), newest first.'));
    item.contextValue = 'gsd.hookEvents';
    return item;
  }
  override children(): PanelNode[] {
    return readHookLog(this.c.handle.project.gsdDir, 15).map((e, i) => this.c.nodes.node(`${this.id}/${i}`, () => new HookEventNode(`${this.id}/${i}`), this).update(e));
  }
}

export class HookEventNode extends PanelNode {
  private entry: HookLogEntry | undefined;
  constructor(readonly id: string) {
    super();
  }
  update(entry: HookLogEntry): this {
    this.entry = entry;
    return this;
  }
  treeItem(): vscode.TreeItem {
    const e = this.entry;
    const item = new vscode.TreeItem(e ? `${e.event} · ${e.answer}` : '', vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    if (!e) return item;
    const blocked = /^(deny|block)/.test(e.answer);
    item.iconPath = new vscode.ThemeIcon(e.answer === 'error' ? 'error' : blocked ? 'debug-stop' : 'pass', new vscode.ThemeColor(e.answer === 'error' ? 'errorForeground' : blocked ? 'problemsWarningIcon.foreground' : 'descriptionForeground'));
    item.description = `${new Date(e.at).toLocaleTimeString()} · ${e.ms} ms`;
    item.tooltip = md(`${vscode.l10n.t('**{0}** at {1} (session `{2}`)', e.event, e.at, e.sessionId)}\n\n${vscode.l10n.t('Answer: {0}', e.answer)}${e.error ? `\n\n${vscode.l10n.t('Error: {0}', e.error)}` : ''}${e.notes?.length ? `\n\n${e.notes.map((n) => `- ${n}`).join('\n')}` : ''}`);
    return item;
  }
}

export class PendingGroupNode extends PanelNode {
  readonly id: string;
  constructor(private readonly c: Ctx) {
    super();
    this.id = `${base(c.handle)}#pending`;
  }
  treeItem(): vscode.TreeItem {
    const n = stateOf(this.c).pendingActions.length;
    const item = new vscode.TreeItem(vscode.l10n.t('Pending actions'), vscode.TreeItemCollapsibleState.Expanded);
    item.id = this.id;
    item.description = String(n);
    item.iconPath = new vscode.ThemeIcon('checklist', new vscode.ThemeColor('problemsWarningIcon.foreground'));
    item.tooltip = md(
      this.c.workspace.isReadOnly(this.c.handle)
        ? vscode.l10n.t("Known issues GSD recorded per task (`## Known Issues` of the task summaries), shown read-only: GSD decides what happens to them.")
        : vscode.l10n.t('Required follow-up from task summaries (`## Known Issues` → `Pending actions:`) and from reviews that hit the cycle cap. The latest completed task with pending actions sends its slice to **replan-slice**.'),
    );
    item.contextValue = 'gsd.pendingGroup';
    return item;
  }
  override children(): PanelNode[] {
    return stateOf(this.c).pendingActions.map((a, i) => this.c.nodes.node(pendingId(this.c, a, i, 'all'), () => new PendingActionNode(a, pendingId(this.c, a, i, 'all'), true), this).update(a));
  }
}

function pendingId(c: Ctx, a: PendingAction, i: number, where: string): string {
  return `${base(c.handle)}/${a.milestoneId}/${a.sliceId}/${a.taskId}#${where}-${a.source}-${i}-${a.line}`;
}

export class PendingActionNode extends PanelNode {
  constructor(
    private action: PendingAction,
    readonly id: string,
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
    const item = new vscode.TreeItem(a.text, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('circle-small-filled', new vscode.ThemeColor('problemsWarningIcon.foreground'));
    item.description = this.showTask ? `${a.milestoneId}/${a.sliceId}/${a.taskId}` : a.source === 'summary' ? '' : vscode.l10n.t('from {0}', pendingSourceLabel(a));
    item.tooltip = md(`${vscode.l10n.t('**Pending action** of {0} ({1})', a.taskId, pendingSourceLabel(a))}\n\n${a.text}\n\n${path.basename(a.file)}:${a.line}`);
    item.command = openAt(a.file, a.line);
    item.contextValue = 'gsd.pendingAction';
    item.resourceUri = vscode.Uri.file(a.file);
    return item;
  }
}

export class MilestoneNode extends PanelNode {
  readonly id: string;
  constructor(
    private readonly c: Ctx,
    private readonly mid: string,
  ) {
    super();
    this.id = `${base(c.handle)}/${mid}`;
  }
  treeItem(): vscode.TreeItem {
    const m = findMilestone(this.c, this.mid);
    const item = new vscode.TreeItem(`${this.mid}: ${m?.title ?? ''}`, m?.slices.length ? (m.status === 'active' ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed) : vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    if (!m) return item;
    item.iconPath = icon(m.status);
    item.description = m.slices.length ? vscode.l10n.t('{0}/{1} slices', m.progress.done, m.progress.total) : m.status;
    item.tooltip = md(`**${m.id}: ${m.title}**\n\n${vscode.l10n.t('Status: {0}', m.status)}${m.dependsOn.length ? `\n\n${vscode.l10n.t('Depends on {0}', m.dependsOn.join(', '))}` : ''}`);
    markNext(item, this.c, m.id, m.id, m.title);
    item.contextValue = `gsd.milestone.${m.status}`;
    if (m.roadmapFile) {
      item.command = openAt(m.roadmapFile);
      item.resourceUri = vscode.Uri.file(m.roadmapFile);
    }
    return item;
  }
  override children(): PanelNode[] {
    return (findMilestone(this.c, this.mid)?.slices ?? []).map((s) => this.c.nodes.node(`${this.id}/${s.id}`, () => new SliceNode(this.c, this.mid, s.id), this));
  }
}

export class SliceNode extends PanelNode {
  readonly id: string;
  constructor(
    private readonly c: Ctx,
    private readonly mid: string,
    private readonly sid: string,
  ) {
    super();
    this.id = `${base(c.handle)}/${mid}/${sid}`;
  }
  treeItem(): vscode.TreeItem {
    const s = findSlice(this.c, this.mid, this.sid);
    const collapsible = s?.tasks.length
      ? s.status === 'active' || s.status === 'replanning'
        ? vscode.TreeItemCollapsibleState.Expanded
        : vscode.TreeItemCollapsibleState.Collapsed
      : vscode.TreeItemCollapsibleState.None;
    const item = new vscode.TreeItem(`${this.sid}: ${s?.title ?? ''}`, collapsible);
    item.id = this.id;
    if (!s) return item;
    item.iconPath = icon(s.status);
    item.description = s.tasks.length ? `${s.progress.done}/${s.progress.total}${s.risk ? ` · ${vscode.l10n.t('{0} risk', s.risk)}` : ''}` : s.done ? '' : vscode.l10n.t('not planned');
    item.tooltip = md(`**${s.id}: ${s.title}**\n\n${vscode.l10n.t('Status: {0}', s.status)}${s.demo ? `\n\n${vscode.l10n.t('After this: {0}', s.demo)}` : ''}${s.depends.length ? `\n\n${vscode.l10n.t('Depends on {0}', s.depends.join(', '))}` : ''}`);
    markNext(item, this.c, `${this.mid}/${s.id}`, s.id, s.title);
    item.contextValue = `gsd.slice.${s.status}`;
    if (s.planFile) {
      item.command = openAt(s.planFile);
      item.resourceUri = vscode.Uri.file(s.planFile);
    }
    return item;
  }
  override children(): PanelNode[] {
    return (findSlice(this.c, this.mid, this.sid)?.tasks ?? []).map((t) => this.c.nodes.node(`${this.id}/${t.id}`, () => new TaskNode(this.c, this.mid, this.sid, t.id), this));
  }
}

export class TaskNode extends PanelNode {
  readonly id: string;
  constructor(
    private readonly c: Ctx,
    readonly mid: string,
    readonly sid: string,
    readonly tid: string,
  ) {
    super();
    this.id = `${base(c.handle)}/${mid}/${sid}/${tid}`;
  }
  task(): TaskEntry | null {
    return findTask(this.c, this.mid, this.sid, this.tid);
  }
  treeItem(): vscode.TreeItem {
    const t = this.task();
    const review = taskState(t?.extensions[REVIEW_LOOP]);
    const hasChildren = !!t && (t.reviews.length > 0 || t.pendingActions.length > 0 || !!review.activeReview);
    const item = new vscode.TreeItem(this.tid, hasChildren ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    if (!t) return item;
    item.iconPath = review.activeReview ? new vscode.ThemeIcon('eye', new vscode.ThemeColor('charts.orange')) : icon(t.status);
    const shown = presentTask(t, review, nextDecision(this.c), `${this.mid}/${this.sid}/${this.tid}`, vscode.l10n.t);
    item.label = shown.label;
    item.description = shown.description;
    item.tooltip = md(shown.tooltip);
    // `.readOnly`: a successor project's task, on which no review or dispatch action is offered.
    item.contextValue = `gsd.task.${t.status}${this.c.workspace.isReadOnly(this.c.handle) ? '.readOnly' : t.reviews.length ? '.reviewed' : ''}`;
    const file = t.summaryFile ?? t.planFile;
    if (file) {
      item.command = openAt(file);
      item.resourceUri = vscode.Uri.file(file);
    }
    return item;
  }
  override children(): PanelNode[] {
    const t = this.task();
    if (!t) return [];
    const out: PanelNode[] = t.reviews.map((r) => this.c.nodes.node(`${this.id}#cycle-${r.cycle}`, () => new ReviewCycleNode(this, r.cycle), this));
    const review = taskState(t.extensions[REVIEW_LOOP]);
    if (review.activeReview && !t.reviews.some((r) => r.cycle === review.activeReview!.cycle)) {
      out.push(this.c.nodes.node(`${this.id}#active-review`, () => new ActiveReviewNode(this), this));
    }
    t.pendingActions.forEach((a, i) => out.push(this.c.nodes.node(pendingId(this.c, a, i, 'task'), () => new PendingActionNode(a, pendingId(this.c, a, i, 'task'), false), this).update(a)));
    return out;
  }
}

export class ReviewCycleNode extends PanelNode {
  readonly id: string;
  constructor(
    readonly task: TaskNode,
    readonly cycle: number,
  ) {
    super();
    this.id = `${task.id}#cycle-${cycle}`;
  }
  review(): ReviewCycle | undefined {
    return this.task.task()?.reviews.find((r) => r.cycle === this.cycle);
  }
  previous(): ReviewCycle | undefined {
    const reviews = this.task.task()?.reviews ?? [];
    return [...reviews].reverse().find((r) => r.cycle < this.cycle);
  }
  treeItem(): vscode.TreeItem {
    const r = this.review();
    const item = new vscode.TreeItem(vscode.l10n.t('Review cycle {0}', this.cycle), vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    if (!r) return item;
    item.iconPath = r.passed ? new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')) : new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
    item.description = vscode.l10n.t('{0} · {1} open · {2} resolved', r.passed ? vscode.l10n.t('passed') : r.verdict === 'approved' ? vscode.l10n.t('approved with open issues') : vscode.l10n.t('changes requested'), r.openIssues.length, r.resolvedIssues.length);
    const issues = r.openIssues.map((i) => `- ${i.severity ? `**${i.severity}** ` : ''}${i.location ? `\`${i.location}\` ` : ''}${i.text}`).join('\n');
    item.tooltip = md(`${vscode.l10n.t('**{0} review, cycle {1}**: {2}', this.task.tid, r.cycle, r.verdict ?? vscode.l10n.t('no verdict'))}\n\n${issues || vscode.l10n.t('No open issues.')}\n\n${path.basename(r.file)}`);
    item.command = openAt(r.file);
    item.resourceUri = vscode.Uri.file(r.file);
    item.contextValue = `gsd.reviewCycle${this.previous() ? '.hasPrevious' : ''}`;
    const gsd = gsdReviewLabel(r);
    if (gsd) {
      // GSD's own verdict or rework brief: named as GSD says it; no cycle diff of ours.
      item.label = `${vscode.l10n.t('Review cycle {0}', this.cycle)} · ${gsd}`;
      const rationale = (r as { rationale?: string }).rationale;
      if (rationale) item.tooltip = md(`${(item.tooltip as vscode.MarkdownString).value}\n\n${rationale}`);
      item.contextValue = gsdReviewInDatabase(r) ? 'gsd.gsdReview' : 'gsd.reviewCycle';
      if (gsdReviewInDatabase(r)) {
        item.command = undefined;
        item.resourceUri = undefined;
      }
    }
    return item;
  }
}

export class ActiveReviewNode extends PanelNode {
  readonly id: string;
  constructor(
    private readonly task: TaskNode,
  ) {
    super();
    this.id = `${task.id}#active-review`;
  }
  treeItem(): vscode.TreeItem {
    const a = taskState(this.task.task()?.extensions[REVIEW_LOOP]).activeReview;
    const item = new vscode.TreeItem(a ? vscode.l10n.t('Review cycle {0}', a.cycle) : vscode.l10n.t('Review'), vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('sync', new vscode.ThemeColor('charts.orange'));
    item.description = a ? (a.status === 'fixing' ? vscode.l10n.t('fixing the open issues') : vscode.l10n.t('waiting for the review')) : '';
    item.contextValue = 'gsd.activeReview';
    return item;
  }
}
