// `T01-CODE-REVIEW.md`, the review loop's own format (README, "Review files"):
// frontmatter `task`, `cycle`, `verdict: approved | changes-requested`, then `## Issues` with
// checkbox items; the unchecked ones are the open issues.
import { fmString, parseFrontmatter, type Frontmatter } from './frontmatter';
import { readFrontmatter } from './gray-matter-frontmatter';
import { sectionNamed } from './markdown-sections';
import type { Diagnostic, ReviewIssue, ReviewVerdict } from '../model/types';

export interface CodeReview {
  task: string | null;
  cycle: number | null;
  verdict: ReviewVerdict | null;
  openIssues: ReviewIssue[];
  resolvedIssues: ReviewIssue[];
  /** Whether the file had the parts a review needs (frontmatter cycle and an Issues section or a verdict). */
  wellFormed: boolean;
  diagnostics: Diagnostic[];
}

// The text runs to the end of the line and is trimmed in code: `(.*?)\s*$` is quadratic on a long line.
const ISSUE = /^\s*[-*+]\s+\[([ xX])\]\s+(\S.*)?$/;
const SEVERITY = /^\*\*([A-Za-z-]+)\*\*\s*/;
const LOCATION = /^`([^`]+)`\s*/;

function parseIssue(raw: string, resolved: boolean, line: number): ReviewIssue {
  let rest = raw;
  const issue: ReviewIssue = { text: raw, resolved, line };
  const sev = SEVERITY.exec(rest);
  if (sev) {
    issue.severity = sev[1].toLowerCase();
    rest = rest.slice(sev[0].length);
  }
  const loc = LOCATION.exec(rest);
  if (loc) {
    issue.location = loc[1];
    rest = rest.slice(loc[0].length);
  }
  issue.text = rest.trim();
  return issue;
}

export function reviewVerdictOf(raw: string | undefined): ReviewVerdict | null | 'unknown' {
  if (!raw) return null;
  const v = raw.toLowerCase().replace(/[\s_]+/g, '-');
  if (v === 'approved' || v === 'approve' || v === 'pass' || v === 'passed') return 'approved';
  if (v === 'changes-requested' || v === 'request-changes' || v === 'changes' || v === 'fail' || v === 'failed') return 'changes-requested';
  // The successor's gate verdicts (gsd-review gate --done sets them in the review): rework asked;
  // advisory (issues left at the cap) and pending (not recorded yet) leave it to the open issues.
  if (v === 'needs-rework' || v === 'needs-remediation' || v === 'needs-attention') return 'changes-requested';
  if (v === 'advisory' || v === 'pending') return null;
  return 'unknown';
}

/** A review as the full derive reads it (every review of every task): the hand-scanned frontmatter. */
export function parseCodeReview(text: string, file: string): CodeReview {
  return codeReviewOf(parseFrontmatter(text, file), file);
}

/** A review read on its own (the loop processing it, CodeLens, completion signals): gray-matter. */
export function readCodeReview(text: string, file: string): CodeReview {
  return codeReviewOf(readFrontmatter(text, file), file);
}

function codeReviewOf(fm: Frontmatter, file: string): CodeReview {
  const diagnostics = fm.diagnostics.slice();
  // Found by offsets, then only its own lines split: the full derive reads every review.
  const issuesSection = sectionNamed(fm.body, fm.bodyStartLine, 'Issues');
  const openIssues: ReviewIssue[] = [];
  const resolvedIssues: ReviewIssue[] = [];
  const issueLines = issuesSection?.lines ?? [];
  for (let i = 0; i < issueLines.length; i++) {
    const m = ISSUE.exec(issueLines[i]);
    if (!m) continue;
    const resolved = m[1] !== ' ';
    (resolved ? resolvedIssues : openIssues).push(parseIssue((m[2] ?? '').trimEnd(), resolved, issuesSection!.firstLine + i));
  }
  const rawCycle = fm.data.cycle;
  const cycleNum = typeof rawCycle === 'number' ? rawCycle : typeof rawCycle === 'string' ? Number(rawCycle) : NaN;
  const cycle = Number.isInteger(cycleNum) && cycleNum > 0 ? cycleNum : null;
  if (rawCycle !== undefined && cycle === null) {
    diagnostics.push({ file, line: 1, severity: 'error', message: `cycle "${String(rawCycle)}" is not a positive whole number` });
  }
  const verdictRaw = fmString(fm.data, 'verdict');
  const verdict = reviewVerdictOf(verdictRaw);
  if (verdict === 'unknown') {
    diagnostics.push({ file, line: 1, severity: 'error', message: `verdict "${verdictRaw}" is neither approved nor changes-requested` });
  }
  const task = fmString(fm.data, 'task')?.toUpperCase() ?? null;
  const wellFormed = cycle !== null && verdict !== 'unknown' && (issuesSection !== undefined || verdict !== null);
  if (!wellFormed && diagnostics.length === 0) {
    const missing = [cycle === null ? 'a cycle' : '', issuesSection || verdict ? '' : 'an ## Issues section or a verdict'].filter(Boolean);
    if (missing.length) diagnostics.push({ file, line: 1, severity: 'error', message: `not a complete review: it lacks ${missing.join(' and ')}` });
  }
  return {
    task,
    cycle,
    verdict: verdict === 'unknown' ? null : verdict,
    // Exact-size copies: a list grown by push keeps room for 17 items, and the state keeps these.
    openIssues: openIssues.length > 0 ? openIssues.slice() : openIssues,
    resolvedIssues: resolvedIssues.length > 0 ? resolvedIssues.slice() : resolvedIssues,
    wellFormed,
    diagnostics,
  };
}

/** Passed means: no open issues, whatever the verdict says, and not explicitly changes-requested. */
export function reviewPassed(review: Pick<CodeReview, 'openIssues' | 'verdict'>): boolean {
  return review.openIssues.length === 0 && review.verdict !== 'changes-requested';
}
