// The shared vocabulary of the core: GSD's phases and units, and the derived project state.
// Nothing here imports vscode; the extension, the CLI and the hook bridge all read these shapes.

/** A value no one may change, at any depth (the state hooks and the panel read). */
export type DeepReadonly<T> = T extends (infer U)[]
  ? ReadonlyArray<DeepReadonly<U>>
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** GSD's phase strings, exactly as GSD writes them. */
export const PHASES = [
  'pre-planning',
  'needs-discussion',
  'discussing',
  'researching',
  'planning',
  'refining',
  'evaluating-gates',
  'executing',
  'verifying',
  'summarizing',
  'advancing',
  'validating-milestone',
  'completing-milestone',
  'replanning-slice',
  'escalating-task',
  'complete',
  'paused',
  'blocked',
] as const;
export type Phase = (typeof PHASES)[number];

/**
 * Which generation of GSD keeps a project: `markdown` (no database: the markdown is the truth),
 * `gsd2-database` (gsd-build/gsd-2's gsd.db) or `successor` (@opengsd/gsd-pi). Detected by
 * successor/project-kind.ts; named here so the model depends on nothing above it.
 */
export type ProjectKind = 'markdown' | 'gsd2-database' | 'successor';

/** Unit types GSD dispatches, plus the two this extension adds. */
export type UnitType =
  | 'research-milestone'
  | 'plan-milestone'
  | 'research-slice'
  | 'plan-slice'
  | 'refine-slice'
  | 'gate-evaluate'
  | 'execute-task'
  | 'complete-slice'
  | 'replan-slice'
  | 'validate-milestone'
  | 'complete-milestone'
  | 'review-task'
  | 'fix-task';

export interface ActiveRef {
  id: string;
  title: string;
}

export type Severity = 'error' | 'warning' | 'info';

/** One input the core could not read as expected. `file` is absolute; `line` is 1-based. */
export interface Diagnostic {
  file: string;
  line?: number;
  severity: Severity;
  message: string;
}

/**
 * A required follow-up: listed under `## Known Issues` → `Pending actions:` of a task summary, or
 * recorded by a hook under `extensions.<hook>.pendingActions` in the task's PLAN frontmatter (the
 * review loop does this for issues still open at its cycle cap).
 */
export interface PendingAction {
  text: string;
  /** `summary`, or the name of the hook that recorded it. */
  source: string;
  /** Absolute path of the file the action was read from. */
  file: string;
  /** 1-based line of the bullet in that file. */
  line: number;
  milestoneId: string;
  sliceId: string;
  taskId: string;
}

export type ReviewVerdict = 'approved' | 'changes-requested';

export interface ReviewIssue {
  text: string;
  resolved: boolean;
  severity?: string;
  /** `src/cli.ts:42` when the issue names a place. */
  location?: string;
  line: number;
}

/** One CODE-REVIEW.md (the live one or a per-cycle snapshot). */
export interface ReviewCycle {
  cycle: number;
  verdict: ReviewVerdict | null;
  task: string | null;
  openIssues: ReviewIssue[];
  resolvedIssues: ReviewIssue[];
  /** Passed: no open issues (whatever the verdict says) and the verdict is not changes-requested. */
  passed: boolean;
  file: string;
  /** True for a per-cycle snapshot (`T01-CODE-REVIEW-C2.md`), false for the live file. */
  snapshot: boolean;
}

export type TaskStatus = 'done' | 'active' | 'pending';
export type SliceStatus = 'done' | 'active' | 'pending' | 'blocked' | 'replanning';
export type MilestoneStatus = 'complete' | 'active' | 'pending' | 'parked';

export interface Progress {
  done: number;
  total: number;
}

