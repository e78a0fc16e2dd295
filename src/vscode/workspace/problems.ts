// The core's diagnostics (broken YAML, a review for the wrong task, …) in the Problems panel, on the
// file they concern.
import * as vscode from 'vscode';
import type { Diagnostic } from '../../core/model/types';

const SEVERITY: Record<Diagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

export class GsdProblems implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('gsd');
  private last = new Map<string, string>();

  /** Replaces the problems of one project; unchanged diagnostics are not re-sent. */
  update(projectKey: string, diagnostics: readonly Diagnostic[]): void {
    const signature = JSON.stringify(diagnostics);
    if (this.last.get(projectKey) === signature) return;
    const previousFiles = new Set(JSON.parse(this.last.get(projectKey) ?? '[]').map((d: Diagnostic) => d.file));
    this.last.set(projectKey, signature);
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const d of diagnostics) {
      const line = Math.max(0, (d.line ?? 1) - 1);
      const diag = new vscode.Diagnostic(new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER), d.message, SEVERITY[d.severity]);
      diag.source = 'GSD';
      byFile.set(d.file, [...(byFile.get(d.file) ?? []), diag]);
    }
    for (const file of previousFiles) if (!byFile.has(file as string)) this.collection.delete(vscode.Uri.file(file as string));
    for (const [file, list] of byFile) this.collection.set(vscode.Uri.file(file), list);
  }

  get(file: string): readonly vscode.Diagnostic[] {
    return this.collection.get(vscode.Uri.file(file)) ?? [];
  }

  dispose(): void {
    this.collection.dispose();
  }
}
