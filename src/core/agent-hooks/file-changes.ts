// Applies a previewed list of file changes (hook install, uninstall) and takes them back (Undo).
// Each write is atomic (temporary file + rename) and happens only if the file is still exactly what
// the preview showed: a file changed since is left alone and reported, never overwritten.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileChange } from './hook-install';

export function readOrNull(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function writeAtomic(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.gsd-${process.pid}.tmp`;
  // Launchers are run with `sh`, but an executable bit makes them runnable by hand too.
  fs.writeFileSync(tmp, text, { mode: text.startsWith('#!') ? 0o755 : 0o644 });
  fs.renameSync(tmp, file);
}

export interface ApplyResult {
  applied: FileChange[];
  /** Files that changed since the preview, with why; left as they are. */
  conflicts: string[];
}

export function applyFileChanges(changes: readonly FileChange[]): ApplyResult {
  const applied: FileChange[] = [];
  const conflicts: string[] = [];
  for (const c of changes) {
    if (readOrNull(c.file) !== c.before) {
      conflicts.push(`${c.file} changed since it was read; left as it is`);
      continue;
    }
    try {
      if (c.after === null) fs.rmSync(c.file, { force: true });
      else writeAtomic(c.file, c.after);
      applied.push(c);
    } catch (error) {
      conflicts.push(`${c.file}: ${(error as Error).message}`);
    }
  }
  return { applied, conflicts };
}

/** Undo: each file back to what it was, if it still holds what we wrote. */
export function revertFileChanges(applied: readonly FileChange[]): ApplyResult {
  return applyFileChanges(applied.map((c) => ({ ...c, before: c.after, after: c.before })).reverse());
}
