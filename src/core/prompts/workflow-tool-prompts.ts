// Prompts for a GSD-2 database project (docs/project-kinds.md): `.gsd/gsd.db` is the truth and GSD
// re-renders the ROADMAP, PLAN, SUMMARY, REPLAN and VALIDATION files from it after its tool calls, so a hand-written file
// is lost and records nothing. The agent records progress by calling the tools of GSD's workflow MCP
// server (`gsd-workflow`, written into `.mcp.json` by `/gsd mcp init`) with the values named here.
// Tool and argument names: gsd-build/gsd-2 at 76568edc, packages/mcp-server/src/workflow-tools.ts
// (`taskCompleteParams`, `replanSliceParams`, `planSliceParams`, `sliceCompleteParams`,
// `planMilestoneParams`, `validateMilestoneParams`, `completeMilestoneParams`, `saveGateResultParams`);
// the two database-only units follow auto-dispatch.ts ("refining → refine-slice", "evaluating-gates →
// gate-evaluate"), prompts/refine-slice.md and gate-registry.ts (the gates' owners); what the milestone
// prompts ask for follows GSD's own prompts for those units (src/resources/extensions/gsd/prompts/
// plan-milestone.md, validate-milestone.md, complete-milestone.md) and the guards of their handlers
// (src/resources/extensions/gsd/tools/plan-milestone.ts, validate-milestone.ts, complete-milestone.ts).
// `projectDir` is passed explicitly: GSD's server otherwise takes its working directory, and VS Code
// 1.100 ignores `cwd` in `.vscode/mcp.json` and starts the server in the user's home, which GSD
// refuses (checked in code-server 4.100.3's extension host).
// Same conventions as templates.ts: one line per paragraph, lists and formats on their own lines.

export const GSD_WORKFLOW_SERVER = 'gsd-workflow';

const NOT_BY_HAND = `This project keeps its progress in GSD's database (.gsd/gsd.db); GSD renders the markdown files from it. Record the result by calling the tool below of the \`${GSD_WORKFLOW_SERVER}\` MCP server; do not write or edit the files it renders (they would be overwritten and record nothing). If the tool is not available to you, stop and say so instead of writing the files.`;

/** The `gsd_plan_slice` call, the same for a first plan and for refining a sketch. */
const PLAN_SLICE_CALL = `Call \`gsd_plan_slice\` with:
- milestoneId: "{{milestoneId}}"
- sliceId: "{{sliceId}}"
- projectDir: "{{projectDir}}"
- goal: what the slice achieves
- tasks: one object per task, in order: {taskId, title, description, estimate, files, verify, inputs, expectedOutput} and optionally observabilityImpact; taskId "T01", "T02", …; estimate like "30m"; files, inputs and expectedOutput are lists of non-empty strings; verify is the command that proves the task
- optional: successCriteria, proofLevel, integrationClosure, observabilityImpact
`;

