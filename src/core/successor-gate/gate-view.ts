// What the panel, the findings and `state --json` show of our gate on a successor project: each
// task's review cycles from our records (gate-records.ts), numbered as GSD counts them, where the
// task stands in the loop (in review, fixing, passed, stopped at the cap) in the review loop's own
// shape (so the panel words it as on markdown projects), the issues left at the cap as the task's
// pending actions, and a gate GSD paused on, with what to run next. Read once per state read: our
// hook's settings, GSD's hook-state.json and the folder of records; nothing per task but its records.
import * as path from 'node:path';
import { readBoundedText } from '../files/bounded-read';
import { openConfined } from '../files/confine';
import { parseFrontmatter } from '../parse/frontmatter';
import type { ReviewLoopTaskState } from '../hooks/builtin/review-loop/review-loop-state';
import type { Diagnostic, ReviewCycle } from '../model/types';
import { readGateConfig, type GateConfig } from './gate-config';
import { GATE_TRIGGER } from './gate-hook';
import { readAllGateRecords, type GateSnapshot } from './gate-records';
import { gateCycle, hookCycleKey, readHookState, type HookStateRecord } from './hook-state-file';
import { resolveTaskArtifact, type GateUnit } from './hook-artifact-path';
import type { PreferencesPlaces } from './preferences-files';

/** The `successor-gate` extension of a task: where our gate stands for it. */
export interface GateTaskStatus {
  hook: string;
  /** The cycle GSD is on or ended at; null when the gate has not run for the task. */
  cycle: number | null;
  maxCycles: number;
  state: 'not-run' | 'in-review' | 'fixing' | 'passed' | 'capped' | 'paused';
  /** For `paused`: why GSD stopped, and what to run. */
  reason?: string;
  next?: string;
}

export interface GateTaskView {
  cycles: ReviewCycle[];
  loop: ReviewLoopTaskState;
  status: GateTaskStatus;
  /** The issues left open at the cap: the task's pending actions. */
  pendingActions: Array<{ text: string; file: string; line: number }>;
}

export interface GateView {
  config: GateConfig;
  gsdDir: string;
  records: Map<string, GateSnapshot[]>;
  hookState: HookStateRecord | null;
  diagnostics: Diagnostic[];
}

export const GATE_EXTENSION = 'successor-gate';
const RESUME = '/gsd auto';

/** Our gate on this project, or null when it is not installed (for the project or the user) and nothing was recorded. */
export function readGateView(gsdDir: string, places: Omit<PreferencesPlaces, 'gsdDir'>): GateView | null {
  const { config } = readGateConfig({ ...places, gsdDir });
  const problems: string[] = [];
  const records = readAllGateRecords(gsdDir, problems);
  if (!config && records.size === 0) return null;
  const hook = readHookState(gsdDir);
  const diagnostics: Diagnostic[] = problems.map((p) => ({ file: p.split(': ')[0], severity: 'warning', message: `review record not read: ${p.slice(p.indexOf(': ') + 2)}` }));
  if (hook.problem) diagnostics.push({ file: hook.file, severity: 'warning', message: hook.problem });
  // Records from an uninstalled gate still show, with the cap they were made under.
  return { config: config ?? { name: 'gsd-review-loop', artifact: 'CODE-REVIEW.md', maxCycles: 5, file: '', scope: 'project' }, gsdDir, records, hookState: hook.state, diagnostics };
}

function cycleOf(s: GateSnapshot): ReviewCycle {
  return {
    cycle: s.cycle,
    verdict: s.review.verdict,
    task: s.review.task,
    openIssues: s.review.openIssues,
    resolvedIssues: s.review.resolvedIssues,
    passed: s.review.openIssues.length === 0 && s.review.verdict !== 'changes-requested',
    file: s.file,
    snapshot: true,
  };
}

/** GSD's verdict in the live artifact (the hand-scanned frontmatter: the panel reads many). */
function liveVerdict(file: string): string | null {
  try {
    const text = readBoundedText(file, 1024 * 1024, openConfined);
    if (text === null) return null;
    const v = parseFrontmatter(text, file).data.verdict;
    return typeof v === 'string' ? v.trim().toLowerCase() : null;
  } catch {
    return null;
  }
}

export function gateTaskView(view: GateView, unit: GateUnit): GateTaskView | null {
  const snapshots = view.records.get(unit.unitId) ?? [];
  const { name, maxCycles } = view.config;
  const count = view.hookState?.cycleCounts[hookCycleKey(name, GATE_TRIGGER, unit.unitId)] ?? null;
  const a = view.hookState?.activeHook;
  const inFlight = !!a && a.hookName === name && a.triggerUnitId === unit.unitId;
  const current = gateCycle(view.hookState, name, GATE_TRIGGER, unit.unitId);
  if (snapshots.length === 0 && current === null) return null;
  const last = snapshots[snapshots.length - 1];
  const status: GateTaskStatus = { hook: name, cycle: current ?? last?.cycle ?? null, maxCycles, state: 'not-run' };
  const loop: ReviewLoopTaskState = {};
  const rel = (f: string) => path.relative(view.gsdDir, f);
  const pendingActions: GateTaskView['pendingActions'] = [];
  const verdict = last?.gateVerdict;
  if (last && verdict === 'pass') {
    status.state = 'passed';
    loop.outcome = { cycles: last.cycle, passed: true, completedAt: last.at };
  } else if (last && verdict === 'advisory') {
    status.state = 'capped';
    loop.outcome = { cycles: last.cycle, passed: false, completedAt: last.at };
    loop.pendingActions = last.review.openIssues.map((i) => i.text);
    for (const i of last.review.openIssues) pendingActions.push({ text: [i.location && `${i.location}:`, i.text].filter(Boolean).join(' '), file: last.file, line: i.line });
  } else if (inFlight && a && (!last || a.cycle > last.cycle)) {
    status.state = 'in-review';
    loop.activeReview = { taskId: unit.taskId, cycle: a.cycle, status: 'pending_review', lastReviewPath: last ? rel(last.file) : '' };
  } else if (count !== null && count >= maxCycles) {
    // GSD ran the gate as often as it may without a verdict it could go on with: it paused auto mode.
    status.state = 'paused';
    status.reason = `GSD stopped this review gate after ${count} of ${maxCycles} cycles without a passing verdict (gate cycle budget exhausted) and paused auto mode`;
    status.next = `Look at the review and the task, then run ${RESUME} in GSD to go on`;
  } else if (last && verdict === 'needs-rework') {
    status.state = 'fixing';
    status.cycle = last.cycle + 1;
    loop.activeReview = { taskId: unit.taskId, cycle: last.cycle + 1, status: 'fixing', lastReviewPath: rel(last.file) };
  } else if (current !== null) {
    status.state = 'in-review';
    loop.activeReview = { taskId: unit.taskId, cycle: current, status: 'pending_review', lastReviewPath: last ? rel(last.file) : '' };
  }
  // A reviewer that could not run asks for a person; GSD pauses on that verdict.
  if (status.state === 'in-review' || status.state === 'paused') {
    const live = liveVerdict(resolveTaskArtifact(view.gsdDir, unit, view.config.artifact).file);
    if (live === 'needs-attention' || live === 'needs-remediation') {
      status.state = 'paused';
      delete loop.activeReview;
      status.reason = `the reviewer's verdict is ${live}: GSD paused auto mode for a person to look`;
      status.next = `Read the review file, fix what it says, then run ${RESUME} in GSD`;
    }
  }
  return { cycles: snapshots.map(cycleOf), loop, status, pendingActions };
}
