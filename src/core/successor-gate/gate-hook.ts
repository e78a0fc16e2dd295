// Our review loop as one of the successor's blocking post-unit hooks (@opengsd/gsd-pi 1.x, read at
// 1.16.1): a `post_unit_hooks` entry in PREFERENCES.md that runs after each execute-task in auto
// mode. GSD starts a `hook/<name>` agent session with the prompt ({milestoneId}, {sliceId},
// {taskId} substituted: rule-registry.ts _buildHookDispatch), then reads the `verdict:` of the
// artifact's frontmatter (verdict-parser.ts). The prompt sends the reviewer to `gsd-review gate`,
// which says what to review this cycle and, with `--done`, sets that verdict.
//
// Facts behind the values (preferences-validation.ts, rule-registry.ts):
// - `criticality: blocking` needs `artifact`, or GSD drops the hook;
// - `max_cycles` is clamped to 1-10 and counts every dispatch of the hook for one task
//   (`.gsd/hook-state.json` cycleCounts["<hook>/execute-task/<M/S/T>"]);
// - `on_block: retry-task` re-runs the task on needs-rework, and deletes `on_block.artifact` first:
//   naming the gate artifact there is what keeps a stale needs-rework file from being read again.

/** The hook's name in PREFERENCES.md: GSD's unit type for its session is `hook/gsd-review-loop`. */
export const GATE_HOOK_NAME = 'gsd-review-loop';
/** The artifact GSD reads the verdict from: `.gsd/phases/NN-slug/S01-T01-CODE-REVIEW.md` for a task. */
export const GATE_ARTIFACT = 'CODE-REVIEW.md';
/** The review loop's cap, as on markdown projects. */
export const GATE_MAX_CYCLES = 5;
/** The unit type GSD's hook runs after. */
export const GATE_TRIGGER = 'execute-task';

/**
 * The command the reviewer runs: a launcher in the user's home (written beside the bridge pointer,
 * gate-launcher.ts), so PREFERENCES.md names no path of one machine and can be committed.
 */
export const GATE_COMMAND = 'sh "$HOME/.gsd-review-loop/gsd-review" gate';

const UNIT = '{milestoneId}/{sliceId}/{taskId}';

/** The reviewer's prompt: short, because `gsd-review gate` prints the cycle's instructions. */
export function gatePrompt(): string[] {
  return [
    `You are the code reviewer of GSD task ${UNIT}, for GSD Review Loop. You review; you do not`,
    'change code, tests or any file other than the review file named below.',
    '',
    `1. Run: ${GATE_COMMAND} ${UNIT}`,
    '   It prints this review cycle: the task\'s plan, summary and changed files, the issues of',
    '   earlier cycles, the review file to write and its format.',
    '2. Review the task\'s changes and write that review file exactly as described.',
    `3. Run: ${GATE_COMMAND} ${UNIT} --done`,
    '   It checks the review and sets the verdict GSD reads. If it reports a problem, fix the',
    '   review file and run it again until it succeeds.',
    '',
    `If step 1 says the command is not found, GSD Review Loop is not installed on this machine:`,
    `write ${GATE_ARTIFACT} for this task with the frontmatter line "verdict: needs-attention"`,
    'and one line saying so, so that GSD pauses and asks a person. Do not review without it.',
  ];
}

/**
 * The file the re-run task reads: `gsd-review gate --done` writes the issues still open there when
 * it asks for rework. GSD deletes the review before it re-runs the task (on_block) and puts nothing
 * of it in the task's prompt, so our pre-dispatch entry (below) points the task at this file.
 */
export const OPEN_ISSUES_FILE = 'OPEN-ISSUES.md';
export const ISSUES_HOOK_NAME = 'gsd-review-loop-issues';

/** The values of our entry, as GSD validates them (what install writes and what we check for). */
export interface GateHookValues {
  name: string;
  after: string[];
  criticality: 'blocking';
  max_cycles: number;
  artifact: string;
  on_block: { action: 'retry-task'; artifact: string };
  prompt: string;
}

export function gateHookValues(): GateHookValues {
  return {
    name: GATE_HOOK_NAME,
    after: [GATE_TRIGGER],
    criticality: 'blocking',
    max_cycles: GATE_MAX_CYCLES,
    artifact: GATE_ARTIFACT,
    on_block: { action: 'retry-task', artifact: GATE_ARTIFACT },
    prompt: gatePrompt().join('\n'),
  };
}

/** Our entry as block-sequence YAML lines, the `-` at column `indent`; no line endings. */
export function gateHookLines(indent: string): string[] {
  const v = gateHookValues();
  const i = indent;
  return [
    `${i}- name: ${v.name}`,
    `${i}  after: [${v.after.join(', ')}]`,
    `${i}  criticality: ${v.criticality}`,
    `${i}  max_cycles: ${v.max_cycles}`,
    `${i}  artifact: ${v.artifact}`,
    `${i}  on_block:`,
    `${i}    action: ${v.on_block.action}`,
    `${i}    artifact: ${v.on_block.artifact}`,
    `${i}  prompt: |-`,
    ...gatePrompt().map((l) => (l ? `${i}    ${l}` : '')),
  ];
}

/**
 * Our `pre_dispatch_hooks` entry: before each execute-task, GSD appends this to the task's prompt
 * (rule-registry.ts evaluatePreDispatch, action modify), so a task re-run for rework knows where the
 * review's open issues are. Without it the re-run sees only the plan (issue 37: "the fix depends on
 * the artifact", which GSD deletes).
 */
export function issuesAppend(): string[] {
  return [
    'GSD Review Loop reviews this task when you finish it. If it reviewed an earlier attempt of this',
    `task, the issues still open are listed in .gsd/gsd-review-loop/gate/${UNIT}/${OPEN_ISSUES_FILE}:`,
    'if that file exists, read it first and fix every open issue it lists before you complete the task.',
  ];
}

export interface IssuesHookValues {
  name: string;
  before: string[];
  action: 'modify';
  append: string;
}

export function issuesHookValues(): IssuesHookValues {
  return { name: ISSUES_HOOK_NAME, before: [GATE_TRIGGER], action: 'modify', append: issuesAppend().join('\n') };
}

export function issuesHookLines(indent: string): string[] {
  const v = issuesHookValues();
  return [`${indent}- name: ${v.name}`, `${indent}  before: [${v.before.join(', ')}]`, `${indent}  action: ${v.action}`, `${indent}  append: |-`, ...issuesAppend().map((l) => `${indent}    ${l}`)];
}

/** One entry of ours in one of GSD's hook lists. */
export interface OurEntry {
  listKey: 'post_unit_hooks' | 'pre_dispatch_hooks';
  name: string;
  values(): object;
  lines(indent: string): string[];
}

/** What install adds, in this order (uninstall takes them out in the reverse one). */
export const OUR_ENTRIES: readonly OurEntry[] = [
  { listKey: 'post_unit_hooks', name: GATE_HOOK_NAME, values: gateHookValues, lines: gateHookLines },
  { listKey: 'pre_dispatch_hooks', name: ISSUES_HOOK_NAME, values: issuesHookValues, lines: issuesHookLines },
];
