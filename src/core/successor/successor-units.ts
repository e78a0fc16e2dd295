// One task, slice and milestone of a successor project in our state's shape: statuses from the
// lifecycle rule, GSD's verdicts and rework briefs as review cycles, known issues as pending actions.
import type { MilestoneStatus, PendingAction, Progress, SliceEntry, SliceStatus, TaskEntry, TaskStatus } from '../model/types';
import { knownIssuesFromText, type KnownIssueLine } from './known-issue-actions';
import type { StatusClass, StatusFrom } from './lifecycle-status';
import type { LayoutSlice, LayoutTask } from './phase-layout';
import { briefCycle, numberCycles, readArtifactVerdict, taskArtifactCandidates, verdictCycle, type BlockingHook, type SuccessorReviewCycle } from './review-verdicts';
import type { SuccessorRows } from './successor-database';

/** The `source` of pending actions read from GSD's own known issues. */
export const KNOWN_ISSUES_SOURCE = 'gsd-known-issues';

export interface TaskInput {
  milestoneId: string;
  sliceId: string;
  id: string;
  title: string;
  cls: StatusClass;
  gsdStatus: string;
  statusFrom: StatusFrom;
  estimate?: string;
  files: string[];
  verify?: string;
  completedAt?: string;
  verificationResult?: string;
  blockerDiscovered: boolean;
  /** Known issues from the database text, when there is no summary to read them from. */
  knownIssuesText?: string;
  layout?: LayoutTask;
}

export interface ReviewSources {
  rows: SuccessorRows | null;
  hooks: BlockingHook[];
  databaseFile?: string;
}

function taskReviews(t: TaskInput, phaseDir: string | undefined, src: ReviewSources): SuccessorReviewCycle[] {
  const cycles: SuccessorReviewCycle[] = [];
  const unitId = `${t.milestoneId}/${t.sliceId}/${t.id}`;
  const dbHooks = new Set<string>();
  for (const v of src.rows?.hookVerdicts ?? []) {
    const mine = v.taskId ? v.milestoneId === t.milestoneId && v.sliceId === t.sliceId && v.taskId === t.id : v.unitId === unitId;
    if (!mine) continue;
    dbHooks.add(v.hook);
    cycles.push(verdictCycle({ hook: v.hook, verdict: v.verdict, rationale: v.rationale, at: v.createdAt }, src.databaseFile ?? '', 'database', t.id));
  }
  // Up to 1.21 the verdict lives only in the hook's artifact; on main the row wins (the file is a render).
  if (phaseDir) {
    for (const hook of src.hooks) {
      if (!hook.artifact || dbHooks.has(hook.name)) continue;
      for (const file of taskArtifactCandidates(phaseDir, t.sliceId, t.id, hook.artifact)) {
        const v = readArtifactVerdict(file);
        if (!v) continue;
        cycles.push(verdictCycle({ hook: hook.name, ...v }, file, 'artifact', t.id));
        break;
      }
    }
  }
  for (const b of src.rows?.reworkBriefs ?? []) {
    if (b.milestoneId === t.milestoneId && b.sliceId === t.sliceId && b.taskId === t.id) cycles.push(briefCycle(b, src.databaseFile ?? ''));
  }
  return numberCycles(cycles);
}

function taskPendingActions(t: TaskInput, fallbackFile: string): PendingAction[] {
  const fromSummary = t.layout?.knownIssues ?? [];
  const lines: KnownIssueLine[] = fromSummary.length > 0 || t.layout?.summary ? fromSummary : knownIssuesFromText(t.knownIssuesText ?? '');
  const file = t.layout?.summaryFile ?? fallbackFile;
  return lines.map((k) => ({ text: k.text, source: KNOWN_ISSUES_SOURCE, file, line: k.line ?? 1, milestoneId: t.milestoneId, sliceId: t.sliceId, taskId: t.id }));
}

export function buildTask(t: TaskInput, phaseDir: string | undefined, src: ReviewSources, fallbackFile: string): TaskEntry {
  const done = t.cls === 'closed';
  return {
    id: t.id,
    title: t.title,
    status: (done ? 'done' : 'pending') as TaskStatus,
    done,
    estimate: t.estimate,
    files: t.files,
    verify: t.verify,
    planFile: undefined,
    summaryFile: t.layout?.summaryFile,
    planLine: t.layout?.line ?? 0,
    completedAt: t.completedAt,
    verificationResult: t.verificationResult,
    blockerDiscovered: t.blockerDiscovered,
    pendingActions: taskPendingActions(t, fallbackFile),
    reviews: taskReviews(t, phaseDir, src),
    extensions: { successor: { cls: t.cls, gsdStatus: t.gsdStatus, statusFrom: t.statusFrom } },
  };
}

function sliceStatus(cls: StatusClass, replanning: boolean): SliceStatus {
  if (cls === 'closed') return 'done';
  if (cls === 'blocked') return 'blocked';
  return replanning ? 'replanning' : 'pending';
}

export function progressOf(items: Array<{ done: boolean }>): Progress {
  return { done: items.filter((i) => i.done).length, total: items.length };
}

export function sliceEntry(
  layoutSlice: LayoutSlice | undefined,
  fields: { id: string; title: string; cls: StatusClass; gsdStatus: string; statusFrom: StatusFrom; risk?: string; depends: string[]; demo?: string; replanning: boolean },
  tasks: TaskEntry[],
  dir: string | undefined,
): SliceEntry {
  return {
    id: fields.id,
    title: fields.title,
    status: sliceStatus(fields.cls, fields.replanning && !layoutSlice?.replanFile),
    done: fields.cls === 'closed',
    risk: fields.risk,
    depends: fields.depends,
    demo: fields.demo,
    dir,
    planFile: layoutSlice?.planFile,
    summaryFile: layoutSlice?.summaryFile,
    replannedTasks: [],
    replanFile: layoutSlice?.replanFile,
    planLoaded: true,
    tasks,
    progress: progressOf(tasks),
    extensions: {
      successor: { cls: fields.cls, gsdStatus: fields.gsdStatus, statusFrom: fields.statusFrom, remediation: layoutSlice?.remediation ?? fields.id.startsWith('R'), assessmentFile: layoutSlice?.assessmentFile },
    },
  };
}

export function milestoneStatus(cls: StatusClass): MilestoneStatus {
  if (cls === 'closed') return 'complete';
  if (cls === 'paused') return 'parked';
  return 'pending';
}
