// `## Heading` sections of a markdown body, with 1-based file line numbers, skipping fenced code.

export interface Section {
  heading: string;
  /** File line of the heading. */
  line: number;
  /** Lines after the heading up to the next heading of the same or a higher level. */
  lines: string[];
  /** File line of lines[0]. */
  firstLine: number;
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
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
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
