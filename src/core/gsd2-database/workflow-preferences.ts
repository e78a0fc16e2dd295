// The two of GSD-2's preferences that choose a unit only a database project has (gsd-build/gsd-2 at
// 76568edc, auto-dispatch.ts): `phases.progressive_planning: true` refines a sketch slice
// (refine-slice), otherwise it is planned in full (plan-slice); `gate_evaluation.enabled` runs the
// gate-evaluate turn, otherwise GSD marks the pending gates omitted and executes the task. Read from
// the project's PREFERENCES.md frontmatter, as GSD reads them (strict `true`, and any truthy value).
// Not read: the same keys in the user's ~/.gsd/PREFERENCES.md, which GSD merges under the project's.

export interface WorkflowPreferences {
  progressivePlanning: boolean;
  gateEvaluation: boolean;
}

export const NO_WORKFLOW_PREFERENCES: WorkflowPreferences = { progressivePlanning: false, gateEvaluation: false };

const mapping = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** From the PREFERENCES.md frontmatter (`undefined`: no file, or one GSD could not read). */
export function workflowPreferences(frontmatter: Record<string, unknown> | undefined): WorkflowPreferences {
  if (!frontmatter) return NO_WORKFLOW_PREFERENCES;
  return {
    progressivePlanning: mapping(frontmatter.phases)?.progressive_planning === true,
    gateEvaluation: !!mapping(frontmatter.gate_evaluation)?.enabled,
  };
}
