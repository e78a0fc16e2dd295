// GSD's default choice of the next unit, from the derived phase (what happens when no hook decides).
import * as path from 'node:path';
import type { DeepReadonly, UnitDecision } from '../hooks/engine/middleware-types';
import { PROMPTS, render } from '../prompts/templates';
import { promptContextOf, recordsThroughWorkflowTools, type PromptContext } from '../prompts/prompt-context';
import { blockerTaskValue, GATE_QUESTIONS, milestoneTitleValue, sketchScopeBlock, WORKFLOW_PROMPTS } from '../prompts/workflow-tool-prompts';
import type { Gsd2DatabaseState, Gsd2SliceEntry } from '../gsd2-database/derive';
import { activeUnits } from '../model/find-unit';
import type { GSDState, MilestoneEntry, SliceEntry, TaskEntry } from '../model/types';

type State = DeepReadonly<GSDState>;

/**
 * A path for a prompt, relative to the project root with forward slashes. Files inside `.gsd` are
 * named through `.gsd` even when it is a symlink to a folder elsewhere (the agent works from the root).
 */
export function promptPath(state: State, file: string): string {
  const inGsd = path.relative(state.gsdDir, file);
  const rel = !inGsd.startsWith('..') && !path.isAbsolute(inGsd) ? path.join('.gsd', inGsd) : path.relative(state.root, file);
  return rel.split(path.sep).join('/');
}

function slicePaths(state: State, milestone: DeepReadonly<MilestoneEntry>, slice: DeepReadonly<SliceEntry>) {
  const sliceDir = slice.dir ?? path.join(milestone.dir, 'slices', slice.id);
  return {
    roadmapPath: promptPath(state, milestone.roadmapFile ?? path.join(milestone.dir, `${milestone.id}-ROADMAP.md`)),
    slicePlanPath: promptPath(state, slice.planFile ?? path.join(sliceDir, `${slice.id}-PLAN.md`)),
    sliceSummaryPath: promptPath(state, path.join(sliceDir, `${slice.id}-SUMMARY.md`)),
    replanPath: promptPath(state, path.join(sliceDir, `${slice.id}-REPLAN.md`)),
    tasksDir: path.join(sliceDir, 'tasks'),
  };
}

/** The milestone's files GSD renders (ROADMAP, VALIDATION, SUMMARY) and the CONTEXT it plans from. */
function milestonePaths(state: State, milestone: DeepReadonly<MilestoneEntry>) {
  const file = (suffix: string) => promptPath(state, path.join(milestone.dir, `${milestone.id}-${suffix}.md`));
  return {
    roadmapPath: milestone.roadmapFile ? promptPath(state, milestone.roadmapFile) : file('ROADMAP'),
    contextPath: file('CONTEXT'),
    validationPath: file('VALIDATION'),
    milestoneSummaryPath: milestone.summaryFile ? promptPath(state, milestone.summaryFile) : file('SUMMARY'),
    milestoneTitleValue: milestoneTitleValue(milestone.title),
  };
}

type WorkflowUnit = Exclude<keyof typeof WORKFLOW_PROMPTS, 'refine-slice' | 'gate-evaluate'>;

/** The template of a unit: GSD's workflow-tool version on a database project, else the markdown one. */
function templateOf(unit: WorkflowUnit, context: PromptContext): string {
  return recordsThroughWorkflowTools(context) ? WORKFLOW_PROMPTS[unit] : PROMPTS[unit];
}

function milestoneDecision(
  state: State,
  milestone: DeepReadonly<MilestoneEntry>,
  unitType: 'plan-milestone' | 'validate-milestone' | 'complete-milestone',
  base: Record<string, string | undefined>,
  context: PromptContext,
): UnitDecision {
  return { unitType, unitId: milestone.id, prompt: render(templateOf(unitType, context), { ...base, ...milestonePaths(state, milestone) }), reason: state.nextAction };
}

/**
 * GSD's default unit for the state. `context` says what kind of project it is (a database project's
 * prompts name GSD's workflow tools); by default it is read from the state.
 */
