// `gsd-review gate M001/S01/T01 --done`: the reviewer has written the review; we check it, keep a
// copy of the cycle (GSD deletes the artifact when it re-runs the task), and set the verdict GSD
// reads: needs-rework while issues are open and cycles remain, pass with none open, advisory at the
// cap with issues open (those become the task's pending actions: never dropped). The review, the
// copy and the open-issues file the re-run task reads are written together or not at all (our
// commit: lock, journal, compare-and-swap); a review that is not right is a message and nothing is
// written, so the reviewer fixes it and runs `--done` again.
import * as path from 'node:path';
import { readBoundedText, UnreadableFileError } from '../files/bounded-read';
import { openConfined, OutsideGsdError } from '../files/confine';
import { ensureRuntimeDir } from '../files/runtime-folder';
import { linkBelow } from '../files/link-free';
import type { GsdStore, PlannedWrite } from '../files/gsd-store';
import { readCodeReview } from '../parse/code-review';
import { findFrontmatterBlock } from '../parse/frontmatter';
import type { ReviewIssue } from '../model/types';
import { OPEN_ISSUES_FILE } from './gate-hook';
import { gateUnitDir, MAX_REVIEW_BYTES, snapshotName } from './gate-records';
import type { GateSession } from './gate-session';
import { ReviewFormatError, withGateVerdict, type GateVerdict } from './gate-verdict';

export interface GateDone {
  unitId: string;
  cycle: number;
  maxCycles: number;
  verdict: GateVerdict;
  openIssues: number;
  resolvedIssues: number;
  /** Relative to the project root. */
  reviewFile: string;
  snapshot: string;
  openIssuesFile: string;
  /** At the cap with issues open: they are the task's pending actions. */
  pendingActions: string[];
  /** What GSD does next, in one sentence. */
  next: string;
  /** The issues themselves, as the review gives them. */
  issues: { open: ReviewIssue[]; resolved: ReviewIssue[] };
}

function issueText(i: ReviewIssue): string {
  return [i.severity && `**${i.severity}**`, i.location && `\`${i.location}\``, i.text].filter(Boolean).join(' ');
}

/** The review's text, or a refusal the reviewer can act on (missing, empty, binary, huge, a link out of .gsd). */
function readReview(s: GateSession): string {
  let text: string | null;
  try {
    text = readBoundedText(s.artifact.file, MAX_REVIEW_BYTES, openConfined);
  } catch (error) {
    if (error instanceof UnreadableFileError && error.reason === 'too-large') throw new ReviewFormatError(`${s.reviewFile} is over ${MAX_REVIEW_BYTES / 1024} KB; a review is a short list of issues: write it shorter`);
    if (error instanceof UnreadableFileError || error instanceof OutsideGsdError) throw new ReviewFormatError(`${s.reviewFile} cannot be used: ${(error as Error).message}; write the review as a plain file there`);
    throw error;
  }
  if (text === null) throw new ReviewFormatError(`there is no review at ${s.reviewFile} yet: write it there first (run the gate without --done to see how)`);
  if (text.trim() === '') throw new ReviewFormatError(`${s.reviewFile} is empty: write the review into it`);
  if (text.includes('\u0000')) throw new ReviewFormatError(`${s.reviewFile} is not text`);
  return text;
}

/** Checks the review is this task's, this cycle's, and in our format; returns its issues. */
function checkReview(s: GateSession, text: string): { open: ReviewIssue[]; resolved: ReviewIssue[] } {
  const block = findFrontmatterBlock(text);
  if (!block.present || !block.closed) throw new ReviewFormatError(`${s.reviewFile} has no frontmatter: it must start with a line ---, then the lines task: ${s.unit.taskId}, cycle: ${s.cycle}, verdict: pending, then a line ---`);
  const review = readCodeReview(text, s.artifact.file);
  const errors = review.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new ReviewFormatError(`${s.reviewFile}: ${errors[0].message}`);
  const task = review.task?.toUpperCase();
  if (task !== s.unit.taskId && task !== s.unit.unitId.toUpperCase()) {
    throw new ReviewFormatError(task ? `${s.reviewFile} is a review of ${task}, but this gate is ${s.unit.unitId}: write task: ${s.unit.taskId}` : `${s.reviewFile} has no task: line in its frontmatter: write task: ${s.unit.taskId}`);
  }
  if (review.cycle !== s.cycle) {
    throw new ReviewFormatError(review.cycle === null ? `${s.reviewFile} has no cycle: line: write cycle: ${s.cycle}` : `${s.reviewFile} says cycle ${review.cycle}, but GSD is on cycle ${s.cycle}: review the task as it is now and write cycle: ${s.cycle}`);
  }
  if (!review.wellFormed) throw new ReviewFormatError(`${s.reviewFile} has no ## Issues section: add one (empty when there are no issues)`);
  const blank = review.openIssues.find((i) => !i.text.trim());
  if (blank) throw new ReviewFormatError(`${s.reviewFile} line ${blank.line}: an open issue says nothing; write what is wrong`);
  return { open: review.openIssues, resolved: review.resolvedIssues };
}

