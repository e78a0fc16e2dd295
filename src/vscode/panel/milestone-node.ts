// A milestone: its id (and "next"), then slice progress and title; status icon; click opens its roadmap.
import * as vscode from 'vscode';
import { findUnit } from '../../core/model/find-unit';
import type { MilestoneEntry } from '../../core/model/types';
import { milestoneContext } from './context-values';
import { unitNodeId } from './node-ids';
import { collapsible, esc, markNext, md, openAt, PanelNode, statusIcon, type PanelContext } from './panel-node';
import { SliceNode } from './slice-node';

export class MilestoneNode extends PanelNode {
  readonly id: string;
  constructor(
    private readonly panel: PanelContext,
    private readonly milestoneId: string,
  ) {
    super();
    this.id = unitNodeId(panel.handle.project.gsdDir, milestoneId);
  }
  private milestone(): MilestoneEntry | null {
    return findUnit(this.panel.snapshot().state, this.milestoneId).milestone;
  }
  treeItem(): vscode.TreeItem {
    const m = this.milestone();
    const item = new vscode.TreeItem(this.milestoneId, collapsible(this.panel, !!m?.slices.length, m?.status === 'active'));
    item.id = this.id;
    if (!m) return item;
    item.iconPath = statusIcon(m.status);
    // The label only the id (and "next"): a narrow sidebar cuts the description, never the state.
    item.description = [m.slices.length ? `${m.progress.done}/${m.progress.total}` : m.status, m.title].filter(Boolean).join(' · ');
    const progress = m.slices.length ? ` · ${vscode.l10n.t('{0} of {1} slices done', m.progress.done, m.progress.total)}` : '';
    item.tooltip = md(`**${m.id}: ${esc(m.title)}**\n\n${vscode.l10n.t('Status: {0}', m.status)}${progress}${m.dependsOn.length ? `\n\n${vscode.l10n.t('Depends on {0}', m.dependsOn.join(', '))}` : ''}`);
    markNext(item, this.panel, m.id, m.id);
    item.contextValue = milestoneContext(m.status);
    if (m.roadmapFile) {
      item.command = openAt(m.roadmapFile);
      item.resourceUri = vscode.Uri.file(m.roadmapFile);
    }
    return item;
  }
  override children(): PanelNode[] {
    return (this.milestone()?.slices ?? []).map((s) => this.panel.nodes.node(unitNodeId(this.panel.handle.project.gsdDir, `${this.milestoneId}/${s.id}`), () => new SliceNode(this.panel, this.milestoneId, s.id), this));
  }
}
