// `T01-SUMMARY.md`: GSD's task summary frontmatter and sections, including the pending actions
// under `## Known Issues`.
import { fmBoolean, fmString, parseFrontmatter } from './frontmatter';
import { extractPendingActions, type PendingActionLine } from './known-issues';
import { sectionNamed } from './markdown-sections';
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

const VERIFICATION_RESULTS = new Set(['passed', 'untested', 'mixed', 'failed']);

export function parseTaskSummary(text: string, file: string): TaskSummary {
  const fm = parseFrontmatter(text, file, { onlyKeys: SUMMARY_KEYS });
  const diagnostics = [...fm.diagnostics];
  const known = sectionNamed(fm.body, fm.bodyStartLine, 'Known Issues');
  // `# T01: Title` and the bold one-liner GSD puts within the next few lines.
  const head = /^#[ \t]+(.+?)[ \t]*\r?$((?:\r?\n[^#\n]*){0,5})/m.exec(fm.body);
  const heading = head ? { text: head[1] } : null;
  const oneLiner = head ? /^[ \t]*\*\*(.+)\*\*[ \t]*\r?$/m.exec(head[2])?.[1] : undefined;
  const verificationResult = fmString(fm.data, 'verification_result');
  if (verificationResult && !VERIFICATION_RESULTS.has(verificationResult)) {
    diagnostics.push({ file, line: 1, severity: 'info', message: `verification_result "${verificationResult}" is not one of passed, untested, mixed` });
  }
  const completedAt = fmString(fm.data, 'completed_at');
  if (completedAt && Number.isNaN(Date.parse(completedAt))) {
    diagnostics.push({ file, line: 1, severity: 'warning', message: `completed_at "${completedAt}" is not an ISO time; completion order falls back to plan order` });
  }
  const summary: TaskSummary = {
    blockerDiscovered: fmBoolean(fm.data, 'blocker_discovered'),
    knownIssues: known ? known.lines.join('\n').trim() : '',
    pendingActions: extractPendingActions(known),
    diagnostics,
  };
  const put = <K extends keyof TaskSummary>(key: K, value: TaskSummary[K] | undefined) => {
    if (value !== undefined) summary[key] = value;
  };
  put('id', fmString(fm.data, 'id')?.toUpperCase());
  put('parent', fmString(fm.data, 'parent'));
  put('milestone', fmString(fm.data, 'milestone'));
  put('title', heading?.text.replace(/^T\d+\s*[:.-]\s*/i, ''));
  put('oneLiner', oneLiner);
  put('duration', fmString(fm.data, 'duration'));
  put('verificationResult', verificationResult);
  put('completedAt', completedAt);
  return summary;
}
