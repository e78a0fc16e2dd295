// The successor's markdown layout under `.gsd/phases/` (since gsd-pi 1.4.0; layout-policy.ts and
// paths.ts there): one folder per milestone `NN-slug` (NN its number, two digits; team ids
// `M001-abc123` give `01-abc123-<slug>`), milestone files `NN-ROADMAP.md`, `NN-CONTEXT.md`,
// `NN-VALIDATION.md`, `NN-SUMMARY.md`; slice files `NN-MM-PLAN.md`, `NN-MM-SUMMARY.md`,
// `NN-MM-REPLAN.md`, `NN-MM-ASSESSMENT.md` (remediation slices `NN-R01-…`); no task plans, task
// summaries `S01-T01-SUMMARY.md` in the phase folder (the older `T01-SUMMARY.md` is still read,
// as paths.ts resolveTaskFile does). Read only; every file is bounded in size.
import * as fs from 'node:fs';
import { readBoundedText } from '../files/bounded-read';
import { openConfined } from '../files/confine';
import * as path from 'node:path';
import { firstHeading, splitLines } from '../parse/markdown-sections';
import { parseTaskSummary, type TaskSummary } from '../parse/task-summary';
import type { Diagnostic } from '../model/types';
import { parseFlatSlicePlan, type FlatPlanTask } from '../parse/flat-slice-plan';
import { knownIssuesFromSummary, type KnownIssueLine } from './known-issue-actions';
import { PHASES_DIR } from '../state/project-kind';
import { readStateVersionStamp, type StateVersionStamp } from './state-version-stamp';

export interface LayoutTask extends FlatPlanTask {
  summaryFile?: string;
  summary?: TaskSummary;
  knownIssues: KnownIssueLine[];
}

export interface LayoutSlice {
  id: string;
  title: string;
  /** `NN-R01-…`: a slice added to remediate a milestone validation. */
  remediation: boolean;
  /** Checked in the roadmap. */
  roadmapDone: boolean;
  risk?: string;
  depends: string[];
  demo?: string;
  planFile?: string;
  summaryFile?: string;
  replanFile?: string;
  assessmentFile?: string;
  planStamp?: StateVersionStamp;
  tasks: LayoutTask[];
  /** 1-based line in the roadmap, or 0 when the slice is known from its files only. */
  roadmapLine: number;
}

export interface LayoutMilestone {
  id: string;
  title: string;
  number: number;
  dir: string;
  roadmapFile?: string;
  contextFile?: string;
  validationFile?: string;
  summaryFile?: string;
  roadmapStamp?: StateVersionStamp;
  slices: LayoutSlice[];
}

export interface PhaseLayout {
  phasesDir: string;
  milestones: LayoutMilestone[];
  /** The newest `gsd:state-version` stamp seen in the files read. */
  newestStamp: StateVersionStamp | null;
  diagnostics: Diagnostic[];
}

