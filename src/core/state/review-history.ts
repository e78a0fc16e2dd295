// A task's review history from the review loop's files in its tasks folder: the live
// `T01-CODE-REVIEW.md` and the per-cycle snapshots `T01-CODE-REVIEW-C2.md`. The markdown derive reads
// them per slice; a GSD-2 database project, whose units come from gsd.db, gets the same from
// attachReviewHistory, since our review files are on disk either way.
import * as path from 'node:path';
import { parseCodeReview, reviewPassed, type CodeReview } from '../parse/code-review';
import type { DirIndex } from '../files/gsd-layout';
import type { Diagnostic, GSDState, ReviewCycle } from '../model/types';
import type { ProjectFiles } from './project-files';

export interface ReviewFile {
  taskId: string;
  name: string;
  file: string;
  snapshotCycle: number | null;
}

export const NO_REVIEW_FILES: ReviewFile[] = [];

const SNAPSHOTS_FIRST = [true, false];

// Letters in both cases rather than the `i` flag: see gsd-layout.ts.
export const REVIEW_FILE = /^([Tt]\d+)-[Cc][Oo][Dd][Ee]-[Rr][Ee][Vv][Ii][Ee][Ww](?:-[Cc](\d+))?\.[Mm][Dd]$/;

export function reviewHistory(
  files: ProjectFiles,
  tasksDir: DirIndex | null,
  taskId: string,
  reviewFiles: ReviewFile[],
  diagnostics: Diagnostic[],
): ReviewCycle[] {
  // Most tasks have no review file; this runs for every task of a full derive.
  if (reviewFiles.length === 0 || !tasksDir) return [];
  const byCycle = new Map<number, ReviewCycle>();
  // Snapshots first: when the live file repeats a snapshotted cycle, the snapshot is that cycle.
  for (const snapshots of SNAPSHOTS_FIRST) for (const { name, file, snapshotCycle } of reviewFiles) {
    if ((snapshotCycle !== null) !== snapshots) continue;
    const parsed = files.parseEntry<CodeReview>(tasksDir, name, file, parseCodeReview);
    for (const d of parsed.diagnostics) diagnostics.push(d);
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
  // Cycles in order; a task has a handful, and Array#sort allocated more than this loop costs.
  const history: ReviewCycle[] = [];
  for (const entry of byCycle.values()) {
    let at = history.length;
    while (at > 0 && history[at - 1].cycle > entry.cycle) at--;
    history.splice(at, 0, entry);
  }
  return history;
}

/** The review file a folder entry is, with its task id (upper case); null for any other name. */
export function reviewFileOf(name: string, tasksDir: DirIndex): ReviewFile | null {
  // No review name is shorter than `T1-CODE-REVIEW.md`: plans and summaries skip the pattern.
  const m = name.length >= 17 ? REVIEW_FILE.exec(name) : null;
  return m ? { taskId: m[1].toUpperCase(), name, file: tasksDir.join(name), snapshotCycle: m[2] ? Number(m[2]) : null } : null;
}

/**
 * Fills `reviews` of every task whose slice folder is known and whose rows were read (a lazy read
 * leaves the others, as it leaves their hook state). Mutates `state`; one cached listing per folder.
 */
export function attachReviewHistory(state: GSDState, files: ProjectFiles): void {
  for (const m of state.milestones) {
    for (const s of m.slices) {
      if (!s.dir || !s.planLoaded || s.tasks.length === 0) continue;
      const tasksDir = files.dir(path.join(s.dir, 'tasks'));
      if (!tasksDir) continue;
      const byTask = new Map<string, ReviewFile[]>();
      for (const e of tasksDir.entries) {
        const review = e.isFile ? reviewFileOf(e.name, tasksDir) : null;
        if (review) byTask.set(review.taskId, [...(byTask.get(review.taskId) ?? []), review]);
      }
      if (byTask.size === 0) continue;
      for (const t of s.tasks) t.reviews = reviewHistory(files, tasksDir, t.id, byTask.get(t.id.toUpperCase()) ?? NO_REVIEW_FILES, state.diagnostics);
    }
  }
}
