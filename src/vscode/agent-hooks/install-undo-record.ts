// The record of the last Install Agent Hooks in this workspace, which GSD: Undo Agent Hooks Install
// takes back. Kept in VS Code's workspace storage, not in the repository: a record in the project's
// files could be planted by the repository itself and would then name files for Undo to write.
// Plain (no `vscode` import): the record's shape and its checks are unit-tested.
import type { FileChange } from '../../core/files/file-changes';

/** What VS Code's Memento gives us (workspaceState), as far as the record needs it. */
export interface RecordStorage {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

export const INSTALL_UNDO_KEY = 'gsdReviewLoop.installUndo';

export interface InstallUndoRecord {
  /** Tells installs apart: a toast's Undo acts only while its install is still the recorded one. */
  id: string;
  /** Agent hooks in the repository, or our review gate in a successor project's preferences (and the home folder). */
  what: 'agent hooks' | 'review gate';
  /** The project root the install was made in. */
  root: string;
  /** When the install was made (ISO). */
  at: string;
  /** The home folder a gate install recorded its created folders in (file-changes.ts). */
  home?: string;
  /** The changes as applied: Undo writes each `before` back where the file still holds `after`. */
  applied: FileChange[];
}

function isChange(c: unknown): c is FileChange {
  if (!c || typeof c !== 'object') return false;
  const x = c as Record<string, unknown>;
  const text = (v: unknown) => v === null || typeof v === 'string';
  return typeof x.file === 'string' && text(x.before) && text(x.after) && typeof x.purpose === 'string' && (x.root === undefined || typeof x.root === 'string') && (x.createdDirs === undefined || (Array.isArray(x.createdDirs) && x.createdDirs.every((d) => typeof d === 'string')));
}

/** The stored record, or null when there is none or it is not one (an older or damaged value is ignored). */
export function readInstallUndo(storage: RecordStorage): InstallUndoRecord | null {
  const r = storage.get(INSTALL_UNDO_KEY) as Partial<InstallUndoRecord> | undefined;
  if (!r || typeof r !== 'object') return null;
  if (typeof r.id !== 'string' || (r.what !== 'agent hooks' && r.what !== 'review gate') || typeof r.root !== 'string' || typeof r.at !== 'string') return null;
  if (r.home !== undefined && typeof r.home !== 'string') return null;
  if (!Array.isArray(r.applied) || r.applied.length === 0 || !r.applied.every(isChange)) return null;
  return r as InstallUndoRecord;
}
