// The review loop's state: per task in `T01-PLAN.md` under `extensions.review-loop`, and its
// project-wide view in `state.extensions['review-loop']` (typed by declaration merging).
import type { DeepReadonly } from '../../middleware';
import type { GSDState } from '../../types';

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

/** The project-wide view (seed 000's ReviewLoopExtension, with unit ids). */
export interface ReviewLoopExtension {
  activeReview?: ActiveReview & { unitId: string };
  completedReviews: Array<{ taskId: string; unitId: string; cycles: number; passed: boolean }>;
}

declare module '../../types' {
  interface GSDStateExtensions {
    'review-loop': ReviewLoopExtension;
  }
}

export const REVIEW_LOOP = 'review-loop';

export function taskState(value: unknown): ReviewLoopTaskState {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as ReviewLoopTaskState) : {};
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
