// The review loop, as a hook on the shared core (docs/review-loop.md). A task that finished
// execution is reviewed before the slice moves on: review-task → issues found → cycle + 1, fix-task
// → review-task again … until no open issues, or `max_cycles`, where the open issues become pending
// actions of the task. It uses only the core's public API; the core does not know it exists.
import * as path from 'node:path';
import {
  activeUnits,
  findUnitById,
  parseCodeReview,
  promptContextOf,
  promptPath,
  readCodeReview,
  recordsThroughWorkflowTools,
  reviewPassed,
  type BuiltinHook,
  type CodeReview,
  type DeepReadonly,
  type GSDMiddleware,
  type GSDState,
  type MiddlewareContext,
  type MilestoneEntry,
  type SliceEntry,
  type TaskEntry,
  type UnitDecision,
} from '../../api';
import { ReviewLoopProvider } from './review-loop-provider';
import { FIX_TASK, issueLines, render, REVIEW_TASK, summaryUpdate } from './review-prompts';
import {
  REVIEW_LOOP,
  summarizeReviewLoop,
  taskState,
  type ActiveReview,
  type ReviewCycleRecord,
  type ReviewLoopTaskState,
  type StateIssue,
} from './review-loop-state';

export const DEFAULT_MAX_CYCLES = 5;
export const REVIEW_LOOP_PRIORITY = 10;

type Ctx = MiddlewareContext<ReviewLoopTaskState>;

interface Target {
  state: DeepReadonly<GSDState>;
  milestone: DeepReadonly<MilestoneEntry>;
  slice: DeepReadonly<SliceEntry>;
  task: DeepReadonly<TaskEntry>;
  unitId: string;
  /** The task's folder, relative to `.gsd` (forward slashes). */
  tasksDir: string;
}

export const MAX_CYCLES_LIMIT = 50;

/** `max_cycles` as set, or null when it is set to something that is not a whole number from 1 to 50. */
function maxCyclesSetting(options: Readonly<Record<string, unknown>>): number | null {
  const raw = options.max_cycles ?? DEFAULT_MAX_CYCLES;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= MAX_CYCLES_LIMIT ? n : null;
}

export function maxCycles(options: Readonly<Record<string, unknown>>): number {
  return maxCyclesSetting(options) ?? DEFAULT_MAX_CYCLES;
}

/** The cap for this run; an invalid setting is said once (where it is set), not silently replaced. */
function checkedMaxCycles(ctx: Ctx): number {
  if (maxCyclesSetting(ctx.options) === null) {
    ctx.report({
      file: 'PREFERENCES.md',
      severity: 'warning',
      message: `options.max_cycles of the review-loop hook is ${JSON.stringify(ctx.options.max_cycles)}; it must be a whole number from 1 to ${MAX_CYCLES_LIMIT}, so the default ${DEFAULT_MAX_CYCLES} applies`,
    });
  }
  return maxCycles(ctx.options);
}

/** The task's state file, relative to `.gsd`, for diagnostics. */
function stateFileOf(t: Target): string {
  return t.task.planFile ? relToGsd(t.state, t.task.planFile) : `${t.tasksDir}/${t.task.id}-PLAN.md`;
}

/** The task's review-loop block, checked value by value; a value that does not fit is named and left out. */
function readTaskState(ctx: Ctx, t: Target): ReviewLoopTaskState {
  const issues: StateIssue[] = [];
  const st = taskState(ctx.store.get(t.unitId), issues);
  for (const i of issues) {
    ctx.report({ file: stateFileOf(t), severity: 'warning', message: `extensions.${REVIEW_LOOP}${i.key ? `.${i.key}` : ''} of ${t.task.id}: ${i.message}; that value is left out` });
  }
  return st;
}

function relToGsd(state: DeepReadonly<GSDState>, abs: string): string {
  return path.relative(state.gsdDir, abs).split(path.sep).join('/');
}

