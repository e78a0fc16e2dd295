// Prompt templates for the units GSD dispatches by default. Plain text with {{placeholders}};
// render() fills them. A paragraph is one line (agents and editors wrap it); only lists and format
// examples have line breaks. The review loop's own prompts live beside its hook.

export const PROMPTS = {
  'plan-milestone': `Plan milestone {{milestoneId}}{{milestoneTitleSuffix}} of this GSD project.

Write .gsd/milestones/{{milestoneId}}/{{milestoneId}}-ROADMAP.md with its slices in GSD's format:
- [ ] **S01: Title** \`risk:high\` \`depends:[]\`
  > After this: what can be demonstrated.
`,
  'plan-slice': `Plan slice {{sliceId}} ({{sliceTitle}}) of milestone {{milestoneId}}.

Read the roadmap ({{roadmapPath}}) and write {{slicePlanPath}} with its tasks:
- [ ] **T01: Title** \`est:30m\`
  - Files: \`path\`
  - Verify: \`command\`
Write one T0n-PLAN.md per task under the slice's tasks/ folder.
`,
  'execute-task': `Execute task {{taskId}} ({{taskTitle}}) of slice {{milestoneId}}/{{sliceId}}.

Read the task plan ({{taskPlanPath}}) and the slice plan ({{slicePlanPath}}). Do the work, run its verification, then write {{taskSummaryPath}} in GSD's task summary format. List any required follow-up under "## Known Issues" as a "Pending actions:" bullet list.
`,
  'complete-slice': `All tasks of slice {{milestoneId}}/{{sliceId}} ({{sliceTitle}}) are done.

Write {{sliceSummaryPath}}, then tick the slice in {{roadmapPath}}.
`,
  'replan-slice': `Replan slice {{milestoneId}}/{{sliceId}} ({{sliceTitle}}).

{{replanReason}}

Write {{replanPath}} starting with "**Blocker Task:** {{triggerTaskId}}", then update {{slicePlanPath}}.
`,
  'validate-milestone': `Every slice of milestone {{milestoneId}} is done. Re-check its success criteria against the running software and write .gsd/milestones/{{milestoneId}}/{{milestoneId}}-VALIDATION.md with a \`verdict:\` (pass, needs-attention or needs-remediation) in its frontmatter.
`,
  'complete-milestone': `Milestone {{milestoneId}} is validated. Write .gsd/milestones/{{milestoneId}}/{{milestoneId}}-SUMMARY.md.
`,
} as const;

/** Fills {{name}} placeholders; a placeholder without a value is left visible, never silently dropped. */
export function render(template: string, values: Record<string, string | undefined>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => values[name] ?? whole);
}
