// `M001-ROADMAP.md`: the milestone title and its slice lines,
// ``- [x] **S01: Title** `risk:high` `depends:[S01,S02]` `` with an indented `> After this: …`.
import { firstHeading, isFence, splitLines } from './markdown-sections';
import type { Diagnostic } from './types';

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

const SLICE_LINE = /^\s*[-*+]\s+\[([ xX])\]\s+\*\*(S\d+)\s*[:.-]\s*(.*?)\*\*(.*)$/;
const SLICE_LIKE = /^\s*[-*+]\s+\[[^\]]*\]\s+\*{0,2}S\d+/;

function tag(rest: string, name: string): string | undefined {
  const m = new RegExp(`${name}:\\s*(\\[[^\\]]*\\]|[^\`\\s]*)`, 'i').exec(rest);
  return m ? m[1] : undefined;
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
  const title = heading ? heading.text.replace(/^M\d+(?:-[a-z0-9]{6})?\s*[:.-]\s*/i, '') : '';
  const vision = lines.map((l) => /^\*\*Vision:\*\*\s*(.+)$/.exec(l)?.[1]).find(Boolean);
  const slices: RoadmapSlice[] = [];
  const seen = new Set<string>();
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (isFence(line)) inFence = !inFence;
    if (inFence) continue;
    const m = SLICE_LINE.exec(line);
    if (!m) {
      if (SLICE_LIKE.test(line)) {
        diagnostics.push({ file, line: bodyStartLine + i, severity: 'warning', message: `slice line not understood: expected "- [ ] **S01: Title** \`risk:…\` \`depends:[…]\`"` });
      }
      continue;
    }
    const id = m[2].toUpperCase();
    if (seen.has(id)) {
      diagnostics.push({ file, line: bodyStartLine + i, severity: 'warning', message: `slice ${id} is listed twice; the first line counts` });
      continue;
    }
    seen.add(id);
    const rest = m[4];
    const slice: RoadmapSlice = {
      id,
      title: m[3].trim(),
      done: m[1].toLowerCase() === 'x',
      depends: parseDependsList(tag(rest, 'depends')),
      line: bodyStartLine + i,
    };
    const risk = tag(rest, 'risk');
    if (risk) slice.risk = risk.toLowerCase();
    const next = lines[i + 1];
    const demo = next !== undefined ? /^\s+>\s*After this:\s*(.*)$/i.exec(next) : null;
    if (demo) slice.demo = demo[1].trim();
    slices.push(slice);
  }
  return { title, ...(vision ? { vision } : {}), slices, diagnostics };
}
