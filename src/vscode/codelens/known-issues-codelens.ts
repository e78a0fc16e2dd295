// CodeLens on GSD files, computed from the editor's text (so it follows typing, no save needed):
// a task SUMMARY's `## Known Issues` heading gets "N pending actions", "Replan slice" and "Show in
// review panel"; a CODE-REVIEW.md gets "Cycle N of max · K open issues" and "Compare with previous
// cycle". In a successor project (@opengsd/gsd-pi: `.gsd/phases/NN-slug/S01-T01-SUMMARY.md`, older
// `T01-SUMMARY.md`) the Known Issues lens only counts GSD's known issues and shows them in the
// panel: nothing there is dispatched. The document selector keeps the provider off any other file.
import { plainText } from '../panel/project-text';
import * as vscode from 'vscode';
import { readCodeReview } from '../../core/parse/code-review';
import { parseFrontmatter } from '../../core/parse/frontmatter';
import { sectionNamed } from '../../core/parse/markdown-sections';
import { parseTaskSummary } from '../../core/parse/task-summary';
import { knownIssuesFromSummary } from '../../core/successor/known-issue-actions';
import type { GsdWorkspace, ProjectHandle } from '../workspace/gsd-workspace';
import { unitOfFile, type UnitOfFile } from './unit-of-file';
import { COMMANDS } from '../contributions/contribution-ids';

export const GSD_FILES: vscode.DocumentSelector = [
  { scheme: 'file', pattern: '**/tasks/*-SUMMARY.md' },
  { scheme: 'file', pattern: '**/tasks/*-CODE-REVIEW*.md' },
  // The successor's task summaries sit in the milestone's phase folder.
  { scheme: 'file', pattern: '**/phases/*/*-SUMMARY.md' },
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
    if (unit.readOnly) return this.successorSummaryLenses(document, text);
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
        tooltip: actions.map((a) => `• ${plainText(a.text)}`).join('\n') || vscode.l10n.t('No "Pending actions:" list under Known Issues'),
      }),
    ];
    // Dispatching writes and runs things: not offered in an untrusted workspace.
    if (vscode.workspace.isTrusted) {
      lenses.push(new vscode.CodeLens(range, { title: vscode.l10n.t('Replan slice'), command: COMMANDS.replanSlice, arguments: args, tooltip: vscode.l10n.t("Replan {0}/{1} because of {2}'s pending actions (asks before dispatching)", unit.milestoneId, unit.sliceId, unit.taskId) }));
    }
    lenses.push(new vscode.CodeLens(range, { title: vscode.l10n.t('Show in review panel'), command: COMMANDS.showInPanel, arguments: args }));
    return lenses;
  }

  /** GSD's known issues of the task: counted from the editor's text, shown in the panel; nothing to dispatch. */
  private successorSummaryLenses(document: vscode.TextDocument, text: string): vscode.CodeLens[] {
    const fm = parseFrontmatter(text, document.uri.fsPath, { onlyKeys: [] });
    const section = sectionNamed(fm.body, fm.bodyStartLine, 'Known Issues');
    if (!section) return [];
    const issues = knownIssuesFromSummary(text, document.uri.fsPath);
    const range = new vscode.Range(section.line - 1, 0, section.line - 1, 0);
    return [
      new vscode.CodeLens(range, {
        title: `$(checklist) ${issues.length === 1 ? vscode.l10n.t('1 known issue (GSD)') : vscode.l10n.t('{0} known issues (GSD)', issues.length)}`,
        command: '',
        tooltip: issues.map((i) => `• ${plainText(i.text)}`).join('\n') || vscode.l10n.t('GSD recorded no open known issue for this task'),
      }),
      new vscode.CodeLens(range, { title: vscode.l10n.t('Show in review panel'), command: COMMANDS.showInPanel, arguments: [document.uri] }),
      new vscode.CodeLens(range, { title: `$(lock) ${vscode.l10n.t('read-only: GSD records progress')}`, command: '', tooltip: vscode.l10n.t("A project of GSD's successor (@opengsd/gsd-pi): only GSD's own running attempts act on its known issues.") }),
    ];
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
