// GSD: Undo Agent Hooks Install: takes back the last install of this workspace, all or nothing,
// from the palette, after the toast with its Undo has gone, and after a window reload (the record
// lives in workspace storage). A file the user changed since the install is never overwritten: then
// nothing is undone, and the message says which file and why.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { revertFileChanges, type FileChange } from '../../core/files/file-changes';
import { setContext } from '../contributions/context';
import { INSTALL_UNDO_KEY, readInstallUndo, type InstallUndoRecord, type RecordStorage } from './install-undo-record';

export class InstallUndo {
  constructor(private readonly storage: RecordStorage) {
    // The palette entry shows only while there is something to undo, also after a reload.
    setContext('installUndoable', this.current() !== null);
  }

  /** The install Undo would take back now, or null. */
  current(): InstallUndoRecord | null {
    return readInstallUndo(this.storage);
  }

  /** Records an install as the one to undo (it replaces an earlier one). Returns its id. */
  async remember(what: InstallUndoRecord['what'], root: string, applied: readonly FileChange[], home?: string): Promise<string> {
    const record: InstallUndoRecord = { id: `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`, what, root, at: new Date().toISOString(), ...(home ? { home } : {}), applied: [...applied] };
    await this.storage.update(INSTALL_UNDO_KEY, record);
    setContext('installUndoable', true);
    return record.id;
  }

  private async forget(): Promise<void> {
    await this.storage.update(INSTALL_UNDO_KEY, undefined);
    setContext('installUndoable', false);
  }

  /**
   * Undoes the recorded install. With `id` (a toast's Undo), only while that install is still the
   * recorded one: a button in the bell must not undo a later install, or one already undone.
   */
  async undo(id?: string): Promise<void> {
    const record = this.current();
    if (!record || (id !== undefined && record.id !== id)) {
      void vscode.window.showInformationMessage(
        id !== undefined
          ? vscode.l10n.t('GSD: that install was already undone, or another came after it; nothing was changed.')
          : vscode.l10n.t('GSD: there is no install of agent hooks to undo in this workspace.'),
      );
      if (!record) setContext('installUndoable', false);
      return;
    }
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(vscode.l10n.t('GSD: undoing the install writes files; that is refused in an untrusted workspace.'));
      return;
    }
    const undone = revertFileChanges(record.applied, record.home);
    // Either way the record has done its work: undone, or refused because the files are the user's
    // now (an Undo offered again would only be refused again).
    await this.forget();
    const gate = record.what === 'review gate';
    if (undone.conflicts.length) {
      const why = undone.conflicts.map((c) => shorter(c, record.root)).join('; ');
      void vscode.window.showWarningMessage(
        gate
          ? vscode.l10n.t('GSD: the review gate was not removed, so that your changes stay: {0}.', why)
          : vscode.l10n.t('GSD: the agent hooks were not removed, so that your changes stay: {0}.', why),
      );
      return;
    }
    void vscode.window.showInformationMessage(gate ? vscode.l10n.t('GSD: the review gate was removed again.') : vscode.l10n.t('GSD: agent hooks removed again.'));
  }
}

/**
 * A conflict line as the user reads it after an install: the project's paths relative (the user
 * knows which project), and "read" said as what it is here (the text Undo compares with is what the
 * install wrote).
 */
function shorter(line: string, root: string): string {
  return line.split(root + path.sep).join('').replace(/ changed since it was read/g, ' was changed since the install');
}