export function defaultDecision(state: State, context: PromptContext = promptContextOf(state)): UnitDecision | null {
  const { milestone, slice, task } = activeUnits(state);
  const base = { milestoneId: milestone?.id, milestoneTitleSuffix: milestone ? ` (${milestone.title})` : '', projectDir: context.root };
  switch (state.phase) {
    case 'pre-planning':
      if (!milestone) return null;
      return milestoneDecision(state, milestone, 'plan-milestone', base, context);
    case 'planning':
      if (!milestone || !slice) return null;
      return planSliceDecision(state, milestone, slice, base, context, '', state.nextAction);
    case 'refining':
      if (!milestone || !slice || !recordsThroughWorkflowTools(context)) return null;
      return refineDecision(state, milestone, slice, base, context);
    case 'evaluating-gates':
      if (!milestone || !slice || !recordsThroughWorkflowTools(context)) return null;
      return gateDecision(state, milestone, slice, base, context);
    case 'executing':
      if (!milestone || !slice || !task) return null;
      return executeDecision(state, milestone, slice, task, base, context, state.nextAction);
    case 'summarizing':
      if (!milestone || !slice) return null;
      return {
        unitType: 'complete-slice',
        unitId: `${milestone.id}/${slice.id}`,
        prompt: render(templateOf('complete-slice', context), { ...base, sliceId: slice.id, sliceTitle: slice.title, ...slicePaths(state, milestone, slice) }),
        reason: state.nextAction,
      };
    case 'replanning-slice':
      if (!milestone || !slice) return null;
      if (state.replanTrigger?.reason === 'triage') {
        const trigger = slice.replanTriggerFile ? promptPath(state, slice.replanTriggerFile) : `${slice.id}-REPLAN-TRIGGER.md`;
        return replanDecision(state, milestone, slice, state.replanTrigger.taskId, `GSD's triage asked for a replan of this slice: read ${trigger} for why.`, context);
      }
      return replanDecision(state, milestone, slice, state.replanTrigger?.taskId ?? '', `Task ${state.replanTrigger?.taskId} reported blocker_discovered: true.`, context);
    case 'validating-milestone':
      if (!milestone) return null;
      return milestoneDecision(state, milestone, 'validate-milestone', base, context);
    case 'completing-milestone':
      if (!milestone) return null;
      return milestoneDecision(state, milestone, 'complete-milestone', base, context);
    default:
      // complete, blocked, needs-discussion, escalating-task, paused: nothing to dispatch; the phase
      // says why. `refining` and `evaluating-gates` exist only in GSD-2's database.
      return null;
  }
}

type Base = Record<string, string | undefined>;

function planSliceDecision(state: State, milestone: DeepReadonly<MilestoneEntry>, slice: DeepReadonly<SliceEntry>, base: Base, context: PromptContext, sketchScope: string, reason: string): UnitDecision {
  return {
    unitType: 'plan-slice',
    unitId: `${milestone.id}/${slice.id}`,
    prompt: render(templateOf('plan-slice', context), { ...base, sliceId: slice.id, sliceTitle: slice.title, sketchScope, ...slicePaths(state, milestone, slice) }),
    reason,
  };
}

function executeDecision(
  state: State,
  milestone: DeepReadonly<MilestoneEntry>,
  slice: DeepReadonly<SliceEntry>,
  task: DeepReadonly<TaskEntry>,
  base: Base,
  context: PromptContext,
  reason: string,
): UnitDecision {
  const paths = slicePaths(state, milestone, slice);
  return {
    unitType: 'execute-task',
    unitId: `${milestone.id}/${slice.id}/${task.id}`,
    prompt: render(templateOf('execute-task', context), {
      ...base,
      ...paths,
      sliceId: slice.id,
      taskId: task.id,
      taskTitle: task.title,
      taskPlanPath: promptPath(state, task.planFile ?? path.join(paths.tasksDir, `${task.id}-PLAN.md`)),
      taskSummaryPath: promptPath(state, path.join(paths.tasksDir, `${task.id}-SUMMARY.md`)),
    }),
    reason,
  };
}

/** What a GSD-2 database state adds to a slice; absent on any other state. */
function databaseSlice(slice: DeepReadonly<SliceEntry>): DeepReadonly<Pick<Gsd2SliceEntry, 'sketchScope' | 'pendingGates'>> {
  const db = slice as DeepReadonly<Partial<Gsd2SliceEntry>>;
  return { sketchScope: db.sketchScope ?? '', pendingGates: db.pendingGates ?? [] };
}

