// Prompts of the review loop's units: review-task (write a review, touch nothing else) and fix-task
// (fix exactly the open issues). Plain templates; render() fills the {{placeholders}}.
import { render, type ReviewIssue } from '../../api';

export const REVIEW_TASK = `Review task {{taskId}} ({{taskTitle}}) of slice {{sliceRef}}: review cycle {{cycle}} of at most {{maxCycles}}.

You are the reviewer. Do not edit code, tests, plans or summaries: the only file you write is {{reviewPath}}.

Read the task plan ({{taskPlanPath}}), the task summary ({{taskSummaryPath}}) and the code it changed{{keyFiles}}. Check it against the plan's Must-Haves and Verify command.
{{previousReview}}
Write {{reviewPath}} in exactly this format (replace the example items):

---
task: {{taskId}}
cycle: {{cycle}}
verdict: changes-requested      # or: approved
---
# Code review: {{taskId}} (cycle {{cycle}})
## Issues
- [ ] **major** \`src/file.ts:42\` What is wrong and why it matters.
- [x] **minor** An issue from the previous cycle that is now resolved.
## Notes
Anything else worth knowing.

Every unchecked item under "## Issues" is an open issue that must be fixed; any open issue means the task has not passed, whatever the verdict says. Use **major** or **minor**, and a \`path:line\` when the issue has a place. No open issues and verdict: approved means the task passed.
`;

export const FIX_TASK = `Fix the issues the reviewer found in task {{taskId}} ({{taskTitle}}) of slice {{sliceRef}}. This is fix cycle {{cycle}} of at most {{maxCycles}}; the review is {{lastReviewPath}}.

Open issues:
{{issues}}

Fix each one in the code (and its tests), run the task's verification ({{verify}}){{summaryUpdate}}. Do not write or edit the review file: the next review cycle checks your fixes.
`;

/**
 * What the fixer does with the task summary. On a GSD-2 database project GSD renders it from its
 * database after its tool calls, so an edit would be lost: it is left alone there.
 */
export function summaryUpdate(taskSummaryPath: string, throughWorkflowTools: boolean): string {
  return throughWorkflowTools
    ? `; leave ${taskSummaryPath} as it is (GSD renders it from its database; the next review cycle records your fixes)`
    : `, and update ${taskSummaryPath} if what you changed affects it`;
}

export function issueLines(issues: readonly ReviewIssue[]): string {
  if (issues.length === 0) return '- (the reviewer requested changes without listing open issues: read the Notes of the review)';
  return issues.map((i) => `- ${i.severity ? `[${i.severity}] ` : ''}${i.location ? `${i.location}: ` : ''}${i.text}`).join('\n');
}

export { render };
