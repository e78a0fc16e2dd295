// The phase of a GSD-2 database project and what runs next, decided as GSD-2 decides it
// (gsd-build/gsd-2 at 76568edc, state.ts: handleNoActiveMilestone, handleAllSlicesDone,
// resolveSliceDependencies, detectBlockers, checkReplanTrigger; escalation.ts detectPendingEscalation).
import * as path from 'node:path';
import type { ActiveRef, Diagnostic, PhaseDecision } from '../model/types';
import type { EscalationRead } from './escalation-artifact';
import { eligibleSlice, type RegistryItem } from './milestone-registry';
import { unitKey, type Gsd2Snapshot, type SliceRow, type TaskRow } from './snapshot';
import { isClosedStatus } from './status-guards';
import type { UnitPaths } from './unit-paths';

/** What the decision reads beyond the rows: where units live and escalation artifacts. */
export interface PhaseContext {
  root: string;
  paths: UnitPaths;
  readEscalation: (artifactPath: string) => EscalationRead;
}

const NONE = { activeSlice: null, activeTask: null, blockers: [] as string[], replanTrigger: null };

export function decidePhase(snap: Gsd2Snapshot, registry: RegistryItem[], active: RegistryItem | null, ctx: PhaseContext, diagnostics: Diagnostic[]): PhaseDecision {
  if (!active) return noActiveMilestone(registry);
  const m = active.row;
  const activeMilestone = { id: m.id, title: active.title };
  const slices = snap.slices.get(m.id) ?? [];
  if (slices.length === 0) {
    return m.status === 'needs-discussion'
      ? { ...NONE, phase: 'needs-discussion', activeMilestone, nextAction: `Discuss the draft context of ${m.id}.` }
      : { ...NONE, phase: 'pre-planning', activeMilestone, nextAction: `Plan milestone ${m.id}.` };
  }
  if (slices.every((s) => isClosedStatus(s.status))) return allSlicesDone(snap, m.id, activeMilestone);

  // resolveSliceDependencies.
  const slice = eligibleSlice(slices);
  if (!slice) {
    return { ...NONE, phase: 'blocked', activeMilestone, blockers: ['No slice is eligible: every open slice is deferred or waits on another.'], nextAction: 'Resolve slice dependencies or plan the next slice.' };
  }
  return decideInSlice(snap, m.id, slice, { ...NONE, activeMilestone, activeSlice: { id: slice.id, title: slice.title } }, ctx, diagnostics);
}

/** handleNoActiveMilestone: waiting on dependencies → blocked; only parked ones left → pre-planning (no blocker on the DB path); none at all → pre-planning; otherwise every milestone is closed. */
function noActiveMilestone(registry: RegistryItem[]): PhaseDecision {
  const none = { ...NONE, activeMilestone: null };
  const pending = registry.filter((r) => r.status === 'pending');
  if (pending.length > 0) {
    const waiting = pending.filter((r) => r.row.dependsOn.length > 0).map((r) => `${r.row.id} is waiting on unmet dependencies: ${r.row.dependsOn.join(', ')}`);
    return {
      ...none,
      phase: 'blocked',
      blockers: waiting.length > 0 ? waiting : ['Every remaining milestone is blocked, but none lists a dependency.'],
      nextAction: 'Resolve milestone dependencies before proceeding.',
    };
  }
  const parked = registry.filter((r) => r.status === 'parked');
  if (parked.length > 0) {
    return { ...none, phase: 'pre-planning', nextAction: `All remaining milestones are parked (${parked.map((r) => r.row.id).join(', ')}). Unpark one or create a new milestone.` };
  }
  if (registry.length === 0) return { ...none, phase: 'pre-planning', nextAction: 'No milestones in the database yet. Start one with GSD.' };
  return { ...none, phase: 'complete', nextAction: 'All milestones complete.' };
}

/** handleAllSlicesDone: any non-empty verdict of the latest milestone-validation assessment ends validation. */
function allSlicesDone(snap: Gsd2Snapshot, milestoneId: string, activeMilestone: ActiveRef): PhaseDecision {
  const verdict = snap.validationVerdicts.get(milestoneId) ?? '';
  if (!verdict) return { ...NONE, phase: 'validating-milestone', activeMilestone, nextAction: `Validate milestone ${milestoneId} before completion.` };
  if (verdict === 'needs-remediation') {
    return {
      ...NONE,
      phase: 'blocked',
      activeMilestone,
      blockers: [`Validation of ${milestoneId} says needs-remediation but every slice is complete: add remediation slices or override the verdict.`],
      nextAction: `Resolve the remediation of ${milestoneId}.`,
    };
  }
  return { ...NONE, phase: 'completing-milestone', activeMilestone, nextAction: `All slices of ${milestoneId} are complete. Write the milestone summary.` };
}

