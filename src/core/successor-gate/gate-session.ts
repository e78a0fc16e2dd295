// One cycle of our gate for one task, as `gsd-review gate M001/S01/T01` sees it from inside GSD's
// hook session: our hook's settings (gate-config.ts), the cycle GSD is on (hook-state-file.ts), the
// file GSD will read the verdict from (hook-artifact-path.ts), the task's plan and summary in the
// phase folder, and the cycles recorded before (gate-records.ts). Reads only the files of this task,
// each bounded and confined: the gate runs at every review, and GSD waits for it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readBoundedText } from '../files/bounded-read';
import { openConfined } from '../files/confine';
import { parseFrontmatter } from '../parse/frontmatter';
import { sectionNamed } from '../parse/markdown-sections';
import { parseFlatSlicePlan } from '../parse/flat-slice-plan';
import { readGateConfig, type GateConfig } from './gate-config';
import { GATE_TRIGGER } from './gate-hook';
import { readUnitSnapshots, type GateSnapshot } from './gate-records';
import { gateCycle, readHookState } from './hook-state-file';
import { resolveTaskArtifact, type GateUnit, type HookArtifact } from './hook-artifact-path';
import type { PreferencesPlaces } from './preferences-files';

/** Why the gate cannot run for this task, in one line the reviewer (or a person) can act on. */
export class GateRefused extends Error {
  override name = 'GateRefused';
}

export interface GateTask {
  title: string;
  /** The task's lines in the slice plan (its checkbox line and the indented lines under it). */
  planLines: string[];
  planFile: string | null;
  summaryFile: string | null;
  /** The summary's text (bounded), or null when GSD wrote none. */
  summary: string | null;
  /** Files the plan and the summary name, project-relative, in their order, once each. */
  files: string[];
}

export interface GateSession {
  root: string;
  /** The real `.gsd` (GSD moves it to `$GSD_HOME/projects/<hash>` and leaves a link: gsd-pi 1.16.1). */
  gsdDir: string;
  /** A file as the reviewer names it: through the project's `.gsd`, relative to the root. */
  show(file: string): string;
  unit: GateUnit;
  config: GateConfig;
  cycle: number;
  artifact: HookArtifact;
  /** The review file, relative to the project root (where GSD resolves the artifact). */
  reviewFile: string;
  task: GateTask;
  earlier: GateSnapshot[];
  /** Things worth a line that do not stop the gate. */
  notes: string[];
}

const MAX_TEXT = 256 * 1024;

function readText(file: string): string | null {
  try {
    return readBoundedText(file, MAX_TEXT, openConfined);
  } catch {
    return null;
  }
}

function listFiles(dir: string | null): string[] {
  if (!dir) return [];
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/** The task's block of the plan: its checkbox line and the indented lines up to the next task or the block's end. */
function taskLines(planText: string, line: number): string[] {
  const lines = planText.split(/\r?\n/);
  const out = [lines[line - 1] ?? ''];
  for (let i = line; i < lines.length; i++) {
    const l = lines[i];
    if (!/^\s+\S/.test(l)) break;
    out.push(l);
  }
  return out;
}

const CODE_SPAN = /`([^`\n]+)`/g;
// Control characters and the separators some readers take for line breaks.
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const CONTROL = /[\u0000-\u001f\u007f\u2028\u2029]/;
// The bullet's text: a line trimmed, then `- ` (no two quantifiers compete: the regex safety test).
const BULLET = /^[-*+][ \t]/;

/** The summary's `key_files` (GSD writes a YAML list; one string is one file). */
function keyFiles(data: Record<string, unknown>): string[] {
  const v = data.key_files;
  if (Array.isArray(v)) return v.filter((x) => x !== null && x !== undefined).map((x) => String(x).trim()).filter(Boolean);
  return typeof v === 'string' && v.trim() ? [v.trim()] : [];
}

/** Paths named under `## Files Created/Modified` (or `## Files`), as GSD's summary lists them. */
function summaryFiles(body: string, startLine: number): string[] {
  const section = sectionNamed(body, startLine, 'Files Created/Modified') ?? sectionNamed(body, startLine, 'Files');
  const out: string[] = [];
  for (const l of section?.lines ?? []) {
    const line = l.trim();
    if (!BULLET.test(line)) continue;
    const text = line.slice(2).trim();
    const spans = [...text.matchAll(CODE_SPAN)].map((m) => m[1]);
    // A path in code, else the first word (`src/a.ts — what it does`).
    out.push(spans.length > 0 ? spans[0] : text.split(/\s/, 1)[0]);
  }
  return out;
}

