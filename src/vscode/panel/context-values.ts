// The review panel's TreeItem.contextValue strings, which package.json's `viewItem` clauses match
// to show item actions. Plain (no `vscode` import) so a unit test can hold them against package.json.
import type { MilestoneStatus, SliceStatus, TaskStatus } from '../../core/model/types';
import { NAMESPACE } from '../contributions/contribution-ids';

export const PROJECT_CONTEXT = `${NAMESPACE}.project`;
export const PENDING_GROUP_CONTEXT = `${NAMESPACE}.pendingGroup`;
export const PENDING_ACTION_CONTEXT = `${NAMESPACE}.pendingAction`;
export const HOOK_EVENTS_CONTEXT = `${NAMESPACE}.hookEvents`;
export const ACTIVE_REVIEW_CONTEXT = `${NAMESPACE}.activeReview`;
/** A successor project's header row (read-only project). */
export const SUCCESSOR_PROJECT_CONTEXT = `${NAMESPACE}.successorProject`;
/** GSD's own verdict or rework brief read from a successor database: no file, no cycle diff. */
export const GSD_REVIEW_CONTEXT = `${NAMESPACE}.gsdReview`;

export function milestoneContext(status: MilestoneStatus): string {
  return `${NAMESPACE}.milestone.${status}`;
}
export function sliceContext(status: SliceStatus): string {
  return `${NAMESPACE}.slice.${status}`;
}
/**
 * `reviewed` when the task has at least one review cycle (it can be opened); `readOnly` for a
 * successor project's task, on which no review or dispatch action is offered.
 */
export function taskContext(status: TaskStatus, reviewed: boolean, readOnly = false): string {
  return `${NAMESPACE}.task.${status}${readOnly ? '.readOnly' : reviewed ? '.reviewed' : ''}`;
}
/** `hasPrevious` when an earlier cycle exists to compare with. */
export function reviewCycleContext(hasPrevious: boolean): string {
  return `${NAMESPACE}.reviewCycle${hasPrevious ? '.hasPrevious' : ''}`;
}
