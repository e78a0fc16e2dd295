// GSD-2's own rules for deriving the project state from its database, applied to one snapshot of
// rows. Source: gsd-build/gsd-2 at 76568edc, src/resources/extensions/gsd/state.ts,
// `deriveStateFromDb` and what it calls (`buildCompletenessSet`, `buildRegistryAndFindActive`,
// `handleNoActiveMilestone`, `handleAllSlicesDone`, `resolveSliceDependencies`, `detectBlockers`,
// `checkReplanTrigger`), status-guards.ts (`isClosedStatus`, `isDeferredStatus`),
// state-reconciliation/drift/sketch-flag.ts (`autoHealSketchFlags`) and escalation.ts
// (`detectPendingEscalation`). Completion comes only from the status columns: SUMMARY files, checkboxes
// and the markdown in general are GSD's renderings and are not consulted.
// Not followed: GSD_PARALLEL_WORKER / GSD_MILESTONE_LOCK / GSD_SLICE_LOCK (GSD's own worker
// processes) and the requirement counts (not part of our state).
import type {
  Diagnostic,
  GSDState,
  MilestoneEntry,
  MilestoneStatus,
  PendingAction,
  Progress,
  SliceEntry,
  SliceStatus,
  TaskEntry,
  TaskStatus,
  PhaseDecision,
} from '../model/types';
import type { EscalationRead } from './escalation-artifact';
import { unitKey, type Gsd2Snapshot, type MilestoneRow, type SliceRow, type TaskRow } from './snapshot';
import type { UnitPaths } from './unit-paths';
import { knownIssueActions } from './known-issue-actions';
import { isClosedStatus, isDeferredStatus } from './status-guards';
import * as path from 'node:path';

/** A task as the database records it, plus GSD's raw status and order. */
export interface Gsd2TaskEntry extends TaskEntry {
  /** The `tasks.status` column as written (`pending`, `complete`, `skipped`, …). */
  gsdStatus: string;
  sequence: number;
}

export interface Gsd2SliceEntry extends SliceEntry {
  /** The `slices.status` column as written; `deferred` slices show as `pending`, `skipped` as `done`. */
  gsdStatus: string;
  sequence: number;
  /** `is_sketch`: planned only as a sketch, refined before its tasks are planned. */
  isSketch: boolean;
  tasks: Gsd2TaskEntry[];
}

export interface Gsd2MilestoneEntry extends MilestoneEntry {
  gsdStatus: string;
  sequence: number;
  slices: Gsd2SliceEntry[];
}

/** The state of a GSD-2 database project: a GSDState whose registry also carries GSD's raw statuses. */
export interface Gsd2DatabaseState extends GSDState {
  milestones: Gsd2MilestoneEntry[];
}

export interface DeriveContext {
  root: string;
  gsdDir: string;
  dbPath: string;
  paths: UnitPaths;
  readEscalation: (artifactPath: string) => EscalationRead;
}

export { isClosedStatus, isDeferredStatus };

// `M`, a digit, anything up to the first colon (the id and its team suffix among it), the colon and
// the blanks after it: what `^M\d+(?:-[a-z0-9]{6})?[^:]*:\s*` matches, without its `\d+`, team
// suffix and `[^:]*` competing for the same characters (quadratic on a long title without a colon).
const MILESTONE_PREFIX = /^M\d[^:]*:\s*/;

/** GSD shows `M001: Title` as `Title` (state.ts `stripMilestonePrefix`). */
export function milestoneTitle(m: Pick<MilestoneRow, 'id' | 'title'>): string {
  const stripped = m.title.replace(MILESTONE_PREFIX, '') || m.title;
  return stripped || m.id;
}

interface RegistryItem {
  row: MilestoneRow;
  title: string;
  status: MilestoneStatus;
}

type Decision = PhaseDecision;

const progressOf = <T>(items: T[], done: (t: T) => boolean): Progress => ({ done: items.filter(done).length, total: items.length });

