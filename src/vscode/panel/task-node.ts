// A task: its state first (next, review cycle, pending actions), then its title; under it its
// review cycles, the review in progress and its pending actions. Click opens its summary or plan.
import * as vscode from 'vscode';
import { REVIEW_LOOP, taskState } from '../../core/hooks/builtin/review-loop/review-loop-state';
import { findUnit } from '../../core/model/find-unit';
import { personTurn } from '../../core/model/person-turn';
import type { TaskEntry } from '../../core/model/types';
import { ActiveReviewNode } from './active-review-node';
import { taskContext } from './context-values';
import { activeReviewNodeId, pendingActionNodeId, reviewCycleNodeId, unitNodeId } from './node-ids';
import { md, openAt, PanelNode, statusIcon, type PanelContext } from './panel-node';
import { PendingActionNode } from './pending-action-node';
import { ReviewCycleNode } from './review-cycle-node';
import { presentTask } from './task-presentation';
import { dispatchedAgo } from '../dispatch/units-in-flight';
import { humanDate } from '../dispatch/unit-age';

export class TaskNode extends PanelNode {
  readonly id: string;
  constructor(
    private readonly c: PanelContext,
    readonly mid: string,
    readonly sid: string,
    readonly tid: string,
  ) {
    super();
    this.id = unitNodeId(c.handle.project.gsdDir, `${mid}/${sid}/${tid}`);
  }
  task(): TaskEntry | null {
    return findUnit(this.c.snapshot().state, this.mid, this.sid, this.tid).task;
  }
  treeItem(): vscode.TreeItem {
    const t = this.task();
    const review = taskState(t?.extensions[REVIEW_LOOP]);
    const hasChildren = !!t && (t.reviews.length > 0 || t.pendingActions.length > 0 || !!review.activeReview);
    const item = new vscode.TreeItem(this.tid, hasChildren ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    if (!t) return item;
    const snapshot = this.c.snapshot();
    const unitId = `${this.mid}/${this.sid}/${this.tid}`;
    const flying = snapshot.inFlight;
    const inFlight = flying && !flying.completedAt ? { unitType: flying.unitType, unitId: flying.unitId, ago: dispatchedAgo(flying) } : null;
    // Each kind of active row its own icon: in flight, next, in review, then the task's status.
    item.iconPath = t.hookStateUnreadable
      ? new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'))
      : inFlight?.unitId === unitId
        ? new vscode.ThemeIcon('watch', new vscode.ThemeColor('charts.blue'))
        : snapshot.next?.unitId === unitId
          ? new vscode.ThemeIcon('play-circle', new vscode.ThemeColor('charts.green'))
          : review.activeReview
            ? new vscode.ThemeIcon('eye', new vscode.ThemeColor('charts.orange'))
            : statusIcon(t.status);
    const { state } = snapshot;
    const inActiveSlice = state.activeMilestone?.id === this.mid && state.activeSlice?.id === this.sid;
    const shown = presentTask(t, review, snapshot.next, unitId, vscode.l10n.t, {
      inFlight,
      date: (iso) => humanDate(iso, vscode.env.language),
      personTurn: inActiveSlice ? personTurn(state) : null,
    });
    item.label = shown.label;
    item.description = shown.description;
    item.tooltip = md(shown.tooltip);
    item.contextValue = taskContext(t.status, t.reviews.length > 0, this.c.snapshot().state.readOnly);
    const file = t.summaryFile ?? t.planFile;
    if (file) item.resourceUri = vscode.Uri.file(file);
    // A blocked task opens the file that blocks it, at the line its reader stopped.
    if (t.hookStateUnreadable) item.command = openAt(t.hookStateUnreadable.file, t.hookStateUnreadable.line);
    else if (file) item.command = openAt(file);
    return item;
  }
  override children(): PanelNode[] {
    const t = this.task();
    if (!t) return [];
    const out: PanelNode[] = t.reviews.map((r) => this.c.nodes.node(reviewCycleNodeId(this.id, r.cycle), () => new ReviewCycleNode(this, r.cycle), this));
    const review = taskState(t.extensions[REVIEW_LOOP]);
    if (review.activeReview && !t.reviews.some((r) => r.cycle === review.activeReview!.cycle)) {
      out.push(this.c.nodes.node(activeReviewNodeId(this.id), () => new ActiveReviewNode(this), this));
    }
    const gsdDir = this.c.handle.project.gsdDir;
    t.pendingActions.forEach((a, i) => {
      const id = pendingActionNodeId(gsdDir, a, i, 'task');
      out.push(this.c.nodes.node(id, () => new PendingActionNode(a, id, false), this).update(a));
    });
    return out;
  }
}
