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
/** A review is a short list of issues: a larger one is refused by `--done` and left out (with a note) when read. */
export const MAX_REVIEW_BYTES = 256 * 1024;
/** GSD clamps max_cycles to 10: no cycle of ours is numbered higher. */
const MAX_CYCLE = 10;
/** What one read of all records may take, whatever a repository planted there (a note says so when reached). */
const MAX_RECORD_BYTES_READ = 64 * 1024 * 1024;
const MAX_UNITS_READ = 100_000;

export interface GateSnapshot {
  cycle: number;
  file: string;
  /** The record's text (the review file as --done left it). */
  text: string;
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

// GSD's ids, as folder names of our records (nothing else there is one of ours).
const MILESTONE_ID = /^M\d{1,6}(?:-[a-z0-9]{6})?$/;
const SLICE_ID = /^[SR]\d{1,4}$/;
const TASK_ID = /^T\d{1,4}$/;

function listNames(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

interface ReadBudget {
  bytes: number;
}

/**
 * One unit's cycles, in cycle order: only `<ARTIFACT>-C<n>.md` with n from 1 to 10, as `--done`
 * names them; a copy that cannot be read is left out (`problems` says which).
 */
export function readUnitSnapshots(gsdDir: string, unit: Pick<GateUnit, 'milestoneId' | 'sliceId' | 'taskId'>, artifact: string, problems: string[] = [], budget: ReadBudget = { bytes: MAX_RECORD_BYTES_READ }): GateSnapshot[] {
  const dir = gateUnitDir(gsdDir, unit);
  const out: GateSnapshot[] = [];
  const stem = artifact.replace(/\.md$/i, '').toUpperCase();
  for (const name of listNames(dir)) {
    const upper = name.toUpperCase();
    if (!upper.startsWith(`${stem}-C`) || !upper.endsWith('.MD')) continue;
    const digits = upper.slice(stem.length + 2, -3);
    if (!/^[1-9]\d?$/.test(digits) || Number(digits) > MAX_CYCLE) continue;
    const file = path.join(dir, name);
    if (budget.bytes <= 0) {
      problems.push(`${file}: not read (the records read at once reached ${MAX_RECORD_BYTES_READ / 1024 / 1024} MB)`);
      continue;
    }
    let text: string | null;
    try {
      text = readBoundedText(file, MAX_REVIEW_BYTES, openConfined);
    } catch (error) {
      problems.push(`${file}: ${(error as Error).message}`);
      continue;
    }
    if (text === null) continue;
    budget.bytes -= text.length;
    const review = parseCodeReview(text, file);
    let at: string;
    try {
      at = fs.statSync(file).mtime.toISOString();
    } catch {
      at = '';
    }
    // GSD's word as written (our review reader maps it onto approved / changes-requested).
    const verdict = fmString(parseFrontmatter(text, file).data, 'verdict');
    out.push({ cycle: Number(digits), file, text, review, gateVerdict: verdict ? verdict.trim().toLowerCase() : null, at });
  }
  return out.sort((a, b) => a.cycle - b.cycle);
}

/**
 * Every unit with recorded cycles, by `M001/S01/T01`: one listing per level, only folders named as
 * GSD names units, and no more than a budget of bytes and units a read (whatever was planted there).
 */
export function readAllGateRecords(gsdDir: string, artifact: string, problems: string[] = []): Map<string, GateSnapshot[]> {
  const all = new Map<string, GateSnapshot[]>();
  const root = gateRecordsDir(gsdDir);
  const budget: ReadBudget = { bytes: MAX_RECORD_BYTES_READ };
  let units = 0;
  for (const milestoneId of listNames(root).filter((n) => MILESTONE_ID.test(n))) {
    for (const sliceId of listNames(path.join(root, milestoneId)).filter((n) => SLICE_ID.test(n))) {
      for (const taskId of listNames(path.join(root, milestoneId, sliceId)).filter((n) => TASK_ID.test(n))) {
        if (++units > MAX_UNITS_READ) {
          problems.push(`${root}: more than ${MAX_UNITS_READ} tasks have records; the rest were not read`);
          return all;
        }
        const snapshots = readUnitSnapshots(gsdDir, { milestoneId, sliceId, taskId }, artifact, problems, budget);
        if (snapshots.length > 0) all.set(`${milestoneId}/${sliceId}/${taskId}`, snapshots);
      }
    }
  }
  return all;
}
