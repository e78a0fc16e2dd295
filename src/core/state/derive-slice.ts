// Everything one slice folder says on its own: plan, tasks with their summaries, reviews and hook
// state, replans and continue files. Kept per slice so a change re-derives only that slice.
import * as path from 'node:path';
import { parseContinueFile } from '../parse/continue-file';
import { countLines, fmRecord, parseFrontmatter } from '../parse/frontmatter';
import type { ProjectFiles } from './project-files';
import { parseReplan } from '../parse/replan';
import { parseSlicePlan, type PlanTask } from '../parse/slice-plan';
import { parseTaskSummaryChecked, parseTaskSummaryForState } from '../parse/task-summary';
import type { PendingActionLine } from '../parse/known-issues';
import { TASK_FILE_ID, type DirIndex } from '../files/gsd-layout';
import type { Diagnostic, PendingAction, Progress, TaskEntry } from '../model/types';
import { mergedBlocks, SIDECAR_SUFFIX, unreadableSidecar } from '../hooks/engine/hook-sidecar';
import { NO_REVIEW_FILES, reviewFileOf, reviewHistory, type ReviewFile } from './review-history';

export interface SlicePart {
  sliceId: string;
  dir: string;
  planFile?: string;
  planFound: boolean;
  title?: string;
  summaryFile?: string;
  replanFile?: string;
  /** `S01-REPLAN-TRIGGER.md`: GSD's triage asks for a replan of the slice (only its presence counts). */
  replanTriggerFile?: string;
  replannedTasks: string[];
  /** A REPLAN.md that names no task answers every blocker of the slice. */
  replanCoversAll: boolean;
  continueFile?: string;
  /** The tasks folder exists and holds no markdown at all (GSD: task plans missing). */
  tasksDirEmpty: boolean;
  tasks: TaskEntry[];
  progress: Progress;
  pendingActions: PendingAction[];
  extensions: Record<string, unknown>;
  diagnostics: Diagnostic[];
}

interface TaskPlanState {
  extensions: Record<string, unknown>;
  /** `extensions.<hook>.pendingActions` entries, with their line in the file. */
  recorded: Array<{ hook: string; text: string; line: number }>;
  diagnostics: Diagnostic[];
}

const TASK_PLAN_KEYS = ['extensions'];

const NO_TASK_STATE: TaskPlanState = Object.freeze({ extensions: Object.freeze({}), recorded: [], diagnostics: [] }) as TaskPlanState;

function parseTaskPlanFrontmatter(text: string, file: string): TaskPlanState {
  // Most task plans carry no hook state: one substring search instead of splitting frontmatter.
  if (!text.includes('extensions')) return NO_TASK_STATE;
  const fm = parseFrontmatter(text, file, { onlyKeys: TASK_PLAN_KEYS });
  const extensions = fmRecord(fm.data, 'extensions');
  const recorded: TaskPlanState['recorded'] = [];
  for (const [hook, block] of Object.entries(extensions)) {
    const list = (block as { pendingActions?: unknown } | null)?.pendingActions;
    if (!Array.isArray(list)) continue;
    let from = 0;
    for (const item of list) {
      const t = typeof item === 'string' ? item : typeof (item as { text?: unknown })?.text === 'string' ? (item as { text: string }).text : null;
      if (!t) continue;
      const at = text.indexOf(t, from);
      if (at !== -1) from = at + t.length;
      recorded.push({ hook, text: t, line: at === -1 ? 1 : countLines(text, at) + 1 });
    }
  }
  return { extensions, recorded, diagnostics: fm.diagnostics };
}

/**
 * Hook state of a unit from its sidecar (`*-HOOKS.md`) and from its own PLAN/ROADMAP, where an older
 * version kept it until it is moved: per hook the sidecar's block wins (hook-sidecar.ts).
 */
function mergedTaskState(sidecar: TaskPlanState | null, plan: TaskPlanState | null): TaskPlanState | null {
  if (!sidecar) return plan;
  if (!plan || plan.recorded.length === 0 && Object.keys(plan.extensions).length === 0) return sidecar;
  const recorded = [...sidecar.recorded, ...plan.recorded.filter((r) => !(r.hook in sidecar.extensions))];
  return { extensions: mergedBlocks(sidecar.extensions, plan.extensions), recorded, diagnostics: [] };
}

const SIDECAR_TAIL = `-${SIDECAR_SUFFIX}.md`;

/**
 * Whether a listed file name is a hook-state sidecar. Exactly as we write it (`T01-HOOKS.md`): this
 * runs for every entry of every tasks folder of a derive, so no upper-casing, and no lookup index
 * is built for a name that is missing in most folders.
 */
export function isSidecarName(name: string): boolean {
  return name.length > SIDECAR_TAIL.length && name.endsWith(SIDECAR_TAIL);
}

const NO_ACTIONS: readonly PendingActionLine[] = [];
const NO_RECORDED: TaskPlanState['recorded'] = [];

