// The core's file store as the extension uses it: a file open in an editor with unsaved changes is
// never written behind the user's back. Reads come from disk (what GSD and the agent see).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { NodeGsdStore } from '../../core/files/gsd-store';

export class UnsavedChangesError extends Error {}

/** Open documents inside a folder that have unsaved changes. */
export function dirtyDocumentsUnder(dir: string): string[] {
  const prefix = dir + path.sep;
  return vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file' && d.uri.fsPath.startsWith(prefix)).map((d) => d.uri.fsPath);
}

export class EditorAwareStore extends NodeGsdStore {
  /** Every file of a commit is checked before the first is written, so a refusal writes nothing. */
  protected override beforeWrite(file: string): void {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === file);
    if (open?.isDirty) throw new UnsavedChangesError(`${path.basename(file)} has unsaved changes in the editor; save or revert it, then try again.`);
  }
}