const workflowPreferencesOf = (state: State) => (state as DeepReadonly<Partial<Gsd2DatabaseState>>).workflowPreferences;

/**
 * `refining` (a sketch slice): refine-slice when progressive planning is on, else a full plan-slice
 * with the sketch's scope as a hint, as GSD-2's "refining → refine-slice" rule does.
 */
function refineDecision(state: State, milestone: DeepReadonly<MilestoneEntry>, slice: DeepReadonly<SliceEntry>, base: Base, context: PromptContext): UnitDecision {
  const { sketchScope } = databaseSlice(slice);
  if (!workflowPreferencesOf(state)?.progressivePlanning) {
    const reason = `${state.nextAction} Progressive planning is off (phases.progressive_planning in PREFERENCES.md), so GSD plans the sketch in full.`;
    return planSliceDecision(state, milestone, slice, base, context, sketchScopeBlock(sketchScope, 'plan-slice'), reason);
  }
  return {
    unitType: 'refine-slice',
    unitId: `${milestone.id}/${slice.id}`,
    prompt: render(WORKFLOW_PROMPTS['refine-slice'], { ...base, sliceId: slice.id, sliceTitle: slice.title, sketchScope: sketchScopeBlock(sketchScope, 'refine-slice'), ...slicePaths(state, milestone, slice) }),
    reason: state.nextAction,
  };
}

/**
 * `evaluating-gates`: gate-evaluate, named as GSD-2 names it (`M001/S01/gates+Q3,Q4,Q8`: every pending
 * slice-scope gate; the prompt asks for the gate-evaluate turn's own, Q3 and Q4). With gate evaluation
 * off GSD marks the gates omitted, a write to its database we never make, and executes the slice's
 * first open task: that is dispatched, and GSD records the omission when it next runs.
 */
function gateDecision(state: State, milestone: DeepReadonly<MilestoneEntry>, slice: DeepReadonly<SliceEntry>, base: Base, context: PromptContext): UnitDecision | null {
  const { pendingGates } = databaseSlice(slice);
  if (!workflowPreferencesOf(state)?.gateEvaluation) {
    const task = slice.tasks.find((t) => !t.done);
    if (!task) return null;
    const reason = `Gate evaluation is off (gate_evaluation.enabled in PREFERENCES.md): GSD marks the pending gates of ${slice.id} omitted and executes ${task.id}.`;
    return executeDecision(state, milestone, slice, task, base, context, reason);
  }
  const owned = pendingGates.filter((g) => g in GATE_QUESTIONS);
  if (owned.length === 0) return null;
  return {
    unitType: 'gate-evaluate',
    unitId: `${milestone.id}/${slice.id}/gates+${pendingGates.join(',')}`,
    prompt: render(WORKFLOW_PROMPTS['gate-evaluate'], {
      ...base,
      sliceId: slice.id,
      sliceTitle: slice.title,
      gateQuestions: owned.map((g) => `- ${g}: ${GATE_QUESTIONS[g]}`).join('\n'),
      gateIds: owned.map((g) => `"${g}"`).join(' or '),
      ...slicePaths(state, milestone, slice),
    }),
    reason: state.nextAction,
  };
}

export function replanDecision(
  state: State,
  milestone: DeepReadonly<MilestoneEntry>,
  slice: DeepReadonly<SliceEntry>,
  triggerTaskId: string,
  replanReason: string,
  context: PromptContext = promptContextOf(state),
): UnitDecision {
  return {
    unitType: 'replan-slice',
    unitId: `${milestone.id}/${slice.id}`,
    prompt: render(templateOf('replan-slice', context), {
      milestoneId: milestone.id,
      sliceId: slice.id,
      sliceTitle: slice.title,
      triggerTaskId,
      blockerTaskId: blockerTaskValue(triggerTaskId),
      replanReason,
      projectDir: context.root,
      ...slicePaths(state, milestone, slice),
    }),
    reason: replanReason,
    // The task the replan answers: the prompt names it as GSD's blockerTaskId (a replan_history row
    // per task), and the pending-actions hook records it for its per-task loop guard.
    data: { triggerTaskId },
  };
}
