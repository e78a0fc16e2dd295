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
  PendingAction,
  PhaseDecision,
  SliceEntry,
  SliceStatus,
  TaskEntry,
} from '../model/types';
import { decidePhase, type PhaseContext } from './decide-phase';
import { buildRegistry, progressOf } from './milestone-registry';
import { unitKey, type Gsd2Snapshot, type SliceRow, type TaskRow } from './snapshot';
import { knownIssueActions } from './known-issue-actions';
import { isClosedStatus, isDeferredStatus } from './status-guards';
import { NO_WORKFLOW_PREFERENCES, type WorkflowPreferences } from './workflow-preferences';
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
  /** `sketch_scope`: the boundary a sketch is refined within ('' when none). */
  sketchScope: string;
  /** Pending slice-scope quality gates (`Q3`, `Q4`, `Q8`), in GSD's order: they name its gate-evaluate unit. */
  pendingGates: string[];
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
  /** GSD's preferences that choose between units in `refining` and `evaluating-gates`. */
  workflowPreferences: WorkflowPreferences;
}

export interface DeriveContext extends PhaseContext {
  gsdDir: string;
  dbPath: string;
}


export function deriveFromSnapshot(snap: Gsd2Snapshot, ctx: DeriveContext): Gsd2DatabaseState {
  const diagnostics: Diagnostic[] = [];
  const { registry, active } = buildRegistry(snap);
  const decision = decidePhase(snap, registry, active, ctx, diagnostics);
  // Slices whose tasks a lazy read did not read: their pending actions, from the tasks with known issues.
  const unreadActions = new Map<SliceEntry, PendingAction[]>();

  // The registry in our shape: every milestone, slice and task (a lazy read: the tasks of the slices
  // the derivation looked into, the others counted), with the active ones marked.
  const milestones: Gsd2MilestoneEntry[] = registry.map((item) => {
    const m = item.row;
    const rows = snap.slices.get(m.id) ?? [];
    const closedSliceIds = new Set(rows.filter((s) => isClosedStatus(s.status)).map((s) => s.id));
    const activeSliceId = decision.activeMilestone?.id === m.id ? (decision.activeSlice?.id ?? null) : null;
    return {
      id: m.id,
      title: item.title,
      status: item.status,
      dir: ctx.paths.milestoneDir(m.id) ?? path.join(ctx.gsdDir, 'milestones', m.id),
      dependsOn: m.dependsOn,
      // Every slice row is read: there is no roadmap file to skip.
      roadmapLoaded: true,
      slices: rows.map((s) => sliceEntry(snap, ctx, s, s.id === activeSliceId ? decision : null, closedSliceIds, unreadActions)),
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
    workflowPreferences: NO_WORKFLOW_PREFERENCES,
  };
}

/** The pending actions under a task's known issues, placed in the SUMMARY GSD renders (or would). */
function actionsOf(ctx: DeriveContext, mid: string, sid: string, tid: string, knownIssues: string): PendingAction[] {
  if (!knownIssues) return [];
  return knownIssueActions(
    knownIssues,
    { milestoneId: mid, sliceId: sid, taskId: tid },
    { summaryFile: () => ctx.paths.taskFile(mid, sid, tid, 'SUMMARY'), fallbackFile: () => summaryOrDatabase(ctx, mid, sid, tid) },
  );
}

/**
 * Where an action points when GSD has not rendered the summary: where it will, unless that path
 * leads out of `.gsd` (a linked `slices` folder), then the database that holds the text.
 */
function summaryOrDatabase(ctx: DeriveContext, mid: string, sid: string, tid: string): string {
  const rendered = path.join(ctx.paths.sliceDir(mid, sid) ?? path.join(ctx.gsdDir, 'milestones', mid, 'slices', sid), 'tasks', `${tid}-SUMMARY.md`);
  return ctx.paths.inside(rendered) ? rendered : ctx.dbPath;
}

/** One slice row in our shape; `active` is the decision when this is the active slice, else null. */
function sliceEntry(
  snap: Gsd2Snapshot,
  ctx: DeriveContext,
  s: SliceRow,
  active: PhaseDecision | null,
  closedSliceIds: Set<string>,
  unreadActions: Map<SliceEntry, PendingAction[]>,
): Gsd2SliceEntry {
  let status: SliceStatus;
  if (isClosedStatus(s.status)) status = 'done';
  else if (active) status = active.phase === 'replanning-slice' ? 'replanning' : 'active';
  else if (!isDeferredStatus(s.status) && s.depends.some((d) => !closedSliceIds.has(d))) status = 'blocked';
  else status = 'pending';
  const key = unitKey(s.milestoneId, s.id);
  const tasksRead = snap.tasksReadFor === null || snap.tasksReadFor.has(key);
  const taskRows = tasksRead ? (snap.tasks.get(key) ?? []) : [];
  const activeTaskId = active?.activeTask?.id ?? null;
  const entry: Gsd2SliceEntry = {
    id: s.id,
    title: s.title || s.id,
    status,
    done: isClosedStatus(s.status),
    depends: s.depends,
    replannedTasks: (snap.replans.get(key) ?? []).filter((t): t is string => !!t),
    planLoaded: tasksRead,
    tasks: taskRows.map((t) => taskEntry(ctx, t, t.id === activeTaskId)),
    progress: tasksRead ? progressOf(taskRows, (t) => isClosedStatus(t.status)) : (snap.taskCounts.get(key) ?? { done: 0, total: 0 }),
    extensions: {},
    gsdStatus: s.status,
    sequence: s.sequence,
    isSketch: s.isSketch,
    sketchScope: s.sketchScope,
    pendingGates: snap.pendingSliceGates.get(key) ?? [],
  };
  if (!tasksRead) {
    // Counted in SQL; the pending actions come from the tasks with known issues alone.
    entry.progressLoaded = true;
    unreadActions.set(entry, (snap.knownIssues.get(key) ?? []).flatMap((t) => actionsOf(ctx, s.milestoneId, s.id, t.id, t.knownIssues)));
  }
  if (s.risk) entry.risk = s.risk;
  if (s.demo) entry.demo = s.demo;
  const dir = ctx.paths.sliceDir(s.milestoneId, s.id);
  if (dir) entry.dir = dir;
  return entry;
}

/** One task row in our shape; the active task of the active slice is marked `active` while open. */
function taskEntry(ctx: DeriveContext, t: TaskRow, isActive: boolean): Gsd2TaskEntry {
  const done = isClosedStatus(t.status);
  const entry: Gsd2TaskEntry = {
    id: t.id,
    title: t.title || t.id,
    status: done ? 'done' : isActive ? 'active' : 'pending',
    done,
    files: t.files,
    // The DB has no plan line; 0 says "not from a plan file".
    planLine: 0,
    blockerDiscovered: t.blockerDiscovered,
    pendingActions: actionsOf(ctx, t.milestoneId, t.sliceId, t.id, t.knownIssues),
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
}
