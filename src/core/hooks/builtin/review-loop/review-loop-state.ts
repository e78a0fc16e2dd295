// The review loop's state: per task in `T01-PLAN.md` under `extensions.review-loop`, and its
// project-wide view in `state.extensions['review-loop']` (typed by declaration merging).
import * as v from 'valibot';
import type { DeepReadonly, GSDState } from '../../api';

export type ReviewStatus = 'pending_review' | 'fixing';

export interface ActiveReview {
  taskId: string;
  cycle: number;
  status: ReviewStatus;
  /** The review the current fix answers, relative to `.gsd` ('' before the first review). */
  lastReviewPath: string;
}

export interface ReviewCycleRecord {
  cycle: number;
  verdict: string | null;
  openIssues: number;
  resolvedIssues: number;
  /** The per-cycle snapshot, relative to `.gsd`. */
  reviewPath: string;
}

export interface ReviewOutcome {
  cycles: number;
  passed: boolean;
  completedAt: string;
}

/** What `extensions.review-loop` holds in one task's PLAN frontmatter. */
export interface ReviewLoopTaskState {
  activeReview?: ActiveReview;
  history?: ReviewCycleRecord[];
  outcome?: ReviewOutcome;
  /** Issues still open at the cycle cap, kept as pending actions of the task. */
  pendingActions?: string[];
}

/** The project-wide view (the ReviewLoopExtension, with unit ids). */
export interface ReviewLoopExtension {
  activeReview?: ActiveReview & { unitId: string };
  completedReviews: Array<{ taskId: string; unitId: string; cycles: number; passed: boolean }>;
}

declare module '../../api' {
  interface GSDUnitExtensions {
    'review-loop': ReviewLoopTaskState;
  }
  interface GSDStateExtensions {
    'review-loop': ReviewLoopExtension;
  }
}

export const REVIEW_LOOP = 'review-loop';

// The block is read back from a file a person (or another tool) can edit: every value is checked
// before use. A value of the wrong shape is left out and named, so the loop keeps working.
const positive = v.pipe(v.number(), v.integer(), v.minValue(1));
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const ActiveReviewSchema = v.object({
  taskId: v.string(),
  cycle: positive,
  status: v.picklist(['pending_review', 'fixing']),
  lastReviewPath: v.string(),
});
const CycleRecordSchema = v.object({
  cycle: positive,
  verdict: v.nullable(v.string()),
  openIssues: count,
  resolvedIssues: count,
  reviewPath: v.string(),
});
const OutcomeSchema = v.object({ cycles: positive, passed: v.boolean(), completedAt: v.string() });

/** One value of the block that was left out: `key` is its path under `extensions.review-loop`. */
export interface StateIssue {
  key: string;
  message: string;
}

function describe(key: string, issues: readonly v.BaseIssue<unknown>[]): StateIssue {
  const first = issues[0];
  const sub = v.getDotPath(first);
  return { key: sub ? `${key}.${sub}` : key, message: `${first.message.replace(/^Invalid /, 'expected ')}` };
}

/**
 * The task's review-loop block, with every value checked: what does not fit is left out (a list
 * keeps its good items) and reported in `issues` when given.
 */
export function taskState(value: unknown, issues?: StateIssue[]): ReviewLoopTaskState {
  const note = (issue: StateIssue) => issues?.push(issue);
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    note({ key: '', message: `expected a mapping, got ${Array.isArray(value) ? 'a list' : typeof value}` });
    return {};
  }
  const raw = value as Record<string, unknown>;
  const out: ReviewLoopTaskState = {};
  if (raw.activeReview !== undefined) {
    const r = v.safeParse(ActiveReviewSchema, raw.activeReview);
    if (r.success) out.activeReview = r.output;
    else note(describe('activeReview', r.issues));
  }
  if (raw.history !== undefined) {
    if (!Array.isArray(raw.history)) note({ key: 'history', message: `expected a list, got ${typeof raw.history}` });
    else {
      out.history = [];
      raw.history.forEach((item, i) => {
        const r = v.safeParse(CycleRecordSchema, item);
        if (r.success) out.history!.push(r.output);
        else note(describe(`history[${i}]`, r.issues));
      });
    }
  }
  if (raw.outcome !== undefined) {
    const r = v.safeParse(OutcomeSchema, raw.outcome);
    if (r.success) out.outcome = r.output;
    else note(describe('outcome', r.issues));
  }
  if (raw.pendingActions !== undefined) {
    if (!Array.isArray(raw.pendingActions)) note({ key: 'pendingActions', message: `expected a list, got ${typeof raw.pendingActions}` });
    else {
      out.pendingActions = [];
      raw.pendingActions.forEach((item, i) => {
        if (typeof item === 'string') out.pendingActions!.push(item);
        else note({ key: `pendingActions[${i}]`, message: `expected a string, got ${item === null ? 'null' : typeof item}` });
      });
    }
  }
  return out;
}

export function summarizeReviewLoop(state: DeepReadonly<GSDState>): ReviewLoopExtension {
  const out: ReviewLoopExtension = { completedReviews: [] };
  for (const m of state.milestones) {
    for (const s of m.slices) {
      for (const t of s.tasks) {
        const st = taskState(t.extensions[REVIEW_LOOP]);
        const unitId = `${m.id}/${s.id}/${t.id}`;
        if (st.activeReview && !out.activeReview) out.activeReview = { ...st.activeReview, unitId };
        if (st.outcome) out.completedReviews.push({ taskId: t.id, unitId, cycles: st.outcome.cycles, passed: st.outcome.passed });
      }
    }
  }
  return out;
}
