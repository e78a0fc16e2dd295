// Open findings in the Problems panel: source "GSD review", severity from the issue's word, code =
// the task id, the review as related information. By default only the unit in flight's (the task
// under review, else the active task); `gsdReviewLoop.reviewFindings.problems` says otherwise.
// Quick fixes: Show in review panel, Open review.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { plainText } from '../panel/project-text';
import { severityOf, type FindingIndex, type ReviewFinding } from '../../core/reviews/review-findings';
import { COMMANDS } from '../contributions/contribution-ids';

export const FINDINGS_SOURCE = 'GSD review';
export type ProblemsScope = 'unitInFlight' | 'all' | 'off';

const SEVERITY = { error: vscode.DiagnosticSeverity.Error, warning: vscode.DiagnosticSeverity.Warning, info: vscode.DiagnosticSeverity.Information } as const;

/**
 * The most entries one file gets, as VS Code's own limit (it sends no more of one file to the
 * Problems panel); past it, one entry says how many are not listed. A review of 50,000 findings
 * made 50,000 entries and a stat each, again on every state change.
 */
export const MAX_PROBLEMS_PER_FILE = 1000;

function diagnosticOf(f: ReviewFinding, exists: (file: string) => boolean): { file: string; diagnostic: vscode.Diagnostic } {
  // A place that is gone (a stat per file) is listed on the review, as the threads do.
  const placed = f.file !== null && f.location?.line !== null && exists(f.file);
  const file = placed ? f.file! : f.reviewFile;
  const line = Math.max(0, (placed ? f.location!.line! : f.reviewLine || 1) - 1);
  // Problems shows plain text: the review's code spans read as quotes, not raw backticks.
  const message = `${f.severity ? `${f.severity}: ` : ''}${plainText(f.text)} (${f.taskId}, review cycle ${f.cycle})`;
  const d = new vscode.Diagnostic(new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER), message, SEVERITY[severityOf(f.severity)]);
  d.source = FINDINGS_SOURCE;
  d.code = f.taskId;
  const reviewLine = Math.max(0, f.reviewLine - 1);
  d.relatedInformation = [new vscode.DiagnosticRelatedInformation(new vscode.Location(vscode.Uri.file(f.reviewFile), new vscode.Position(reviewLine, 0)), `review of ${f.unitId}, cycle ${f.cycle}`)];
  return { file, diagnostic: d };
}

export class FindingProblems implements vscode.Disposable, vscode.CodeActionProvider {
  private readonly collection = vscode.languages.createDiagnosticCollection('gsd-review');
  private signature = '';

  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  /** `inFlight`: each project's task in flight (unit-in-flight.ts), for the default scope. */
  update(projects: ReadonlyArray<{ inFlight: string | null; index: FindingIndex }>, scope: ProblemsScope): void {
    const byFile = new Map<string, vscode.Diagnostic[]>();
    const left = new Map<string, number>();
    const keys: string[] = [];
    const stats = new Map<string, boolean>();
    const exists = (file: string): boolean => {
      let known = stats.get(file);
      if (known === undefined) stats.set(file, (known = fs.existsSync(file)));
      return known;
    };
    if (scope !== 'off') {
      for (const { inFlight, index } of projects) {
        for (const f of index.all) {
          if (f.resolved || (scope === 'unitInFlight' && f.unitId !== inFlight)) continue;
          keys.push(f.key);
          const { file, diagnostic } = diagnosticOf(f, exists);
          const list = byFile.get(file);
          if (!list) byFile.set(file, [diagnostic]);
          else if (list.length < MAX_PROBLEMS_PER_FILE) list.push(diagnostic);
          else left.set(file, (left.get(file) ?? 0) + 1);
        }
      }
    }
    for (const [file, count] of left) {
      const more = new vscode.Diagnostic(new vscode.Range(0, 0, 0, 0), vscode.l10n.t('{0} more review findings on this file are not listed here (at most {1} are).', count.toLocaleString(vscode.env.language), MAX_PROBLEMS_PER_FILE.toLocaleString(vscode.env.language)), vscode.DiagnosticSeverity.Information);
      more.source = FINDINGS_SOURCE;
      byFile.get(file)!.push(more);
    }
    const signature = keys.join('\n');
    if (signature === this.signature) return;
    this.signature = signature;
    this.collection.clear();
    for (const [file, list] of byFile) this.collection.set(vscode.Uri.file(file), list);
  }

  get(file: string): readonly vscode.Diagnostic[] {
    return this.collection.get(vscode.Uri.file(file)) ?? [];
  }

  provideCodeActions(_doc: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const out: vscode.CodeAction[] = [];
    for (const d of context.diagnostics) {
      if (d.source !== FINDINGS_SOURCE) continue;
      const review = d.relatedInformation?.[0]?.location;
      if (!review) continue;
      const show = new vscode.CodeAction(vscode.l10n.t('Show in review panel'), vscode.CodeActionKind.QuickFix);
      show.diagnostics = [d];
      show.command = { title: show.title, command: COMMANDS.showInPanel, arguments: [review.uri] };
      const open = new vscode.CodeAction(vscode.l10n.t('Open review'), vscode.CodeActionKind.QuickFix);
      open.diagnostics = [d];
      open.command = { title: open.title, command: 'vscode.open', arguments: [review.uri, { selection: review.range }] };
      out.push(show, open);
    }
    return out;
  }

  dispose(): void {
    this.collection.dispose();
  }
}
