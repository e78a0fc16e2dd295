// Our record of each review cycle of the successor's gate: a copy of the review as `--done` left it
// (with the verdict GSD read), one per cycle, in our runtime folder:
// `.gsd/gsd-review-loop/gate/M001/S01/T01/CODE-REVIEW-C2.md`. GSD deletes the artifact when it
// re-runs the task (on_block retry-task), so these copies are where the cycles are kept: the panel,
// the cycle diff, the findings in the editor and the pending actions at the cap all read them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readBoundedText } from '../files/bounded-read';
import { openConfined } from '../files/confine';
import { runtimeDir } from '../files/runtime-folder';
import { parseCodeReview, type CodeReview } from '../parse/code-review';
import { fmString, parseFrontmatter } from '../parse/frontmatter';
import type { GateUnit } from './hook-artifact-path';

export const GATE_RECORDS_FOLDER = 'gate';
/** A review is small text; one of these is left out (with a note), never read whole. */
export const MAX_REVIEW_BYTES = 1024 * 1024;

export interface GateSnapshot {
  cycle: number;
  file: string;
  review: CodeReview;
  /** The verdict GSD read for this cycle (pass, needs-rework, advisory), as `--done` set it. */
  gateVerdict: string | null;
  /** When it was recorded (the file's time). */
  at: string;
}

export function gateRecordsDir(gsdDir: string): string {
  return path.join(runtimeDir(gsdDir), GATE_RECORDS_FOLDER);
}

export function gateUnitDir(gsdDir: string, unit: Pick<GateUnit, 'milestoneId' | 'sliceId' | 'taskId'>): string {
  return path.join(gateRecordsDir(gsdDir), unit.milestoneId, unit.sliceId, unit.taskId);
}

/** `CODE-REVIEW.md`, cycle 2: `CODE-REVIEW-C2.md`. */
export function snapshotName(artifact: string, cycle: number): string {
  return `${artifact.replace(/\.md$/i, '')}-C${cycle}.md`;
}

const SNAPSHOT = /-C(\d{1,3})\.md$/i;

function listNames(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/** One unit's cycles, in cycle order; a copy that cannot be read is left out (`problems` says which). */
export function readUnitSnapshots(gsdDir: string, unit: Pick<GateUnit, 'milestoneId' | 'sliceId' | 'taskId'>, problems: string[] = []): GateSnapshot[] {
  const dir = gateUnitDir(gsdDir, unit);
  const out: GateSnapshot[] = [];
  for (const name of listNames(dir)) {
    const m = SNAPSHOT.exec(name);
    if (!m) continue;
    const file = path.join(dir, name);
    let text: string | null;
    try {
      text = readBoundedText(file, MAX_REVIEW_BYTES, openConfined);
    } catch (error) {
      problems.push(`${file}: ${(error as Error).message}`);
      continue;
    }
    if (text === null) continue;
    const review = parseCodeReview(text, file);
    let at: string;
    try {
      at = fs.statSync(file).mtime.toISOString();
    } catch {
      at = '';
    }
    // GSD's word as written (our review reader maps it onto approved / changes-requested).
    const verdict = fmString(parseFrontmatter(text, file).data, 'verdict');
    out.push({ cycle: Number(m[1]), file, review, gateVerdict: verdict ? verdict.trim().toLowerCase() : null, at });
  }
  return out.sort((a, b) => a.cycle - b.cycle);
}

/** Every unit with recorded cycles, by `M001/S01/T01`: one listing per level, only where something was recorded. */
export function readAllGateRecords(gsdDir: string, problems: string[] = []): Map<string, GateSnapshot[]> {
  const all = new Map<string, GateSnapshot[]>();
  const root = gateRecordsDir(gsdDir);
  for (const milestoneId of listNames(root)) {
    for (const sliceId of listNames(path.join(root, milestoneId))) {
      for (const taskId of listNames(path.join(root, milestoneId, sliceId))) {
        const snapshots = readUnitSnapshots(gsdDir, { milestoneId, sliceId, taskId }, problems);
        if (snapshots.length > 0) all.set(`${milestoneId}/${sliceId}/${taskId}`, snapshots);
      }
    }
  }
  return all;
}
