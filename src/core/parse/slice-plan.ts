// `S01-PLAN.md`: the slice's tasks, as checkbox lines ``- [ ] **T01: Title** `est:30m` `` with
// indented `- Files:` / `- Verify:` lines, or as `### T01: Title` headings (which count as not done).
import { firstHeading, isFence, splitLines } from './markdown-sections';
import type { Diagnostic } from '../model/types';

export interface PlanTask {
  id: string;
  title: string;
  done: boolean;
  estimate?: string;
  files: string[];
  verify?: string;
  line: number;
  style: 'checkbox' | 'heading';
}

export interface SlicePlan {
  title: string;
  goal?: string;
  tasks: PlanTask[];
  diagnostics: Diagnostic[];
}

// Heads by regex, titles and the rest by hand or trimmed in code: `(.*?)\*\*(.*)$`, `\s*(.*?)\s*$`
// and `\s*[-*+]?\s*` backtrack quadratically on one long line.
const TASK_CHECKBOX_HEAD = /^\s*[-*+]\s+\[([ xX])\]\s+\*\*(T\d+)\s*[:.-]/;
const TASK_HEADING = /^#{2,4}\s+(T\d+)\s*[:.-](.*)$/;
const TASK_LIKE = /^\s*[-*+]\s+\[[^\]]*\]\s+\*{0,2}T\d+/;

// Module-level patterns: a regex literal in a function is a new RegExp object on every call.
// Letters in both cases rather than the `i` flag: see gsd-layout.ts.
export const ESTIMATE = /[Ee][Ss][Tt]:\s*([^`\s]+)/;
export const DETAIL = /^\s*(?:[-*+]\s*)?\*{0,2}([Ff][Ii][Ll][Ee][Ss]|[Vv][Ee][Rr][Ii][Ff][Yy])\*{0,2}:\*{0,2}(.*)$/;
const SECTION_HEADING = /^#{1,3}\s/;
const INDENTED = /^\s+/;
const GOAL = /^\*\*Goal:\*\*(.*)$/;
export const SLICE_ID_PREFIX = /^[Ss]\d+\s*[:.-]\s*/;
const CODE_SPANS = /`[^`]*`/g;

/** `- [ ] **T01: Title** rest`: done mark, id, title (up to the closing `**`) and rest, or null. */
function taskCheckbox(line: string): { done: boolean; id: string; title: string; rest: string } | null {
  const m = TASK_CHECKBOX_HEAD.exec(line);
  if (!m) return null;
  const close = line.indexOf('**', m[0].length);
  if (close === -1) return null;
  return { done: m[1].toLowerCase() === 'x', id: m[2], title: line.slice(m[0].length, close).trim(), rest: line.slice(close + 2) };
}

function estimate(rest: string): string | undefined {
  return ESTIMATE.exec(rest)?.[1];
}

/** `Files:` values: backticked paths, or a comma-separated list. */
function fileList(raw: string): string[] {
  // Backticked spans by hand: matchAll allocated more than anything else in a plan's parse.
  const ticked: string[] = [];
  for (let open = raw.indexOf('`'); open !== -1; ) {
    const close = raw.indexOf('`', open + 1);
    if (close === -1) break;
    if (close > open + 1) {
      ticked.push(raw.slice(open + 1, close).trim());
      open = raw.indexOf('`', close + 1);
    } else {
      // An empty pair is not a span; its closing tick may open the next one.
      open = close;
    }
  }
  if (ticked.length > 0) return ticked;
  return raw.split(',').map((s) => s.trim()).filter(Boolean);
}

/**
 * Whether a line can be anything the loop below looks at: a list item, a heading, a fence, or a
 * Files/Verify line. Prose lines (most of a plan) skip every pattern; non-ASCII goes the long way.
 */
function mayMatter(c: number): boolean {
  return c === 45 || c === 42 || c === 43 || c === 35 || c === 96 || c === 126 || c === 70 || c === 102 || c === 86 || c === 118 || c > 126 || (c >= 10 && c <= 13);
}

/** Whether a checkbox can follow: a bullet at `i`, blanks, then `[` (the Files/Verify lines fail here). */
function mayBeCheckbox(line: string, i: number): boolean {
  const c = line.charCodeAt(i);
  if (c > 126 || (c >= 10 && c <= 13)) return true;
  if (c !== 45 && c !== 42 && c !== 43) return false;
  let j = i + 1;
  for (let d = line.charCodeAt(j); d === 32 || d === 9; d = line.charCodeAt(++j));
  const next = line.charCodeAt(j);
  return next > 126 || (next >= 10 && next <= 13) || (j > i + 1 && next === 91);
}

export function parseSlicePlan(body: string, bodyStartLine: number, file: string): SlicePlan {
  const lines = splitLines(body);
  const diagnostics: Diagnostic[] = [];
  const heading = firstHeading(lines);
  const title = heading ? heading.text.replace(SLICE_ID_PREFIX, '') : '';
  let goal: string | undefined;
  for (const l of lines) {
    goal = l.startsWith('**Goal:**') ? GOAL.exec(l)?.[1].trim() : undefined;
    if (goal) break;
  }
  const tasks: PlanTask[] = [];
  const seen = new Set<string>();
  let current: PlanTask | null = null;
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let at = 0;
    while (line.charCodeAt(at) === 32 || line.charCodeAt(at) === 9) at++;
    if (!mayMatter(line.charCodeAt(at))) continue;
    if (isFence(line)) inFence = !inFence;
    if (inFence) continue;
    const boxLike = mayBeCheckbox(line, at);
    const hashed = line.charCodeAt(0) === 35;
    const box = boxLike ? taskCheckbox(line) : null;
    const head = box || !hashed ? null : TASK_HEADING.exec(line);
    if (box || head) {
      const id = (box ? box.id : head![1]).toUpperCase();
      if (seen.has(id)) {
        diagnostics.push({ file, line: bodyStartLine + i, severity: 'warning', message: `task ${id} is listed twice; the first one counts` });
        current = null;
        continue;
      }
      seen.add(id);
      const rest = box ? box.rest : head![2];
      current = {
        id,
        title: box ? box.title : head![2].replace(CODE_SPANS, '').trim(),
        done: box ? box.done : false,
        files: [],
        line: bodyStartLine + i,
        style: box ? 'checkbox' : 'heading',
      };
      const est = estimate(rest);
      if (est) current.estimate = est;
      tasks.push(current);
      continue;
    }
    if (boxLike && TASK_LIKE.test(line)) {
      diagnostics.push({ file, line: bodyStartLine + i, severity: 'warning', message: 'task line not understood: expected "- [ ] **T01: Title** `est:30m`"' });
      continue;
    }
    if (!current) continue;
    if (hashed && SECTION_HEADING.test(line)) {
      current = null;
      continue;
    }
    const detail = DETAIL.exec(line);
    if (detail && (current.style === 'heading' || INDENTED.test(line))) {
      if (detail[1].toLowerCase() === 'files') for (const f of fileList(detail[2].trim())) current.files.push(f);
      else current.verify = detail[2].trim();
    }
  }
  // Lists grown by push keep room for 17 items; most tasks name one or two files, and the state keeps
  // every list for as long as it lives (each kept byte is copied twice by the young-generation GC).
  for (const t of tasks) if (t.files.length > 0) t.files = t.files.slice();
  return { title, ...(goal ? { goal } : {}), tasks, diagnostics };
}