function readTask(unit: GateUnit, phaseDir: string | null): GateTask {
  const names = listFiles(phaseDir);
  const phaseNumber = String(Number(/^M(\d+)/i.exec(unit.milestoneId)?.[1] ?? 1));
  const sliceDigits = /^S(\d+)$/i.exec(unit.sliceId)?.[1];
  const sliceNumber = sliceDigits === undefined ? undefined : String(Number(sliceDigits));
  const planName = `${phaseNumber.padStart(2, '0')}-${sliceNumber !== undefined ? sliceNumber.padStart(2, '0') : unit.sliceId}-PLAN.md`.toUpperCase();
  const planEntry = names.find((n) => n.toUpperCase() === planName);
  const planFile = phaseDir && planEntry ? path.join(phaseDir, planEntry) : null;
  const planText = planFile ? readText(planFile) : null;
  const planTask = planText ? parseFlatSlicePlan(planText, planFile!).tasks.find((t) => t.id === unit.taskId) : undefined;
  // GSD's task summary: `S01-T01-SUMMARY.md`, or the older `T01-SUMMARY.md` (paths.ts resolveTaskFile).
  const summaryEntry = names.find((n) => n.toUpperCase() === `${unit.sliceId}-${unit.taskId}-SUMMARY.MD`) ?? names.find((n) => n.toUpperCase() === `${unit.taskId}-SUMMARY.MD`);
  const summaryFile = phaseDir && summaryEntry ? path.join(phaseDir, summaryEntry) : null;
  const summary = summaryFile ? readText(summaryFile) : null;
  const files: string[] = [...(planTask?.files ?? [])];
  if (summary !== null) {
    const fm = parseFrontmatter(summary, summaryFile!);
    files.push(...keyFiles(fm.data), ...summaryFiles(fm.body, fm.bodyStartLine));
  }
  // A path, nothing else: a name with a line break or another control character (words that would
  // read as our own instructions) is left out.
  const clean = files
    .map((f) => f.trim().replace(/^\.\//, ''))
    .filter((f) => f && f.length <= 300 && f !== '(none)' && !f.startsWith('..') && !path.isAbsolute(f) && !CONTROL.test(f));
  return {
    title: planTask?.title || unit.taskId,
    planLines: planText && planTask ? taskLines(planText, planTask.line) : [],
    planFile,
    summaryFile,
    summary,
    files: [...new Set(clean)],
  };
}

/**
 * A file as the reviewer should name it: under the project's own `.gsd` (`gsdLink`, which may be a
 * link to GSD's external state folder), relative to the root; never the folder the link points at.
 */
export function projectPath(root: string, gsdLink: string, gsdDir: string, file: string): string {
  const inGsd = path.relative(gsdDir, file);
  const through = inGsd && !inGsd.startsWith('..') && !path.isAbsolute(inGsd) ? path.join(gsdLink, inGsd) : file;
  return path.relative(root, through);
}

/** Everything one cycle of the gate needs; throws GateRefused when GSD would not be asking for it. */
export function openGateSession(root: string, gsdDir: string, unit: GateUnit, places: Omit<PreferencesPlaces, 'gsdDir'>, gsdLink = path.join(root, '.gsd')): GateSession {
  const show = (file: string) => projectPath(root, gsdLink, gsdDir, file);
  const read = readGateConfig({ ...places, gsdDir });
  if (!read.config) {
    throw new GateRefused(read.problem ?? `the review gate is not installed for this project (no post-unit hook gsd-review-loop in ${read.looked.filter((f) => fs.existsSync(f)).join(' or ') || '.gsd/PREFERENCES.md or ~/.gsd/PREFERENCES.md'}); run: gsd-review install-hooks --host gsd`);
  }
  const config = read.config;
  if (config.artifact.includes('/') || config.artifact.includes('\\') || !/\.md$/i.test(config.artifact)) {
    throw new GateRefused(`the hook's artifact ${config.artifact} is not a plain .md file name; GSD would read it from the phase folder, not the task's own file`);
  }
  const hookState = readHookState(gsdDir);
  const cycle = gateCycle(hookState.state, config.name, GATE_TRIGGER, unit.unitId);
  if (cycle === null) {
    throw new GateRefused(`GSD has not started this gate for ${unit.unitId} (${hookState.problem ?? `.gsd/hook-state.json has no cycle of ${config.name} for it`}); the gate runs in GSD's auto mode after the task (/gsd auto)`);
  }
  const artifact = resolveTaskArtifact(gsdDir, unit, config.artifact);
  if (!artifact.phaseDir && !fs.existsSync(path.dirname(artifact.file))) {
    throw new GateRefused(`no phase folder for ${unit.milestoneId} under .gsd/phases/`);
  }
  if (artifact.shared) {
    throw new GateRefused(`${show(artifact.file)} is a ${config.artifact} for more than one task, and GSD reads it first for every task of ${unit.milestoneId}: a person must move it away before this task can be reviewed; do not write it (stop here, GSD will ask a person)`);
  }
  const notes: string[] = [];
  if (cycle > config.maxCycles) notes.push(`GSD counts cycle ${cycle} of at most ${config.maxCycles}: it will not run this gate again`);
  const earlier = readUnitSnapshots(gsdDir, unit, config.artifact, notes).filter((s) => s.cycle < cycle);
  return {
    root,
    gsdDir,
    show,
    unit,
    config,
    cycle,
    artifact,
    reviewFile: show(artifact.file),
    task: readTask(unit, artifact.phaseDir),
    earlier,
    notes,
  };
}
