// The successor's slice plan `NN-MM-PLAN.md` (gsd-pi markdown-renderer.ts,
// renderSlicePlanMarkdown): no YAML; `# S01: Title`, `**Milestone:** M001`, `**Slice:** S01`,
// `**Goal:** …`, then the tasks as a `<tasks>` block of checkbox lines
// `- [x] **T01**: Title _(30m)_` with indented `- Files:` / `- Verify:` lines. There are no task
// plan files: the checkbox is all the layout says about a task.
import { isFence, splitLines } from '../markdown-sections';
import type { Diagnostic } from '../types';

export interface FlatPlanTask {
  id: string;
  title: string;
  done: boolean;
  estimate?: string;
  files: string[];
  verify?: string;
  /** 1-based line in the plan file. */
  line: number;
}

export interface FlatSlicePlan {
  sliceId?: string;
  milestoneId?: string;
  title: string;
  goal?: string;
  /** Whether a `<tasks>` block was found at all. */
  hasTasksBlock: boolean;
  tasks: FlatPlanTask[];
  diagnostics: Diagnostic[];
}

const TITLE = /^#\s+([SR]\d+)\s*[:.-]\s*(.*?)\s*$/i;
const FIELD = /^\*\*(Milestone|Slice|Goal):\*\*\s*(.*?)\s*$/i;
const TASKS_OPEN = /^\s*<tasks>\s*$/i;
const TASKS_CLOSE = /^\s*<\/tasks>\s*$/i;
// `- [x] **T01**: Title _(est)_` (the colon after the bold id is GSD's; a colon inside is tolerated).
const TASK_LINE = /^\s*[-*+]\s+\[([ xX])\]\s+\*\*(T\d+)\*\*\s*:?\s*(.*?)\s*$/;
const TASK_LINE_INNER = /^\s*[-*+]\s+\[([ xX])\]\s+\*\*(T\d+)\s*[:.-]\s*(.*?)\*\*\s*(.*?)\s*$/;
const TASK_LIKE = /^\s*[-*+]\s+\[[^\]]*\]\s+\*{0,2}T\d+/;
const ESTIMATE = /\s*_\(([^)]*)\)_\s*$/;
const DETAIL = /^\s+[-*+]\s+(Files|Verify):\s*(.*)$/i;
const CODE_SPAN = /`([^`]+)`/g;

export function parseFlatSlicePlan(text: string, file: string): FlatSlicePlan {
  const lines = splitLines(text);
  const plan: FlatSlicePlan = { title: '', hasTasksBlock: false, tasks: [], diagnostics: [] };
  let inTasks = false;
  let inFence = false;
  let current: FlatPlanTask | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (isFence(line)) inFence = !inFence;
    if (inFence) continue;
    if (!inTasks) {
      if (TASKS_OPEN.test(line)) {
        inTasks = true;
        plan.hasTasksBlock = true;
        continue;
      }
      const t = !plan.title ? TITLE.exec(line) : null;
      if (t) {
        plan.sliceId ??= t[1].toUpperCase();
        plan.title = t[2] || t[1].toUpperCase();
        continue;
      }
      const f = FIELD.exec(line);
      if (f) {
        const key = f[1].toLowerCase();
        if (key === 'milestone' && f[2]) plan.milestoneId = f[2];
        else if (key === 'slice' && f[2]) plan.sliceId = f[2].toUpperCase();
        else if (key === 'goal' && f[2]) plan.goal = f[2];
      }
      continue;
    }
    if (TASKS_CLOSE.test(line)) {
      inTasks = false;
      current = undefined;
      continue;
    }
    const inner = TASK_LINE_INNER.exec(line);
    const m = inner ?? TASK_LINE.exec(line);
    if (m) {
      let title = inner ? inner[3] : m[3];
      let rest = inner ? inner[4] : m[3];
      const est = ESTIMATE.exec(rest);
      if (est) {
        if (!inner) title = title.slice(0, est.index);
        rest = rest.slice(0, est.index);
      }
      current = { id: m[2].toUpperCase(), title: title.trim() || m[2].toUpperCase(), done: m[1] !== ' ', files: [], line: i + 1 };
      if (est?.[1].trim()) current.estimate = est[1].trim();
      if (plan.tasks.some((t) => t.id === current!.id)) {
        plan.diagnostics.push({ file, line: i + 1, severity: 'warning', message: `task ${current.id} is listed twice in the plan; the first one counts` });
        current = undefined;
        continue;
      }
      plan.tasks.push(current);
      continue;
    }
    const d = current ? DETAIL.exec(line) : null;
    if (d && current) {
      if (d[1].toLowerCase() === 'files') current.files = [...d[2].matchAll(CODE_SPAN)].map((c) => c[1]);
      else current.verify = d[2].trim() || undefined;
      continue;
    }
    if (TASK_LIKE.test(line)) {
      plan.diagnostics.push({ file, line: i + 1, severity: 'warning', message: 'task line not understood: expected "- [ ] **T01**: Title _(estimate)_"' });
    }
  }
  if (inTasks) plan.diagnostics.push({ file, severity: 'warning', message: '<tasks> block is never closed; the tasks up to the end of the file were read' });
  return plan;
}