function targetFor(state: DeepReadonly<GSDState>, milestone: DeepReadonly<MilestoneEntry>, slice: DeepReadonly<SliceEntry>, task: DeepReadonly<TaskEntry>): Target {
  const anyFile = task.summaryFile ?? task.planFile;
  const tasksDirAbs = anyFile ? path.dirname(anyFile) : path.join(slice.dir ?? path.join(milestone.dir, 'slices', slice.id), 'tasks');
  return { state, milestone, slice, task, unitId: `${milestone.id}/${slice.id}/${task.id}`, tasksDir: relToGsd(state, tasksDirAbs) };
}

/** The task the loop works on: the first finished task of the active slice without a review outcome. */
function taskUnderReview(ctx: Ctx): Target | null {
  const { milestone, slice } = activeUnits(ctx.state);
  if (!milestone || !slice) return null;
  for (const task of slice.tasks) {
    if (!task.done) continue;
    const target = targetFor(ctx.state, milestone, slice, task);
    if (!taskState(ctx.store.get(target.unitId)).outcome) return target;
  }
  return null;
}

/** A unit id's task inside the registry, whichever slice it is in. */
function findTarget(state: DeepReadonly<GSDState>, unitId: string): Target | null {
  const { milestone, slice, task } = findUnitById(state, unitId);
  return milestone && slice && task ? targetFor(state, milestone, slice, task) : null;
}

function validActive(ctx: Ctx, target: Target, active: ActiveReview | undefined): ActiveReview | undefined {
  if (!active) return undefined;
  const ok = Number.isInteger(active.cycle) && active.cycle >= 1 && (active.status === 'pending_review' || active.status === 'fixing');
  if (ok) return active;
  ctx.report({ file: target.task.planFile, message: `extensions.review-loop.activeReview of ${target.task.id} is not understood (${JSON.stringify(active)}); the review resumes after the last recorded cycle` });
  return undefined;
}

/** `lastReviewPath` comes from a file a person can edit: it must stay inside `.gsd`. */
function readLastReview(ctx: Ctx, target: Target, rel: string): CodeReview | null {
  if (!rel) return null;
  if (path.isAbsolute(rel) || rel.split(/[\\/]/).includes('..')) {
    ctx.report({ file: target.task.planFile, message: `lastReviewPath "${rel}" leaves .gsd; not read` });
    return null;
  }
  const text = ctx.readGsdFile(rel);
  if (text === null) {
    ctx.report({ file: target.task.planFile, message: `lastReviewPath "${rel}" does not exist` });
    return null;
  }
  // Read while deciding (every `next`, every agent event): the hand-scanned path, like the derive.
  return parseCodeReview(text, rel);
}

/** A file of the task as the prompt names it (its conventional place when it does not exist yet). */
function taskFile(t: Target, suffix: 'PLAN' | 'SUMMARY', file: string | undefined): string {
  return promptPath(t.state, file ?? path.join(t.state.gsdDir, t.tasksDir, `${t.task.id}-${suffix}.md`));
}

/** What both prompts of a cycle say about the task and the cycle. */
function cycleValues(t: Target, active: ActiveReview, max: number): Record<string, string> {
  return {
    taskId: t.task.id,
    taskTitle: t.task.title,
    sliceRef: `${t.milestone.id}/${t.slice.id}`,
    cycle: String(active.cycle),
    maxCycles: String(max),
  };
}

function reviewDecision(ctx: Ctx, t: Target, active: ActiveReview): UnitDecision {
  const max = maxCycles(ctx.options);
  const reviewPath = `.gsd/${t.tasksDir}/${t.task.id}-CODE-REVIEW.md`;
  const previous = active.lastReviewPath
    ? `\nThe previous review is .gsd/${active.lastReviewPath}: check that each of its open issues is fixed; tick the fixed ones ([x]) and keep the rest open.\n`
    : '';
  const prompt = render(REVIEW_TASK, {
    ...cycleValues(t, active, max),
    reviewPath,
    taskPlanPath: taskFile(t, 'PLAN', t.task.planFile),
    taskSummaryPath: taskFile(t, 'SUMMARY', t.task.summaryFile),
    keyFiles: t.task.files.length ? ` (${t.task.files.join(', ')})` : '',
    previousReview: previous,
  });
  return {
    unitType: 'review-task',
    unitId: t.unitId,
    prompt,
    reason: `review cycle ${active.cycle} of ${max} for ${t.task.id}`,
    data: { cycle: active.cycle, reviewPath },
  };
}

