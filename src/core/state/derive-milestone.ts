// What one milestone folder says on its own: roadmap, summary, validation verdict, parked flag,
// dependencies from its CONTEXT, and the hook state in its sidecar (or an older version's roadmap).
import { fmRecord, parseFrontmatter } from '../parse/frontmatter';
import { firstHeading, splitLines } from '../parse/markdown-sections';
import { gsd2DependsOn, gsd2FrontmatterMap } from '../parse/gsd2-frontmatter-map';
import type { DirIndex } from '../files/gsd-layout';
import type { ProjectFiles } from './project-files';
import { parseRoadmap, type Roadmap } from '../parse/roadmap';
import type { Diagnostic } from '../model/types';
import { mergedBlocks, SIDECAR_SUFFIX } from '../parse/hook-sidecar';
import { isSidecarName } from './derive-slice';

export interface MilestonePart {
  id: string;
  dir: string;
  depth: MilestoneDepth;
  roadmapFile?: string;
  roadmap: Roadmap | null;
  title: string;
  summaryFile?: string;
  /** A SUMMARY exists and does not report failure. */
  summaryTerminal: boolean;
  /** VALIDATION verdict (`pass`, `needs-remediation`, …) or null when none was written. */
  validationVerdict: string | null;
  parked: boolean;
  /** Milestone ids from the CONTEXT's `depends_on`, exactly as written (GSD compares them so). */
  dependsOn: string[];
  /**
   * A CONTEXT, CONTEXT-DRAFT, ROADMAP or SUMMARY file exists. Without one (an empty folder, or only
   * META.json) GSD calls the folder a ghost and skips it, unless a worktree shows it is in flight.
   */
  hasContentFiles: boolean;
  /** Only a CONTEXT-DRAFT exists: GSD wants a discussion before planning. */
  draftOnly: boolean;
  extensions: Record<string, unknown>;
  diagnostics: Diagnostic[];
}

interface RoadmapFile extends Roadmap {
  extensions: Record<string, unknown>;
  /** The file has no content at all: GSD treats that as no roadmap. */
  empty: boolean;
}

function parseRoadmapFile(text: string, file: string): RoadmapFile {
  const fm = parseFrontmatter(text, file);
  const roadmap = parseRoadmap(fm.body, fm.bodyStartLine, file);
  return { ...roadmap, extensions: fmRecord(fm.data, 'extensions'), empty: text.length === 0, diagnostics: [...fm.diagnostics, ...roadmap.diagnostics] };
}

/** GSD's rule: a roadmap is complete when it has slices and every one is checked. */
export function roadmapComplete(roadmap: Roadmap): boolean {
  return roadmap.slices.length > 0 && roadmap.slices.every((s) => s.done);
}

/** GSD's rule: a summary is terminal unless it says it failed. */
// `M001: ` before a title: the first `# ` line's text without it.
const MILESTONE_PREFIX = /^M\d+(?:-[a-z0-9]{6})?\s*[:.-]\s*/;

function milestoneTitle(body: string): string | undefined {
  const text = firstHeading(splitLines(body))?.text.replace(MILESTONE_PREFIX, '').trim();
  return text || undefined;
}

// Whether a milestone SUMMARY completes the milestone, as GSD-2 classifies it
// (milestone-summary-classifier.ts at 76568edc): a closed status (status-guards.ts isClosedStatus)
// does, a failed one does not, and otherwise any failure signal in the text says it failed. The
// status is read as GSD-2 reads it (gsd2-frontmatter-map.ts); the YAML parse gives the diagnostics.
// GSD-2's line patterns start with `(?:^|\n)\s*`, which also skips blank lines and backtracks
// quadratically on a long run of them; these match within one line.
const CLOSED_STATUSES = ['complete', 'done', 'skipped', 'closed'];
const FAILED_STATUSES = ['active', 'pending', 'blocked', 'failed', 'failure', 'incomplete'];
// Letters in both cases rather than the `i` flag: see gsd-layout.ts.
export const FAILURE_SIGNALS = [
  /^[ \t]*#[ \t]*[Bb][Ll][Oo][Cc][Kk][Ee][Rr]\b/m,
  /[Aa][Uu][Tt][Oo]-[Mm][Oo][Dd][Ee] [Rr][Ee][Cc][Oo][Vv][Ee][Rr][Yy] [Ff][Aa][Ii][Ll][Ee][Dd]/,
  /[Vv][Ee][Rr][Ii][Ff][Ii][Cc][Aa][Tt][Ii][Oo][Nn]\s+[Ff][Aa][Ii][Ll][Ee][Dd]/,
  /^[ \t]*(?:[Ss][Tt][Aa][Tt][Uu][Ss]|[Vv][Ee][Rr][Dd][Ii][Cc][Tt]|[Oo][Uu][Tt][Cc][Oo][Mm][Ee]|[Rr][Ee][Ss][Uu][Ll][Tt])[ \t]*[:=-][ \t]*[Nn][Oo][Tt] [Cc][Oo][Mm][Pp][Ll][Ee][Tt][Ee]\b/m,
];

function summaryOutcome(text: string, file: string): { terminal: boolean; title?: string; diagnostics: Diagnostic[] } {
  const fm = parseFrontmatter(text, file);
  const raw = gsd2FrontmatterMap(text).status;
  const status = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  const terminal = status && CLOSED_STATUSES.includes(status) ? true : status && FAILED_STATUSES.includes(status) ? false : !FAILURE_SIGNALS.some((p) => p.test(text));
  const title = milestoneTitle(fm.body);
  return { terminal, ...(title ? { title } : {}), diagnostics: fm.diagnostics };
}