export interface TaskEntry {
  id: string;
  title: string;
  status: TaskStatus;
  /** Checked in the plan, or has a SUMMARY (GSD counts that as done). */
  done: boolean;
  estimate?: string;
  files: string[];
  verify?: string;
  /** Absolute paths, when present. */
  planFile?: string;
  summaryFile?: string;
  /** 1-based line of the task in the slice plan. */
  planLine: number;
  completedAt?: string;
  verificationResult?: string;
  /** The bold line under the summary's title: what the task did, in one sentence. */
  oneLiner?: string;
  blockerDiscovered: boolean;
  pendingActions: PendingAction[];
  reviews: ReviewCycle[];
  /** `extensions` block of the task's PLAN frontmatter, by hook name. */
  extensions: Record<string, unknown>;
  /** Set when the task's hook-state sidecar (`T01-HOOKS.md`) cannot be read: no hook knows where the task stands. */
  hookStateUnreadable?: UnreadableHookState;
}

/** A unit's hook-state sidecar whose frontmatter cannot be read (broken YAML, never closed, too big). */
export interface UnreadableHookState {
  /** Absolute path of the sidecar. */
  file: string;
  line?: number;
  /** What is wrong with it, as the frontmatter reader says it. */
  reason: string;
}

export interface SliceEntry {
  id: string;
  title: string;
  status: SliceStatus;
  /** Checked in the roadmap. */
  done: boolean;
  risk?: string;
  depends: string[];
  demo?: string;
  dir?: string;
  planFile?: string;
  summaryFile?: string;
  /** Task ids each `S01-REPLAN.md` answered (`**Blocker Task:** T02`). */
  replannedTasks: string[];
  replanFile?: string;
  /** `S01-REPLAN-TRIGGER.md`, written by GSD's triage to ask for a replan. */
  replanTriggerFile?: string;
  continueFile?: string;
  /** Whether the slice plan was read (the lazy path reads only the active slice). */
  planLoaded: boolean;
  /** Set when `progress` is known though the tasks were not read (GSD-2's database counts them in SQL). */
  progressLoaded?: boolean;
  tasks: TaskEntry[];
  progress: Progress;
  extensions: Record<string, unknown>;
}

export interface MilestoneEntry {
  id: string;
  title: string;
  status: MilestoneStatus;
  dir: string;
  roadmapFile?: string;
  summaryFile?: string;
  dependsOn: string[];
  /** Whether the roadmap was read (the lazy path reads only the active milestone's). */
  roadmapLoaded: boolean;
  slices: SliceEntry[];
  progress: Progress;
  extensions: Record<string, unknown>;
}

/** What a derivation decides about where the project stands: the part of the state every source (markdown, GSD-2's database, the successor) computes the same way. */
export type PhaseDecision = Pick<GSDState, 'phase' | 'activeMilestone' | 'activeSlice' | 'activeTask' | 'blockers' | 'nextAction' | 'replanTrigger'>;

/**
 * Each hook's project-wide view (`state.extensions[name]`), typed by declaration merging through the
 * front door: `declare module '…/core/hooks/api' { interface GSDStateExtensions { 'review-loop': X } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface GSDStateExtensions {}

export type ExtensionsMap = Partial<GSDStateExtensions> & { [hookName: string]: unknown };

export interface GSDState {
  /** Absolute path of the project root (the folder that holds `.gsd`). */
  root: string;
  /** Real path of `.gsd` (after following a symlink). */
  gsdDir: string;
  activeMilestone: ActiveRef | null;
  activeSlice: ActiveRef | null;
  activeTask: ActiveRef | null;
  phase: Phase;
  blockers: string[];
  nextAction: string;
  /** For `replanning-slice`: the task whose blocker or pending actions asked for the replan. */
  replanTrigger: { taskId: string; reason: 'blocker' | 'pending-actions' | 'triage' } | null;
  milestones: MilestoneEntry[];
  progress: { milestones: Progress; slices: Progress; tasks: Progress };
  /** Every open pending action of the project, in plan order. */
  pendingActions: PendingAction[];
  extensions: ExtensionsMap;
  diagnostics: Diagnostic[];
  /**
   * Which generation of GSD keeps the project, when the deriving code says (the dispatch does);
   * prompts read it through promptContextOf (prompts/prompt-context.ts). Absent: markdown.
   */
  projectKind?: ProjectKind;
}
