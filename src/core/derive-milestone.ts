// What one milestone folder says on its own: roadmap, summary, validation verdict, parked flag,
// dependencies from its CONTEXT, and the hook state in the roadmap's frontmatter.
import { fmRecord, fmString, fmStringList, parseFrontmatter } from './frontmatter';
import { firstHeading, splitLines } from './markdown-sections';
import type { DirIndex } from './gsd-layout';
import type { ProjectFiles } from './project-files';
import { parseRoadmap, type Roadmap } from './roadmap';
import type { Diagnostic } from './types';

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
  dependsOn: string[];
  /** Only a CONTEXT-DRAFT exists: GSD wants a discussion before planning. */
  draftOnly: boolean;
  extensions: Record<string, unknown>;
  diagnostics: Diagnostic[];
}

interface RoadmapFile extends Roadmap {
  extensions: Record<string, unknown>;
}

function parseRoadmapFile(text: string, file: string): RoadmapFile {
  const fm = parseFrontmatter(text, file);
  const roadmap = parseRoadmap(fm.body, fm.bodyStartLine, file);
  return { ...roadmap, extensions: fmRecord(fm.data, 'extensions'), diagnostics: [...fm.diagnostics, ...roadmap.diagnostics] };
}

/** GSD's rule: a summary is terminal unless it says it failed. */
// `M001: ` before a title: the first `# ` line's text without it.
const MILESTONE_PREFIX = /^M\d+(?:-[a-z0-9]{6})?\s*[:.-]\s*/;

function milestoneTitle(body: string): string | undefined {
  const text = firstHeading(splitLines(body))?.text.replace(MILESTONE_PREFIX, '').trim();
  return text || undefined;
}

// A `# BLOCKER` line; blanks only within the line (`\s*` across lines backtracked on blank runs).
const BLOCKER_HEADING = /^[ \t]*#[ \t]*BLOCKER\b/im;

function summaryOutcome(text: string, file: string): { terminal: boolean; title?: string; diagnostics: Diagnostic[] } {
  const fm = parseFrontmatter(text, file);
  const status = fmString(fm.data, 'status')?.toLowerCase();
  const failedStatus = status !== undefined && ['active', 'pending', 'blocked', 'failed', 'failure', 'incomplete'].includes(status);
  const failedBody = BLOCKER_HEADING.test(text) || /verification\s+failed/i.test(text);
  const closedStatus = status !== undefined && ['complete', 'completed', 'done', 'closed', 'passed', 'success'].includes(status);
  const title = milestoneTitle(fm.body);
  return { terminal: closedStatus || (!failedStatus && !failedBody), ...(title ? { title } : {}), diagnostics: fm.diagnostics };
}

function validationVerdict(text: string, file: string): { verdict: string | null; diagnostics: Diagnostic[] } {
  const fm = parseFrontmatter(text, file);
  let v = fmString(fm.data, 'verdict') ?? /\*\*Verdict:?\*\*:?\s*(?:✅\s*)?([\w-]+)/i.exec(fm.body)?.[1];
  if (v) v = v.toLowerCase() === 'passed' ? 'pass' : v.toLowerCase();
  return { verdict: v ?? null, diagnostics: fm.diagnostics };
}

function contextDeps(text: string, file: string): { deps: string[]; title?: string; diagnostics: Diagnostic[] } {
  const fm = parseFrontmatter(text, file);
  const title = milestoneTitle(fm.body);
  return { deps: fmStringList(fm.data, 'depends_on').map((d) => d.toUpperCase()), ...(title ? { title } : {}), diagnostics: fm.diagnostics };
}

/**
 * How much of a milestone to read. `status`: what GSD's status rules need (parked flag, summary, and
 * the context's dependencies unless the summary already says complete). `all`: also the roadmap and
 * validation. The lazy path reads `all` only for the active milestone.
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
  part.draftOnly = !contextFile && draftFile !== null;
  const ctxPath = contextFile ?? draftFile;
  let contextTitle: string | undefined;
  if (ctxPath && (depth === 'all' || !part.summaryTerminal)) {
    const c = files.parse(ctxPath, contextDeps);
    diagnostics.push(...c.diagnostics);
    if (c.value) {
      part.dependsOn = c.value.deps;
      contextTitle = c.value.title;
    }
  }
  if (depth === 'all') {
    const roadmapFile = dir.file(id, 'ROADMAP');
    if (roadmapFile) {
      const r = files.parse(roadmapFile, parseRoadmapFile);
      diagnostics.push(...r.diagnostics);
      if (r.value) {
        part.roadmapFile = roadmapFile;
        part.roadmap = r.value;
        part.extensions = r.value.extensions;
      }
    }
    const validationFile = dir.file(id, 'VALIDATION');
    if (validationFile) {
      const v = files.parse(validationFile, validationVerdict);
      diagnostics.push(...v.diagnostics);
      part.validationVerdict = v.value?.verdict ?? null;
    }
  }
  part.title = part.roadmap?.title || summaryTitle || contextTitle || id;
  return part;
}
