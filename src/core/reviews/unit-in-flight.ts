// The unit in flight, whose findings the Problems panel shows by default: the task unit that was
// dispatched and not completed, else the task the review loop is reviewing or fixing, else the
// active task.
import { REVIEW_LOOP, taskState } from '../hooks/builtin/review-loop/review-loop-state';
import type { GSDState } from '../model/types';

/** `M001/S01/T01`, or null when no task is in flight. `dispatched`: the unit id of the dispatch record. */
export function taskInFlight(state: Pick<GSDState, 'milestones' | 'activeMilestone' | 'activeSlice' | 'activeTask'>, dispatched: string | null): string | null {
  if (dispatched && dispatched.split('/').length === 3) return dispatched;
  const m = state.milestones.find((x) => x.id === state.activeMilestone?.id);
  const s = m?.slices.find((x) => x.id === state.activeSlice?.id);
  if (m && s) {
    for (const t of s.tasks) {
      if (taskState(t.extensions[REVIEW_LOOP]).activeReview) return `${m.id}/${s.id}/${t.id}`;
    }
  }
  const { activeMilestone: am, activeSlice: as, activeTask: at } = state;
  return am && as && at ? `${am.id}/${as.id}/${at.id}` : null;
}