const MAX_FILE_BYTES = 2 * 1024 * 1024;
const PHASE_DIR = /^(\d{1,4})-(.+)$/;
const TEAM_SUFFIX = /^([a-z0-9]{6})(?:-|$)/;
const MILESTONE_FILE = /^(\d{1,4})-(ROADMAP|CONTEXT|VALIDATION|SUMMARY)\.md$/i;
const SLICE_FILE = /^(\d{1,4})-(\d{1,4}|R\d{1,4})-([A-Z][A-Z-]*)\.md$/i;
const FLAT_TASK_SUMMARY = /^(S\d+|R\d+)-(T\d+)-SUMMARY\.md$/i;
const LEGACY_TASK_SUMMARY = /^(T\d+)-SUMMARY\.md$/i;
// No two quantifiers here compete for the same characters (`(.*?)\s*$`, `(.*?)\*\*(.*)$` and
// `:\s*(.*)$` backtrack quadratically on one long line): lines are matched without their trailing
// blanks, captures run to the end, and the bold slice title and the depends tag are found by hand.
const ROADMAP_TITLE = /^#\s+(M\d+(?:-[a-z0-9]{6})?)\s*[:.-]\s*(\S.*)?$/i;
const ROADMAP_SLICE_HEAD = /^\s*[-*+]\s+\[([ xX])\]\s+\*\*([SR]\d+)\s*[:.-]/i;
const RISK = /`risk:([^`\s]+)`/i;
const DEPENDS_OPEN = /`depends:\[/gi;
const DEMO = /^\s*>\s*After this:\s*(\S.*)?$/i;

function readBounded(file: string, diagnostics: Diagnostic[]): string | null {
  try {
    // Confined and bounded like every read of ours: a link out of .gsd, a FIFO or /dev/zero is a
    // diagnostic, never read (stat's size says nothing about a FIFO or a device).
    return readBoundedText(file, MAX_FILE_BYTES, openConfined);
  } catch (error) {
    diagnostics.push({ file, severity: 'warning', message: `could not be read: ${(error as Error).message}` });
    return null;
  }
}

function listDir(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** `S01` for plan number 1 (layout-policy.ts sliceIdToPlanNum, reversed); remediation ids as written. */
function sliceIdFromFile(part: string): string {
  return /^R/i.test(part) ? part.toUpperCase() : `S${String(Number(part)).padStart(2, '0')}`;
}

function milestoneIdFor(number: number, slug: string): string {
  const base = `M${String(number).padStart(3, '0')}`;
  const team = TEAM_SUFFIX.exec(slug);
  // A six-character first slug word is a team suffix only when it has a digit; a plain word is a title.
  return team && /\d/.test(team[1]) ? `${base}-${team[1]}` : base;
}

/** `# M001: Title` among the roadmap's first lines: the id and the title (the id when none). */
export function roadmapHeading(text: string): { id: string; title: string } | null {
  const t = ROADMAP_TITLE.exec((text.split('\n', 5).find((l) => l.startsWith('# ')) ?? '').trimEnd());
  if (!t) return null;
  const id = t[1].replace(/^m/, 'M');
  return { id, title: t[2] || id };
}

/** The context file's first `# ` heading without a leading milestone id. */
export function contextTitle(text: string): string | undefined {
  const h = firstHeading(splitLines(text))?.text;
  return h === undefined ? undefined : h.replace(/^M\d+(?:-[a-z0-9]{6})?\s*[:.-]\s*/i, '');
}

/** `- [x] **S01: Title** rest`: done mark, id, title (up to the closing `**`) and rest, or null. */
function roadmapSliceLine(line: string): { mark: string; id: string; title: string; rest: string } | null {
  const m = ROADMAP_SLICE_HEAD.exec(line);
  if (!m) return null;
  const close = line.indexOf('**', m[0].length);
  if (close === -1) return null;
  return { mark: m[1], id: m[2], title: line.slice(m[0].length, close).trim(), rest: line.slice(close + 2) };
}

/**
 * The list in the first `` `depends:[…]` `` of the text, as `/`depends:\[([^\]]*)\]`/i` finds it:
 * the first opening whose next `]` is followed by a backtick. Scanned by hand because that pattern
 * rescans to the end of the line from every opening without a `]`.
 */
function dependsTag(text: string): string | undefined {
  DEPENDS_OPEN.lastIndex = 0;
  for (let open = DEPENDS_OPEN.exec(text); open; open = DEPENDS_OPEN.exec(text)) {
    const from = DEPENDS_OPEN.lastIndex;
    const close = text.indexOf(']', from);
    if (close === -1) break;
    if (text.charCodeAt(close + 1) === 96) return text.slice(from, close);
    // Every opening before this `]` ends at it too.
    DEPENDS_OPEN.lastIndex = close + 1;
  }
  return undefined;
}

/** The slice lines of a milestone roadmap, each with the `> After this:` line under it. */
export function parseRoadmapSlices(text: string): Array<Omit<LayoutSlice, 'tasks' | 'remediation'>> {
  const out: Array<Omit<LayoutSlice, 'tasks' | 'remediation'>> = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = roadmapSliceLine(lines[i]);
    if (!m) continue;
    const demo = DEMO.exec((lines[i + 1] ?? '').trimEnd())?.[1];
    out.push({
      id: m.id.toUpperCase(),
      title: m.title || m.id.toUpperCase(),
      roadmapDone: m.mark !== ' ',
      risk: RISK.exec(m.rest)?.[1],
      depends: (dependsTag(m.rest) ?? '').split(',').map((s) => s.trim().toUpperCase()).filter(Boolean),
      demo: demo || undefined,
      roadmapLine: i + 1,
    });
  }
  return out;
}

/** The files of a milestone's phase folder: its own, each slice's by kind, and the task summaries. */
interface MilestoneFiles {
  sliceFiles: Map<string, Map<string, string>>;
  taskSummaries: Map<string, string>;
  legacySummaries: Map<string, string>;
}

function listMilestoneFiles(dir: string, number: number, milestone: LayoutMilestone): MilestoneFiles {
  const sliceFiles = new Map<string, Map<string, string>>();
  const taskSummaries = new Map<string, string>();
  const legacySummaries = new Map<string, string>();
  for (const e of listDir(dir)) {
    if (!e.isFile()) continue;
    const file = path.join(dir, e.name);
    let m = MILESTONE_FILE.exec(e.name);
    if (m && Number(m[1]) === number) {
      const kind = m[2].toUpperCase();
      if (kind === 'ROADMAP') milestone.roadmapFile = file;
      else if (kind === 'CONTEXT') milestone.contextFile = file;
      else if (kind === 'VALIDATION') milestone.validationFile = file;
      else milestone.summaryFile = file;
      continue;
    }
    m = SLICE_FILE.exec(e.name);
    if (m && Number(m[1]) === number) {
      const id = sliceIdFromFile(m[2]);
      if (!sliceFiles.has(id)) sliceFiles.set(id, new Map());
      sliceFiles.get(id)!.set(m[3].toUpperCase(), file);
      continue;
    }
    m = FLAT_TASK_SUMMARY.exec(e.name);
    if (m) {
      taskSummaries.set(`${m[1].toUpperCase()}/${m[2].toUpperCase()}`, file);
      continue;
    }
    m = LEGACY_TASK_SUMMARY.exec(e.name);
    if (m) legacySummaries.set(m[1].toUpperCase(), file);
  }
  return { sliceFiles, taskSummaries, legacySummaries };
}

/** The roadmap's heading, stamp and slices, and the CONTEXT's title when the roadmap gives none. */
function readMilestoneTitles(milestone: LayoutMilestone, slugTitle: string, diagnostics: Diagnostic[]): ReturnType<typeof parseRoadmapSlices> {
  let roadmapSlices: ReturnType<typeof parseRoadmapSlices> = [];
  if (milestone.roadmapFile) {
    const text = readBounded(milestone.roadmapFile, diagnostics);
    if (text !== null) {
      const t = roadmapHeading(text);
      if (t) {
        milestone.id = t.id;
        milestone.title = t.title;
      }
      milestone.roadmapStamp = readStateVersionStamp(text) ?? undefined;
      roadmapSlices = parseRoadmapSlices(text);
    }
  }
  if (milestone.title === slugTitle && milestone.contextFile) {
    const text = readBounded(milestone.contextFile, diagnostics);
    const h = text ? contextTitle(text) : undefined;
    if (h !== undefined) milestone.title = h;
  }
  return roadmapSlices;
}

/** One slice: its roadmap line (or its files alone), its plan's tasks, and each task's summary. */
function readSlice(
  id: string,
  roadmapSlices: ReturnType<typeof parseRoadmapSlices>,
  found: MilestoneFiles,
  milestone: LayoutMilestone,
  diagnostics: Diagnostic[],
): LayoutSlice {
  const { sliceFiles, taskSummaries, legacySummaries } = found;
  const fromRoadmap = roadmapSlices.find((s) => s.id === id);
  const files = sliceFiles.get(id) ?? new Map<string, string>();
  const slice: LayoutSlice = {
    ...(fromRoadmap ?? { id, title: id, roadmapDone: false, depends: [], roadmapLine: 0 }),
    remediation: id.startsWith('R'),
    planFile: files.get('PLAN'),
    summaryFile: files.get('SUMMARY'),
    replanFile: files.get('REPLAN'),
    assessmentFile: files.get('ASSESSMENT'),
    tasks: [],
  };
  if (slice.planFile) {
    const text = readBounded(slice.planFile, diagnostics);
    if (text !== null) {
      const plan = parseFlatSlicePlan(text, slice.planFile);
      diagnostics.push(...plan.diagnostics);
      if (!fromRoadmap && plan.title) slice.title = plan.title;
      if (plan.milestoneId && plan.milestoneId !== milestone.id && !milestone.roadmapFile) milestone.id = plan.milestoneId;
      slice.planStamp = readStateVersionStamp(text) ?? undefined;
      slice.tasks = plan.tasks.map((t) => ({ ...t, knownIssues: [] }));
    }
  }
  for (const task of slice.tasks) {
    const summaryFile = taskSummaries.get(`${slice.id}/${task.id}`) ?? legacySummaries.get(task.id);
    if (!summaryFile) continue;
    task.summaryFile = summaryFile;
    const text = readBounded(summaryFile, diagnostics);
    if (text === null) continue;
    task.summary = parseTaskSummary(text, summaryFile);
    diagnostics.push(...task.summary.diagnostics);
    task.knownIssues = knownIssuesFromSummary(text, summaryFile);
  }
  return slice;
}

function readMilestone(dir: string, number: number, slug: string, diagnostics: Diagnostic[]): LayoutMilestone {
  const id = milestoneIdFor(number, slug);
  const suffix = /-([a-z0-9]{6})$/.exec(id)?.[1];
  // Without a roadmap or context heading, the slug is the title (less a team suffix).
  const slugTitle = suffix && slug.startsWith(suffix) ? slug.slice(suffix.length).replace(/^-/, '') || slug : slug;
  const milestone: LayoutMilestone = { id, title: slugTitle, number, dir, slices: [] };
  const found = listMilestoneFiles(dir, number, milestone);
  const roadmapSlices = readMilestoneTitles(milestone, slugTitle, diagnostics);
  // Roadmap order first; slices known only from their files follow in file order.
  const ids = [...roadmapSlices.map((s) => s.id), ...[...found.sliceFiles.keys()].sort().filter((id) => !roadmapSlices.some((s) => s.id === id))];
  for (const id of ids) milestone.slices.push(readSlice(id, roadmapSlices, found, milestone, diagnostics));
  return milestone;
}

export function readPhaseLayout(gsdDir: string): PhaseLayout {
  const phasesDir = path.join(gsdDir, PHASES_DIR);
  const diagnostics: Diagnostic[] = [];
  const milestones: LayoutMilestone[] = [];
  for (const e of listDir(phasesDir)) {
    if (!e.isDirectory()) continue;
    const m = PHASE_DIR.exec(e.name);
    if (!m) continue;
    milestones.push(readMilestone(path.join(phasesDir, e.name), Number(m[1]), m[2], diagnostics));
  }
  milestones.sort((a, b) => a.number - b.number || a.id.localeCompare(b.id));
  const seen = new Map<string, LayoutMilestone>();
  for (const ms of milestones) {
    const other = seen.get(ms.id);
    if (other) diagnostics.push({ file: ms.dir, severity: 'warning', message: `two folders for milestone ${ms.id} (${path.basename(other.dir)}, ${path.basename(ms.dir)}); both are shown` });
    seen.set(ms.id, ms);
  }
  let newestStamp: StateVersionStamp | null = null;
  for (const ms of milestones) {
    for (const s of [ms.roadmapStamp, ...ms.slices.map((sl) => sl.planStamp)]) {
      if (s && (!newestStamp || s.revision > newestStamp.revision)) newestStamp = s;
    }
  }
  return { phasesDir, milestones, newestStamp, diagnostics };
}
