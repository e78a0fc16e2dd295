// GSD's own review, shown read-only as our review cycles. In the successor a review is a blocking
// post-unit hook (PREFERENCES `post_unit_hooks` with `criticality: blocking`, optional `on_block`;
// gsd-pi docs/preferences-reference.md, preferences-validation.ts). Its outcome verdict is one of
// pass, advisory, needs-rework, needs-remediation, needs-attention: pass and advisory continue,
// needs-rework retries the unit, the other two pause. Up to 1.21 the verdict is the `verdict` (or
// `outcome.verdict`) of the hook artifact's YAML frontmatter, lower-cased, `passed` read as `pass`
// (verdict-parser.ts extractFrontmatterVerdict; the artifact is found by rule-registry.ts
// resolveHookArtifactPath); on main it is an `assessments` row with scope `hook-gate`
// (db/hook-verdicts.ts). Findings are rework briefs (gsd_rework_brief_save: findingId, severity
// blocking/advisory, description, requiredFix; finding status pending, resolved or
// deferred-with-override: tools/rework-brief.ts).
import * as fs from 'node:fs';
import { readBoundedText } from '../files/bounded-read';
import { openConfined } from '../files/confine';
import * as path from 'node:path';
import { parseFrontmatter } from '../parse/frontmatter';
import { locationInText } from '../reviews/finding-locations';
import type { ReviewCycle, ReviewIssue } from '../model/types';
import type { DbHookVerdict, DbReworkBrief } from './successor-database';

export const HOOK_VERDICTS = ['pass', 'advisory', 'needs-rework', 'needs-remediation', 'needs-attention'] as const;
export type HookVerdict = (typeof HOOK_VERDICTS)[number];

export interface BlockingHook {
  name: string;
  artifact?: string;
  after: string[];
  onBlock?: string;
}

/** One of GSD's review cycles, in our shape plus what GSD said. */
export interface SuccessorReviewCycle extends ReviewCycle {
  /** `hook-gate` for a hook's verdict, `rework-brief` for a brief of findings. */
  kind: 'hook-gate' | 'rework-brief';
  /** The hook's name, or the brief's id. */
  name: string;
  /** GSD's verdict as written (pass, advisory, needs-rework, …); null for a brief. */
  gsdVerdict: string | null;
  rationale?: string;
  at?: string;
  /** Where it was read: the database or the hook's artifact file. */
  from: 'database' | 'artifact';
}

export function successorVerdictOf(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const v = raw.trim().toLowerCase();
  if (!v) return undefined;
  return v === 'passed' ? 'pass' : v;
}

/** pass and advisory let GSD continue; everything else (the needs-* verdicts, `failed`, unknown) did not. */
export function verdictPasses(verdict: string | null | undefined): boolean {
  return verdict === 'pass' || verdict === 'advisory';
}

/** The blocking post-unit hooks of `.gsd/PREFERENCES.md` frontmatter data. */
export function blockingHooks(preferences: Record<string, unknown>): BlockingHook[] {
  const list = preferences.post_unit_hooks;
  if (!Array.isArray(list)) return [];
  const out: BlockingHook[] = [];
  for (const raw of list) {
    if (!raw || typeof raw !== 'object') continue;
    const h = raw as Record<string, unknown>;
    if (typeof h.name !== 'string' || h.enabled === false) continue;
    if (String(h.criticality ?? '').trim() !== 'blocking') continue;
    const onBlock = h.on_block && typeof h.on_block === 'object' ? (h.on_block as Record<string, unknown>).action : undefined;
    out.push({
      name: h.name,
      artifact: typeof h.artifact === 'string' ? h.artifact : undefined,
      after: Array.isArray(h.after) ? h.after.map(String) : [],
      onBlock: typeof onBlock === 'string' ? onBlock : undefined,
    });
  }
  return out;
}

/**
 * The task-level artifact files of a hook in a phase folder, in GSD's order
 * (resolveHookArtifactPath: `<task>-<artifact>`, then `<slice>-<task>-<SUFFIX>.md`).
 */
export function taskArtifactCandidates(phaseDir: string, sliceId: string, taskId: string, artifact: string): string[] {
  if (artifact.includes('/') || artifact.includes('\\')) return [];
  const out = [path.join(phaseDir, `${taskId}-${artifact}`)];
  const suffix = /^(.*)\.md$/i.exec(artifact)?.[1];
  if (suffix) out.push(path.join(phaseDir, `${sliceId}-${taskId}-${suffix}.md`));
  return out;
}

