// `T01-SUMMARY.md`: GSD's task summary frontmatter and sections, including the pending actions
// under `## Known Issues`.
import { fmBoolean, fmString, parseFrontmatter } from './frontmatter';
import { extractPendingActions, type PendingActionLine } from './known-issues';
import { sectionNamed, sectionRange } from './markdown-sections';
import type { Diagnostic } from '../model/types';

export interface TaskSummary {
  id?: string;
  parent?: string;
  milestone?: string;
  title?: string;
  oneLiner?: string;
  duration?: string;
  verificationResult?: string;
  completedAt?: string;
  blockerDiscovered: boolean;
  knownIssues: string;
  pendingActions: PendingActionLine[];
  diagnostics: Diagnostic[];
}

/** The keys the core uses; the rest of GSD's summary frontmatter (key_files, provides, …) is GSD's. */
const SUMMARY_KEYS = ['id', 'parent', 'milestone', 'duration', 'verification_result', 'completed_at', 'blocker_discovered'];

// The list's lead-in (known-issues.ts); without it a Known Issues section has no pending actions.
// Letters in both cases rather than the `i` flag: see gsd-layout.ts.
export const PENDING_ACTIONS = /[Pp][Ee][Nn][Dd][Ii][Nn][Gg] [Aa][Cc][Tt][Ii][Oo][Nn][Ss]/;
export const TASK_ID_PREFIX = /^[Tt]\d+\s*[:.-]\s*/;

const VERIFICATION_RESULTS = new Set(['passed', 'untested', 'mixed', 'failed']);

const isBlank = (c: number): boolean => c === 32 || c === 9;

/** Whether a character ends a line for a regex's `^`, `$` and `.`: `\n`, `\r`, U+2028, U+2029. */
const endsLine = (c: number): boolean => c === 10 || c === 13 || c === 0x2028 || c === 0x2029;

/**
 * GSD's bold one-liner: the text of the first line between `from` and `to` that is `**text**` with
 * only blanks around, as `/^[ \t]*\*\*(.+)\*\*[ \t]*\r?$/m` finds it (a property test holds it to
 * that): the closing `**` is the last one on the line, and the text between is not empty. By
 * offsets: the pattern, on a slice cut for it, was a tenth of reading a summary.
 */
export function boldLine(body: string, from: number, to: number): string | undefined {
  for (let start = from; start <= to; ) {
    let end = start;
    while (end < to && !endsLine(body.charCodeAt(end))) end++;
    let i = start;
    while (i < end && isBlank(body.charCodeAt(i))) i++;
    let j = end;
    while (j > i && isBlank(body.charCodeAt(j - 1))) j--;
    if (j - i >= 5 && body.charCodeAt(i) === 42 && body.charCodeAt(i + 1) === 42 && body.charCodeAt(j - 1) === 42 && body.charCodeAt(j - 2) === 42) {
      return body.slice(i + 2, j - 2);
    }
    start = end + 1;
  }
  return undefined;
}

/**
 * The first `# Title` line, and where the text after it runs, up to five lines on, stopping at a `#`
 * (where GSD puts the bold one-liner). Scanned by hand: the pattern for it backtracked on one long line.
 */
function titleBlock(body: string): { title: string; following: number; followingEnd: number } | null {
  for (let at = body.indexOf('#'); at !== -1; at = body.indexOf('#', at + 1)) {
    const before = at === 0 ? 10 : body.charCodeAt(at - 1);
    if ((before !== 10 && before !== 13) || !isBlank(body.charCodeAt(at + 1))) continue;
    let end = body.indexOf('\n', at);
    if (end === -1) end = body.length;
    let from = at + 1;
    let to = body.charCodeAt(end - 1) === 13 ? end - 1 : end;
    while (from < to && isBlank(body.charCodeAt(from))) from++;
    while (to > from && isBlank(body.charCodeAt(to - 1))) to--;
    const title = body.slice(from, to);
    if (title === '' || title.includes('\r')) continue;
    let stop = end;
    for (let k = 0; k < 5 && body.charCodeAt(stop) === 10; k++) {
      const nl = body.indexOf('\n', stop + 1);
      const lineEnd = nl === -1 ? body.length : nl;
      const hash = body.indexOf('#', stop + 1);
      stop = hash !== -1 && hash < lineEnd ? hash : lineEnd;
    }
    return { title, following: end, followingEnd: stop };
  }
  return null;
}

/** A copy that does not keep the whole file alive (a substring of 13+ characters points into it). */
const own = (s: string | undefined): string | undefined => (s === undefined || s.length < 13 ? s : (' ' + s).slice(1));

/** What the full derive keeps of a summary; the rest of TaskSummary is for other readers. */
export type TaskSummaryForState = Pick<TaskSummary, 'id' | 'parent' | 'oneLiner' | 'verificationResult' | 'completedAt' | 'blockerDiscovered' | 'pendingActions' | 'diagnostics'>;