/** The registry and the active milestone (buildCompletenessSet, buildRegistryAndFindActive): milestone and slice rows only. */
function buildRegistry(snap: Gsd2Snapshot): { registry: RegistryItem[]; active: RegistryItem | null } {
  const slicesOf = (mid: string): SliceRow[] => snap.slices.get(mid) ?? [];

  // Completeness and parking come from the milestone's own status only (buildCompletenessSet).
  const completeIds = new Set<string>();
  const parkedIds = new Set<string>();
  for (const m of snap.milestones) {
    if (m.status === 'parked') parkedIds.add(m.id);
    else if (isClosedStatus(m.status)) completeIds.add(m.id);
  }

  // Registry and the active milestone (buildRegistryAndFindActive): the first milestone, in queue
  // order, that is neither parked nor closed and whose dependencies are all closed. A queued shell
  // (status `queued`, no slices yet) is taken only when nothing else is eligible; a milestone whose
  // slices are all closed and whose latest validation says needs-attention is parked on the way.
  const registry: RegistryItem[] = [];
  let active: RegistryItem | null = null;
  let firstQueuedShell: RegistryItem | null = null;
  for (const m of snap.milestones) {
    const title = milestoneTitle(m);
    if (parkedIds.has(m.id)) {
      registry.push({ row: m, title, status: 'parked' });
      continue;
    }
    if (completeIds.has(m.id)) {
      registry.push({ row: m, title, status: 'complete' });
      continue;
    }
    const item: RegistryItem = { row: m, title, status: 'pending' };
    registry.push(item);
    if (active) continue;
    const slices = slicesOf(m.id);
    if (m.dependsOn.some((d) => !completeIds.has(d))) continue;
    if (m.status === 'queued' && slices.length === 0) {
      firstQueuedShell ??= item;
      continue;
    }
    const allSlicesDone = slices.length > 0 && slices.every((s) => isClosedStatus(s.status));
    if (allSlicesDone && snap.validationVerdicts.get(m.id) === 'needs-attention') {
      item.status = 'parked';
      continue;
    }
    item.status = 'active';
    active = item;
  }
  if (!active && firstQueuedShell) {
    firstQueuedShell.status = 'active';
    active = firstQueuedShell;
  }
  return { registry, active };
}

/** resolveSliceDependencies: the first slice, by sequence, neither closed nor deferred, whose dependencies are all closed. */
function eligibleSlice(slices: SliceRow[]): SliceRow | undefined {
  const closedIds = new Set(slices.filter((s) => isClosedStatus(s.status)).map((s) => s.id));
  return slices.find((s) => !isClosedStatus(s.status) && !isDeferredStatus(s.status) && s.depends.every((d) => closedIds.has(d)));
}

/**
 * The slices whose task rows the derivation reads, from milestone and slice rows alone: the active
 * slice (decide() looks at no other slice's tasks). Every other slice's tasks serve only the registry,
 * which a lazy read counts in SQL instead.
 */
export function slicesNeedingTasks(snap: Gsd2Snapshot): Array<{ milestoneId: string; sliceId: string }> {
  const { active } = buildRegistry(snap);
  if (!active) return [];
  const slices = snap.slices.get(active.row.id) ?? [];
  if (slices.length === 0 || slices.every((s) => isClosedStatus(s.status))) return [];
  const slice = eligibleSlice(slices);
  return slice ? [{ milestoneId: active.row.id, sliceId: slice.id }] : [];
}