export const WORKFLOW_PROMPTS = {
  'plan-slice': `Plan slice {{sliceId}} ({{sliceTitle}}) of milestone {{milestoneId}}.

{{sketchScope}}Read the roadmap ({{roadmapPath}}) and decide the slice's tasks.

${NOT_BY_HAND}

${PLAN_SLICE_CALL}GSD writes {{slicePlanPath}} and the task plans from it.
`,
  'execute-task': `Execute task {{taskId}} ({{taskTitle}}) of slice {{milestoneId}}/{{sliceId}}.

Read the task plan ({{taskPlanPath}}) and the slice plan ({{slicePlanPath}}). Do the work and run its verification.

${NOT_BY_HAND}

Call \`gsd_task_complete\` with:
- milestoneId: "{{milestoneId}}"
- sliceId: "{{sliceId}}"
- taskId: "{{taskId}}"
- projectDir: "{{projectDir}}"
- oneLiner: one line on what was accomplished
- narrative: what happened during the task, in detail
- verification: what you verified and how
- verificationEvidence (optional): one entry per check run, {command, exitCode, verdict, durationMs}
- keyFiles (optional): the files created or modified
- keyDecisions (optional): decisions made during the task
- deviations (optional): where the work departed from the plan
- knownIssues (optional): issues found but not fixed. Required follow-up goes here as a line "Pending actions:" followed by one "- " bullet per action.
- blockerDiscovered: true only if something found invalidates the rest of this slice's plan
GSD writes {{taskSummaryPath}} from it.
`,
  'complete-slice': `All tasks of slice {{milestoneId}}/{{sliceId}} ({{sliceTitle}}) are done.

Read the task summaries of the slice.

${NOT_BY_HAND}

Call \`gsd_slice_complete\` with:
- milestoneId: "{{milestoneId}}"
- sliceId: "{{sliceId}}"
- projectDir: "{{projectDir}}"
- sliceTitle: "{{sliceTitle}}"
- oneLiner: one line on what the slice accomplished
- narrative: what happened across its tasks
- verification: what was verified across its tasks
- uatContent: the user acceptance test, as markdown
- optional: deviations, knownLimitations, followUps, keyFiles, keyDecisions
GSD writes {{sliceSummaryPath}} and ticks the slice in {{roadmapPath}}.
`,
  'refine-slice': `Refine sketch slice {{sliceId}} ({{sliceTitle}}) of milestone {{milestoneId}} into a full plan.

{{sketchScope}}Read the roadmap ({{roadmapPath}}), the summaries of the slices done before this one and the code the sketch touches. Plan within the sketch's scope: where the code shows it is too narrow, say so in the goal rather than planning beyond it.

${NOT_BY_HAND}

${PLAN_SLICE_CALL}GSD writes {{slicePlanPath}} and the task plans from it; the plan ends the slice's sketch.
`,
  'gate-evaluate': `Evaluate the quality gates of slice {{milestoneId}}/{{sliceId}} ({{sliceTitle}}) before its tasks run.

Read the slice plan ({{slicePlanPath}}) and answer each question on its own (with one subagent per gate, if you have subagents):
{{gateQuestions}}

${NOT_BY_HAND} Record each gate with its own call.

Call \`gsd_save_gate_result\` with:
- milestoneId: "{{milestoneId}}"
- sliceId: "{{sliceId}}"
- gateId: the gate's id ({{gateIds}})
- projectDir: "{{projectDir}}"
- verdict: "pass" (no concerns), "flag" (concerns found) or "omitted" (the question does not apply to this slice)
- rationale: one sentence on why
- findings (optional): the detailed findings, as markdown
GSD records each result; its tasks run once no gate of this turn is pending.
`,
  'replan-slice': `Replan slice {{milestoneId}}/{{sliceId}} ({{sliceTitle}}).

{{replanReason}}

Read the slice plan ({{slicePlanPath}}).

${NOT_BY_HAND}

Call \`gsd_replan_slice\` with:
- milestoneId: "{{milestoneId}}"
- sliceId: "{{sliceId}}"
- projectDir: "{{projectDir}}"
- blockerTaskId: {{blockerTaskId}}
- blockerDescription: what invalidated the plan (for pending actions: the actions above)
- whatChanged: what changed in the plan
- updatedTasks: the tasks to add or change, each {taskId, title, description, estimate, files, verify, inputs, expectedOutput}; completed tasks cannot be changed
- removedTaskIds: ids of tasks not started that the new plan drops ([] for none)
GSD records the replan against the blocker task and writes {{replanPath}} and {{slicePlanPath}} from it.
`,
  'plan-milestone': `Plan milestone {{milestoneId}}{{milestoneTitleSuffix}} of this GSD project.

Read the milestone's context ({{contextPath}}, if it exists) and the code it touches, then decompose the milestone into demoable vertical slices (as many as the work needs, 1 to 10), ordered by risk, high-risk first.

${NOT_BY_HAND}

Call \`gsd_plan_milestone\` with:
- milestoneId: "{{milestoneId}}"
- projectDir: "{{projectDir}}"
- title: {{milestoneTitleValue}}
- vision: what the milestone delivers
- slices: one object per slice, in order: {sliceId, title, risk, depends, demo, goal, successCriteria, proofLevel, integrationClosure, observabilityImpact}; sliceId "S01", "S02", …; risk "low", "medium" or "high"; depends is a list of sliceIds ([] for none, never a range like S01-S03); demo says what can be demonstrated after the slice; every other field is a non-empty string; titles contain no "/", "—" or "–" (GSD refuses them)
- successCriteria (optional): the milestone's success criteria, a list of strings
- keyRisks (optional): one object per risk, {risk, whyItMatters}
- proofStrategy (optional): one object per risk or unknown, {riskOrUnknown, retireIn, whatWillBeProven}
- optional: verificationContract, verificationIntegration, verificationOperational, verificationUat, definitionOfDone, requirementCoverage, boundaryMapMarkdown
GSD writes {{roadmapPath}} from it.
`,
  'validate-milestone': `Every slice of milestone {{milestoneId}}{{milestoneTitleSuffix}} is done. Validate it before it is completed.

Read the roadmap ({{roadmapPath}}) and the slice summaries. Re-check the milestone's success criteria against the running software, what each slice delivered against what its summary claims, and the integration across slices.

${NOT_BY_HAND}

Call \`gsd_validate_milestone\` with:
- milestoneId: "{{milestoneId}}"
- projectDir: "{{projectDir}}"
- verdict: "pass", "needs-attention" or "needs-remediation"
- remediationRound: 0 for the first validation; if {{validationPath}} exists from an earlier round, its remediation_round plus 1
- successCriteriaChecklist: a markdown checklist of the success criteria, each with its evidence
- sliceDeliveryAudit: markdown auditing what each slice claimed against what it delivered
- crossSliceIntegration: markdown on the integration across slices, its gaps or closure
- requirementCoverage: markdown on the requirements covered and the gaps
- verificationClasses (optional): one row per verification class the roadmap plans, named Contract, Integration, Operational or UAT (GSD refuses the call when a planned class is missing)
- verdictRationale: why this verdict
- remediationPlan (optional): with needs-remediation, the actions required
GSD writes {{validationPath}} from it. With needs-remediation, the remediation slices are added through GSD (\`gsd_reassess_roadmap\`), not by editing {{roadmapPath}}.
`,
  'complete-milestone': `Milestone {{milestoneId}}{{milestoneTitleSuffix}} is validated and every slice of it is done.

Read the roadmap ({{roadmapPath}}), the validation ({{validationPath}}) and the slice summaries. Verify that the milestone changed code outside .gsd, that each success criterion is met and that its definition of done holds.

${NOT_BY_HAND}

Call \`gsd_complete_milestone\` with:
- milestoneId: "{{milestoneId}}"
- projectDir: "{{projectDir}}"
- title: {{milestoneTitleValue}}
- oneLiner: one sentence on what the milestone achieved
- narrative: what happened across its slices, in detail
- verificationPassed: true, once every check above passed. If one failed, do not call the tool: say what failed and stop (GSD refuses false, and completes a milestone only after a passing validation).
- successCriteriaResults (optional): markdown on how each success criterion was met
- definitionOfDoneResults (optional): markdown on how each item of the definition of done was met
- requirementOutcomes (optional): markdown on the requirements whose status changed, with evidence
- keyDecisions (optional): the milestone's key decisions, a list of strings
- keyFiles (optional): the key files created or modified, a list of strings
- lessonsLearned (optional): a list of strings
- optional: followUps, deviations
Fill in the optional results and lists too: GSD renders a placeholder for each one left out. GSD writes {{milestoneSummaryPath}} from it and marks the milestone complete.
`,
} as const;

