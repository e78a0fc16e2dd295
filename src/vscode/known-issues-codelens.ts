// CodeLens on GSD files, computed from the editor's text (so it follows typing, no save needed):
// a task SUMMARY's `## Known Issues` heading gets "N pending actions", "Replan slice" and "Show in
// review panel"; a CODE-REVIEW.md gets "Cycle N of max · K open issues" and "Compare with previous
// cycle". The document selector keeps the provider from running on any other file.
import * as vscode from 'vscode';
import { readCodeReview } from '../core/parse/code-review';
import { parseFrontmatter } from '../core/parse/frontmatter';
import { sectionNamed } from '../core/parse/markdown-sections';
import { parseTaskSummary } from '../core/parse/task-summary';
import type { GsdWorkspace, ProjectHandle } from './gsd-workspace';
import { unitOfFile, type UnitOfFile } from './unit-of-file';
import { COMMANDS } from './contribution-ids';

export const GSD_FILES: vscode.DocumentSelector = [
  { scheme: 'file', pattern: '**/tasks/*-SUMMARY.md' },
  { scheme: 'file', pattern: '**/tasks/*-CODE-REVIEW*.md' },
];

export class GsdCodeLensProvider implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(
    private readonly workspace: GsdWorkspace,
    private readonly maxCycles: (handle: ProjectHandle) => number,
  ) {}

  /** Project state changed (a new cycle, a trust change): lenses that depend on it are recomputed. */
  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const unit = unitOfFile(this.workspace.list(), document.uri.fsPath);
    if (!unit) return [];
    const text = document.getText();
    return unit.kind === 'task-summary' ? this.summaryLenses(document, unit, text) : this.reviewLenses(document, unit, text);
  }

  private summaryLenses(document: vscode.TextDocument, unit: UnitOfFile<ProjectHandle>, text: string): vscode.CodeLens[] {
    const fm = parseFrontmatter(text, document.uri.fsPath);
    const section = sectionNamed(fm.body, fm.bodyStartLine, 'Known Issues');
    if (!section) return [];
    const actions = parseTaskSummary(text, document.uri.fsPath).pendingActions;
    const range = new vscode.Range(section.line - 1, 0, section.line - 1, 0);
    const args = [document.uri];
    const lenses = [
      new vscode.CodeLens(range, {
        title: `$(checklist) ${actions.length === 1 ? vscode.l10n.t('1 pending action') : vscode.l10n.t('{0} pending actions', actions.length)}`,
        command: '',
        tooltip: actions.map((a) => `• ${a.text}`).join('\n') || vscode.l10n.t('No "Pending actions:" list under Known Issues'),
      }),
    ];
    // Dispatching writes and runs things: not offered in an untrusted workspace.
    if (vscode.workspace.isTrusted) {
      lenses.push(new vscode.CodeLens(range, { title: vscode.l10n.t('Replan slice'), command: COMMANDS.replanSlice, arguments: args, tooltip: vscode.l10n.t("Dispatch replan-slice for {0}/{1} because of {2}'s pending actions", unit.milestoneId, unit.sliceId, unit.taskId) }));
    }
    lenses.push(new vscode.CodeLens(range, { title: vscode.l10n.t('Show in review panel'), command: COMMANDS.showInPanel, arguments: args }));
    return lenses;
  }

  private reviewLenses(document: vscode.TextDocument, unit: UnitOfFile<ProjectHandle>, text: string): vscode.CodeLens[] {
    const review = readCodeReview(text, document.uri.fsPath);
    const lines = text.split(/\r?\n/);
    const headingLine = Math.max(0, lines.findIndex((l) => /^#\s/.test(l)));
    const range = new vscode.Range(headingLine, 0, headingLine, 0);
    const max = this.maxCycles(unit.handle);
    const cycle = review.cycle ?? '?';
    const open = review.openIssues.length;
    const lenses = [
      new vscode.CodeLens(range, {
        title: [vscode.l10n.t('Cycle {0} of {1}', cycle, max), open === 1 ? vscode.l10n.t('1 open issue') : vscode.l10n.t('{0} open issues', open), review.verdict ?? ''].filter(Boolean).join(' · '),
        command: '',
      }),
    ];
    if (typeof review.cycle === 'number' && review.cycle > 1) {
      lenses.push(new vscode.CodeLens(range, { title: vscode.l10n.t('Compare with previous cycle'), command: COMMANDS.compareReviewFile, arguments: [document.uri] }));
    }
    return lenses;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
