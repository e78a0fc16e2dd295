// What the panel, the findings and `state --json` show of our gate on a successor project: each
// task's review cycles from our records (gate-records.ts), numbered as GSD counts them, where the
// task stands in the loop (in review, fixing, passed, stopped at the cap) in the review loop's own
// shape (so the panel words it as on markdown projects), the issues left at the cap as the task's
// pending actions, and a gate GSD paused on, with what to run next. Read once per state read: our
// hook's settings, GSD's hook-state.json and the folder of records; nothing per task but its records.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readBoundedText } from '../files/bounded-read';
import { openConfined } from '../files/confine';
import { parseFrontmatter } from '../parse/frontmatter';
import type { ReviewLoopTaskState } from '../hooks/builtin/review-loop/review-loop-state';
import type { Diagnostic, ReviewCycle } from '../model/types';
import { readGateConfig, type GateConfig } from './gate-config';
import { GATE_ARTIFACT, GATE_HOOK_NAME, GATE_MAX_CYCLES, GATE_TRIGGER } from './gate-hook';
import { MAX_REVIEW_BYTES, readAllGateRecords, type GateSnapshot } from './gate-records';
import { gateCycle, hookCycleKey, readHookState, type HookStateRecord } from './hook-state-file';
import { resolveTaskArtifact, type GateUnit } from './hook-artifact-path';
import type { PreferencesPlaces } from './preferences-files';

/** The `successor-gate` extension of a task: where our gate stands for it. */
export interface GateTaskStatus {
  hook: string;
  /** The cycle GSD is on or ended at; null when the gate has not run for the task. */
  cycle: number | null;
  maxCycles: number;
  /** `unrecorded`: GSD read a verdict that `gate --done` did not set (written by an agent or the repository). */
  state: 'not-run' | 'in-review' | 'fixing' | 'passed' | 'capped' | 'paused' | 'unrecorded';
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
  /** Review files present in the phase folders (upper-cased paths): a task with one is looked at even without records. */
  artifacts: Set<string>;
  diagnostics: Diagnostic[];
}

export const GATE_EXTENSION = 'successor-gate';
const RESUME = '/gsd auto';

/** Our gate on this project, or null when it is not installed (for the project or the user) and nothing was recorded. */
export function readGateView(gsdDir: string, places: Omit<PreferencesPlaces, 'gsdDir'>): GateView | null {
  const { config } = readGateConfig({ ...places, gsdDir });
  const problems: string[] = [];
  const records = readAllGateRecords(gsdDir, config?.artifact ?? GATE_ARTIFACT, problems);
  if (!config && records.size === 0) return null;
  const hook = readHookState(gsdDir);
  const diagnostics: Diagnostic[] = problems.map((p) => ({ file: p.split(': ')[0], severity: 'warning', message: `review record not read: ${p.slice(p.indexOf(': ') + 2)}` }));
  if (hook.problem) diagnostics.push({ file: hook.file, severity: 'warning', message: hook.problem });
  const artifact = config?.artifact ?? GATE_ARTIFACT;
  // Records from an uninstalled gate still show, with the cap they were made under.
  return { config: config ?? { name: GATE_HOOK_NAME, artifact, maxCycles: GATE_MAX_CYCLES, file: '', scope: 'project' }, gsdDir, records, hookState: hook.state, artifacts: reviewFilesIn(gsdDir, artifact), diagnostics };
}

/** The task-level review files in the phase folders: one listing each, names only. */
function reviewFilesIn(gsdDir: string, artifact: string): Set<string> {
  const out = new Set<string>();
  const suffix = `-${artifact}`.toUpperCase();
  const phases = path.join(gsdDir, 'phases');
  let dirs: string[];
  try {
    dirs = fs.readdirSync(phases);
  } catch {
    return out;
  }
  for (const d of dirs) {
    let names: string[];
    try {
      names = fs.readdirSync(path.join(phases, d));
    } catch {
      continue;
    }
    for (const n of names) if (n.toUpperCase().endsWith(suffix)) out.add(path.join(phases, d, n).toUpperCase());
  }
  return out;
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

function keyAnyCase(data: Record<string, unknown>, key: string): unknown {
  for (const [k, v] of Object.entries(data)) if (k.toLowerCase() === key) return v;
  return undefined;
}

/**
 * The live review file and its verdict as GSD reads it (any letter case, else `outcome.verdict`:
 * verdict-parser.ts), through the hand-scanned frontmatter (the panel reads many); null without one.
 */
function liveReview(file: string): { text: string; verdict: string | null } | null {
  let text: string | null;
  try {
    text = readBoundedText(file, MAX_REVIEW_BYTES, openConfined);
  } catch {
    return null;
  }
  if (text === null) return null;
  const data = parseFrontmatter(text, file).data;
  const outcome = keyAnyCase(data, 'outcome');
  const raw = keyAnyCase(data, 'verdict') ?? (outcome && typeof outcome === 'object' ? keyAnyCase(outcome as Record<string, unknown>, 'verdict') : undefined);
  const v = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  return { text, verdict: v ? (v === 'passed' ? 'pass' : v) : null };
}

export function gateTaskView(view: GateView, unit: GateUnit, phaseDir?: string): GateTaskView | null {
  const snapshots = view.records.get(unit.unitId) ?? [];
  const { name, maxCycles } = view.config;
  const count = view.hookState?.cycleCounts[hookCycleKey(name, GATE_TRIGGER, unit.unitId)] ?? null;
  const a = view.hookState?.activeHook;
  const inFlight = !!a && a.hookName === name && a.triggerUnitId === unit.unitId;
  const current = gateCycle(view.hookState, name, GATE_TRIGGER, unit.unitId);
  const own = phaseDir ? path.join(phaseDir, `${unit.sliceId}-${unit.taskId}-${view.config.artifact}`) : null;
  const hasFile = own !== null && view.artifacts.has(own.toUpperCase());
  if (snapshots.length === 0 && current === null && !hasFile) return null;
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
  const live = hasFile || status.state === 'in-review' || status.state === 'paused' ? liveReview(resolveTaskArtifact(view.gsdDir, unit, view.config.artifact).file) : null;
  // A verdict GSD goes on with that is not one --done recorded: an agent (the task's own, or a reviewer
  // past the guard) or the repository wrote it, and GSD skipped or ended the review on it.
  if (live && (live.verdict === 'pass' || live.verdict === 'advisory') && !snapshots.some((x) => x.text === live.text)) {
    status.state = 'unrecorded';
    delete loop.activeReview;
    delete loop.outcome;
    status.reason = `the review file says verdict: ${live.verdict}, which gsd-review gate --done did not set: GSD goes on without GSD Review Loop's review of this task`;
    status.next = 'Look at the task and its review file; the review runs again only if the task is re-run';
  }
  // A reviewer that could not run asks for a person; GSD pauses on that verdict.
  if (status.state === 'in-review' || status.state === 'paused') {
    const v = live?.verdict;
    if (v === 'needs-attention' || v === 'needs-remediation') {
      const liveVerdictWord = v;
      status.state = 'paused';
      delete loop.activeReview;
      status.reason = `the reviewer's verdict is ${liveVerdictWord}: GSD paused auto mode for a person to look`;
      status.next = `Read the review file, fix what it says, then run ${RESUME} in GSD`;
    }
  }
  return { cycles: snapshots.map(cycleOf), loop, status, pendingActions };
}
