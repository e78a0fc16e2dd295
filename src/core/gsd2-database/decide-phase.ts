// The phase of a GSD-2 database project and what runs next, decided as GSD-2 decides it
// (gsd-build/gsd-2 at 76568edc, state.ts: handleNoActiveMilestone, handleAllSlicesDone,
// resolveSliceDependencies, detectBlockers, checkReplanTrigger; escalation.ts detectPendingEscalation).
import * as path from 'node:path';
import type { Diagnostic, PhaseDecision } from '../model/types';
import type { EscalationRead } from './escalation-artifact';
import { eligibleSlice, type RegistryItem } from './milestone-registry';
import { unitKey, type Gsd2Snapshot } from './snapshot';
import { isClosedStatus } from './status-guards';
import type { UnitPaths } from './unit-paths';

/** What the decision reads beyond the rows: where units live and escalation artifacts. */
export interface PhaseContext {
  root: string;
  paths: UnitPaths;
  readEscalation: (artifactPath: string) => EscalationRead;
}

export function decidePhase(snap: Gsd2Snapshot, registry: RegistryItem[], active: RegistryItem | null, ctx: PhaseContext, diagnostics: Diagnostic[]): PhaseDecision {
  const none = { activeSlice: null, activeTask: null, blockers: [] as string[], replanTrigger: null };

  if (!active) {
    // handleNoActiveMilestone: waiting on dependencies → blocked; only parked ones left → pre-planning
    // (no blocker on the DB path); none at all → pre-planning; otherwise every milestone is closed.
    const pending = registry.filter((r) => r.status === 'pending');
    if (pending.length > 0) {
      const waiting = pending.filter((r) => r.row.dependsOn.length > 0).map((r) => `${r.row.id} is waiting on unmet dependencies: ${r.row.dependsOn.join(', ')}`);
      return {
        ...none,
        phase: 'blocked',
        activeMilestone: null,
        blockers: waiting.length > 0 ? waiting : ['Every remaining milestone is blocked, but none lists a dependency.'],
        nextAction: 'Resolve milestone dependencies before proceeding.',
      };
    }
    const parked = registry.filter((r) => r.status === 'parked');
    if (parked.length > 0) {
      return { ...none, phase: 'pre-planning', activeMilestone: null, nextAction: `All remaining milestones are parked (${parked.map((r) => r.row.id).join(', ')}). Unpark one or create a new milestone.` };
    }
    if (registry.length === 0) {
      return { ...none, phase: 'pre-planning', activeMilestone: null, nextAction: 'No milestones in the database yet. Start one with GSD.' };
    }
    return { ...none, phase: 'complete', activeMilestone: null, nextAction: 'All milestones complete.' };
  }

  const m = active.row;
  const activeMilestone = { id: m.id, title: active.title };
  const slices = snap.slices.get(m.id) ?? [];
  if (slices.length === 0) {
    return m.status === 'needs-discussion'
      ? { ...none, phase: 'needs-discussion', activeMilestone, nextAction: `Discuss the draft context of ${m.id}.` }
      : { ...none, phase: 'pre-planning', activeMilestone, nextAction: `Plan milestone ${m.id}.` };
  }

  if (slices.every((s) => isClosedStatus(s.status))) {
    // handleAllSlicesDone: any non-empty verdict of the latest milestone-validation assessment ends validation.
    const verdict = snap.validationVerdicts.get(m.id) ?? '';
    if (!verdict) return { ...none, phase: 'validating-milestone', activeMilestone, nextAction: `Validate milestone ${m.id} before completion.` };
    if (verdict === 'needs-remediation') {
      return {
        ...none,
        phase: 'blocked',
        activeMilestone,
        blockers: [`Validation of ${m.id} says needs-remediation but every slice is complete: add remediation slices or override the verdict.`],
        nextAction: `Resolve the remediation of ${m.id}.`,
      };
    }
    return { ...none, phase: 'completing-milestone', activeMilestone, nextAction: `All slices of ${m.id} are complete. Write the milestone summary.` };
  }

  // resolveSliceDependencies.
  const slice = eligibleSlice(slices);
  if (!slice) {
    return { ...none, phase: 'blocked', activeMilestone, blockers: ['No slice is eligible: every open slice is deferred or waits on another.'], nextAction: 'Resolve slice dependencies or plan the next slice.' };
  }
  const activeSlice = { id: slice.id, title: slice.title };
  const base = { activeMilestone, activeSlice, activeTask: null, blockers: [] as string[], replanTrigger: null };

  // A sketch slice is refined before it is planned. GSD first clears the flag of a sketch slice that
  // already has a PLAN file (autoHealSketchFlags); we never write, so we read it as cleared.
  if (slice.isSketch) {
    const plan = ctx.paths.sliceFile(m.id, slice.id, 'PLAN');
    if (!plan) return { ...base, phase: 'refining', nextAction: `Refine sketch slice ${slice.id} (${slice.title}).` };
    diagnostics.push({ file: plan, severity: 'info', message: `slice ${m.id}/${slice.id} is still marked as a sketch but has a plan; GSD clears the flag on its next derivation` });
  }

  const tasks = snap.tasks.get(unitKey(m.id, slice.id)) ?? [];
  const open = tasks.find((t) => !isClosedStatus(t.status));
  if (!open) {
    return tasks.length > 0
      ? { ...base, phase: 'summarizing', nextAction: `All tasks of ${slice.id} are complete. Write the slice summary and complete the slice.` }
      : { ...base, phase: 'planning', nextAction: `Plan the tasks of slice ${slice.id} (${slice.title}).` };
  }
  const activeTask = { id: open.id, title: open.title };

  // Quality gates of the gate-evaluate turn still pending: evaluated before any task runs.
  const gates = snap.pendingGateEvaluate.get(unitKey(m.id, slice.id)) ?? 0;
  if (gates > 0) {
    return { ...base, phase: 'evaluating-gates', nextAction: `Evaluate ${gates} pending quality gate${gates === 1 ? '' : 's'} of ${slice.id} before execution.` };
  }

  // detectBlockers: the first closed task that discovered a blocker; any replan of the slice answers it.
  const replans = snap.replans.get(unitKey(m.id, slice.id)) ?? [];
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

  // detectPendingEscalation: the first task flagged escalation_pending whose artifact is valid and unanswered.
  for (const t of tasks) {
    if (!t.escalationPending || !t.escalationArtifactPath) continue;
    const art = ctx.readEscalation(t.escalationArtifactPath);
    if ('problem' in art) {
      diagnostics.push({ file: path.resolve(ctx.root, t.escalationArtifactPath), severity: 'info', message: `escalation of ${m.id}/${slice.id}/${t.id} ${art.problem}; GSD ignores it` });
      continue;
    }
    if (art.pending) {
      return {
        ...base,
        activeTask,
        phase: 'escalating-task',
        blockers: [`Task ${t.id} is waiting for a decision from the user.`],
        nextAction: `Answer the escalation of ${t.id} with GSD (/gsd escalate) before the loop goes on.`,
      };
    }
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
