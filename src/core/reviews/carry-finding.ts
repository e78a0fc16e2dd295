// "Add to pending actions" on a finding: the review loop's own state on the task (its sidecar
// `T01-HOOKS.md`, `extensions.review-loop.pendingActions`), the place issues left open at the cycle
// cap already go. Never GSD's files: it re-renders plans and summaries from its database.
import { HookStateTransaction } from '../hooks/engine/hook-state';
import { REVIEW_LOOP, taskState } from '../hooks/builtin/review-loop/review-loop-state';
import type { GsdStore } from '../files/gsd-store';
import type { ProjectFiles } from '../state/project-files';
import type { ReviewFinding } from './review-findings';

/** The pending action a finding becomes, worded like the loop's own at the cap. */
export function pendingActionText(f: Pick<ReviewFinding, 'severity' | 'location' | 'text' | 'cycle'>): string {
  const where = f.location ? `${f.location.path}${f.location.line ? `:${f.location.line}` : ''}: ` : '';
  return `${f.severity ? `[${f.severity}] ` : ''}${where}${f.text} (carried forward from review cycle ${f.cycle})`;
}

export interface CarryTarget {
  files: ProjectFiles;
  gsdDir: string;
  store: GsdStore;
}

/**
 * Appends the finding to the task's pending actions and commits (atomically, under the project's
 * write lock, refused under an unsaved editor by the extension's store). Answers the files written,
 * or null when the task already had that pending action.
 */
export function carryFindingForward(p: CarryTarget, f: ReviewFinding): string[] | null {
  const tx = new HookStateTransaction(p.files, p.gsdDir, p.store);
  const handle = tx.handleFor(REVIEW_LOOP);
  const st = taskState(handle.get(f.unitId));
  const text = pendingActionText(f);
  if ((st.pendingActions ?? []).includes(text)) return null;
  handle.set(f.unitId, { ...st, pendingActions: [...(st.pendingActions ?? []), text] });
  return tx.commit().files;
}