function openIssuesText(s: GateSession, verdict: GateVerdict, open: ReviewIssue[]): string {
  const head = `# Open review issues of ${s.unit.unitId}`;
  if (verdict === 'pass') return `${head}\n\nNone: review cycle ${s.cycle} passed.\n`;
  if (verdict === 'advisory') return `${head}\n\nReview cycle ${s.cycle} was the last (${s.config.maxCycles}); these were left open and are the task's pending actions:\n\n${open.map((i) => `- [ ] ${issueText(i)}`).join('\n')}\n`;
  return `${head}\n\nReview cycle ${s.cycle} of at most ${s.config.maxCycles} asked for these fixes. Fix each one, then complete the task; the review runs again.\n\n${open.map((i) => `- [ ] ${issueText(i)}`).join('\n')}\n`;
}

export function gateVerdictFor(openIssues: number, cycle: number, maxCycles: number): GateVerdict {
  if (openIssues === 0) return 'pass';
  return cycle < maxCycles ? 'needs-rework' : 'advisory';
}

/** Records the written review of this cycle; throws ReviewFormatError (nothing written) when it is not right. */
export function recordGateReview(s: GateSession, store: GsdStore): GateDone {
  if (s.cycle > s.config.maxCycles) throw new ReviewFormatError(`GSD counts cycle ${s.cycle} of at most ${s.config.maxCycles} for ${s.unit.unitId}: it reads no more verdicts from this gate`);
  const text = readReview(s);
  const { open, resolved } = checkReview(s, text);
  const verdict = gateVerdictFor(open.length, s.cycle, s.config.maxCycles);
  const recorded = withGateVerdict(text, verdict);
  ensureRuntimeDir(s.gsdDir);
  const dir = gateUnitDir(s.gsdDir, s.unit);
  const snapshot = path.join(dir, snapshotName(s.config.artifact, s.cycle));
  const issuesFile = path.join(dir, OPEN_ISSUES_FILE);
  // Written only as themselves: a link planted on the way (to GSD's PREFERENCES.md or hook-state.json, say) is refused.
  for (const file of [s.artifact.file, snapshot, issuesFile]) {
    const link = linkBelow(s.gsdDir, file);
    if (link !== null) throw new ReviewFormatError(`${s.show(link)} is a link; the gate writes no file through a link, so nothing was recorded (remove the link)`);
  }
  store.commit(s.gsdDir, (): PlannedWrite[] => {
    // Re-read under the lock: a reviewer still saving the file is a conflict, re-planned by the store.
    const now = store.readText(s.artifact.file);
    if (now !== text) throw new ReviewFormatError(`${s.reviewFile} changed while it was being recorded; run --done again when it is saved`);
    return [
      { file: s.artifact.file, text: recorded, expected: text },
      { file: snapshot, text: recorded, expected: store.readText(snapshot) },
      { file: issuesFile, text: openIssuesText(s, verdict, open), expected: store.readText(issuesFile) },
    ];
  });
  const n = open.length;
  const next =
    verdict === 'pass'
      ? 'GSD goes on with the next unit.'
      : verdict === 'needs-rework'
        ? `GSD re-runs the task to fix the ${n} open issue${n === 1 ? '' : 's'} (listed for it in ${s.show(issuesFile)}), then runs this review again as cycle ${s.cycle + 1} of ${s.config.maxCycles}.`
        : `This was the last cycle: GSD goes on, and the ${n} open issue${n === 1 ? '' : 's'} stay as the task's pending actions.`;
  return {
    unitId: s.unit.unitId,
    cycle: s.cycle,
    maxCycles: s.config.maxCycles,
    verdict,
    openIssues: n,
    resolvedIssues: resolved.length,
    reviewFile: s.reviewFile,
    snapshot: s.show(snapshot),
    openIssuesFile: s.show(issuesFile),
    pendingActions: verdict === 'advisory' ? open.map(issueText) : [],
    next,
    issues: { open, resolved },
  };
}
