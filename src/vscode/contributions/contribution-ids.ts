// Every id this extension contributes to VS Code, in one namespace of our own. GSD's maintained
// successor ships an extension with `gsd.*` command ids and an `@gsd` chat participant; two
// extensions registering the same command id make the second registration throw, so nothing of ours
// is called `gsd.*` any more. package.json must say the same (test/unit/manifest.test.ts checks).
export const NAMESPACE = 'gsdReviewLoop';

export const COMMANDS = {
  nextUnit: `${NAMESPACE}.nextUnit`,
  refresh: `${NAMESPACE}.refresh`,
  showLog: `${NAMESPACE}.showLog`,
  compareWithPreviousCycle: `${NAMESPACE}.compareWithPreviousCycle`,
  openReview: `${NAMESPACE}.openReview`,
  revealInExplorer: `${NAMESPACE}.revealInExplorer`,
  completeUnit: `${NAMESPACE}.completeUnit`,
  cancelUnit: `${NAMESPACE}.cancelUnit`,
  openUnitPrompt: `${NAMESPACE}.openUnitPrompt`,
  /** The Install action on the agent hooks preview (CodeLens and notification). */
  installFromPreview: `${NAMESPACE}.installFromPreview`,
  replanSlice: `${NAMESPACE}.replanSlice`,
  showInPanel: `${NAMESPACE}.showInPanel`,
  compareReviewFile: `${NAMESPACE}.compareReviewFile`,
  installAgentHooks: `${NAMESPACE}.installAgentHooks`,
  /** Takes back the last Install Agent Hooks of this workspace (the palette's lasting Undo). */
  undoAgentHooksInstall: `${NAMESPACE}.undoAgentHooksInstall`,
  /** A successor project's view button: Next Unit, which hands over to GSD there. */
  handOffToGsd: `${NAMESPACE}.handOffToGsd`,
  /** A review finding's thread: tick or untick its checkbox, or carry it forward (docs/review-findings.md). */
  markFindingResolved: `${NAMESPACE}.markFindingResolved`,
  reopenFinding: `${NAMESPACE}.reopenFinding`,
  addFindingToPendingActions: `${NAMESPACE}.addFindingToPendingActions`,
} as const;

export type CommandName = keyof typeof COMMANDS;

/** The activity bar container and the review panel view inside it. */
export const VIEW_CONTAINER = NAMESPACE;
export const REVIEW_PANEL_VIEW = `${NAMESPACE}.reviewPanel`;
/** VS Code's own command that shows a view container: `workbench.view.extension.<container id>`. */
export const SHOW_VIEW_CONTAINER = `workbench.view.extension.${VIEW_CONTAINER}`;
export const STATUS_BAR_ITEM = `${NAMESPACE}.status`;

/** Context keys we set with `setContext`, read by `when` clauses in package.json. */
export const CONTEXT_KEYS = {
  projectFound: `${NAMESPACE}.projectFound`,
  /** Every GSD project of the workspace is read-only (GSD's successor): no write actions. */
  readOnlyProject: `${NAMESPACE}.readOnlyProject`,
  /** Some project of the workspace has a unit in flight: Complete / Cancel / Open Prompt apply. */
  unitInFlight: `${NAMESPACE}.unitInFlight`,
  /** An install of agent hooks in this workspace can be undone: GSD: Undo Agent Hooks Install shows. */
  installUndoable: `${NAMESPACE}.installUndoable`,
} as const;

/** The ids before the rename (0.1.0 previews): users' keybindings may still name them. */
export const LEGACY_PREFIX = 'gsd.';
/** The commands that existed under `gsd.*` (commands added since never had an old id). */
export const LEGACY_COMMANDS: readonly CommandName[] = [
  'nextUnit',
  'refresh',
  'showLog',
  'compareWithPreviousCycle',
  'openReview',
  'revealInExplorer',
  'completeUnit',
  'replanSlice',
  'showInPanel',
  'compareReviewFile',
  'installAgentHooks',
];
export function legacyCommandId(name: CommandName): string {
  return `${LEGACY_PREFIX}${name}`;
}
