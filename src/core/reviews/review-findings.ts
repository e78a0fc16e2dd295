// The findings to show where the code is: each task's latest review cycle, its open and resolved
// issues, each placed at its file and line when it names one inside the project, else kept on its
// review file. Built from the derived state alone (nothing read here), so it is cheap to rebuild on
// every state change; the editor side then paints only the files it has open.
import * as path from 'node:path';
import type { GSDState, ReviewCycle, ReviewIssue, TaskEntry } from '../model/types';
import { locationInText, parseFindingLocation, type FindingLocation } from './finding-locations';

export type FindingSeverity = 'error' | 'warning' | 'info';

export interface ReviewFinding {
  /** Stable while the issue is the same issue of the same cycle: threads are kept, not re-made. */
  key: string;
  milestoneId: string;
  sliceId: string;
  taskId: string;
  unitId: string;
  cycle: number;
  /** The review the issue was read from (absolute); for a successor project, where GSD keeps it. */
  reviewFile: string;
  /** 1-based line of the issue in `reviewFile`; 0 when the review is not a file of lines (GSD's database). */
  reviewLine: number;
  severity: string | undefined;
  text: string;
  resolved: boolean;
  /** Where the issue points, inside the project; null when it names no place there. */
  location: FindingLocation | null;
  /** Absolute path of `location` (null with it). */
  file: string | null;
  /** What the issue said its place was, when that was no place inside the project. */
  unusableLocation?: string;
  /** The review is GSD's own (successor): shown, never written. */
  fromGsd: boolean;
}

export interface FindingIndex {
  /** Placed findings by absolute file path. */
  byFile: Map<string, ReviewFinding[]>;
  /** Findings without a usable place, by their review file. */
  byReview: Map<string, ReviewFinding[]>;
  /** Every finding, in plan order. */
  all: ReviewFinding[];
}

/** The issue's severity word as the Problems panel ranks it (unknown words are warnings). */
export function severityOf(word: string | undefined): FindingSeverity {
  switch ((word ?? '').toLowerCase()) {
    case 'critical':
    case 'blocker':
    case 'blocking':
    case 'major':
    case 'high':
    case 'error':
      return 'error';
    case 'nit':
    case 'info':
    case 'note':
    case 'suggestion':
    case 'trivial':
    case 'low':
      return 'info';
    default:
      return 'warning';
  }
}

type SuccessorCycle = ReviewCycle & { kind?: 'hook-gate' | 'rework-brief' };

/**
 * The cycle whose issues are shown: the highest-numbered one (the derive keeps one per cycle). For
 * GSD's reviews, the latest with findings: a rework brief, or a verdict whose rationale names a place.
 */
export function latestCycle(task: Pick<TaskEntry, 'reviews'>): ReviewCycle | null {
  let latest: ReviewCycle | null = null;
  for (const c of task.reviews as readonly SuccessorCycle[]) {
    // GSD's cycles (verdicts, briefs) interleave; the latest one that has findings is shown.
    if (c.kind && c.openIssues.length + c.resolvedIssues.length === 0) continue;
    if (!latest || c.cycle >= latest.cycle) latest = c;
  }
  return latest;
}

function placeOf(issue: ReviewIssue, fromGsd: boolean): { location: FindingLocation | null; unusable?: string } {
  if (issue.location) {
    const loc = parseFindingLocation(issue.location);
    return loc ? { location: loc } : { location: null, unusable: issue.location };
  }
  return { location: fromGsd ? locationInText(issue.text) : null };
}

// The derive keeps the objects of what did not change (StateIndex), so a cycle's findings are
// worked out once and reused by every rebuild after a change elsewhere.
const byCycle = new WeakMap<ReviewCycle, { key: string; findings: ReviewFinding[] }>();

function findingsOfCycle(cycle: ReviewCycle, unitId: string, milestoneId: string, sliceId: string, taskId: string, root: string, fromGsd: boolean): ReviewFinding[] {
  const key = `${root}\u0000${unitId}\u0000${fromGsd}`;
  const cached = byCycle.get(cycle);
  if (cached && cached.key === key) return cached.findings;
  const issues = [...cycle.openIssues, ...cycle.resolvedIssues].sort((a, b) => a.line - b.line);
  const findings = issues.map((issue, i): ReviewFinding => {
    const { location, unusable } = placeOf(issue, fromGsd);
    return {
      key: `${unitId}#${cycle.cycle}#${issue.line || i}#${issue.text}`,
      milestoneId,
      sliceId,
      taskId,
      unitId,
      cycle: cycle.cycle,
      reviewFile: cycle.file,
      reviewLine: issue.line,
      severity: issue.severity,
      text: issue.text,
      resolved: issue.resolved,
      location,
      file: location ? path.join(root, ...location.path.split('/')) : null,
      fromGsd,
      ...(unusable !== undefined ? { unusableLocation: unusable } : {}),
    };
  });
  byCycle.set(cycle, { key, findings });
  return findings;
}

/** Every finding of the project's latest review cycles, placed. `fromGsd`: a successor project (GSD's own reviews there). */
export function reviewFindings(state: Pick<GSDState, 'root' | 'milestones'>, fromGsd = false): FindingIndex {
  const index: FindingIndex = { byFile: new Map(), byReview: new Map(), all: [] };
  for (const m of state.milestones) {
    for (const s of m.slices) {
      for (const t of s.tasks) {
        if (t.reviews.length === 0) continue;
        const cycle = latestCycle(t);
        if (!cycle) continue;
        const unitId = `${m.id}/${s.id}/${t.id}`;
        // On a successor project, our gate's cycles (no `kind`) are reviews of ours, in our format.
        const gsds = fromGsd && (cycle as SuccessorCycle).kind !== undefined;
        for (const finding of findingsOfCycle(cycle, unitId, m.id, s.id, t.id, state.root, gsds)) {
          index.all.push(finding);
          const map = finding.file ? index.byFile : index.byReview;
          const at = finding.file ?? cycle.file;
          const list = map.get(at);
          if (list) list.push(finding);
          else map.set(at, [finding]);
        }
      }
    }
  }
  return index;
}

/** Why a finding sits on its review file instead of in the code (null when it does not). */
export function unplacedNote(f: ReviewFinding, missing: 'file' | 'line' | null): string | null {
  if (f.unusableLocation !== undefined) return `Its place \`${f.unusableLocation}\` is not a file inside the project.`;
  if (!f.location) return 'The review names no place in the code for this issue.';
  if (missing === 'file') return `\`${f.location.path}\` does not exist (any more).`;
  if (missing === 'line') return `\`${f.location.path}\` has no line ${f.location.line} (any more).`;
  return null;
}
