// `## Known Issues` of a task summary: prose, then `Pending actions:` and a bullet list of required
// follow-up. The first line that is neither a bullet nor blank ends the list. Fenced code is skipped.
import { fenceAfter, type Fence, type Section } from './markdown-sections';

export interface PendingActionLine {
  text: string;
  line: number;
}

// Letters in both cases rather than the `i` flag: see gsd-layout.ts.
export const LIST_START = /^\s*(?:\*\*|__)?[Pp][Ee][Nn][Dd][Ii][Nn][Gg] [Aa][Cc][Tt][Ii][Oo][Nn][Ss]:?(?:\*\*|__)?:?\s*$/;
// The text runs to the end of the line and is trimmed in code: `(.+?)\s*$` is quadratic on a long line.
/** GSD's filler for an empty list. */
export const NOTHING_PENDING = /^([Nn][Oo][Nn][Ee]\.?|[Nn]\/[Aa])$/;
const BULLET = /^\s*[-*+]\s+(?:\[([ xX])\]\s+)?(\S.*)$/;

export function extractPendingActions(section: Section | undefined): PendingActionLine[] {
  if (!section) return [];
  const out: PendingActionLine[] = [];
  const start = listStart(section.lines);
  if (start === -1) return out;
  // A fence line is neither a bullet nor blank: it ends the list, so no bullet inside one is read.
  for (let i = start + 1; i < section.lines.length; i++) {
    const line = section.lines[i];
    if (line.trim() === '') continue;
    const m = BULLET.exec(line);
    if (!m) break;
    // A ticked box is follow-up already done; "None." is GSD's empty-section filler.
    if (m[1] && m[1] !== ' ') continue;
    const text = m[2].trimEnd();
    if (NOTHING_PENDING.test(text)) continue;
    out.push({ text, line: section.firstLine + i });
  }
  return out;
}

/** The `Pending actions:` line outside fenced code blocks (one inside a fence is an example). */
function listStart(lines: readonly string[]): number {
  let fence: Fence | null = null;
  for (let i = 0; i < lines.length; i++) {
    const inFence = fence !== null;
    fence = fenceAfter(lines[i], fence);
    if (!inFence && fence === null && LIST_START.test(lines[i])) return i;
  }
  return -1;
}
