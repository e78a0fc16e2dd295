// `S01-REPLAN.md`: GSD records which task's blocker a replan answered with `**Blocker Task:** T02`.
import { fmString, parseFrontmatter } from './frontmatter';
import { splitLines } from './markdown-sections';
import type { Diagnostic } from '../model/types';

export interface Replan {
  /** Every task id the file names as the blocker task (a file can hold several replans). */
  blockerTasks: string[];
  diagnostics: Diagnostic[];
}

const BLOCKER_LINE = /^\s*(?:[-*]\s+)?\*{0,2}Blocker Task:?\*{0,2}:?\s*`?(T\d+)`?/i;

export function parseReplan(text: string, file: string): Replan {
  const fm = parseFrontmatter(text, file);
  const tasks = new Set<string>();
  const fromFm = fmString(fm.data, 'blocker_task');
  if (fromFm && /^T\d+$/i.test(fromFm)) tasks.add(fromFm.toUpperCase());
  for (const line of splitLines(fm.body)) {
    const m = BLOCKER_LINE.exec(line);
    if (m) tasks.add(m[1].toUpperCase());
  }
  const diagnostics = [...fm.diagnostics];
  if (tasks.size === 0) {
    diagnostics.push({ file, line: 1, severity: 'info', message: 'replan names no **Blocker Task:**; it is taken to answer every blocker of the slice' });
  }
  return { blockerTasks: [...tasks], diagnostics };
}
