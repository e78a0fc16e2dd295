// Everything one slice folder says on its own: plan, tasks with their summaries, reviews and hook
// state, replans and continue files. Kept per slice so a change re-derives only that slice.
import * as path from 'node:path';
import { parseCodeReview, reviewPassed, type CodeReview } from './code-review';
import { parseContinueFile } from './continue-file';
import { countLines, fmRecord, parseFrontmatter } from './frontmatter';
import type { ProjectFiles } from './project-files';
import { parseReplan } from './replan';
import { parseSlicePlan } from './slice-plan';
import { parseTaskSummary } from './task-summary';
import type { Diagnostic, PendingAction, Progress, ReviewCycle, TaskEntry } from './types';

export interface SlicePart {
  sliceId: string;
  dir: string;
  planFile?: string;
  planFound: boolean;
  title?: string;
  summaryFile?: string;
  replanFile?: string;
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

const NO_TASK_STATE: TaskPlanState = Object.freeze({ extensions: Object.freeze({}), recorded: [], diagnostics: [] }) as TaskPlanState;

function parseTaskPlanFrontmatter(text: string, file: string): TaskPlanState {
  // Most task plans carry no hook state: one substring search instead of splitting frontmatter.
  if (!text.includes('extensions')) return NO_TASK_STATE;
  const fm = parseFrontmatter(text, file, { onlyKeys: ['extensions'] });
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

const REVIEW_FILE = /^(T\d+)-CODE-REVIEW(?:-C(\d+))?\.md$/i;

function reviewHistory(
  files: ProjectFiles,
  taskId: string,
  reviewFiles: Array<{ file: string; snapshotCycle: number | null }>,
  diagnostics: Diagnostic[],
): ReviewCycle[] {
  const byCycle = new Map<number, ReviewCycle>();
  // Snapshots first: when the live file repeats a snapshotted cycle, the snapshot is that cycle.
  const ordered = [...reviewFiles].sort((a, b) => (a.snapshotCycle === null ? 1 : 0) - (b.snapshotCycle === null ? 1 : 0));
  for (const { file, snapshotCycle } of ordered) {
    const parsed = files.parse<CodeReview>(file, parseCodeReview);
    diagnostics.push(...parsed.diagnostics);
    const review = parsed.value;
    if (!review) continue;
    if (review.task && review.task !== taskId) {
      diagnostics.push({ file, line: 1, severity: 'error', message: `review says task ${review.task} but the file belongs to ${taskId}; not counted` });
      continue;
    }
    const cycle = snapshotCycle ?? review.cycle;
    if (snapshotCycle !== null && review.cycle !== null && review.cycle !== snapshotCycle) {
      diagnostics.push({ file, line: 1, severity: 'warning', message: `snapshot of cycle ${snapshotCycle} says cycle ${review.cycle}` });
    }
    if (cycle === null || !review.wellFormed || byCycle.has(cycle)) continue;
    byCycle.set(cycle, {
      cycle,
      verdict: review.verdict,
      task: review.task,
      openIssues: review.openIssues,
      resolvedIssues: review.resolvedIssues,
      passed: reviewPassed(review),
      file,
      snapshot: snapshotCycle !== null,
    });
  }
  return [...byCycle.values()].sort((a, b) => a.cycle - b.cycle);
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

  const summaryFile = dir.file(sliceId, 'SUMMARY');
  if (summaryFile) part.summaryFile = summaryFile;
  const replanFile = dir.file(sliceId, 'REPLAN');
  if (replanFile) {
    const replan = files.parse(replanFile, parseReplan);
    diagnostics.push(...replan.diagnostics);
    if (replan.value) {
      part.replanFile = replanFile;
      part.replannedTasks = replan.value.blockerTasks;
      part.replanCoversAll = replan.value.blockerTasks.length === 0;
    }
  }
  const continueFile = dir.file(sliceId, 'CONTINUE') ?? (dir.has('continue.md') ? path.join(sliceDir, 'continue.md') : null);
  if (continueFile) {
    const cont = files.parse(continueFile, parseContinueFile);
    diagnostics.push(...cont.diagnostics);
    if (cont.value) part.continueFile = continueFile;
  }

  const tasksDirPath = dir.subdir('tasks');
  const tasksDir = tasksDirPath ? files.dir(tasksDirPath) : null;
  if (tasksDir) part.tasksDirEmpty = !tasksDir.entries.some((e) => e.isFile && e.name.toLowerCase().endsWith('.md'));

  const reviewsByTask = new Map<string, Array<{ file: string; snapshotCycle: number | null }>>();
  for (const e of tasksDir?.entries ?? []) {
    const m = e.isFile ? REVIEW_FILE.exec(e.name) : null;
    if (!m) continue;
    const id = m[1].toUpperCase();
    const list = reviewsByTask.get(id) ?? [];
    list.push({ file: path.join(tasksDir!.dir, e.name), snapshotCycle: m[2] ? Number(m[2]) : null });
    reviewsByTask.set(id, list);
  }

  const planned = new Set<string>();
  for (const t of plan?.value?.tasks ?? []) {
    planned.add(t.id);
    const task: TaskEntry = {
      id: t.id,
      title: t.title,
      status: 'pending',
      done: t.done,
      files: t.files,
      planLine: t.line,
      blockerDiscovered: false,
      pendingActions: [],
      reviews: [],
      extensions: {},
    };
    if (t.estimate) task.estimate = t.estimate;
    if (t.verify) task.verify = t.verify;
    const recorded: Array<{ hook: string; text: string; line: number; file: string }> = [];
    const taskPlan = tasksDir?.file(t.id, 'PLAN');
    if (taskPlan) {
      task.planFile = taskPlan;
      // Only our `extensions` block matters here; task plans without one are not YAML-parsed.
      const fm = files.parse(taskPlan, parseTaskPlanFrontmatter);
      diagnostics.push(...fm.diagnostics);
      if (fm.value) {
        task.extensions = fm.value.extensions;
        recorded.push(...fm.value.recorded.map((r) => ({ ...r, file: taskPlan })));
      }
    }
    const summaryPath = tasksDir?.file(t.id, 'SUMMARY');
    if (summaryPath) {
      task.summaryFile = summaryPath;
      const summary = files.parse(summaryPath, parseTaskSummary);
      diagnostics.push(...summary.diagnostics);
      const s = summary.value;
      // GSD counts a task with a SUMMARY as done, even when its box is unchecked.
      task.done = true;
      if (s) {
        if (s.id && s.id !== t.id) {
          diagnostics.push({ file: summaryPath, line: 1, severity: 'warning', message: `summary says id ${s.id} but is filed under task ${t.id}` });
        }
        if (s.parent && s.parent.toUpperCase() !== sliceId.toUpperCase()) {
          diagnostics.push({ file: summaryPath, line: 1, severity: 'warning', message: `summary says parent ${s.parent} but sits in slice ${sliceId}` });
        }
        if (s.completedAt) task.completedAt = s.completedAt;
        if (s.verificationResult) task.verificationResult = s.verificationResult;
        task.blockerDiscovered = s.blockerDiscovered;
        task.pendingActions = s.pendingActions.map((a) => ({
          text: a.text,
          source: 'summary',
          file: summaryPath,
          line: a.line,
          milestoneId,
          sliceId,
          taskId: t.id,
        }));
      }
    }
    for (const r of recorded) {
      task.pendingActions.push({ text: r.text, source: r.hook, file: r.file, line: r.line, milestoneId, sliceId, taskId: t.id });
    }
    task.reviews = reviewHistory(files, t.id, reviewsByTask.get(t.id) ?? [], diagnostics);
    task.status = task.done ? 'done' : 'pending';
    part.tasks.push(task);
    part.pendingActions.push(...task.pendingActions);
  }
  for (const e of tasksDir?.entries ?? []) {
    const m = e.isFile ? /^(T\d+)-(?:.*-)?SUMMARY\.md$/i.exec(e.name) : null;
    if (m && part.planFound && !planned.has(m[1].toUpperCase())) {
      diagnostics.push({ file: path.join(tasksDir!.dir, e.name), severity: 'warning', message: `${m[1].toUpperCase()} has a summary but is not a task of ${sliceId}-PLAN.md` });
    }
  }
  part.progress = { done: part.tasks.filter((t) => t.done).length, total: part.tasks.length };
  return part;
}
