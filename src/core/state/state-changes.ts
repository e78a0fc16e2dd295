// What changed between two derived states, unit by unit, so a view can refresh only those units.
// The StateIndex keeps unchanged slices as the same objects, so most comparisons are by reference.
import { isDeepStrictEqual } from 'node:util';
import type { GSDState, MilestoneEntry, SliceEntry } from '../model/types';

export interface StateChanges {
  /** Phase, active unit, progress or the project-wide pending actions changed. */
  project: boolean;
  /** Milestones whose own line changed (title, status, progress) or whose slice list changed. */
  milestones: Set<string>;
  /** Slices (`M001/S01`) whose line or tasks changed. */
  slices: Set<string>;
  /** Milestones added or removed. */
  structure: boolean;
}

function sameMilestoneLine(a: MilestoneEntry, b: MilestoneEntry): boolean {
  return (
    a.title === b.title &&
    a.status === b.status &&
    a.progress.done === b.progress.done &&
    a.progress.total === b.progress.total &&
    a.slices.length === b.slices.length &&
    a.slices.every((s, i) => s.id === b.slices[i].id)
  );
}

function sameSlice(a: SliceEntry, b: SliceEntry): boolean {
  if (a.title !== b.title || a.status !== b.status || a.done !== b.done || a.progress.done !== b.progress.done || a.progress.total !== b.progress.total) return false;
  if (a.tasks === b.tasks) return true;
  if (a.tasks.length !== b.tasks.length) return false;
  // Active-slice task lists are fresh arrays each derive; compare their entries.
  return a.tasks.every((t, i) => t === b.tasks[i] || isDeepStrictEqual(t, b.tasks[i]));
}

export function stateChanges(prev: GSDState | null, next: GSDState): StateChanges {
  const changes: StateChanges = { project: false, milestones: new Set(), slices: new Set(), structure: false };
  if (!prev) {
    changes.project = true;
    changes.structure = true;
    return changes;
  }
  changes.project =
    prev.phase !== next.phase ||
    prev.activeMilestone?.id !== next.activeMilestone?.id ||
    prev.activeSlice?.id !== next.activeSlice?.id ||
    prev.activeTask?.id !== next.activeTask?.id ||
    !isDeepStrictEqual(prev.progress, next.progress) ||
    !isDeepStrictEqual(prev.pendingActions, next.pendingActions) ||
    prev.nextAction !== next.nextAction;
  if (prev.milestones.length !== next.milestones.length || prev.milestones.some((m, i) => m.id !== next.milestones[i].id)) {
    changes.structure = true;
    return changes;
  }
  next.milestones.forEach((m, i) => {
    const old = prev.milestones[i];
    if (old === m) return;
    if (!sameMilestoneLine(old, m)) changes.milestones.add(m.id);
    m.slices.forEach((s, j) => {
      const before = old.slices[j];
      if (!before || before.id !== s.id || (before !== s && !sameSlice(before, s))) changes.slices.add(`${m.id}/${s.id}`);
    });
  });
  return changes;
}