export function deriveFromSnapshot(snap: Gsd2Snapshot, ctx: DeriveContext): Gsd2DatabaseState {
  const diagnostics: Diagnostic[] = [];
  const slicesOf = (mid: string): SliceRow[] => snap.slices.get(mid) ?? [];
  const tasksOf = (mid: string, sid: string): TaskRow[] => snap.tasks.get(unitKey(mid, sid)) ?? [];
  const replansOf = (mid: string, sid: string) => snap.replans.get(unitKey(mid, sid)) ?? [];

  const { registry, active } = buildRegistry(snap);
  const decision = decide(snap, registry, active, ctx, diagnostics);

  const actionsOf = (mid: string, sid: string, tid: string, knownIssues: string): PendingAction[] =>
    knownIssues
      ? knownIssueActions(
          knownIssues,
          { milestoneId: mid, sliceId: sid, taskId: tid },
          ctx.paths.taskFile(mid, sid, tid, 'SUMMARY'),
          path.join(ctx.paths.sliceDir(mid, sid) ?? path.join(ctx.gsdDir, 'milestones', mid, 'slices', sid), 'tasks', `${tid}-SUMMARY.md`),
        )
      : [];
  // Slices whose tasks a lazy read did not read: their pending actions, from the tasks with known issues.
  const unreadActions = new Map<SliceEntry, PendingAction[]>();

  // The registry in our shape: every milestone, slice and task (a lazy read: the tasks of the slices
  // the derivation looked into, the others counted), with the active ones marked.
  const milestones: Gsd2MilestoneEntry[] = registry.map((item) => {
    const m = item.row;
    const isActiveMilestone = decision.activeMilestone?.id === m.id;
    const rows = slicesOf(m.id);
    const closedSliceIds = new Set(rows.filter((s) => isClosedStatus(s.status)).map((s) => s.id));
    const slices = rows.map((s): Gsd2SliceEntry => {
      const isActiveSlice = isActiveMilestone && decision.activeSlice?.id === s.id;
      let status: SliceStatus;
      if (isClosedStatus(s.status)) status = 'done';
      else if (isActiveSlice) status = decision.phase === 'replanning-slice' ? 'replanning' : 'active';
      else if (!isDeferredStatus(s.status) && s.depends.some((d) => !closedSliceIds.has(d))) status = 'blocked';
      else status = 'pending';
      const key = unitKey(m.id, s.id);
      const tasksRead = snap.tasksReadFor === null || snap.tasksReadFor.has(key);
      const taskRows = tasksRead ? tasksOf(m.id, s.id) : [];
      const tasks = taskRows.map((t): Gsd2TaskEntry => {
        let tStatus: TaskStatus = isClosedStatus(t.status) ? 'done' : 'pending';
        if (isActiveSlice && decision.activeTask?.id === t.id && tStatus !== 'done') tStatus = 'active';
        const entry: Gsd2TaskEntry = {
          id: t.id,
          title: t.title || t.id,
          status: tStatus,
          done: isClosedStatus(t.status),
          files: t.files,
          // The DB has no plan line; 0 says "not from a plan file".
          planLine: 0,
          blockerDiscovered: t.blockerDiscovered,
          pendingActions: actionsOf(m.id, s.id, t.id, t.knownIssues),
          reviews: [],
          extensions: {},
          gsdStatus: t.status,
          sequence: t.sequence,
        };
        if (t.estimate) entry.estimate = t.estimate;
        if (t.verify) entry.verify = t.verify;
        if (t.completedAt) entry.completedAt = t.completedAt;
        if (t.verificationResult) entry.verificationResult = t.verificationResult;
        if (t.oneLiner) entry.oneLiner = t.oneLiner;
        return entry;
      });
      const entry: Gsd2SliceEntry = {
        id: s.id,
        title: s.title || s.id,
        status,
        done: isClosedStatus(s.status),
        depends: s.depends,
        replannedTasks: replansOf(m.id, s.id).filter((t): t is string => !!t),
        planLoaded: tasksRead,
        tasks,
        progress: tasksRead ? progressOf(taskRows, (t) => isClosedStatus(t.status)) : (snap.taskCounts.get(key) ?? { done: 0, total: 0 }),
        extensions: {},
        gsdStatus: s.status,
        sequence: s.sequence,
        isSketch: s.isSketch,
      };
      if (!tasksRead) {
        // Counted in SQL; the pending actions come from the tasks with known issues alone.
        entry.progressLoaded = true;
        unreadActions.set(entry, (snap.knownIssues.get(key) ?? []).flatMap((t) => actionsOf(m.id, s.id, t.id, t.knownIssues)));
      }
      if (s.risk) entry.risk = s.risk;
      if (s.demo) entry.demo = s.demo;
      const dir = ctx.paths.sliceDir(m.id, s.id);
      if (dir) entry.dir = dir;
      return entry;
    });
    return {
      id: m.id,
      title: item.title,
      status: item.status,
      dir: ctx.paths.milestoneDir(m.id) ?? path.join(ctx.gsdDir, 'milestones', m.id),
      dependsOn: m.dependsOn,
      // Every slice row is read: there is no roadmap file to skip.
      roadmapLoaded: true,
      slices,
      progress: progressOf(rows, (s) => isClosedStatus(s.status)),
      extensions: {},
      gsdStatus: m.status,
      sequence: m.sequence,
    };
  });

  const activeEntry = milestones.find((m) => m.id === decision.activeMilestone?.id);
  const activeSliceEntry = activeEntry?.slices.find((s) => s.id === decision.activeSlice?.id);
  return {
    root: ctx.root,
    gsdDir: ctx.gsdDir,
    ...decision,
    milestones,
    progress: {
      milestones: progressOf(registry, (r) => r.status === 'complete'),
      slices: activeEntry ? activeEntry.progress : { done: 0, total: 0 },
      tasks: activeSliceEntry ? activeSliceEntry.progress : { done: 0, total: 0 },
    },
    // Every open pending action, in GSD's order of milestones, slices and tasks.
    pendingActions: milestones.flatMap((m) => m.slices.flatMap((s) => unreadActions.get(s) ?? s.tasks.flatMap((t) => t.pendingActions))),
    extensions: {},
    diagnostics,
  };
}

function decide(snap: Gsd2Snapshot, registry: RegistryItem[], active: RegistryItem | null, ctx: DeriveContext, diagnostics: Diagnostic[]): Decision {
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
