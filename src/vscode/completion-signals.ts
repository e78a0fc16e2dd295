// Automatic completion: when the file a dispatched unit is supposed to produce appears (or changes)
// after the dispatch, the unit is completed (afterDispatch) exactly once. Units without such a file
// (fix-task) complete through the agent hooks or GSD: Complete Unit. The README lists each signal.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { currentDispatch } from '../core/dispatch/dispatch';
import type { DispatchRecord } from '../core/dispatch/dispatch-record';
import { readCodeReview } from '../core/parse/code-review';
import { readGsdText } from '../core/files/gsd-store';
import { findUnit } from '../core/model/find-unit';
import type { GSDState } from '../core/model/types';
import type { GsdWorkspace, ProjectChange } from './gsd-workspace';
import type { UnitCompleter } from './next-unit-command';

/** The file whose appearance completes the unit, or null when the unit has no file signal. */
export function signalFile(state: GSDState, record: DispatchRecord): string | null {
  const [mid, sid, tid] = record.unitId.split('/');
  const { milestone, slice } = findUnit(state, mid, sid);
  if (!milestone) return null;
  const sliceDir = slice?.dir ?? (sid ? path.join(milestone.dir, 'slices', sid) : undefined);
  const tasksDir = sliceDir ? path.join(sliceDir, 'tasks') : undefined;
  switch (record.unitType) {
    case 'execute-task':
      return tasksDir && tid ? path.join(tasksDir, `${tid}-SUMMARY.md`) : null;
    case 'review-task':
      return tasksDir && tid ? path.join(tasksDir, `${tid}-CODE-REVIEW.md`) : null;
    case 'plan-slice':
      return sliceDir ? path.join(sliceDir, `${sid}-PLAN.md`) : null;
    case 'complete-slice':
      return sliceDir ? path.join(sliceDir, `${sid}-SUMMARY.md`) : null;
    case 'replan-slice':
      return sliceDir ? path.join(sliceDir, `${sid}-REPLAN.md`) : null;
    case 'plan-milestone':
      return path.join(milestone.dir, `${mid}-ROADMAP.md`);
    case 'validate-milestone':
      return path.join(milestone.dir, `${mid}-VALIDATION.md`);
    case 'complete-milestone':
      return path.join(milestone.dir, `${mid}-SUMMARY.md`);
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

export class CompletionSignals {
  constructor(
    private readonly workspace: GsdWorkspace,
    private readonly completer: UnitCompleter,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  async onStateChange({ handle, paths }: ProjectChange): Promise<void> {
    // Nothing of ours is dispatched or completed in a successor project.
    if (this.workspace.isReadOnly(handle)) return;
    const record = currentDispatch(handle.project.root);
    if (!record) return;
    const file = signalFile(this.workspace.state(handle), record);
    if (!file || !paths.some((p) => path.resolve(p) === path.resolve(file))) return;
    if (!signalled(file, record)) return;
    this.log.info(`${path.basename(file)} appeared for ${record.unitType} ${record.unitId}; completing it`);
    try {
      await this.completer.complete(handle, `${path.basename(file)} was written`);
    } catch (error) {
      this.log.error(`could not complete ${record.unitType} ${record.unitId}: ${(error as Error).message}`);
    }
  }
}