/** The canonical string of each known verification result, so thousands of summaries share four. */
const VERIFICATION_RESULT_STRINGS = new Map([...VERIFICATION_RESULTS].map((v) => [v, v]));

/** The frontmatter, Known Issues and one-liner of a summary: the part both readings share. */
function readSummary(text: string, file: string, wholeFrontmatter = false) {
  let fm = parseFrontmatter(text, file, wholeFrontmatter ? {} : { onlyKeys: SUMMARY_KEYS });
  const diagnostics = fm.diagnostics.slice();
  // Broken elsewhere (said above): the keys the state needs are still read from their own lines.
  if (wholeFrontmatter && diagnostics.length) fm = { ...parseFrontmatter(text, file, { onlyKeys: SUMMARY_KEYS }), diagnostics: fm.diagnostics };
  // Offsets first; lines (and their numbers) only for the few summaries that list pending actions.
  const known = sectionRange(fm.body, 'Known Issues');
  const knownText = known ? fm.body.slice(known.start, known.end) : '';
  const pendingActions = PENDING_ACTIONS.test(knownText) ? extractPendingActions(sectionNamed(fm.body, fm.bodyStartLine, 'Known Issues', known)) : [];
  // `# T01: Title` and the bold one-liner GSD puts within the next few lines.
  const head = titleBlock(fm.body);
  const oneLiner = head ? boldLine(fm.body, head.following, head.followingEnd) : undefined;
  const verificationResult = fmString(fm.data, 'verification_result');
  if (verificationResult && !VERIFICATION_RESULTS.has(verificationResult)) {
    diagnostics.push({ file, line: 1, severity: 'info', message: `verification_result "${verificationResult}" is not one of passed, untested, mixed` });
  }
  const completedAt = fmString(fm.data, 'completed_at');
  if (completedAt && Number.isNaN(Date.parse(completedAt))) {
    diagnostics.push({ file, line: 1, severity: 'warning', message: `completed_at "${completedAt}" is not an ISO time; completion order falls back to plan order` });
  }
  return { fm, diagnostics, knownText, pendingActions, head, oneLiner, verificationResult, completedAt };
}

export function parseTaskSummary(text: string, file: string): TaskSummary {
  const { fm, diagnostics, knownText, pendingActions, head, oneLiner, verificationResult, completedAt } = readSummary(text, file);
  // One literal with every key (absent ones undefined): thousands of these are kept, and adding
  // keys one by one gave each an extra property store.
  return {
    id: fmString(fm.data, 'id')?.toUpperCase(),
    parent: fmString(fm.data, 'parent'),
    milestone: fmString(fm.data, 'milestone'),
    title: own(head?.title.replace(TASK_ID_PREFIX, '')),
    oneLiner: own(oneLiner),
    duration: fmString(fm.data, 'duration'),
    verificationResult,
    completedAt: own(completedAt),
    blockerDiscovered: fmBoolean(fm.data, 'blocker_discovered'),
    knownIssues: own((knownText.includes('\r') ? knownText.replace(/\r\n/g, '\n') : knownText).trim())!,
    pendingActions,
    diagnostics,
  };
}

/**
 * The summary as the full derive keeps it: the same values and diagnostics as parseTaskSummary,
 * without what the state never uses (title, Known Issues text, milestone, duration). A derive keeps
 * one per done task until it ends (the StateIndex for good), and every byte kept is copied by the
 * garbage collector's young generation, twice: that was a tenth of a cold full derive.
 */
/**
 * The same, with the whole frontmatter parsed: picking the keys the state needs from their lines is
 * faster but blind to a broken line elsewhere, which GSD's YAML reader refuses. Used where the whole
 * project is read (the panel, `state --full`), so such a file is reported; one parse, not two.
 */
export function parseTaskSummaryChecked(text: string, file: string): TaskSummaryForState {
  return summaryForState(readSummary(text, file, true));
}

export function parseTaskSummaryForState(text: string, file: string): TaskSummaryForState {
  return summaryForState(readSummary(text, file));
}

function summaryForState({ fm, diagnostics, pendingActions, oneLiner, verificationResult, completedAt }: ReturnType<typeof readSummary>): TaskSummaryForState {
  return {
    id: fmString(fm.data, 'id')?.toUpperCase(),
    parent: fmString(fm.data, 'parent'),
    oneLiner: own(oneLiner),
    verificationResult: verificationResult === undefined ? undefined : (VERIFICATION_RESULT_STRINGS.get(verificationResult) ?? verificationResult),
    completedAt: own(completedAt),
    blockerDiscovered: fmBoolean(fm.data, 'blocker_discovered'),
    // The action's text is a slice of its line: copied, so the summary's text is not kept for it.
    pendingActions: pendingActions.length === 0 ? pendingActions : pendingActions.map((a) => ({ text: own(a.text)!, line: a.line })),
    diagnostics,
  };
}
