// One review cycle of a task: verdict, open and resolved issues; click opens that cycle's review.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { escapeMarkdown, markdownText } from './project-text';
import type { ReviewCycle } from '../../core/model/types';
import { gsdReviewInDatabase, gsdReviewLabel } from '../successor/successor-panel';
import { GSD_REVIEW_CONTEXT, reviewCycleContext } from './context-values';
import { reviewCycleNodeId } from './node-ids';
import { md, openAt, PanelNode, type TaskOwner } from './panel-node';
import { boundedList } from './tooltip-list';

export class ReviewCycleNode extends PanelNode {
  readonly id: string;
  constructor(
    readonly task: TaskOwner,
    readonly cycle: number,
  ) {
    super();
    this.id = reviewCycleNodeId(task.id, cycle);
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
    const issues = boundedList(r.openIssues, (i) => `- ${i.severity ? `**${escapeMarkdown(i.severity)}** ` : ''}${i.location ? `\`${i.location.replace(/`/g, '')}\` ` : ''}${markdownText(i.text)}`, (n) => vscode.l10n.t('- … and {0} more (see the review)', n)).join('\n');
    item.tooltip = md(`${vscode.l10n.t('**{0} review, cycle {1}**: {2}', this.task.tid, r.cycle, r.verdict ?? vscode.l10n.t('no verdict'))}\n\n${issues || vscode.l10n.t('No open issues.')}\n\n${path.basename(r.file)}`);
    item.command = openAt(r.file);
    item.resourceUri = vscode.Uri.file(r.file);
    item.contextValue = reviewCycleContext(this.previous() !== undefined);
    const gsd = gsdReviewLabel(r);
    if (gsd) {
      // GSD's own verdict or rework brief: named as GSD says it; no cycle diff of ours.
      item.label = `${vscode.l10n.t('Review cycle {0}', this.cycle)} · ${gsd}`;
      const rationale = (r as { rationale?: string }).rationale;
      if (rationale) item.tooltip = md(`${(item.tooltip as vscode.MarkdownString).value}\n\n${rationale}`);
      item.contextValue = gsdReviewInDatabase(r) ? GSD_REVIEW_CONTEXT : reviewCycleContext(false);
      if (gsdReviewInDatabase(r)) {
        item.command = undefined;
        item.resourceUri = undefined;
      }
    }
    return item;
  }
}