function fixDecision(ctx: Ctx, t: Target, active: ActiveReview): UnitDecision {
  const last = readLastReview(ctx, t, active.lastReviewPath);
  const max = maxCycles(ctx.options);
  const prompt = render(FIX_TASK, {
    ...cycleValues(t, active, max),
    lastReviewPath: active.lastReviewPath ? `.gsd/${active.lastReviewPath}` : '(missing)',
    issues: issueLines(last?.openIssues ?? []),
    verify: t.task.verify ?? 'its Verify command',
    summaryUpdate: summaryUpdate(taskFile(t, 'SUMMARY', t.task.summaryFile), recordsThroughWorkflowTools(promptContextOf(t.state))),
  });
  return {
    unitType: 'fix-task',
    unitId: t.unitId,
    prompt,
    reason: `fix the ${last?.openIssues.length ?? 0} open issue(s) of ${t.task.id}, cycle ${active.cycle} of ${max}`,
    data: { cycle: active.cycle },
  };
}

/**
 * A stored cycle past the cap (edited by hand, or the cap was lowered): the loop stops for the task
 * as it does at the cap, so it never dispatches "cycle 99 of 5". The last review's open issues
 * become pending actions.
 */
function stopAtCap(ctx: Ctx, t: Target, st: ReviewLoopTaskState, active: ActiveReview, max: number): void {
  ctx.report({ file: stateFileOf(t), severity: 'warning', message: `review cycle ${active.cycle} of ${t.task.id} is past max_cycles ${max}; the review stops there` });
  const last = active.lastReviewPath ? readLastReview(ctx, t, active.lastReviewPath) : null;
  const base: ReviewLoopTaskState = { ...st };
  delete base.activeReview;
  ctx.store.set(t.unitId, {
    ...base,
    outcome: { cycles: max, passed: false, completedAt: new Date().toISOString() },
    pendingActions: [...(st.pendingActions ?? []), ...(last?.openIssues ?? []).map((i) => issueText(i, active.cycle))],
  });
}

function onDispatch(ctx: Ctx): boolean {
  const target = taskUnderReview(ctx);
  if (!target) return false;
  const st = readTaskState(ctx, target);
  const max = checkedMaxCycles(ctx);
  let active = validActive(ctx, target, st.activeReview);
  if (active && active.cycle > max) {
    stopAtCap(ctx, target, st, active, max);
    return false;
  }
  if (!active) {
    // A lost or unreadable activeReview resumes after the last recorded cycle, so editing the
    // block away does not start the count again (and sidestep max_cycles).
    const lastCycle = Math.max(0, ...(st.history ?? []).map((h) => h.cycle));
    active = { taskId: target.task.id, cycle: lastCycle + 1, status: 'pending_review', lastReviewPath: '' };
    if (active.cycle > max) {
      stopAtCap(ctx, target, st, active, max);
      return false;
    }
    ctx.store.set(target.unitId, { ...st, activeReview: active, history: st.history ?? [] });
  }
  ctx.decision = active.status === 'fixing' ? fixDecision(ctx, target, active) : reviewDecision(ctx, target, active);
  return true;
}

function issueText(i: CodeReview['openIssues'][number], cycle: number): string {
  return `${i.severity ? `[${i.severity}] ` : ''}${i.location ? `${i.location}: ` : ''}${i.text} (still open after review cycle ${cycle})`;
}

