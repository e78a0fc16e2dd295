// What the review panel says about a task: the state that matters first, in the label, where a
// narrow sidebar does not cut it off (the title goes to the description, which is cut first), and
// everything about its review in the tooltip. No vscode import, so unit tests read it directly.
import type { ReviewLoopTaskState } from '../../core/hooks/builtin/review-loop/review-loop-state';
import type { TaskEntry } from '../../core/model/types';
import { boundedList } from './tooltip-list';
import { escapeMarkdown, markdownText, plainText } from './project-text';

export interface NextUnitRef {
  unitType: string;
  unitId: string;
  source: string;
}

/** `vscode.l10n.t` in the extension; plain `{0}` substitution (English) in unit tests. */
export type Translate = (message: string, ...args: Array<string | number | boolean>) => string;
const english: Translate = (message, ...args) => message.replace(/\{(\d+)\}/g, (m, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : m));

export interface TaskPresentation {
  label: string;
  description: string;
  /** Markdown. */
  tooltip: string;
}

/** Short words for the label, most important first: in flight or next, then the review loop. */
export function taskStateWords(review: ReviewLoopTaskState, isNext: boolean, tr: Translate = english, isInFlight = false): string[] {
  const words: string[] = [];
  if (isInFlight) words.push(tr('in flight'));
  else if (isNext) words.push(tr('next'));
  // In flight, the unit says what is happening (the status bar and tooltip name it): the cycle alone
  // keeps the row inside a default-width sidebar.
  if (review.activeReview && isInFlight) words.push(tr('cycle {0}', review.activeReview.cycle));
  else if (review.activeReview) words.push(review.activeReview.status === 'fixing' ? tr('cycle {0}: fixing', review.activeReview.cycle) : tr('cycle {0}: in review', review.activeReview.cycle));
  else if (review.outcome) words.push(review.outcome.passed ? tr('passed in {0}', review.outcome.cycles) : tr('failed after {0}', review.outcome.cycles));
  return words;
}

function baseName(file: string): string {
  return file.split(/[\\/]/).pop() ?? file;
}

/** Text taken from the project's files: code spans as code, the rest as written (project-text.ts). */
const esc = markdownText;

/** The unit in flight, with its age already said ("3 minutes ago"). */
export interface InFlightRef {
  unitType: string;
  unitId: string;
  ago: string;
}

/** How dates read in the tooltip (the adapter passes the editor's locale); ISO text as is otherwise. */
export type DateText = (iso: string) => string;

/** What the row knows beyond the task: the unit in flight, how dates read, and why GSD waits for a person. */
export interface TaskRowContext {
  inFlight?: InFlightRef | null;
  /** The adapter passes the editor's locale; ISO text as is otherwise. */
  date?: DateText;
  /** Why GSD waits for a person (core/model/person-turn.ts), for a task of the active slice: its review waits until GSD goes on. */
  personTurn?: string | null;
}

