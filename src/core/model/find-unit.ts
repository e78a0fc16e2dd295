// Looking a unit up in the derived registry by its ids: the one place every reader of the state uses.
import type { DeepReadonly } from './types';
import type { GSDState, MilestoneEntry, SliceEntry, TaskEntry } from './types';

export interface FoundUnits<M, S, T> {
  milestone: M | null;
  slice: S | null;
  task: T | null;
}

type Found = FoundUnits<MilestoneEntry, SliceEntry, TaskEntry>;
type FoundReadonly = FoundUnits<DeepReadonly<MilestoneEntry>, DeepReadonly<SliceEntry>, DeepReadonly<TaskEntry>>;

/** The milestone, slice and task with these ids (`null` where missing or not asked for). */
export function findUnit(state: GSDState, milestoneId?: string, sliceId?: string, taskId?: string): Found;
export function findUnit(state: DeepReadonly<GSDState>, milestoneId?: string, sliceId?: string, taskId?: string): FoundReadonly;
export function findUnit(state: GSDState | DeepReadonly<GSDState>, milestoneId?: string, sliceId?: string, taskId?: string): Found | FoundReadonly {
  const milestone = (milestoneId && state.milestones.find((m) => m.id === milestoneId)) || null;
  const slice = (sliceId && milestone?.slices.find((s) => s.id === sliceId)) || null;
  const task = (taskId && slice?.tasks.find((t) => t.id === taskId)) || null;
  return { milestone, slice, task };
}

/** The units a unit id (`M001`, `M001/S01`, `M001/S01/T01`) names. */
export function findUnitById(state: DeepReadonly<GSDState>, unitId: string): FoundReadonly {
  const [milestoneId, sliceId, taskId] = unitId.split('/');
  return findUnit(state, milestoneId, sliceId, taskId);
}

/** The active milestone, slice and task. */
export function activeUnits(state: DeepReadonly<GSDState>): FoundReadonly {
  return findUnit(state, state.activeMilestone?.id, state.activeSlice?.id, state.activeTask?.id);
}
