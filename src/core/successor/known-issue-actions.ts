// GSD's known issues of a task, shown as our pending actions. The successor stores them per task
// (tasks.known_issues, from gsd_task_complete's knownIssues) and renders them under
// `## Known Issues` of the task summary ("None." when empty: gsd-pi workflow-projections.ts,
// renderSummaryContent). They are free text, not our `Pending actions:` list, so every open bullet
// is one action and text without bullets is one action per paragraph.
import { parseFrontmatter } from '../parse/frontmatter';
import { sectionNamed, splitLines } from '../parse/markdown-sections';

export interface KnownIssueLine {
  text: string;
  /** 1-based line in the summary file, when read from one. */
  line?: number;
}

// Matched on the line without its trailing blanks, the text running to the end: `(.+?)\s*$` is
// quadratic on a long line. A bullet with nothing after it is no issue.
const BULLET = /^\s*(?:[-*+]|\d{1,3}[.)])\s+(?:\[([ xX])\]\s+)?(\S.*)$/;
// An em dash as \u2014: the CLI bundle stays ASCII (esbuild.mjs).
const EMPTY = /^(none\.?|n\/a\.?|-|\u2014)$/i;
const HEADING = /^#{1,6}\s/;

/** The known issues of a free-text block; `firstLine` numbers its lines in the file. */
export function knownIssuesFromText(text: string, firstLine?: number): KnownIssueLine[] {
  const lines = splitLines(text);
  const out: KnownIssueLine[] = [];
  const lineOf = (i: number) => (firstLine === undefined ? undefined : firstLine + i);
  const bare = lines.map((l) => l.trimEnd());
  if (bare.some((l) => BULLET.test(l))) {
    bare.forEach((l, i) => {
      const m = BULLET.exec(l);
      // A ticked box is an issue already dealt with.
      if (!m || (m[1] && m[1] !== ' ') || EMPTY.test(m[2])) return;
      out.push({ text: m[2], line: lineOf(i) });
    });
    return out;
  }
  let para: string[] = [];
  let paraStart = 0;
  const flush = () => {
    const t = para.join(' ').trim();
    if (t && !EMPTY.test(t)) out.push({ text: t, line: lineOf(paraStart) });
    para = [];
  };
  lines.forEach((l, i) => {
    if (!l.trim() || HEADING.test(l)) return flush();
    if (para.length === 0) paraStart = i;
    para.push(l.trim());
  });
  flush();
  return out;
}

/** The known issues under `## Known Issues` of a task summary file's text. */
export function knownIssuesFromSummary(text: string, file: string): KnownIssueLine[] {
  const fm = parseFrontmatter(text, file, { onlyKeys: [] });
  const section = sectionNamed(fm.body, fm.bodyStartLine, 'Known Issues');
  if (!section) return [];
  return knownIssuesFromText(section.lines.join('\n'), section.firstLine);
}
