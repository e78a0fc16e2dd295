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
  let fence: Fence | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const inFence = fence !== null;
    fence = fenceAfter(line, fence);
    const m = !inFence && fence === null && line.charCodeAt(0) === 35 ? HEADING.exec(line) : null;
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

/**
 * An open fenced code block, as CommonMark defines one: up to three spaces, then at least three
 * backticks or tildes (a backtick fence's info string has no backtick). Only a line of the same
 * character, at least as long, with nothing but blanks after it closes it; an unclosed fence runs to
 * the end of the text. GSD's own lines inside one are examples, never structure.
 */
export interface Fence {
  char: number;
  length: number;
}

/** The fence open after `line`, given the one open before it (`null`: none). */
export function fenceAfter(line: string, open: Fence | null): Fence | null {
  let i = 0;
  while (i < 3 && line.charCodeAt(i) === 32) i++;
  const c = line.charCodeAt(i);
  if (c !== 96 && c !== 126) return open;
  let n = 0;
  while (line.charCodeAt(i + n) === c) n++;
  if (n < 3) return open;
  if (open) {
    if (c !== open.char || n < open.length) return open;
    for (let j = i + n; j < line.length; j++) {
      const b = line.charCodeAt(j);
      if (b !== 32 && b !== 9 && b !== 13) return open;
    }
    return null;
  }
  if (c === 96 && line.indexOf('`', i + n) !== -1) return null;
  return { char: c, length: n };
}

/** Whether a text has anything that could open a fence (most GSD summaries have none: fast path). */
function mayHaveFence(text: string): boolean {
  return text.includes('```') || text.includes('~~~');
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

/** Whether the line at `at` is an ATX heading of level 1 or 2 (`#` or `##`, then a blank or the line's end). */
function isTopHeading(body: string, at: number): boolean {
  if (body.charCodeAt(at) !== 35) return false;
  let i = at + 1;
  if (body.charCodeAt(i) === 35) i++;
  const c = body.charCodeAt(i);
  return c === 32 || c === 9 || c === 10 || c === 13 || i === body.length;
}

/**
 * Whether `body` at `i` spells `name` in any case, as `toLowerCase()` of both compares them, without
 * copying the text (this runs for every `##` heading of every summary in a full derive). ASCII is
 * folded here; anything else (the Kelvin sign lower-cases to `k`) is left to toLowerCase.
 */
function spellsIgnoringCase(body: string, i: number, name: string): boolean {
  for (let k = 0; k < name.length; k++) {
    const c = body.charCodeAt(i + k);
    const want = name.charCodeAt(k);
    if (c === want) continue;
    if (c > 127 || want > 127) return body.slice(i, i + name.length).toLowerCase() === name.toLowerCase();
    const lower = c >= 65 && c <= 90 ? c + 32 : c;
    const wantLower = want >= 65 && want <= 90 ? want + 32 : want;
    if (lower !== wantLower || lower < 97 || lower > 122) return false;
  }
  return true;
}

/** Whether the line at `at` is `##`, blanks, `name` in any case, then closing blanks and `#`s. */
function isNamedHeading(body: string, at: number, name: string): boolean {
  if (body.charCodeAt(at) !== 35 || body.charCodeAt(at + 1) !== 35) return false;
  let i = at + 2;
  if (body.charCodeAt(i) !== 32 && body.charCodeAt(i) !== 9) return false;
  while (body.charCodeAt(i) === 32 || body.charCodeAt(i) === 9) i++;
  return spellsIgnoringCase(body, i, name) && headingTailEnds(body, i + name.length);
}

/**
 * Offsets of one named `##` section: its heading line, and its content up to the next `#`/`##`
 * heading. Headings inside fenced code blocks are examples, not sections (a summary that shows a
 * `## Known Issues` in a code block has no Known Issues of its own there).
 */
export function sectionRange(body: string, name: string): { heading: number; start: number; end: number } | undefined {
  // Most summaries have no fence and spell the heading exactly: one indexOf finds it.
  if (!mayHaveFence(body)) {
    const exact = body.indexOf(`## ${name}`);
    // The exact spelling is the section only when no other spelling of the name comes before it.
    const heading = exact !== -1 && (exact === 0 || body.charCodeAt(exact - 1) === 10) && headingTailEnds(body, exact + 3 + name.length) && !namedHeadingBefore(body, name, exact) ? exact : -1;
    return heading === -1 ? scanSection(body, name, false) : rangeFrom(body, heading, false);
  }
  return scanSection(body, name, true);
}

/** Whether a `##` heading of `name` in another spelling starts before offset `limit` (the first one wins). */
function namedHeadingBefore(body: string, name: string, limit: number): boolean {
  if (limit > 0 && isNamedHeading(body, 0, name)) return true;
  for (let at = body.indexOf('\n##'); at !== -1 && at + 1 < limit; at = body.indexOf('\n##', at + 1)) {
    if (isNamedHeading(body, at + 1, name)) return true;
  }
  return false;
}

/** Line by line from the top, skipping fenced code, to the named heading. */
function scanSection(body: string, name: string, fenced: boolean): { heading: number; start: number; end: number } | undefined {
  let fence: Fence | null = null;
  for (let at = 0; at < body.length; ) {
    const nl = body.indexOf('\n', at);
    const lineEnd = nl === -1 ? body.length : nl;
    if (fenced) {
      const inFence = fence !== null;
      fence = fenceAfter(body.slice(at, lineEnd), fence);
      if (!inFence && fence === null && isNamedHeading(body, at, name)) return rangeFrom(body, at, true);
    } else if (isNamedHeading(body, at, name)) return rangeFrom(body, at, false);
    if (nl === -1) break;
    at = nl + 1;
  }
  return undefined;
}

/** The section of the heading at `heading`: from the next line to the next `#`/`##` heading outside fences. */
function rangeFrom(body: string, heading: number, fenced: boolean): { heading: number; start: number; end: number } {
  const lineEnd = body.indexOf('\n', heading);
  if (lineEnd === -1) return { heading, start: body.length, end: body.length };
  let fence: Fence | null = null;
  for (let at = lineEnd + 1; at < body.length; ) {
    const nl = body.indexOf('\n', at);
    const end = nl === -1 ? body.length : nl;
    const inFence = fence !== null;
    if (fenced) fence = fenceAfter(body.slice(at, end), fence);
    if (!inFence && fence === null && isTopHeading(body, at)) return { heading, start: lineEnd + 1, end: at };
    if (nl === -1) break;
    at = nl + 1;
  }
  return { heading, start: lineEnd + 1, end: body.length };
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
