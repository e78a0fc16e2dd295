// `## Heading` sections of a markdown body, with 1-based file line numbers, skipping fenced code.
import { countLines } from './frontmatter';

export interface Section {
  heading: string;
  /** File line of the heading. */
  line: number;
  /** Lines after the heading up to the next heading of the same or a higher level. */
  lines: string[];
  /** File line of lines[0]. */
  firstLine: number;
}

// Module-level patterns: a regex literal in a function is a new RegExp object on every call.
// No pattern here lets two quantifiers compete for the same characters (`(.*?)\s*$` backtracks
// quadratically on one long line): captures run to the end of the line and are trimmed in code.
const FENCE = /^\s*(```|~~~)/;
const HEADING = /^(#{1,6})\s(.*)$/;
const TITLE = /^#\s+(\S.*)$/;
const LINE_BREAK = /\r?\n/;

/** A line that opens or closes a fenced code block (inside which GSD lines are only examples). */
export function isFence(line: string): boolean {
  // Most lines start with a printable ASCII character other than ` and ~: they cannot open a fence.
  const c = line.charCodeAt(0);
  if (c > 32 && c < 127 && c !== 96 && c !== 126) return false;
  return FENCE.test(line);
}

export function splitLines(text: string): string[] {
  // Splitting on a string is much faster than on a regex; only CRLF text needs the regex.
  return text.includes('\r') ? text.split(LINE_BREAK) : text.split('\n');
}

/** Sections at one heading level (default `##`). */
export function sections(lines: readonly string[], startLine: number, level = 2): Section[] {
  const out: Section[] = [];
  const marker = '#'.repeat(level);
  let current: Section | null = null;
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (isFence(line)) inFence = !inFence;
    const m = !inFence && line.charCodeAt(0) === 35 ? HEADING.exec(line) : null;
    if (m && m[1].length <= level) {
      if (current) out.push(current);
      current = m[1] === marker ? { heading: headingText(m[2]), line: startLine + i, lines: [], firstLine: startLine + i + 1 } : null;
      continue;
    }
    current?.lines.push(line);
  }
  if (current) out.push(current);
  return out;
}

/** A heading's text without the blanks and closing `#`s around it (CommonMark's closing sequence). */
function headingText(raw: string): string {
  let end = raw.trimEnd().length;
  while (end > 0 && raw.charCodeAt(end - 1) === 35) end--;
  return raw.slice(0, end).trim();
}

export function findSection(all: readonly Section[], name: string): Section | undefined {
  const wanted = name.toLowerCase();
  return all.find((s) => s.heading.toLowerCase() === wanted);
}

/** First `# Title` line of a body, without the `#`. */
export function firstHeading(lines: readonly string[]): { text: string; index: number } | null {
  for (let i = 0; i < lines.length; i++) {
    const m = lines[i].charCodeAt(0) === 35 ? TITLE.exec(lines[i]) : null;
    if (m) return { text: m[1].trimEnd(), index: i };
  }
  return null;
}

/** Whether the rest of a heading line from `i` is only `[ \t]*#*[ \t]*\r?` (closing hashes, spaces). */
function headingTailEnds(body: string, i: number): boolean {
  while (body.charCodeAt(i) === 32 || body.charCodeAt(i) === 9) i++;
  while (body.charCodeAt(i) === 35) i++;
  while (body.charCodeAt(i) === 32 || body.charCodeAt(i) === 9) i++;
  if (body.charCodeAt(i) === 13) i++;
  return i === body.length || body.charCodeAt(i) === 10;
}

/**
 * Offset of the `## name` heading line (`##`, blanks, the name in any case, closing blanks and `#`s),
 * or -1. Most files spell it exactly; the line-by-line scan is the slow path.
 */
function findHeading(body: string, name: string): number {
  const exact = body.indexOf(`## ${name}`);
  if (exact !== -1 && (exact === 0 || body.charCodeAt(exact - 1) === 10) && headingTailEnds(body, exact + 3 + name.length)) return exact;
  const wanted = name.toLowerCase();
  for (let at = 0; at < body.length; ) {
    if (body.charCodeAt(at) === 35 && body.charCodeAt(at + 1) === 35) {
      let i = at + 2;
      if (body.charCodeAt(i) === 32 || body.charCodeAt(i) === 9) {
        while (body.charCodeAt(i) === 32 || body.charCodeAt(i) === 9) i++;
        if (body.slice(i, i + name.length).toLowerCase() === wanted && headingTailEnds(body, i + name.length)) return at;
      }
    }
    const nl = body.indexOf('\n', at);
    if (nl === -1) break;
    at = nl + 1;
  }
  return -1;
}

const NEXT_HEADING = /^#{1,2}[ \t]/gm;

/** Offsets of one named `##` section: its heading line, and its content up to the next `#`/`##` heading. */
export function sectionRange(body: string, name: string): { heading: number; start: number; end: number } | undefined {
  const heading = findHeading(body, name);
  if (heading === -1) return undefined;
  const lineEnd = body.indexOf('\n', heading);
  if (lineEnd === -1) return { heading, start: body.length, end: body.length };
  NEXT_HEADING.lastIndex = lineEnd + 1;
  const next = NEXT_HEADING.exec(body);
  return { heading, start: lineEnd + 1, end: next ? next.index : body.length };
}

/**
 * One named `##` section, found without splitting the whole body into lines: the full derive reads
 * thousands of summaries and needs only their Known Issues. `range` is that section's, when the
 * caller has already found it.
 */
export function sectionNamed(body: string, startLine: number, name: string, range = sectionRange(body, name)): Section | undefined {
  if (!range) return undefined;
  const line = startLine + countLines(body, range.heading);
  const lines = splitLines(body.slice(range.start, range.end));
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return { heading: name, line, lines, firstLine: line + 1 };
}