// Letters in both cases rather than the `i` flag: see gsd-layout.ts.
export const SUMMARY_SUFFIX = /[Ss][Uu][Mm][Mm][Aa][Rr][Yy]\.[Mm][Dd]$/;
export const TASK_SUMMARY_FILE = /^([Tt]\d+)-(?:.*-)?[Ss][Uu][Mm][Mm][Aa][Rr][Yy]\.[Mm][Dd]$/;

function addAll<T>(target: T[], items: readonly T[]): void {
  // A loop, not push(...items): this runs for every task and most lists are empty.
  for (const item of items) target.push(item);
}

/** One task of the plan with what its own files say: plan state, summary, reviews. */
function taskEntry(
  files: ProjectFiles,
  t: PlanTask,
  tasksDir: DirIndex | null,
  milestoneId: string,
  sliceId: string,
  reviewFiles: ReviewFile[],
  sidecarName: string | undefined,
  diagnostics: Diagnostic[],
): TaskEntry {
  const planName = tasksDir?.fileName(t.id, 'PLAN') ?? null;
  const planFile = planName === null ? null : tasksDir!.join(planName);
  // Only our `extensions` block matters here; task plans without one are not YAML-parsed.
  const planState = planFile ? files.parseEntry(tasksDir!, planName!, planFile, parseTaskPlanFrontmatter) : null;
  if (planState) addAll(diagnostics, planState.diagnostics);
  const sidecarFile = sidecarName === undefined ? null : tasksDir!.join(sidecarName);
  const sidecarState = sidecarFile ? files.parseEntry(tasksDir!, sidecarName!, sidecarFile, parseTaskPlanFrontmatter) : null;
  if (sidecarState) addAll(diagnostics, sidecarState.diagnostics);
  const hookState = mergedTaskState(sidecarState?.value ?? null, planState?.value ?? null);
  const summaryName = tasksDir?.fileName(t.id, 'SUMMARY') ?? null;
  const summaryFile = summaryName === null ? null : tasksDir!.join(summaryName);
  const summary = summaryFile ? files.parseEntry(tasksDir!, summaryName!, summaryFile, files.checkWholeFrontmatter ? parseTaskSummaryChecked : parseTaskSummaryForState) : null;
  if (summary) addAll(diagnostics, summary.diagnostics);
  const s = summary?.value ?? null;
  if (s && s.id && s.id !== t.id) {
    diagnostics.push({ file: summaryFile!, line: 1, severity: 'warning', message: `summary says id ${s.id} but is filed under task ${t.id}` });
  }
  if (s && s.parent && s.parent.toUpperCase() !== sliceId.toUpperCase()) {
    diagnostics.push({ file: summaryFile!, line: 1, severity: 'warning', message: `summary says parent ${s.parent} but sits in slice ${sliceId}` });
  }
  const pendingActions: PendingAction[] = [];
  for (const a of s?.pendingActions ?? NO_ACTIONS) {
    pendingActions.push({ text: a.text, source: 'summary', file: summaryFile!, line: a.line, milestoneId, sliceId, taskId: t.id });
  }
  for (const r of hookState?.recorded ?? NO_RECORDED) {
    const file = sidecarState?.value && r.hook in sidecarState.value.extensions ? sidecarFile! : planFile!;
    pendingActions.push({ text: r.text, source: r.hook, file, line: r.line, milestoneId, sliceId, taskId: t.id });
  }
  // GSD counts a task with a SUMMARY as done, even when its box is unchecked.
  const done = summaryFile !== null || t.done;
  // One literal with every key (absent ones undefined, which JSON leaves out): thousands of these
  // are kept, and adding keys one by one gave each an extra property store.
  return {
    id: t.id,
    title: t.title,
    status: done ? 'done' : 'pending',
    done,
    files: t.files,
    planLine: t.line,
    blockerDiscovered: s?.blockerDiscovered ?? false,
    pendingActions,
    reviews: reviewHistory(files, tasksDir, t.id, reviewFiles, diagnostics),
    extensions: hookState?.extensions ?? {},
    hookStateUnreadable: sidecarState && sidecarState.diagnostics.length ? unreadableSidecar(sidecarFile!, sidecarState.diagnostics) : undefined,
    estimate: t.estimate || undefined,
    verify: t.verify || undefined,
    planFile: planFile ?? undefined,
    summaryFile: summaryFile ?? undefined,
    completedAt: s?.completedAt || undefined,
    verificationResult: s?.verificationResult || undefined,
    oneLiner: s?.oneLiner || undefined,
  };
}

