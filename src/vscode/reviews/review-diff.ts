// Cycle diffs: each review cycle as a read-only virtual document (`gsd-review:` scheme), so
// "Compare with previous cycle" opens vscode.diff between two snapshots nobody can edit by accident.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readBoundedText } from '../../core/files/bounded-read';
import { confine, isWithin } from '../../core/files/confine';
import type { ReviewCycle } from '../../core/model/types';

export const REVIEW_SCHEME = 'gsd-review';

export function reviewUri(taskId: string, review: Pick<ReviewCycle, 'cycle' | 'file'>): vscode.Uri {
  // The path names the cycle (it is the tab title); the query carries the snapshot's real path.
  return vscode.Uri.from({ scheme: REVIEW_SCHEME, path: `/${taskId} review cycle ${review.cycle}.md`, query: new URLSearchParams({ file: review.file }).toString() });
}

export class ReviewContentProvider implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly allowedRoots: () => string[]) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    const file = new URLSearchParams(uri.query).get('file') ?? '';
    const abs = path.resolve(file);
    // Only review files inside a known `.gsd` folder are served, judged by their real path.
    const root = this.allowedRoots().find((r) => isWithin(r, abs) && r !== abs);
    if (!abs.endsWith('.md') || !root) return `This review is not inside a GSD project of this workspace (${file}).`;
    try {
      return readBoundedText(confine(root, abs)) ?? `The review file ${path.basename(abs)} no longer exists.`;
    } catch (error) {
      return `The review file ${path.basename(abs)} is not shown: ${(error as Error).message}`;
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** Opens the diff of one cycle against the cycle before it. */
export async function compareCycles(taskId: string, previous: ReviewCycle, current: ReviewCycle): Promise<void> {
  await vscode.commands.executeCommand(
    'vscode.diff',
    reviewUri(taskId, previous),
    reviewUri(taskId, current),
    vscode.l10n.t('{0} review: cycle {1} ↔ cycle {2}', taskId, previous.cycle, current.cycle),
    { preview: false },
  );
}