function onReviewFinished(ctx: Ctx, t: Target, st: ReviewLoopTaskState, active: ActiveReview): void {
  const liveRel = `${t.tasksDir}/${t.task.id}-CODE-REVIEW.md`;
  const text = ctx.readGsdFile(liveRel);
  const notAdvancing = (message: string, line?: number) =>
    ctx.report({ file: liveRel, severity: 'error', message: `${message}; review cycle ${active.cycle} of ${t.task.id} stays open`, ...(line ? { line } : {}) });
  if (text === null) return notAdvancing('the reviewer wrote no review file');
  if (text.trim() === '') return notAdvancing('the review file is empty');
  const review = readCodeReview(text, path.join(t.state.gsdDir, liveRel));
  if (!review.wellFormed) {
    for (const d of review.diagnostics) ctx.report({ file: liveRel, severity: 'error', message: d.message, ...(d.line ? { line: d.line } : {}) });
    return notAdvancing('the review is malformed');
  }
  if (review.task && review.task !== t.task.id) return notAdvancing(`the review is for ${review.task}, not ${t.task.id}`);
  if (review.cycle !== active.cycle) return notAdvancing(`the review is for cycle ${review.cycle}, not cycle ${active.cycle}`);

  // Keep this cycle's review as its own snapshot, so any two cycles can be compared later.
  const snapshot = `${t.tasksDir}/${t.task.id}-CODE-REVIEW-C${active.cycle}.md`;
  ctx.writeGsdFile(snapshot, text);
  const record: ReviewCycleRecord = {
    cycle: active.cycle,
    verdict: review.verdict,
    openIssues: review.openIssues.length,
    resolvedIssues: review.resolvedIssues.length,
    reviewPath: snapshot,
  };
  const history = [...(st.history ?? []).filter((h) => h.cycle !== active.cycle), record];
  const base: ReviewLoopTaskState = { ...st, history };
  delete base.activeReview;
  const completedAt = ctx.result!.completedAt;
  if (reviewPassed(review)) {
    ctx.store.set(t.unitId, { ...base, outcome: { cycles: active.cycle, passed: true, completedAt } });
    ctx.log.info(`${t.task.id} passed review in cycle ${active.cycle}`);
  } else if (active.cycle >= maxCycles(ctx.options)) {
    // At the cap (or past it, when the stored cycle was edited): the loop stops here.
    ctx.store.set(t.unitId, {
      ...base,
      outcome: { cycles: active.cycle, passed: false, completedAt },
      pendingActions: [...(st.pendingActions ?? []), ...review.openIssues.map((i) => issueText(i, active.cycle))],
    });
    ctx.log.warn(`${t.task.id} still has ${review.openIssues.length} open issue(s) after ${active.cycle} cycles; they are now pending actions`);
  } else {
    ctx.store.set(t.unitId, { ...base, activeReview: { taskId: t.task.id, cycle: active.cycle + 1, status: 'fixing', lastReviewPath: snapshot } });
  }
}

function onUnitFinished(ctx: Ctx): void {
  const result = ctx.result;
  if (!result || result.source !== REVIEW_LOOP || (result.unitType !== 'review-task' && result.unitType !== 'fix-task')) return;
  const target = findTarget(ctx.state, result.unitId);
  if (!target) {
    ctx.report({ message: `${result.unitType} ${result.unitId} finished, but that task is not in the active slice any more` });
    return;
  }
  const st = readTaskState(ctx, target);
  checkedMaxCycles(ctx);
  const active = validActive(ctx, target, st.activeReview);
  if (!active) {
    ctx.report({ file: target.task.planFile, message: `${result.unitType} ${result.unitId} finished, but the task has no active review` });
    return;
  }
  if (result.unitType === 'fix-task') {
    if (active.status !== 'fixing') ctx.report({ file: target.task.planFile, message: `fix-task finished while the review of ${target.task.id} was ${active.status}` });
    ctx.store.set(target.unitId, { ...st, activeReview: { ...active, status: 'pending_review' } });
    return;
  }
  if (active.status !== 'pending_review') {
    ctx.report({ file: target.task.planFile, message: `review-task finished while ${target.task.id} was waiting for a fix` });
    return;
  }
  onReviewFinished(ctx, target, st, active);
}

export const reviewLoopMiddleware: GSDMiddleware<ReviewLoopTaskState> = async (ctx, next) => {
  if (ctx.phase === 'dispatch') {
    // While a task is in review the slice waits: no later hook and no default dispatch.
    if (onDispatch(ctx)) return;
  } else {
    onUnitFinished(ctx);
  }
  await next();
};

export const reviewLoopHook: BuiltinHook = {
  name: REVIEW_LOOP,
  register(api, options) {
    api.registerHook(REVIEW_LOOP, reviewLoopMiddleware, { priority: REVIEW_LOOP_PRIORITY, summarize: summarizeReviewLoop });
    api.registerProvider(new ReviewLoopProvider(options));
  },
};
