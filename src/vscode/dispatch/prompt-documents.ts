// Prompts shown in an editor are read-only virtual documents (`gsd-prompt:` URIs): something to
// read or copy, never an untitled file that asks to be saved when it is closed.
import * as vscode from 'vscode';
import type { DispatchDecision } from '../../core/hooks/engine/middleware-types';

export const PROMPT_SCHEME = 'gsd-prompt';
/** Prompts kept for documents still open or reopened from history; older ones are dropped. */
const KEEP = 20;

export class PromptDocuments implements vscode.TextDocumentContentProvider {
  private readonly prompts = new Map<string, string>();
  private counter = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.prompts.get(uri.toString()) ?? 'This GSD prompt is no longer kept: run GSD: Next Unit again.';
  }

  /** A URI for this decision's prompt; the `.md` name makes VS Code show it as markdown. */
  add(decision: DispatchDecision): vscode.Uri {
    const name = `${decision.unitType} ${decision.unitId.replace(/\//g, '-')}.md`;
    const uri = vscode.Uri.from({ scheme: PROMPT_SCHEME, path: `/${++this.counter}/${name}` });
    this.prompts.set(uri.toString(), decision.prompt);
    for (const key of this.prompts.keys()) {
      if (this.prompts.size <= KEEP) break;
      this.prompts.delete(key);
    }
    return uri;
  }
}

/** The one instance: the extension registers it, the editor target fills it. */
export const promptDocuments = new PromptDocuments();
