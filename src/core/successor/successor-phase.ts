// The active unit and phase of a successor project, from its registry. GSD's own next step comes
// from its running state machine (`gsd read snapshot --json`, 1.19+, is the authority and is left
// to the hand-off to GSD); this is the reading a panel needs, with GSD's default rules
// (docs/project-kinds.md) and its 18 phase strings: no slices → pre-planning; a slice without tasks →
// planning; tasks left → executing; all tasks done → summarizing; all slices done → validating or
// completing the milestone; everything done → complete. A task whose blocking hook said
// needs-remediation or needs-attention is paused by GSD for a person (preferences-reference.md):
// blocked here; a lifecycle `paused` item: paused.
import type { ActiveRef, MilestoneEntry, PhaseDecision, SliceEntry, TaskEntry } from '../model/types';
import { firstEligibleSlice, type SliceOrder } from '../model/slice-eligibility';
import type { StatusClass } from './lifecycle-status';
import type { SuccessorReviewCycle } from './review-verdicts';

export type PhaseReading = Omit<PhaseDecision, 'replanTrigger'>;

/** The status class recorded on an entry by the reader (`extensions.successor.cls`). */
export function entryClass(entry: { extensions: Record<string, unknown> }): StatusClass {
  const s = entry.extensions.successor as { cls?: StatusClass } | undefined;
  return s?.cls ?? 'open';
}

const ref = (e: { id: string; title: string }): ActiveRef => ({ id: e.id, title: e.title });

/** A dependency on a slice the milestone does not list waits, as in gsd-pi (slice-eligibility.ts). */
const SUCCESSOR_SLICE_ORDER: SliceOrder<SliceEntry> = { id: (s) => s.id, closed: (s) => s.done, depends: (s) => s.depends };

function latestCycle(task: TaskEntry): SuccessorReviewCycle | undefined {
  const cycles = task.reviews as SuccessorReviewCycle[];
  return cycles.filter((c) => c.kind === 'hook-gate').at(-1);
}

export function readPhase(milestones: MilestoneEntry[], validated: (m: MilestoneEntry) => boolean): PhaseReading {
  const none = { activeMilestone: null, activeSlice: null, activeTask: null, blockers: [] as string[] };
  if (milestones.length === 0) return { ...none, phase: 'pre-planning', nextAction: 'No milestones yet. Start one with GSD.' };
  const open = milestones.filter((m) => m.status !== 'complete');
  if (open.length === 0) return { ...none, phase: 'complete', nextAction: 'All milestones complete.' };
  const milestone = open.find((m) => m.status !== 'parked');
  if (!milestone) {
    return { ...none, phase: 'paused', nextAction: `All remaining milestones are paused (${open.map((m) => m.id).join(', ')}). Resume one in GSD.` };
  }
  const base = { ...none, activeMilestone: ref(milestone) };
  if (milestone.slices.length === 0) return { ...base, phase: 'pre-planning', nextAction: `Plan milestone ${milestone.id} in GSD.` };
  const remaining = milestone.slices.filter((s) => !s.done);
  if (remaining.length === 0) {
    return validated(milestone)
      ? { ...base, phase: 'completing-milestone', nextAction: `All slices of ${milestone.id} are done and validated. GSD completes the milestone.` }
      : { ...base, phase: 'validating-milestone', nextAction: `All slices of ${milestone.id} are done. GSD validates the milestone.` };
  }
  const slice = firstEligibleSlice(milestone.slices, SUCCESSOR_SLICE_ORDER);
  if (!slice) {
    return { ...base, phase: 'blocked', blockers: ['No slice is eligible: check the slices\' dependencies.'], nextAction: 'Resolve slice dependencies in GSD.' };
  }
  const withSlice = { ...base, activeSlice: ref(slice) };
  const sliceCls = entryClass(slice);
  if (sliceCls === 'paused') return { ...withSlice, phase: 'paused', nextAction: `Slice ${slice.id} is paused in GSD.` };
  if (sliceCls === 'blocked') return { ...withSlice, phase: 'blocked', blockers: [`Slice ${slice.id} is blocked in GSD.`], nextAction: `Unblock slice ${slice.id} in GSD.` };
  if (slice.status === 'replanning') return { ...withSlice, phase: 'replanning-slice', nextAction: `GSD replans slice ${slice.id}.` };
  if (slice.tasks.length === 0) return { ...withSlice, phase: 'planning', nextAction: `Plan slice ${slice.id} (${slice.title}) in GSD.` };
  const task = slice.tasks.find((t) => !t.done);
  if (!task) return { ...withSlice, phase: 'summarizing', nextAction: `All tasks of ${slice.id} are done. GSD completes the slice.` };
  const withTask = { ...withSlice, activeTask: ref(task) };
  const cycle = latestCycle(task);
  if (cycle && (cycle.gsdVerdict === 'needs-remediation' || cycle.gsdVerdict === 'needs-attention')) {
    return {
      ...withTask,
      phase: 'blocked',
      blockers: [`${cycle.name} said ${cycle.gsdVerdict} for ${task.id}${cycle.rationale ? `: ${cycle.rationale}` : ''}`],
      nextAction: `GSD paused ${task.id} for review (${cycle.gsdVerdict}). Resolve it in GSD.`,
    };
  }
  if (entryClass(task) === 'paused') return { ...withTask, phase: 'paused', nextAction: `Task ${task.id} is paused in GSD.` };
  const rework = cycle?.gsdVerdict === 'needs-rework' ? ` (rework asked by ${cycle.name})` : '';
  return { ...withTask, phase: 'executing', nextAction: `GSD executes ${task.id}: ${task.title} in slice ${slice.id}${rework}.` };
}
