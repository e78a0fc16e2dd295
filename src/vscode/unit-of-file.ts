// The GSD task a file belongs to, when it is a task summary or review inside one of the open
// projects' `.gsd` (the real folder or the link to it). Plain (no `vscode` import): the CodeLens and
// its commands use it, and the unit tests check it against GSD's layout.
import * as path from 'node:path';
import { classifyGsdPath, milestoneIdFromDir } from '../core/files/gsd-layout';

/** What unitOfFile needs of a project: where its `.gsd` is. */
export interface ProjectPlace {
  readonly project: { readonly gsdDir: string; readonly gsdLink?: string };
}

export interface UnitOfFile<P extends ProjectPlace = ProjectPlace> {
  handle: P;
  kind: 'task-summary' | 'code-review';
  milestoneId: string;
  sliceId: string;
  taskId: string;
}

const SLICE_ID = /^S\d+/i;

export function unitOfFile<P extends ProjectPlace>(projects: readonly P[], file: string): UnitOfFile<P> | null {
  for (const handle of projects) {
    for (const base of [handle.project.gsdDir, handle.project.gsdLink]) {
      if (!base) continue;
      const rel = path.relative(base, file);
      if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
      const ref = classifyGsdPath(rel);
      if ((ref.kind !== 'task-summary' && ref.kind !== 'code-review') || !ref.milestoneDir || !ref.sliceDir || !ref.taskId) return null;
      const milestoneId = milestoneIdFromDir(ref.milestoneDir);
      const sliceId = SLICE_ID.exec(ref.sliceDir)?.[0]?.toUpperCase();
      if (!milestoneId || !sliceId) return null;
      return { handle, kind: ref.kind, milestoneId, sliceId, taskId: ref.taskId };
    }
  }
  return null;
}
