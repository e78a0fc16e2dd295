// What the review panel says about a task: the state that matters first, in the label, where a
// narrow sidebar does not cut it off (the title goes to the description, which is cut first), and
// everything about its review in the tooltip. No vscode import, so unit tests read it directly.
import type { ReviewLoopTaskState } from '../core/hooks/review-loop/review-loop-state';
import type { TaskEntry } from '../core/types';

export interface NextUnitRef {
  unitType: string;
  unitId: string;
  source: string;
}

export interface TaskPresentation {
  label: string;
  description: string;
  /** Markdown. */
  tooltip: string;
}

/** Short words for the label, most important first: next, the review loop, pending actions. */
export function taskStateWords(t: TaskEntry, review: ReviewLoopTaskState, isNext: boolean): string[] {
  const words: string[] = [];
  if (isNext) words.push('next');
  if (review.activeReview) words.push(`cycle ${review.activeReview.cycle}: ${review.activeReview.status === 'fixing' ? 'fixing' : 'in review'}`);
  else if (review.outcome) words.push(review.outcome.passed ? `passed in ${review.outcome.cycles}` : `failed after ${review.outcome.cycles}`);
  if (t.pendingActions.length) words.push(`${t.pendingActions.length} pending`);
  return words;
}

/** Markdown special characters of text taken from the project's files. */
function esc(text: string): string {
  return text.replace(/[\\`*_{}[\]<>#|]/g, (c) => `\\${c}`);
}

export function presentTask(t: TaskEntry, review: ReviewLoopTaskState, next: NextUnitRef | null, unitId: string, maxCycles?: number): TaskPresentation {
  const isNext = next?.unitId === unitId;
  const words = taskStateWords(t, review, isNext);
  const label = words.length ? `${t.id} · ${words.join(' · ')}` : t.id;
  const description = [t.title, t.estimate].filter(Boolean).join(' · ');

  const lines = [`**${t.id}: ${esc(t.title)}**`];
  if (t.oneLiner) lines.push('', esc(t.oneLiner));
  const status = [`Status: ${t.status}`];
  if (t.verificationResult) status.push(`verification ${t.verificationResult}`);
  if (t.estimate) status.push(`estimate ${t.estimate}`);
  lines.push('', status.join(' · '));
  if (isNext && next) lines.push('', `**Next unit:** \`${next.unitType}\` (decided by ${next.source}): what GSD: Next Unit dispatches now.`);
  const of = maxCycles ? ` of ${maxCycles}` : '';
  if (review.activeReview) {
    const a = review.activeReview;
    lines.push('', `**Review cycle ${a.cycle}${of}:** ${a.status === 'fixing' ? 'fixing the issues of the last review' : 'waiting for the review'}`);
  } else if (review.outcome) {
    lines.push('', `**Review:** ${review.outcome.passed ? `passed in ${review.outcome.cycles} cycle${review.outcome.cycles === 1 ? '' : 's'}` : `stopped after ${review.outcome.cycles} cycles with issues open`}`);
  } else if (!t.reviews.length) {
    lines.push('', '**Review:** none yet');
  }
  const last = t.reviews[t.reviews.length - 1];
  if (last && last.openIssues.length) {
    lines.push('', `**Open issues** (review cycle ${last.cycle}):`);
    for (const i of last.openIssues) lines.push(`- ${i.severity ? `**${esc(i.severity)}** ` : ''}${i.location ? `\`${i.location.replace(/`/g, '')}\` ` : ''}${esc(i.text)}`);
  } else if (last) {
    lines.push('', `No open issues in review cycle ${last.cycle}.`);
  }
  if (t.pendingActions.length) {
    lines.push('', `**Pending actions** (${t.pendingActions.length}):`);
    for (const a of t.pendingActions) lines.push(`- ${esc(a.text)}`);
  }
  if (t.completedAt) lines.push('', `Completed ${t.completedAt}`);
  return { label, description, tooltip: lines.join('\n') };
}
