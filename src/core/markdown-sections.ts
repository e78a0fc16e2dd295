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

/** A line that opens or closes a fenced code block (inside which GSD lines are only examples). */
export function isFence(line: string): boolean {
  return /^\s*(```|~~~)/.test(line);
}

export function splitLines(text: string): string[] {
  return text.split(/\r?\n/);
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
    const m = !inFence ? /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line) : null;
    if (m && m[1].length <= level) {
      if (current) out.push(current);
      current = m[1] === marker ? { heading: m[2], line: startLine + i, lines: [], firstLine: startLine + i + 1 } : null;
      continue;
    }
    current?.lines.push(line);
  }
  if (current) out.push(current);
  return out;
}

export function findSection(all: readonly Section[], name: string): Section | undefined {
  const wanted = name.toLowerCase();
  return all.find((s) => s.heading.toLowerCase() === wanted);
}

/** First `# Title` line of a body, without the `#`. */
export function firstHeading(lines: readonly string[]): { text: string; index: number } | null {
  for (let i = 0; i < lines.length; i++) {
    const m = /^#\s+(.+?)\s*$/.exec(lines[i]);
    if (m) return { text: m[1], index: i };
  }
  return null;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const headingPatterns = new Map<string, RegExp>();

/** Offset of the `## name` heading line, or -1. Most files spell it exactly; the regex is the slow path. */
function findHeading(body: string, name: string): number {
  let re = headingPatterns.get(name);
  if (!re) {
    re = new RegExp(`^##[ \\t]+${escapeRegExp(name)}[ \\t]*#*[ \\t]*\\r?$`, 'im');
    headingPatterns.set(name, re);
  }
  const exact = body.indexOf(`## ${name}`);
  if (exact !== -1 && (exact === 0 || body[exact - 1] === '\n')) {
    const end = body.indexOf('\n', exact);
    if (re.test(body.slice(exact, end === -1 ? undefined : end))) return exact;
  }
  const m = re.exec(body);
  return m ? m.index : -1;
}

/**
 * One named `##` section, found without splitting the whole body into lines: the full derive reads
 * thousands of summaries and needs only their Known Issues.
 */
export function sectionNamed(body: string, startLine: number, name: string): Section | undefined {
  const at = findHeading(body, name);
  if (at === -1) return undefined;
  const line = startLine + countLines(body, at);
  const contentStart = body.indexOf('\n', at);
  if (contentStart === -1) return { heading: name, line, lines: [], firstLine: line + 1 };
  const rest = body.slice(contentStart + 1);
  const end = /^#{1,2}[ \t]/m.exec(rest);
  const lines = splitLines(end ? rest.slice(0, end.index) : rest);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return { heading: name, line, lines, firstLine: line + 1 };
}

