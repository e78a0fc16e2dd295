// Pending actions (docs/review-loop.md, "Pending actions"): required
// follow-up listed in a task summary must not vanish. Earlier tasks' actions are carried into the
// next execute-task prompt, and the latest completed task (by completed_at, then plan order) that
// still has pending actions sends the slice to replan-slice, unless a replan is recorded for that
// very task: by GSD's S01-REPLAN.md (`**Blocker Task:** T02`) or in this hook's own state. The same
// rule in every code path; a replan recorded for another task does not suppress this one.
import {
  activeUnits,
  defaultDecision,
  promptContextOf,
  recordsThroughWorkflowTools,
  replanDecision,
  type BuiltinHook,
  type DeepReadonly,
  type GSDMiddleware,
  type MiddlewareContext,
  type PromptContext,
  type SliceEntry,
  type TaskEntry,
} from '../../api';

export const PENDING_ACTIONS = 'pending-actions';
export const PENDING_ACTIONS_PRIORITY = 20;

/** `extensions.pending-actions` of a slice (its per-unit hook state). */
export interface PendingActionsSliceState {
  /** Tasks whose pending actions a finished replan-slice unit answered. */
  replannedFor?: string[];
}

declare module '../../api' {
  interface GSDUnitExtensions {
    'pending-actions': PendingActionsSliceState;
  }
  interface GSDStateExtensions {
    'pending-actions': Record<string, PendingActionsSliceState>;
  }
}

type Ctx = MiddlewareContext<PendingActionsSliceState>;

function sliceState(value: unknown): PendingActionsSliceState {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as PendingActionsSliceState) : {};
}

/** "Latest" completed task: by completed_at, then by plan order; never by file-listing order. */
export function latestCompletedTask(slice: DeepReadonly<SliceEntry>): DeepReadonly<TaskEntry> | null {
  let latest: { task: DeepReadonly<TaskEntry>; time: number; index: number } | null = null;
  slice.tasks.forEach((task, index) => {
    if (!task.done) return;
    const parsed = task.completedAt ? Date.parse(task.completedAt) : NaN;
    const time = Number.isNaN(parsed) ? -Infinity : parsed;
    if (!latest || time > latest.time || (time === latest.time && index > latest.index)) latest = { task, time, index };
  });
  return (latest as { task: DeepReadonly<TaskEntry> } | null)?.task ?? null;
}

/** One rule for every path: a replan counts for a task when GSD's REPLAN names it or our state does. */
export function replanRecordedForTask(slice: DeepReadonly<SliceEntry>, own: PendingActionsSliceState, taskId: string): boolean {
  return slice.replannedTasks.includes(taskId) || (own.replannedFor ?? []).includes(taskId);
}

/**
 * Open pending actions of the tasks before `taskId`, as prompt text. Where the remaining ones go:
 * the summary's Known Issues, or on a database project gsd_task_complete's `knownIssues` (GSD
 * renders it as that section).
 */
export function carryForward(slice: DeepReadonly<SliceEntry>, beforeTaskId: string, context?: PromptContext): string {
  const lines: string[] = [];
  for (const t of slice.tasks) {
    if (t.id === beforeTaskId) break;
    for (const a of t.pendingActions) lines.push(`- ${t.id}: ${a.text}`);
  }
  const where = context && recordsThroughWorkflowTools(context)
    ? 'list any that remain in the `knownIssues` of your gsd_task_complete call, after a line "Pending actions:"'
    : 'list any that remain under "## Known Issues" → "Pending actions:" of your summary';
  return lines.length ? `\nPending actions carried forward from earlier tasks of this slice (required follow-up; ${where}):\n${lines.join('\n')}\n` : '';
}

function onDispatch(ctx: Ctx): void {
  const { milestone, slice } = activeUnits(ctx.state);
  if (!milestone || !slice || (ctx.state.phase !== 'executing' && ctx.state.phase !== 'summarizing')) return;
  const sliceId = `${milestone.id}/${slice.id}`;
  const context = promptContextOf(ctx.state);
  const latest = latestCompletedTask(slice);
  if (latest && latest.pendingActions.length > 0 && !replanRecordedForTask(slice, sliceState(ctx.store.get(sliceId)), latest.id)) {
    const list = latest.pendingActions.map((a) => `- ${a.text}`).join('\n');
    // The latest *completed* task is the blocker: GSD's gsd_replan_slice accepts only a finished
    // blockerTaskId and records the replan against it, which is what guards this task (and only it).
    ctx.decision = replanDecision(
      ctx.state,
      milestone,
      slice,
      latest.id,
      `Task ${latest.id}, the latest completed task of this slice, left required follow-up (pending actions):\n${list}\nPlan tasks for them (or fold them into existing tasks) before the slice goes on.`,
      context,
    );
    return;
  }
  if (ctx.state.phase === 'executing' && ctx.state.activeTask) {
    const carried = carryForward(slice, ctx.state.activeTask.id, context);
    const base = carried ? defaultDecision(ctx.state, context) : null;
    if (base?.unitType === 'execute-task') ctx.decision = { ...base, prompt: base.prompt + carried, reason: `${base.reason ?? ''} (with earlier pending actions)`.trim() };
  }
}

function onUnitFinished(ctx: Ctx): void {
  const r = ctx.result;
  if (!r || r.unitType !== 'replan-slice' || r.source !== PENDING_ACTIONS) return;
  const taskId = typeof r.data?.triggerTaskId === 'string' ? r.data.triggerTaskId : null;
  if (!taskId) return;
  const own = sliceState(ctx.store.get(r.unitId));
  if (!(own.replannedFor ?? []).includes(taskId)) ctx.store.set(r.unitId, { ...own, replannedFor: [...(own.replannedFor ?? []), taskId] });
}

export const pendingActionsMiddleware: GSDMiddleware<PendingActionsSliceState> = async (ctx, next) => {
  if (ctx.phase === 'dispatch') onDispatch(ctx);
  else onUnitFinished(ctx);
  await next();
};

export const pendingActionsHook: BuiltinHook = {
  name: PENDING_ACTIONS,
  register(api) {
    api.registerHook(PENDING_ACTIONS, pendingActionsMiddleware, { priority: PENDING_ACTIONS_PRIORITY });
  },
};
