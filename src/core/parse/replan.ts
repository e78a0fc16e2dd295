// `S01-REPLAN.md`: GSD records which task's blocker a replan answered with `**Blocker Task:** T02`.
import { fmString, parseFrontmatter } from './frontmatter';
import { splitLines } from './markdown-sections';
import type { Diagnostic } from '../model/types';

export interface Replan {
  /** Every task id the file names as the blocker task (a file can hold several replans). */
  blockerTasks: string[];
  diagnostics: Diagnostic[];
}

// Letters in both cases rather than the `i` flag: see gsd-layout.ts.
export const BLOCKER_LINE = /^\s*(?:[-*]\s+)?\*{0,2}[Bb][Ll][Oo][Cc][Kk][Ee][Rr] [Tt][Aa][Ss][Kk]:?\*{0,2}:?\s*`?([Tt]\d+)`?/;
export const TASK_ID = /^[Tt]\d+$/;

export function parseReplan(text: string, file: string): Replan {
  const fm = parseFrontmatter(text, file);
  const tasks = new Set<string>();
  const fromFm = fmString(fm.data, 'blocker_task');
  if (fromFm && TASK_ID.test(fromFm)) tasks.add(fromFm.toUpperCase());
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
