// `T01-SUMMARY.md`: GSD's task summary frontmatter and sections, including the pending actions
// under `## Known Issues`.
import { fmBoolean, fmString, parseFrontmatter } from './frontmatter';
import { extractPendingActions, type PendingActionLine } from './known-issues';
import { sectionNamed, sectionRange } from './markdown-sections';
import type { Diagnostic } from './types';

export interface TaskSummary {
  id?: string;
  parent?: string;
  milestone?: string;
  title?: string;
  oneLiner?: string;
  duration?: string;
  verificationResult?: string;
  completedAt?: string;
  blockerDiscovered: boolean;
  knownIssues: string;
  pendingActions: PendingActionLine[];
  diagnostics: Diagnostic[];
}

/** The keys the core uses; the rest of GSD's summary frontmatter (key_files, provides, …) is GSD's. */
const SUMMARY_KEYS = ['id', 'parent', 'milestone', 'duration', 'verification_result', 'completed_at', 'blocker_discovered'];

// The list's lead-in (known-issues.ts); without it a Known Issues section has no pending actions.
const PENDING_ACTIONS = /pending actions/i;
const TASK_ID_PREFIX = /^T\d+\s*[:.-]\s*/i;
const ONE_LINER = /^[ \t]*\*\*(.+)\*\*[ \t]*\r?$/m;

const VERIFICATION_RESULTS = new Set(['passed', 'untested', 'mixed', 'failed']);

// `# Title` and up to five following lines without a `#` (where GSD puts the bold one-liner).
const TITLE_BLOCK = /^#[ \t]+(.+?)[ \t]*\r?$((?:\r?\n[^#\n]*){0,5})/my;

/** The first `# ` line and what follows it; tried only where a line starts with `# `. */
function titleBlock(body: string): RegExpExecArray | null {
  for (let at = body.indexOf('#'); at !== -1; at = body.indexOf('#', at + 1)) {
    const before = at === 0 ? 10 : body.charCodeAt(at - 1);
    const after = body.charCodeAt(at + 1);
    if ((before !== 10 && before !== 13) || (after !== 32 && after !== 9)) continue;
    TITLE_BLOCK.lastIndex = at;
    const m = TITLE_BLOCK.exec(body);
    if (m) return m;
  }
  return null;
}

/** A copy that does not keep the whole file alive (a substring of 13+ characters points into it). */
const own = (s: string | undefined): string | undefined => (s === undefined || s.length < 13 ? s : (' ' + s).slice(1));

export function parseTaskSummary(text: string, file: string): TaskSummary {
  const fm = parseFrontmatter(text, file, { onlyKeys: SUMMARY_KEYS });
  const diagnostics = fm.diagnostics.slice();
  // Offsets first; lines (and their numbers) only for the few summaries that list pending actions.
  const known = sectionRange(fm.body, 'Known Issues');
  const knownText = known ? fm.body.slice(known.start, known.end) : '';
  const pendingActions = PENDING_ACTIONS.test(knownText) ? extractPendingActions(sectionNamed(fm.body, fm.bodyStartLine, 'Known Issues', known)) : [];
  // `# T01: Title` and the bold one-liner GSD puts within the next few lines.
  const head = titleBlock(fm.body);
  const oneLiner = head ? ONE_LINER.exec(head[2])?.[1] : undefined;
  const verificationResult = fmString(fm.data, 'verification_result');
  if (verificationResult && !VERIFICATION_RESULTS.has(verificationResult)) {
    diagnostics.push({ file, line: 1, severity: 'info', message: `verification_result "${verificationResult}" is not one of passed, untested, mixed` });
  }
  const completedAt = fmString(fm.data, 'completed_at');
  if (completedAt && Number.isNaN(Date.parse(completedAt))) {
    diagnostics.push({ file, line: 1, severity: 'warning', message: `completed_at "${completedAt}" is not an ISO time; completion order falls back to plan order` });
  }
  // One literal with every key (absent ones undefined): thousands of these are kept, and adding
  // keys one by one gave each an extra property store.
  return {
    id: fmString(fm.data, 'id')?.toUpperCase(),
    parent: fmString(fm.data, 'parent'),
    milestone: fmString(fm.data, 'milestone'),
    title: own(head?.[1].replace(TASK_ID_PREFIX, '')),
    oneLiner: own(oneLiner),
    duration: fmString(fm.data, 'duration'),
    verificationResult,
    completedAt: own(completedAt),
    blockerDiscovered: fmBoolean(fm.data, 'blocker_discovered'),
    knownIssues: own((knownText.includes('\r') ? knownText.replace(/\r\n/g, '\n') : knownText).trim())!,
    pendingActions,
    diagnostics,
  };
}