export function presentTask(
  t: TaskEntry,
  review: ReviewLoopTaskState,
  next: NextUnitRef | null,
  unitId: string,
  tr: Translate = english,
  row: TaskRowContext = {},
): TaskPresentation {
  const { inFlight = null, date = (iso: string) => iso, personTurn = null } = row;
  const isInFlight = inFlight?.unitId === unitId;
  const isNext = next?.unitId === unitId;
  const blocked = t.hookStateUnreadable;
  // An unreadable sidecar hides where the review stands: the row says that, never a cycle read as none.
  const words = blocked ? [tr('blocked by {0}', baseName(blocked.file))] : taskStateWords(review, isNext, tr, isInFlight);
  const reviewWaits = !!personTurn && t.done && !review.outcome;
  if (reviewWaits) words.push(tr('review waits'));
  // Our review gate on a successor project, where GSD paused auto mode (gate-view.ts).
  const gate = t.extensions['successor-gate'] as { state?: string; reason?: string; next?: string } | undefined;
  const gatePaused = gate?.state === 'paused';
  const gateSkipped = gate?.state === 'unrecorded';
  if (gatePaused) words.push(tr('review paused'));
  if (gateSkipped) words.push(tr('not reviewed'));
  const label = words.length ? `${t.id} · ${words.join(' · ')}` : t.id;
  // The label keeps to what fits a 300 px sidebar at a task's depth; the count of pending actions
  // (also child rows) leads the description, the estimate is in the tooltip.
  const description = [t.pendingActions.length ? tr('{0} pending', t.pendingActions.length) : '', plainText(t.title)].filter(Boolean).join(' · ');

  const lines = [`**${t.id}: ${esc(t.title)}**`];
  if (t.oneLiner) lines.push('', esc(t.oneLiner));
  // A task in the review loop is not simply "done", and its summary's verification is from before the fixes.
  const a0 = review.activeReview;
  const status = [
    a0 ? (a0.status === 'fixing' ? tr('Status: fixing review issues') : tr('Status: waiting for review')) : review.outcome && !review.outcome.passed ? tr('Status: done, review stopped with issues open') : tr('Status: {0}', t.status),
  ];
  if (t.verificationResult) status.push(tr('summary verification: {0}', t.verificationResult));
  if (t.estimate) status.push(tr('estimate {0}', t.estimate));
  lines.push('', status.join(' · '));
  if (blocked) {
    lines.push(
      '',
      tr('**Blocked:** its hook-state file `{0}` cannot be read ({1}). The review loop cannot tell where this task stands, so nothing is dispatched for it until the file is fixed; deleting the file would start its review again at cycle 1.', baseName(blocked.file), escapeMarkdown(blocked.line ? tr('line {0}: {1}', blocked.line, blocked.reason) : blocked.reason)),
    );
  }
  if (isInFlight && inFlight) lines.push('', tr('**In flight:** `{0}`, dispatched {1}.', inFlight.unitType, inFlight.ago));
  else if (isNext && next) lines.push('', tr('**Next unit:** `{0}` (decided by {1}): what GSD: Next Unit dispatches now.', next.unitType, next.source));
  if (review.activeReview) {
    const a = review.activeReview;
    lines.push('', a.status === 'fixing' ? tr('**Review cycle {0}:** fixing the issues of the last review', a.cycle) : tr('**Review cycle {0}:** waiting for the review', a.cycle));
  } else if (review.outcome) {
    const n = review.outcome.cycles;
    lines.push('', review.outcome.passed ? (n === 1 ? tr('**Review:** passed in 1 cycle') : tr('**Review:** passed in {0} cycles', n)) : tr('**Review:** stopped after {0} cycles with issues open', n));
  } else if (!t.reviews.length && !blocked) {
    lines.push('', tr('**Review:** none yet'));
  }
  if (reviewWaits) lines.push('', tr('**The review waits:** {0}. The review loop goes on once GSD does.', esc(personTurn!.replace(/\.\s*$/, ''))));
  if (gatePaused) lines.push('', tr('**Review gate paused:** {0}. {1}.', esc(gate.reason ?? ''), esc(gate.next ?? '')));
  if (gateSkipped) lines.push('', tr('**Not reviewed by GSD Review Loop:** {0}. {1}.', esc(gate.reason ?? ''), esc(gate.next ?? '')));
  const last = t.reviews[t.reviews.length - 1];
  if (last && last.openIssues.length) {
    lines.push('', tr('**Open issues** (review cycle {0}):', last.cycle));
    lines.push(...boundedList(last.openIssues, (i) => `- ${i.severity ? `**${esc(i.severity)}** ` : ''}${i.location ? `\`${i.location.replace(/`/g, '')}\` ` : ''}${esc(i.text)}`, (n) => tr('- … and {0} more (see the review)', n)));
  } else if (last) {
    lines.push('', tr('No open issues in review cycle {0}.', last.cycle));
  }
  if (t.pendingActions.length) {
    lines.push('', tr('**Pending actions** ({0}):', t.pendingActions.length));
    lines.push(...boundedList(t.pendingActions, (a) => `- ${esc(a.text)}`, (n) => tr('- … and {0} more', n)));
  }
  if (t.completedAt) lines.push('', tr('Completed {0}', date(t.completedAt)));
  return { label, description, tooltip: lines.join('\n') };
}