/** GSD's gate-evaluate turn owns these gates (gate-registry.ts); the question each asks, in our words. */
export const GATE_QUESTIONS: Readonly<Record<string, string>> = {
  Q3: 'How could this slice be exploited: which inputs, permissions or secrets does it expose?',
  Q4: 'Which existing requirements does this slice touch, and which of them must be tested again?',
};

/**
 * A sketch's scope as a prompt states it ('' when there is none): the boundary of refine-slice, a
 * hint only for plan-slice (GSD plans a sketch in full when progressive planning is off).
 */
export function sketchScopeBlock(scope: string, unit: 'refine-slice' | 'plan-slice'): string {
  if (!scope.trim()) return '';
  const head = unit === 'refine-slice' ? "The sketch's scope, the boundary of this plan:" : 'The slice was sketched with this scope (a hint: the plan may go beyond it):';
  return `${head}\n${scope.trim()}\n\n`;
}

/** The blockerTaskId line: GSD requires a completed task of the slice (replan-slice.ts guards it). */
export function blockerTaskValue(triggerTaskId: string): string {
  return triggerTaskId
    ? `"${triggerTaskId}" (the completed task that asked for this replan; GSD records the replan against it)`
    : 'the id of the latest completed task of this slice (GSD requires a completed task)';
}

/** The title line: the milestone's title as GSD holds it, or the agent names one (GSD requires it). */
export function milestoneTitleValue(title: string): string {
  return title ? JSON.stringify(title) : 'the milestone\'s title, without its id';
}