// GSD-2's extractVerdict (verdict-parser.ts at 76568edc), on the file as read: a frontmatter block
// as it matches one (`---` and LF, so not after a BOM or with CRLF) decides alone, by its first
// `verdict:`, quoted values not taken; only without one, a `**Verdict:**` of the body counts.
const GSD2_FRONTMATTER = /^---\n([\s\S]*?)\n---/;
export const FRONTMATTER_VERDICT = /[Vv][Ee][Rr][Dd][Ii][Cc][Tt]:\s*([\w-]+)/;
// ✅ as \u2705: the CLI bundle stays ASCII (esbuild.mjs).
export const BODY_VERDICT = /\*\*[Vv][Ee][Rr][Dd][Ii][Cc][Tt]:?\*\*\s*(?:\u2705\s*)?(\w[\w-]*)/;

function validationVerdict(text: string, file: string): { verdict: string | null; diagnostics: Diagnostic[] } {
  // Parsed for its diagnostics (broken YAML shows in Problems); the verdict is GSD-2's reading.
  const fm = parseFrontmatter(text, file);
  const block = GSD2_FRONTMATTER.exec(text);
  const v = (block ? FRONTMATTER_VERDICT.exec(block[1]) : BODY_VERDICT.exec(text))?.[1].toLowerCase();
  return { verdict: v === undefined ? null : v === 'passed' ? 'pass' : v, diagnostics: fm.diagnostics };
}

function contextDeps(text: string, file: string): { deps: string[]; title?: string; diagnostics: Diagnostic[] } {
  const fm = parseFrontmatter(text, file);
  const title = milestoneTitle(fm.body);
  return { deps: gsd2DependsOn(text), ...(title ? { title } : {}), diagnostics: fm.diagnostics };
}

/**
 * How much of a milestone to read. `status`: its summary and validation verdict (and its roadmap when
 * that verdict is needs-attention, which parks a milestone whose slices are all done), which settle a
 * completed milestone and one after the active one; the lazy path reads the rest of a milestone only
 * when GSD's status rules ask for it (derive-state.ts pickActiveMilestone). `all`: every file, for
 * the panel.
 */
export type MilestoneDepth = 'status' | 'all';

export function deriveMilestonePart(files: ProjectFiles, id: string, dirPath: string, depth: MilestoneDepth = 'all'): MilestonePart {
  const diagnostics: Diagnostic[] = [];
  const dir: DirIndex | null = files.dir(dirPath);
  const part: MilestonePart = {
    id,
    dir: dirPath,
    depth,
    roadmap: null,
    title: id,
    summaryTerminal: false,
    validationVerdict: null,
    parked: false,
    dependsOn: [],
    hasContentFiles: false,
    draftOnly: false,
    extensions: {},
    diagnostics,
  };
  if (!dir) return part;
  part.parked = dir.file(id, 'PARKED') !== null;
  const summaryFile = dir.file(id, 'SUMMARY');
  let summaryTitle: string | undefined;
  if (summaryFile) {
    const s = files.parse(summaryFile, summaryOutcome);
    diagnostics.push(...s.diagnostics);
    if (s.value) {
      part.summaryFile = summaryFile;
      part.summaryTerminal = s.value.terminal;
      summaryTitle = s.value.title;
    }
  }
  const contextFile = dir.file(id, 'CONTEXT');
  const draftFile = contextFile ? null : dir.file(id, 'CONTEXT-DRAFT');
  const roadmapFile = dir.file(id, 'ROADMAP');
  part.draftOnly = !contextFile && draftFile !== null;
  part.hasContentFiles = contextFile !== null || draftFile !== null || roadmapFile !== null || summaryFile !== null;
  const validationFile = dir.file(id, 'VALIDATION');
  if (validationFile) {
    const v = files.parse(validationFile, validationVerdict);
    diagnostics.push(...v.diagnostics);
    part.validationVerdict = v.value?.verdict ?? null;
  }
  const whole = depth === 'all';
  const ctxPath = contextFile ?? draftFile;
  let contextTitle: string | undefined;
  if (ctxPath && whole) {
    const c = files.parse(ctxPath, contextDeps);
    diagnostics.push(...c.diagnostics);
    if (c.value) {
      part.dependsOn = c.value.deps;
      contextTitle = c.value.title;
    }
  }
  if (roadmapFile && (whole || part.validationVerdict === 'needs-attention')) {
    const r = files.parse(roadmapFile, parseRoadmapFile);
    diagnostics.push(...r.diagnostics);
    if (r.value) {
      part.roadmapFile = roadmapFile;
      // An empty file is no roadmap to GSD (the milestone is still being planned).
      if (!r.value.empty) part.roadmap = r.value;
      part.extensions = r.value.extensions;
    }
  }
  // Hook state lives in the milestone's sidecar, read at any depth (a hook may keep state on a
  // milestone the lazy read does not open whole); blocks an older version left in the roadmap are
  // read with the roadmap, until they are moved (the sidecar's win).
  const sidecar = dir.entries.some((e) => e.isFile && isSidecarName(e.name)) ? dir.file(id, SIDECAR_SUFFIX) : null;
  if (sidecar) {
    const s = files.parse(sidecar, (text, file) => {
      const fm = parseFrontmatter(text, file);
      return { extensions: fmRecord(fm.data, 'extensions'), diagnostics: fm.diagnostics };
    });
    diagnostics.push(...s.diagnostics);
    if (s.value) part.extensions = mergedBlocks(s.value.extensions, part.extensions);
  }
  part.title = part.roadmap?.title || summaryTitle || contextTitle || id;
  return part;
}
