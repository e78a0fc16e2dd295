// `S01-PLAN.md`: the slice's tasks, as checkbox lines ``- [ ] **T01: Title** `est:30m` `` with
// indented `- Files:` / `- Verify:` lines, or as `### T01: Title` headings (which count as not done).
import { firstHeading, isFence, splitLines } from './markdown-sections';
import type { Diagnostic } from './types';

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

const TASK_CHECKBOX = /^\s*[-*+]\s+\[([ xX])\]\s+\*\*(T\d+)\s*[:.-]\s*(.*?)\*\*(.*)$/;
const TASK_HEADING = /^#{2,4}\s+(T\d+)\s*[:.-]\s*(.*?)\s*$/;
const TASK_LIKE = /^\s*[-*+]\s+\[[^\]]*\]\s+\*{0,2}T\d+/;

function estimate(rest: string): string | undefined {
  return /est:\s*([^`\s]+)/i.exec(rest)?.[1];
}

/** `Files:` values: backticked paths, or a comma-separated list. */
function fileList(raw: string): string[] {
  const ticked = [...raw.matchAll(/`([^`]+)`/g)].map((m) => m[1].trim());
  if (ticked.length > 0) return ticked;
  return raw.split(',').map((s) => s.trim()).filter(Boolean);
}

export function parseSlicePlan(body: string, bodyStartLine: number, file: string): SlicePlan {
  const lines = splitLines(body);
  const diagnostics: Diagnostic[] = [];
  const heading = firstHeading(lines);
  const title = heading ? heading.text.replace(/^S\d+\s*[:.-]\s*/i, '') : '';
  const goal = lines.map((l) => /^\*\*Goal:\*\*\s*(.+)$/.exec(l)?.[1]).find(Boolean);
  const tasks: PlanTask[] = [];
  const seen = new Set<string>();
  let current: PlanTask | null = null;
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (isFence(line)) inFence = !inFence;
    if (inFence) continue;
    const box = TASK_CHECKBOX.exec(line);
    const head = box ? null : TASK_HEADING.exec(line);
    if (box || head) {
      const id = (box ? box[2] : head![1]).toUpperCase();
      if (seen.has(id)) {
        diagnostics.push({ file, line: bodyStartLine + i, severity: 'warning', message: `task ${id} is listed twice; the first one counts` });
        current = null;
        continue;
      }
      seen.add(id);
      const rest = box ? box[4] : head![2];
      current = {
        id,
        title: (box ? box[3] : head![2].replace(/`[^`]*`/g, '')).trim(),
        done: box ? box[1].toLowerCase() === 'x' : false,
        files: [],
        line: bodyStartLine + i,
        style: box ? 'checkbox' : 'heading',
      };
      const est = estimate(rest);
      if (est) current.estimate = est;
      tasks.push(current);
      continue;
    }
    if (TASK_LIKE.test(line)) {
      diagnostics.push({ file, line: bodyStartLine + i, severity: 'warning', message: 'task line not understood: expected "- [ ] **T01: Title** `est:30m`"' });
      continue;
    }
    if (!current) continue;
    if (/^#{1,3}\s/.test(line)) {
      current = null;
      continue;
    }
    const detail = /^\s*[-*+]?\s*\*{0,2}(Files|Verify)\*{0,2}:\*{0,2}\s*(.*)$/i.exec(line);
    if (detail && (current.style === 'heading' || /^\s+/.test(line))) {
      if (detail[1].toLowerCase() === 'files') current.files.push(...fileList(detail[2]));
      else current.verify = detail[2].trim();
    }
  }
  return { title, ...(goal ? { goal } : {}), tasks, diagnostics };
}
