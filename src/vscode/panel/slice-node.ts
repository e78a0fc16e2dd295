// A slice: its id (and "next"), then task progress, title and risk; status icon; click opens its plan.
import * as vscode from 'vscode';
import { findUnit } from '../../core/model/find-unit';
import type { SliceEntry } from '../../core/model/types';
import { sliceContext } from './context-values';
import { readingTasksNodeId, unitNodeId } from './node-ids';
import { collapsible, esc, markNext, md, openAt, PanelNode, statusIcon, type PanelContext } from './panel-node';
import { ReadingTasksNode } from './reading-tasks-node';
import { TaskNode } from './task-node';

export class SliceNode extends PanelNode {
  readonly id: string;
  constructor(
    private readonly panel: PanelContext,
    private readonly milestoneId: string,
    private readonly sliceId: string,
  ) {
    super();
    this.id = unitNodeId(panel.handle.project.gsdDir, `${milestoneId}/${sliceId}`);
  }
  private slice(): SliceEntry | null {
    return findUnit(this.panel.snapshot().state, this.milestoneId, this.sliceId).slice;
  }
  /** While the project is read, a slice's plan may not be yet. */
  private unread(s: SliceEntry | null): boolean {
    return !!s && !s.planLoaded && this.panel.snapshot().reading;
  }
  treeItem(): vscode.TreeItem {
    const s = this.slice();
    // An unread slice says so, and opens (it may have tasks) onto one row saying they are being read.
    const unread = this.unread(s);
    const item = new vscode.TreeItem(this.sliceId, collapsible(this.panel, !!s?.tasks.length || unread, s?.status === 'active' || s?.status === 'replanning'));
    item.id = this.id;
    if (!s) return item;
    item.iconPath = statusIcon(s.status);
    // The label only the id (and "next"): a narrow sidebar cuts the description, never the state.
    const progress = unread ? vscode.l10n.t('reading…') : s.tasks.length ? `${s.progress.done}/${s.progress.total}` : s.done ? '' : vscode.l10n.t('not planned');
    item.description = [progress, s.title, s.risk ? vscode.l10n.t('{0} risk', s.risk) : ''].filter(Boolean).join(' · ');
    const facts = [vscode.l10n.t('Status: {0}', s.status), s.tasks.length ? vscode.l10n.t('{0} of {1} tasks done', s.progress.done, s.progress.total) : '', s.risk ? vscode.l10n.t('{0} risk', s.risk) : ''].filter(Boolean).join(' · ');
    item.tooltip = md(`**${s.id}: ${esc(s.title)}**\n\n${facts}${s.demo ? `\n\n${vscode.l10n.t('After this: {0}', s.demo)}` : ''}${s.depends.length ? `\n\n${vscode.l10n.t('Depends on {0}', s.depends.join(', '))}` : ''}`);
    markNext(item, this.panel, `${this.milestoneId}/${s.id}`, s.id);
    item.contextValue = sliceContext(s.status);
    if (s.planFile) {
      item.command = openAt(s.planFile);
      item.resourceUri = vscode.Uri.file(s.planFile);
    }
    return item;
  }
  override children(): PanelNode[] {
    const s = this.slice();
    if (this.unread(s)) return [this.panel.nodes.node(readingTasksNodeId(this.id), () => new ReadingTasksNode(readingTasksNodeId(this.id)), this)];
    return (s?.tasks ?? []).map((t) => this.panel.nodes.node(unitNodeId(this.panel.handle.project.gsdDir, `${this.milestoneId}/${this.sliceId}/${t.id}`), () => new TaskNode(this.panel, this.milestoneId, this.sliceId, t.id), this));
  }
}
