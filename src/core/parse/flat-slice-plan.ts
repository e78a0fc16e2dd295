// The successor's slice plan `NN-MM-PLAN.md` (gsd-pi markdown-renderer.ts,
// renderSlicePlanMarkdown): no YAML; `# S01: Title`, `**Milestone:** M001`, `**Slice:** S01`,
// `**Goal:** …`, then the tasks as a `<tasks>` block of checkbox lines
// `- [x] **T01**: Title _(30m)_` with indented `- Files:` / `- Verify:` lines. There are no task
// plan files: the checkbox is all the layout says about a task.
import { isFence, splitLines } from './markdown-sections';
import type { PlanTask } from './slice-plan';
import type { Diagnostic } from '../model/types';

/** A task of the successor's slice plan: our plan task without the heading style (checkboxes only). */
export type FlatPlanTask = Omit<PlanTask, 'style'>;

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

// No two quantifiers here compete for the same characters (`(.*?)\s*$` and `(.*?)\*\*(.*)$`
// backtrack quadratically on one long line): the line's trailing blanks are cut first, captures run
// to its end, and the bold title and the estimate are found by hand.
const TITLE = /^#\s+([SR]\d+)\s*[:.-]\s*(\S.*)?$/i;
const FIELD = /^\*\*(Milestone|Slice|Goal):\*\*\s*(\S.*)?$/i;
const TASKS_OPEN = /^\s*<tasks>\s*$/i;
const TASKS_CLOSE = /^\s*<\/tasks>\s*$/i;
// `- [x] **T01**: Title _(est)_` (the colon after the bold id is GSD's; a colon inside is tolerated).
const TASK_LINE = /^\s*[-*+]\s+\[([ xX])\]\s+\*\*(T\d+)\*\*\s*(?::\s*)?(\S.*)?$/;
// `- [x] **T01: Title** rest`: the head; the title runs to the next `**`.
const TASK_LINE_INNER_HEAD = /^\s*[-*+]\s+\[([ xX])\]\s+\*\*(T\d+)\s*[:.-]/;
const TASK_LIKE = /^\s*[-*+]\s+\[[^\]]*\]\s+\*{0,2}T\d+/;
const DETAIL = /^\s+[-*+]\s+(Files|Verify):\s*(\S.*)?$/i;
const CODE_SPAN = /`([^`]+)`/g;

/** A checkbox task line (trailing blanks cut): done mark, id, title and the text after the title. */
function taskLine(line: string): { mark: string; id: string; title: string; rest: string; inner: boolean } | null {
  const head = TASK_LINE_INNER_HEAD.exec(line);
  if (head) {
    const close = line.indexOf('**', head[0].length);
    if (close !== -1) return { mark: head[1], id: head[2], title: line.slice(head[0].length, close).trim(), rest: line.slice(close + 2).trim(), inner: true };
  }
  const m = TASK_LINE.exec(line);
  return m ? { mark: m[1], id: m[2], title: m[3] ?? '', rest: m[3] ?? '', inner: false } : null;
}

/**
 * The `_(estimate)_` that ends the text: its content and where it starts, or null. The leftmost
 * `_(` with no `)` before the closing `)_`, as the pattern `_\(([^)]*)\)_$` would find it (found by
 * hand: that pattern rescans the text from every `_(`).
 */
function trailingEstimate(text: string): { estimate: string; index: number } | null {
  if (!text.endsWith(')_')) return null;
  const close = text.length - 2;
  const open = text.indexOf('_(', close > 0 ? text.lastIndexOf(')', close - 1) + 1 : 0);
  if (open === -1 || open + 2 > close) return null;
  return { estimate: text.slice(open + 2, close), index: open };
}

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
      const bare = line.trimEnd();
      const t = !plan.title ? TITLE.exec(bare) : null;
      if (t) {
        plan.sliceId ??= t[1].toUpperCase();
        plan.title = t[2] || t[1].toUpperCase();
        continue;
      }
      const f = FIELD.exec(bare);
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
    const m = taskLine(line.trimEnd());
    if (m) {
      const est = trailingEstimate(m.rest);
      // `**T01**: Title _(est)_`: the estimate ends the title; `**T01: Title** _(est)_`: it follows it.
      const title = est && !m.inner ? m.title.slice(0, est.index) : m.title;
      current = { id: m.id.toUpperCase(), title: title.trim() || m.id.toUpperCase(), done: m.mark !== ' ', files: [], line: i + 1 };
      if (est?.estimate.trim()) current.estimate = est.estimate.trim();
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
      const value = d[2] ?? '';
      if (d[1].toLowerCase() === 'files') current.files = [...value.matchAll(CODE_SPAN)].map((c) => c[1]);
      else current.verify = value.trim() || undefined;
      continue;
    }
    if (TASK_LIKE.test(line)) {
      plan.diagnostics.push({ file, line: i + 1, severity: 'warning', message: 'task line not understood: expected "- [ ] **T01**: Title _(estimate)_"' });
    }
  }
  if (inTasks) plan.diagnostics.push({ file, severity: 'warning', message: '<tasks> block is never closed; the tasks up to the end of the file were read' });
  return plan;
}
