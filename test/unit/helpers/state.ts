// Deriving state the way the panel does (full), and the slice of it every decision rests on.
import { deriveState, freshPartSource } from '../../../src/core/state/derive-state';
import { NodeGsdStore } from '../../../src/core/files/gsd-store';
import { locateProject } from '../../../src/core/state/locate-project';
import { ProjectFiles } from '../../../src/core/state/project-files';
import type { GSDState } from '../../../src/core/model/types';

export function fullState(root: string): GSDState {
  const project = locateProject(root)!;
  return deriveState(project, freshPartSource(new ProjectFiles(new NodeGsdStore())));
}

/** The part of the state every dispatch decision rests on; both ways of reading must agree on it. */
export function decisionOf(s: GSDState) {
  const m = s.milestones.find((x) => x.id === s.activeMilestone?.id);
  const slice = m?.slices.find((x) => x.id === s.activeSlice?.id);
  return {
    phase: s.phase,
    activeMilestone: s.activeMilestone,
    activeSlice: s.activeSlice,
    activeTask: s.activeTask,
    blockers: s.blockers,
    nextAction: s.nextAction,
    replanTrigger: s.replanTrigger,
    progress: s.progress,
    milestoneStatuses: s.milestones.map((x) => [x.id, x.status]),
    // The lazy path reads the roadmap of the active milestone only.
    activeMilestoneSlices: m?.slices.map((y) => [y.id, y.status, y.done]) ?? null,
    activeSliceTasks: slice?.tasks ?? null,
  };
}


/** The lazy path in one call, as the CLI reads: locate `.gsd`, read only what the active unit needs. */
export function lazyState(root: string): { state: GSDState; files: ProjectFiles } {
  const project = locateProject(root)!;
  const files = new ProjectFiles(new NodeGsdStore());
  return { state: deriveState(project, freshPartSource(files), { lazy: true }), files };
}