const MAX_ARTIFACT_BYTES = 512 * 1024;

/** The verdict in a hook artifact's frontmatter, or null when the file is missing or has none. */
export function readArtifactVerdict(file: string): { verdict: string; rationale?: string; at?: string } | null {
  let text: string;
  try {
    // Confined and bounded: a link out of .gsd, a FIFO or a device is no artifact.
    const read = readBoundedText(file, MAX_ARTIFACT_BYTES, openConfined);
    if (read === null) return null;
    text = read;
  } catch {
    return null;
  }
  const fm = parseFrontmatter(text, file);
  const data = fm.data;
  const outcome = data.outcome && typeof data.outcome === 'object' ? (data.outcome as Record<string, unknown>) : {};
  const verdict = successorVerdictOf(data.verdict) ?? successorVerdictOf(outcome.verdict);
  if (!verdict) return null;
  const rationale = [data.rationale, outcome.rationale, outcome.reason].find((v) => typeof v === 'string' && v.trim()) as string | undefined;
  let at: string | undefined;
  try {
    at = fs.statSync(file).mtime.toISOString();
  } catch {
    at = undefined;
  }
  return { verdict, rationale, at };
}

function findingIssue(f: DbReworkBrief['findings'][number]): ReviewIssue {
  const text = [f.findingId && `${f.findingId}:`, f.description, f.requiredFix && `Fix: ${f.requiredFix}`].filter(Boolean).join(' ');
  // GSD keeps no file/line column for a finding: a place named in its text (or evidence) is where it is.
  const at = locationInText([f.description, f.requiredFix, f.evidence].filter(Boolean).join('\n'));
  return { text, resolved: f.status !== 'pending', severity: f.severity || undefined, line: 0, ...(at?.line ? { location: `${at.path}:${at.line}` } : {}) };
}

export function verdictCycle(v: { hook: string; verdict: string; rationale?: string; at?: string }, file: string, from: 'database' | 'artifact', task: string): SuccessorReviewCycle {
  const passed = verdictPasses(v.verdict);
  // A verdict that stopped GSD, whose rationale names a place, is that place's one finding.
  const rationale = v.rationale?.trim();
  const at = !passed && rationale ? locationInText(rationale) : null;
  const openIssues: ReviewIssue[] = at?.line ? [{ text: rationale!, resolved: false, severity: v.verdict, location: `${at.path}:${at.line}`, line: 0 }] : [];
  return {
    cycle: 0,
    verdict: passed ? 'approved' : 'changes-requested',
    task,
    openIssues,
    resolvedIssues: [],
    passed,
    file,
    snapshot: false,
    kind: 'hook-gate',
    name: v.hook,
    gsdVerdict: v.verdict,
    rationale: v.rationale?.trim() || undefined,
    at: v.at || undefined,
    from,
  };
}

export function briefCycle(b: DbReworkBrief, file: string): SuccessorReviewCycle {
  const issues = b.findings.map(findingIssue);
  const openIssues = issues.filter((i) => !i.resolved);
  // Passed once no blocking finding is still pending (advisory findings do not block: gsd_rework_brief_save).
  const passed = !b.findings.some((f) => f.status === 'pending' && f.severity !== 'advisory');
  return {
    cycle: 0,
    verdict: passed ? 'approved' : 'changes-requested',
    task: b.taskId,
    openIssues,
    resolvedIssues: issues.filter((i) => i.resolved),
    passed,
    file,
    snapshot: true,
    kind: 'rework-brief',
    name: b.id,
    gsdVerdict: null,
    at: b.createdAt || undefined,
    from: 'database',
  };
}

/** Cycles in time order, numbered from `after` + 1 (rows without a time keep their read order). */
export function numberCycles(cycles: SuccessorReviewCycle[], after = 0): SuccessorReviewCycle[] {
  const sorted = cycles
    .map((c, i) => ({ c, i }))
    .sort((a, b) => (a.c.at && b.c.at ? a.c.at.localeCompare(b.c.at) : 0) || a.i - b.i)
    .map((x) => x.c);
  sorted.forEach((c, i) => (c.cycle = after + i + 1));
  return sorted;
}

export type { DbHookVerdict };
