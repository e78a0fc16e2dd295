// The one id scheme of the review panel's nodes (TreeItem.id, and the provider's cache key). Stable
// ids keep expansion and selection across refreshes; a unit's id is its path under the project's id,
// so the nodes of a changed unit are found from the unit path the state change names.
import type { PendingAction } from '../../core/model/types';

/** The project (the real `.gsd` folder): the root of every id in it. */
export function projectNodeId(gsdDir: string): string {
  return `gsd:${gsdDir}`;
}
/** A milestone, slice or task: `unitPath` is `M001`, `M001/S01` or `M001/S01/T01`. */
export function unitNodeId(gsdDir: string, unitPath: string): string {
  return `${projectNodeId(gsdDir)}/${unitPath}`;
}
export function pendingGroupNodeId(gsdDir: string): string {
  return `${projectNodeId(gsdDir)}#pending`;
}
/** A successor project's read-only header row. */
export function successorHeaderNodeId(gsdDir: string): string {
  return `${projectNodeId(gsdDir)}#successor`;
}
export function hookEventsNodeId(gsdDir: string): string {
  return `${projectNodeId(gsdDir)}#hooks`;
}
/** The `index`-th most recent hook event. */
export function hookEventNodeId(gsdDir: string, index: number): string {
  return `${hookEventsNodeId(gsdDir)}/${index}`;
}
/** The placeholder row under a slice whose plan is not read yet (reading-tasks-node.ts). */
export function readingTasksNodeId(sliceNodeId: string): string {
  return `${sliceNodeId}#reading`;
}
export function reviewCycleNodeId(taskNodeId: string, cycle: number): string {
  return `${taskNodeId}#cycle-${cycle}`;
}
export function activeReviewNodeId(taskNodeId: string): string {
  return `${taskNodeId}#active-review`;
}
/** A pending action in the top-level group (`all`) or under its task (`task`). */
export function pendingActionNodeId(gsdDir: string, action: PendingAction, index: number, where: 'all' | 'task'): string {
  return `${unitNodeId(gsdDir, `${action.milestoneId}/${action.sliceId}/${action.taskId}`)}#${where}-${action.source}-${index}-${action.line}`;
}
