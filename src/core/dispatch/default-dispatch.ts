// GSD's default choice of the next unit, from the derived phase (what happens when no hook decides).
import * as path from 'node:path';
import type { DeepReadonly, UnitDecision } from '../hooks/engine/middleware-types';
import { PROMPTS, render } from '../prompts/templates';
import { promptContextOf, recordsThroughWorkflowTools, type PromptContext } from '../prompts/prompt-context';
import { blockerTaskValue, milestoneTitleValue, WORKFLOW_PROMPTS } from '../prompts/workflow-tool-prompts';
import { activeUnits } from '../model/find-unit';
import type { GSDState, MilestoneEntry, SliceEntry } from '../model/types';

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

type WorkflowUnit = keyof typeof WORKFLOW_PROMPTS;

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
      return {
        unitType: 'plan-slice',
        unitId: `${milestone.id}/${slice.id}`,
        prompt: render(templateOf('plan-slice', context), { ...base, sliceId: slice.id, sliceTitle: slice.title, ...slicePaths(state, milestone, slice) }),
        reason: state.nextAction,
      };
    case 'executing': {
      if (!milestone || !slice || !task) return null;
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
        reason: state.nextAction,
      };
    }
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
      // complete, blocked, needs-discussion, paused: nothing to dispatch; the phase says why.
      return null;
  }
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
