// `T01-SUMMARY.md`: GSD's task summary frontmatter and sections, including the pending actions
// under `## Known Issues`.
import { fmBoolean, fmString, fmStringList, parseFrontmatter } from './frontmatter';
import { extractPendingActions, type PendingActionLine } from './known-issues';
import { findSection, firstHeading, sections, splitLines } from './markdown-sections';
import type { Diagnostic } from './types';

export interface TaskSummary {
  id?: string;
  parent?: string;
  milestone?: string;
  title?: string;
  oneLiner?: string;
  keyFiles: string[];
  keyDecisions: string[];
  duration?: string;
  verificationResult?: string;
  completedAt?: string;
  blockerDiscovered: boolean;
  sections: string[];
  knownIssues: string;
  pendingActions: PendingActionLine[];
  diagnostics: Diagnostic[];
}

const VERIFICATION_RESULTS = new Set(['passed', 'untested', 'mixed', 'failed']);

export function parseTaskSummary(text: string, file: string): TaskSummary {
  const fm = parseFrontmatter(text, file);
  const diagnostics = [...fm.diagnostics];
  const lines = splitLines(fm.body);
  const all = sections(lines, fm.bodyStartLine);
  const heading = firstHeading(lines);
  const known = findSection(all, 'Known Issues');
  let oneLiner: string | undefined;
  if (heading) {
    for (let i = heading.index + 1; i < lines.length && i < heading.index + 6; i++) {
      const m = /^\*\*(.+)\*\*\s*$/.exec(lines[i].trim());
      if (m) {
        oneLiner = m[1];
        break;
      }
      if (lines[i].startsWith('#')) break;
    }
  }
  const verificationResult = fmString(fm.data, 'verification_result');
  if (verificationResult && !VERIFICATION_RESULTS.has(verificationResult)) {
    diagnostics.push({ file, line: 1, severity: 'info', message: `verification_result "${verificationResult}" is not one of passed, untested, mixed` });
  }
  const completedAt = fmString(fm.data, 'completed_at');
  if (completedAt && Number.isNaN(Date.parse(completedAt))) {
    diagnostics.push({ file, line: 1, severity: 'warning', message: `completed_at "${completedAt}" is not an ISO time; completion order falls back to plan order` });
  }
  const summary: TaskSummary = {
    keyFiles: fmStringList(fm.data, 'key_files'),
    keyDecisions: fmStringList(fm.data, 'key_decisions'),
    blockerDiscovered: fmBoolean(fm.data, 'blocker_discovered'),
    sections: all.map((s) => s.heading),
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
