// `M001-ROADMAP.md`: the milestone title and its slice lines,
// ``- [x] **S01: Title** `risk:high` `depends:[S01,S02]` `` with an indented `> After this: …`.
import { firstHeading, isFence, splitLines } from './markdown-sections';
import type { Diagnostic } from '../model/types';

export interface RoadmapSlice {
  id: string;
  title: string;
  done: boolean;
  risk?: string;
  depends: string[];
  demo?: string;
  line: number;
}

export interface Roadmap {
  title: string;
  vision?: string;
  slices: RoadmapSlice[];
  diagnostics: Diagnostic[];
}

// The line's head by regex; the title (up to the closing `**`) and the rest by hand, because
// `(.*?)\*\*(.*)$` and `\s*(.*?)` backtrack quadratically on one long line.
const SLICE_HEAD = /^\s*[-*+]\s+\[([ xX])\]\s+\*\*(S\d+)\s*[:.-]/;
const SLICE_LIKE = /^\s*[-*+]\s+\[[^\]]*\]\s+\*{0,2}S\d+/;
// Letters in both cases rather than the `i` flag: see gsd-layout.ts.
export const DEPENDS_TAG = /[Dd][Ee][Pp][Ee][Nn][Dd][Ss]:\s*(\[[^\]]*\]|[^`\s]*)/;
export const RISK_TAG = /[Rr][Ii][Ss][Kk]:\s*(\[[^\]]*\]|[^`\s]*)/;
const VISION = /^\*\*Vision:\*\*(.*)$/;
export const DEMO = /^\s+>\s*[Aa][Ff][Tt][Ee][Rr] [Tt][Hh][Ii][Ss]:(.*)$/;
export const MILESTONE_ID_PREFIX = /^[Mm]\d+(?:-[a-zA-Z0-9]{6})?\s*[:.-]\s*/;

/** `- [x] **S01: Title** rest`: done mark, id, title and rest, or null. */
function sliceLine(line: string): { done: boolean; id: string; title: string; rest: string } | null {
  const m = SLICE_HEAD.exec(line);
  if (!m) return null;
  const close = line.indexOf('**', m[0].length);
  if (close === -1) return null;
  return { done: m[1].toLowerCase() === 'x', id: m[2].toUpperCase(), title: line.slice(m[0].length, close).trim(), rest: line.slice(close + 2) };
}

export function parseDependsList(raw: string | undefined): string[] {
  if (!raw) return [];
  return raw
    .replace(/^\[|\]$/g, '')
    .split(/[,\s]+/)
    .map((s) => s.trim().toUpperCase())
    .filter((s) => /^S\d+$/.test(s));
}

export function parseRoadmap(body: string, bodyStartLine: number, file: string): Roadmap {
  const lines = splitLines(body);
  const diagnostics: Diagnostic[] = [];
  const heading = firstHeading(lines);
  const title = heading ? heading.text.replace(MILESTONE_ID_PREFIX, '') : '';
  const vision = lines.map((l) => VISION.exec(l)?.[1].trim()).find(Boolean);
  const slices: RoadmapSlice[] = [];
  const seen = new Set<string>();
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (isFence(line)) inFence = !inFence;
    if (inFence) continue;
    const m = sliceLine(line);
    if (!m) {
      if (SLICE_LIKE.test(line)) {
        diagnostics.push({ file, line: bodyStartLine + i, severity: 'warning', message: `slice line not understood: expected "- [ ] **S01: Title** \`risk:…\` \`depends:[…]\`"` });
      }
      continue;
    }
    const id = m.id;
    if (seen.has(id)) {
      diagnostics.push({ file, line: bodyStartLine + i, severity: 'warning', message: `slice ${id} is listed twice; the first line counts` });
      continue;
    }
    seen.add(id);
    const rest = m.rest;
    const slice: RoadmapSlice = {
      id,
      title: m.title,
      done: m.done,
      depends: parseDependsList(DEPENDS_TAG.exec(rest)?.[1]),
      line: bodyStartLine + i,
    };
    const risk = RISK_TAG.exec(rest)?.[1];
    if (risk) slice.risk = risk.toLowerCase();
    const next = lines[i + 1];
    const demo = next !== undefined ? DEMO.exec(next) : null;
    if (demo) slice.demo = demo[1].trim();
    slices.push(slice);
  }
  return { title, ...(vision ? { vision } : {}), slices, diagnostics };
}