export function deriveSlicePart(files: ProjectFiles, milestoneId: string, sliceId: string, sliceDir: string): SlicePart {
  const diagnostics: Diagnostic[] = [];
  const dir = files.dir(sliceDir);
  const part: SlicePart = {
    sliceId,
    dir: sliceDir,
    planFound: false,
    replannedTasks: [],
    replanCoversAll: false,
    tasksDirEmpty: false,
    tasks: [],
    progress: { done: 0, total: 0 },
    pendingActions: [],
    extensions: {},
    diagnostics,
  };
  if (!dir) return part;

  const planFile = dir.file(sliceId, 'PLAN');
  const plan = planFile ? files.parse(planFile, (text, file) => {
    const fm = parseFrontmatter(text, file);
    const parsed = parseSlicePlan(fm.body, fm.bodyStartLine, file);
    return { ...parsed, extensions: fmRecord(fm.data, 'extensions'), diagnostics: [...fm.diagnostics, ...parsed.diagnostics] };
  }) : null;
  if (planFile) part.planFile = planFile;
  if (plan) diagnostics.push(...plan.diagnostics);
  if (plan?.value) {
    part.planFound = true;
    if (plan.value.title) part.title = plan.value.title;
    part.extensions = plan.value.extensions;
  }
  const sidecar = dir.entries.some((e) => e.isFile && isSidecarName(e.name)) ? dir.file(sliceId, SIDECAR_SUFFIX) : null;
  if (sidecar) {
    const state = files.parse(sidecar, parseTaskPlanFrontmatter);
    diagnostics.push(...state.diagnostics);
    if (state.value) part.extensions = mergedBlocks(state.value.extensions, part.extensions);
  }

  const summaryFile = dir.file(sliceId, 'SUMMARY');
  if (summaryFile) part.summaryFile = summaryFile;
  const replanFile = dir.file(sliceId, 'REPLAN');
  if (replanFile) {
    // Its presence alone ends a triage replan (GSD's loop protection); its blocker tasks answer blockers.
    part.replanFile = replanFile;
    const replan = files.parse(replanFile, parseReplan);
    diagnostics.push(...replan.diagnostics);
    if (replan.value) {
      part.replannedTasks = replan.value.blockerTasks;
      part.replanCoversAll = replan.value.blockerTasks.length === 0;
    }
  }
  const replanTriggerFile = dir.file(sliceId, 'REPLAN-TRIGGER');
  if (replanTriggerFile) part.replanTriggerFile = replanTriggerFile;
  const continueFile = dir.file(sliceId, 'CONTINUE') ?? (dir.has('continue.md') ? path.join(sliceDir, 'continue.md') : null);
  if (continueFile) {
    const cont = files.parse(continueFile, parseContinueFile);
    diagnostics.push(...cont.diagnostics);
    if (cont.value) part.continueFile = continueFile;
  }

  const tasksDirPath = dir.subdir('tasks');
  const tasksDir = tasksDirPath ? files.dir(tasksDirPath) : null;
  if (tasksDir) part.tasksDirEmpty = !tasksDir.entries.some((e) => e.isFile && e.name.toLowerCase().endsWith('.md'));

  const reviewsByTask = new Map<string, ReviewFile[]>();
  const sidecarsByTask = new Map<string, string>();
  for (const e of tasksDir?.entries ?? []) {
    if (e.isFile && isSidecarName(e.name)) {
      const id = TASK_FILE_ID.exec(e.name)?.[1]?.toUpperCase();
      // `T01-HOOKS.md` itself wins over a descriptive `T01-…-HOOKS.md`.
      if (id && (!sidecarsByTask.has(id) || e.name.length === id.length + SIDECAR_TAIL.length)) sidecarsByTask.set(id, e.name);
      continue;
    }
    const review = e.isFile ? reviewFileOf(e.name, tasksDir!) : null;
    if (!review) continue;
    const list = reviewsByTask.get(review.taskId) ?? [];
    list.push(review);
    reviewsByTask.set(review.taskId, list);
  }

  const planned = new Set<string>();
  for (const t of plan?.value?.tasks ?? []) {
    planned.add(t.id);
    const task = taskEntry(files, t, tasksDir, milestoneId, sliceId, reviewsByTask.get(t.id) ?? NO_REVIEW_FILES, sidecarsByTask.get(t.id), diagnostics);
    part.tasks.push(task);
    for (const a of task.pendingActions) part.pendingActions.push(a);
  }
  for (const e of part.planFound ? tasksDir?.entries ?? [] : []) {
    // Cheap tests first: every done task has a summary, and they are nearly all planned.
    // `…SUMMARY.md` has a Y (any case) fourth from the end: plans and reviews skip the pattern.
    if (!e.isFile || (e.name.charCodeAt(e.name.length - 4) | 32) !== 121 || !SUMMARY_SUFFIX.test(e.name)) continue;
    const dash = e.name.indexOf('-');
    if (dash > 0 && planned.has(e.name.slice(0, dash).toUpperCase())) continue;
    const m = TASK_SUMMARY_FILE.exec(e.name);
    if (m && !planned.has(m[1].toUpperCase())) {
      diagnostics.push({ file: tasksDir!.join(e.name), severity: 'warning', message: `${m[1].toUpperCase()} has a summary but is not a task of ${sliceId}-PLAN.md` });
    }
  }
  part.progress = { done: part.tasks.filter((t) => t.done).length, total: part.tasks.length };
  return part;
}
