// Which file completes a dispatched unit, and whether a change of files is that signal: the rules of
// automatic completion (README, "How each unit completes"), with no `vscode` import so the unit tests
// check them directly. The adapter (completion-signals.ts) only listens and calls the completer.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DispatchRecord } from '../../core/dispatch/dispatch-record';
import { readCodeReview } from '../../core/parse/code-review';
import { readGsdText } from '../../core/files/gsd-store';
import { findUnit } from '../../core/model/find-unit';
import type { GSDState } from '../../core/model/types';

/** The file whose appearance completes the unit, or null when the unit has no file signal. */
export function signalFile(state: GSDState, record: DispatchRecord): string | null {
  const [milestoneId, sliceId, taskId] = record.unitId.split('/');
  const { milestone, slice } = findUnit(state, milestoneId, sliceId);
  if (!milestone) return null;
  const sliceDir = slice?.dir ?? (sliceId ? path.join(milestone.dir, 'slices', sliceId) : undefined);
  const tasksDir = sliceDir ? path.join(sliceDir, 'tasks') : undefined;
  switch (record.unitType) {
    case 'execute-task':
      return tasksDir && taskId ? path.join(tasksDir, `${taskId}-SUMMARY.md`) : null;
    case 'review-task':
      return tasksDir && taskId ? path.join(tasksDir, `${taskId}-CODE-REVIEW.md`) : null;
    case 'plan-slice':
    case 'refine-slice':
      return sliceDir ? path.join(sliceDir, `${sliceId}-PLAN.md`) : null;
    case 'complete-slice':
      return sliceDir ? path.join(sliceDir, `${sliceId}-SUMMARY.md`) : null;
    case 'replan-slice':
      return sliceDir ? path.join(sliceDir, `${sliceId}-REPLAN.md`) : null;
    case 'plan-milestone':
      return path.join(milestone.dir, `${milestoneId}-ROADMAP.md`);
    case 'validate-milestone':
      return path.join(milestone.dir, `${milestoneId}-VALIDATION.md`);
    case 'complete-milestone':
      return path.join(milestone.dir, `${milestoneId}-SUMMARY.md`);
    default:
      return null;
  }
}

/** The signal counts once the file was written after the dispatch (and, for a review, is for this cycle). */
export function signalled(file: string, record: DispatchRecord): boolean {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return false;
  }
  if (stat.mtimeMs < Date.parse(record.dispatchedAt) - 1000) return false;
  if (record.unitType !== 'review-task') return true;
  let text: string | null;
  try {
    text = readGsdText(file);
  } catch {
    // a link out of .gsd, a FIFO, a huge file: not a review we act on
    return false;
  }
  if (text === null) return false;
  const review = readCodeReview(text, file);
  return review.wellFormed && review.cycle === record.data?.cycle;
}

/**
 * The signal file when the changed `paths` include it and it counts for `record`; null otherwise
 * (no dispatch waiting, a unit without a file signal, another file, a file older than the dispatch).
 */
export function completionSignal(state: GSDState, record: DispatchRecord | null, paths: readonly string[]): string | null {
  if (!record) return null;
  const file = signalFile(state, record);
  if (!file || !paths.some((p) => path.resolve(p) === path.resolve(file))) return null;
  return signalled(file, record) ? file : null;
}
