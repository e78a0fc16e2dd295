// One task, slice and milestone of a successor project in our state's shape: statuses from the
// lifecycle rule, GSD's verdicts and rework briefs as review cycles, known issues as pending actions.
import type { MilestoneStatus, PendingAction, Progress, SliceEntry, SliceStatus, TaskEntry, TaskStatus } from '../model/types';
import { knownIssuesFromText, type KnownIssueLine } from './known-issue-actions';
import type { StatusClass, StatusFrom } from './lifecycle-status';
import type { LayoutSlice, LayoutTask } from './phase-layout';
import { briefCycle, numberCycles, readArtifactVerdict, taskArtifactCandidates, verdictCycle, type BlockingHook, type SuccessorReviewCycle } from './review-verdicts';
import type { SuccessorRows } from './successor-database';
import { GATE_EXTENSION, gateTaskView, type GateView } from '../successor-gate/gate-view';
import { GATE_BRIEF_PREFIX } from '../successor-gate/rework-brief';
import { REVIEW_LOOP } from '../hooks/builtin/review-loop/review-loop-state';

/** The `source` of pending actions our gate left open at its cap (as the review loop's own on markdown projects). */
export const GATE_PENDING_SOURCE = REVIEW_LOOP;

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
  /** Our review gate (installed, or with cycles recorded), read once per project read. */
  gate?: GateView | null;
}

/** GSD's own review cycles of a task (verdicts of its other hooks, rework briefs), numbered after `after`. */
function gsdTaskReviews(t: TaskInput, phaseDir: string | undefined, src: ReviewSources, after: number): SuccessorReviewCycle[] {
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
      // Our gate's cycles come from our records (gate-view.ts), with the whole review.
      if (!hook.artifact || dbHooks.has(hook.name) || hook.name === src.gate?.config.name) continue;
      for (const file of taskArtifactCandidates(phaseDir, t.sliceId, t.id, hook.artifact)) {
        const v = readArtifactVerdict(file);
        if (!v) continue;
        cycles.push(verdictCycle({ hook: hook.name, ...v }, file, 'artifact', t.id));
        break;
      }
    }
  }
  for (const b of src.rows?.reworkBriefs ?? []) {
    // A brief our gate saved repeats a review of ours, which is shown whole from our records.
    if (b.id.startsWith(GATE_BRIEF_PREFIX)) continue;
    if (b.milestoneId === t.milestoneId && b.sliceId === t.sliceId && b.taskId === t.id) cycles.push(briefCycle(b, src.databaseFile ?? ''));
  }
  return numberCycles(cycles, after);
}

function taskPendingActions(t: TaskInput, fallbackFile: string): PendingAction[] {
  const fromSummary = t.layout?.knownIssues ?? [];
  const lines: KnownIssueLine[] = fromSummary.length > 0 || t.layout?.summary ? fromSummary : knownIssuesFromText(t.knownIssuesText ?? '');
  const file = t.layout?.summaryFile ?? fallbackFile;
  return lines.map((k) => ({ text: k.text, source: KNOWN_ISSUES_SOURCE, file, line: k.line ?? 1, milestoneId: t.milestoneId, sliceId: t.sliceId, taskId: t.id }));
}

export function buildTask(t: TaskInput, phaseDir: string | undefined, src: ReviewSources, fallbackFile: string): TaskEntry {
  const done = t.cls === 'closed';
  const unit = { milestoneId: t.milestoneId, sliceId: t.sliceId, taskId: t.id, unitId: `${t.milestoneId}/${t.sliceId}/${t.id}` };
  const gate = src.gate ? gateTaskView(src.gate, unit, phaseDir) : null;
  const ours = gate?.cycles ?? [];
  const pendingActions = taskPendingActions(t, fallbackFile);
  for (const p of gate?.pendingActions ?? []) pendingActions.push({ text: p.text, source: GATE_PENDING_SOURCE, file: p.file, line: p.line, milestoneId: t.milestoneId, sliceId: t.sliceId, taskId: t.id });
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
    pendingActions,
    reviews: [...ours, ...gsdTaskReviews(t, phaseDir, src, ours.length ? ours[ours.length - 1].cycle : 0)],
    extensions: {
      successor: { cls: t.cls, gsdStatus: t.gsdStatus, statusFrom: t.statusFrom },
      ...(gate ? { [REVIEW_LOOP]: gate.loop, [GATE_EXTENSION]: gate.status } : {}),
    },
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
