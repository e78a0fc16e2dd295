// The GSD task a file belongs to, when it is a task summary or review inside one of the open
// projects' `.gsd` (the real folder or the link to it). Plain (no `vscode` import): the CodeLens and
// its commands use it, and the unit tests check it against GSD's layout.
import * as path from 'node:path';
import { classifyGsdPath, milestoneIdFromDir } from '../../core/files/gsd-layout';
import type { GSDState } from '../../core/model/types';

/** What unitOfFile needs of a project: where its `.gsd` is, and (successor projects) its state. */
export interface ProjectPlace {
  readonly project: { readonly gsdDir: string; readonly gsdLink?: string };
  /** A read-only (successor) project names its summary files in its state, in its own layout. */
  readonly engine?: { readonly readOnly: boolean; state(): Pick<GSDState, 'milestones'> };
}

export interface UnitOfFile<P extends ProjectPlace = ProjectPlace> {
  handle: P;
  kind: 'task-summary' | 'code-review';
  milestoneId: string;
  sliceId: string;
  taskId: string;
  /** A successor project's summary: read-only, GSD's known issues. */
  readOnly?: boolean;
}

const SLICE_ID = /^S\d+/i;

/** The task of a successor project whose summary `realFile` is (`.gsd/phases/NN-slug/S01-T01-SUMMARY.md`), by the reader's file list. */
function successorTaskOfFile<P extends ProjectPlace>(handle: P, state: Pick<GSDState, 'milestones'>, realFile: string): UnitOfFile<P> | null {
  for (const m of state.milestones) {
    for (const s of m.slices) {
      const t = s.tasks.find((x) => x.summaryFile && path.resolve(x.summaryFile) === realFile);
      if (t) return { handle, kind: 'task-summary', milestoneId: m.id, sliceId: s.id, taskId: t.id, readOnly: true };
    }
  }
  return null;
}

export function unitOfFile<P extends ProjectPlace>(projects: readonly P[], file: string): UnitOfFile<P> | null {
  for (const handle of projects) {
    for (const base of [handle.project.gsdDir, handle.project.gsdLink]) {
      if (!base) continue;
      const rel = path.relative(base, file);
      if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
      if (handle.engine?.readOnly) return successorTaskOfFile(handle, handle.engine.state(), path.join(handle.project.gsdDir, rel));
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
