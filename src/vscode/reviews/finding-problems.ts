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

function diagnosticOf(f: ReviewFinding): { file: string; diagnostic: vscode.Diagnostic } {
  // A place that is gone (a stat, for the few findings shown) is listed on the review, as the threads do.
  const placed = f.file !== null && f.location?.line !== null && fs.existsSync(f.file);
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
    const keys: string[] = [];
    if (scope !== 'off') {
      for (const { inFlight, index } of projects) {
        for (const f of index.all) {
          if (f.resolved || (scope === 'unitInFlight' && f.unitId !== inFlight)) continue;
          keys.push(f.key);
          const { file, diagnostic } = diagnosticOf(f);
          const list = byFile.get(file);
          if (list) list.push(diagnostic);
          else byFile.set(file, [diagnostic]);
        }
      }
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
