// `gsd-review state --json`: the derived state, saying what was read. The lazy path (the default)
// reads only what the active unit needs, so the other milestones' roadmaps and the other slices'
// plans are unknown: their `slices`/`tasks` and `progress` are null (not an empty list and 0/0,
// which would read as "no slices" or "nothing done"), and `read` says which path produced the file.
// GSD-2's database counts an unread slice's tasks in SQL: its `progress` stays, its `tasks` are null.
// An unread slice's hook state (`extensions`) is not read either: null.
// `source` says what the state was read from (markdown, GSD-2's database, the successor's layout).
import type { MilestoneEntry, SliceEntry } from '../core/model/types';
import type { ProjectState } from '../core/project/state-source';

type Unread<T, K extends keyof T> = Omit<T, K> & { [P in K]: T[P] | null };
export type SliceJson = Unread<SliceEntry, 'tasks' | 'progress' | 'extensions'>;
export type MilestoneJson = Omit<Unread<MilestoneEntry, 'slices' | 'progress'>, 'slices'> & { slices: SliceJson[] | null };
export type StateJson = Omit<ProjectState, 'milestones'> & { read: 'lazy' | 'full'; milestones: MilestoneJson[] };

function sliceJson(s: SliceEntry): SliceJson {
  // The hook state of a slice lives in its plan (markdown) or beside it (a sidecar, read with the tasks).
  return s.planLoaded ? s : { ...s, tasks: null, progress: s.progressLoaded ? s.progress : null, extensions: null };
}

function milestoneJson(m: MilestoneEntry): MilestoneJson {
  if (!m.roadmapLoaded) return { ...m, slices: null, progress: null };
  return { ...m, slices: m.slices.map(sliceJson) };
}

export function stateJson(state: ProjectState, full: boolean): StateJson {
  // A full read has read every file there is: an unread plan there is a plan that does not exist.
  if (full) return { read: 'full', ...state };
  return { read: 'lazy', ...state, milestones: state.milestones.map(milestoneJson) };
}