type SliceBase = Omit<PhaseDecision, 'phase' | 'nextAction'>;

/** Inside the active slice: refining, planning, summarizing, gates, a blocker or triage replan, an escalation, or executing. */
function decideInSlice(snap: Gsd2Snapshot, milestoneId: string, slice: SliceRow, base: SliceBase, ctx: PhaseContext, diagnostics: Diagnostic[]): PhaseDecision {
  // A sketch slice is refined before it is planned. GSD first clears the flag of a sketch slice that
  // already has a PLAN file (autoHealSketchFlags); we never write, so we read it as cleared.
  if (slice.isSketch) {
    const plan = ctx.paths.sliceFile(milestoneId, slice.id, 'PLAN');
    if (!plan) return { ...base, phase: 'refining', nextAction: `Refine sketch slice ${slice.id} (${slice.title}).` };
    diagnostics.push({ file: plan, severity: 'info', message: `slice ${milestoneId}/${slice.id} is still marked as a sketch but has a plan; GSD clears the flag on its next derivation` });
  }

  const key = unitKey(milestoneId, slice.id);
  const tasks = snap.tasks.get(key) ?? [];
  const open = tasks.find((t) => !isClosedStatus(t.status));
  if (!open) {
    return tasks.length > 0
      ? { ...base, phase: 'summarizing', nextAction: `All tasks of ${slice.id} are complete. Write the slice summary and complete the slice.` }
      : { ...base, phase: 'planning', nextAction: `Plan the tasks of slice ${slice.id} (${slice.title}).` };
  }
  const activeTask = { id: open.id, title: open.title };

  // Quality gates of the gate-evaluate turn still pending: evaluated before any task runs.
  const gates = snap.pendingGateEvaluate.get(key) ?? 0;
  if (gates > 0) {
    return { ...base, phase: 'evaluating-gates', nextAction: `Evaluate ${gates} pending quality gate${gates === 1 ? '' : 's'} of ${slice.id} before execution.` };
  }

  // detectBlockers: the first closed task that discovered a blocker; any replan of the slice answers it.
  const replans = snap.replans.get(key) ?? [];
  const blocker = tasks.find((t) => isClosedStatus(t.status) && t.blockerDiscovered);
  if (blocker && replans.length === 0) {
    return {
      ...base,
      activeTask,
      phase: 'replanning-slice',
      blockers: [`Task ${blocker.id} discovered a blocker that needs a slice replan.`],
      replanTrigger: { taskId: blocker.id, reason: 'blocker' },
      nextAction: `Replan slice ${slice.id}: ${blocker.id} reported a blocker.`,
    };
  }

  const escalated = pendingEscalation(tasks, milestoneId, slice.id, ctx, diagnostics);
  if (escalated) {
    return {
      ...base,
      activeTask,
      phase: 'escalating-task',
      blockers: [`Task ${escalated.id} is waiting for a decision from the user.`],
      nextAction: `Answer the escalation of ${escalated.id} with GSD (/gsd escalate) before the loop goes on.`,
    };
  }

  // checkReplanTrigger: triage set replan_triggered_at and no replan answered it yet.
  if (!blocker && slice.replanTriggeredAt && replans.length === 0) {
    return {
      ...base,
      activeTask,
      phase: 'replanning-slice',
      blockers: ['Triage asked for a replan: the slice must be replanned before work continues.'],
      replanTrigger: { taskId: open.id, reason: 'triage' },
      nextAction: `Replan slice ${slice.id}: triage asked for it.`,
    };
  }

  return { ...base, activeTask, phase: 'executing', nextAction: `Execute ${open.id}: ${open.title} in slice ${slice.id}.` };
}

/** detectPendingEscalation: the first task flagged escalation_pending whose artifact is valid and unanswered. */
function pendingEscalation(tasks: TaskRow[], milestoneId: string, sliceId: string, ctx: PhaseContext, diagnostics: Diagnostic[]): TaskRow | null {
  for (const t of tasks) {
    if (!t.escalationPending || !t.escalationArtifactPath) continue;
    const art = ctx.readEscalation(t.escalationArtifactPath);
    if ('problem' in art) {
      diagnostics.push({ file: path.resolve(ctx.root, t.escalationArtifactPath), severity: 'info', message: `escalation of ${milestoneId}/${sliceId}/${t.id} ${art.problem}; GSD ignores it` });
      continue;
    }
    if (art.pending) return t;
  }
  return null;
}
