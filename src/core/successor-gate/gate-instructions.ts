// What `gsd-review gate M001/S01/T01` prints for the reviewer in GSD's hook session: this cycle's
// number and cap, the task (its plan lines, summary and files), the open issues of the cycle before,
// the review file and its format (ours: docs/review-loop.md "Review files"), and the one command
// that finishes. `--json` gives the same as data for scripts.
import type { GateSession } from './gate-session';
import { GATE_COMMAND } from './gate-hook';

const MAX_SUMMARY_LINES = 120;
const MAX_EARLIER_ISSUES = 50;
// Text from the project, printed indented as a block: no control characters, no other line breaks.
// eslint-disable-next-line no-control-regex -- control characters are what this removes
const untrusted = (line: string) => line.replace(/[\u0000-\u0008\u000b-\u001f\u007f\u2028\u2029]/g, ' ');

export interface GateInstructionsJson {
  unitId: string;
  cycle: number;
  maxCycles: number;
  /** Relative to the project root: where GSD reads the verdict. */
  reviewFile: string;
  hook: string;
  artifact: string;
  task: { title: string; planFile: string | null; summaryFile: string | null; files: string[] };
  earlierCycles: Array<{ cycle: number; verdict: string | null; openIssues: string[]; resolvedIssues: number }>;
  finish: string;
  notes: string[];
}

const rel = (s: GateSession, file: string | null) => (file ? s.show(file) : null);

function issueLine(i: { severity?: string; location?: string; text: string }): string {
  return [i.severity && `**${i.severity}**`, i.location && `\`${i.location}\``, i.text].filter(Boolean).join(' ');
}

export function gateInstructionsJson(s: GateSession): GateInstructionsJson {
  return {
    unitId: s.unit.unitId,
    cycle: s.cycle,
    maxCycles: s.config.maxCycles,
    reviewFile: s.reviewFile,
    hook: s.config.name,
    artifact: s.config.artifact,
    task: { title: s.task.title, planFile: rel(s, s.task.planFile), summaryFile: rel(s, s.task.summaryFile), files: s.task.files },
    earlierCycles: s.earlier.map((c) => ({ cycle: c.cycle, verdict: c.gateVerdict, openIssues: c.review.openIssues.map(issueLine), resolvedIssues: c.review.resolvedIssues.length })),
    finish: `${GATE_COMMAND} ${s.unit.unitId} --done`,
    notes: s.notes,
  };
}

/** The example review the reviewer copies the shape of. */
function exampleReview(s: GateSession): string[] {
  return [
    '---',
    `task: ${s.unit.taskId}`,
    `cycle: ${s.cycle}`,
    'verdict: pending',
    '---',
    `# Code review: ${s.unit.unitId} (cycle ${s.cycle})`,
    '',
    '## Issues',
    '- [ ] **major** `src/cart.ts:42` What is wrong there, and what the fix should be.',
    '- [x] **minor** `src/cart.ts:7` An issue of the cycle before, fixed now.',
    '',
    '## Notes',
    'What you checked, and anything worth knowing that is not an issue.',
  ];
}

export function gateInstructions(s: GateSession): string {
  const out: string[] = [];
  const last = s.cycle >= s.config.maxCycles;
  out.push(`# Review of GSD task ${s.unit.unitId}: ${s.task.title}`);
  out.push('');
  out.push(`This is review cycle ${s.cycle} of at most ${s.config.maxCycles}.${last ? ' It is the last one: issues you leave open are kept as the task\'s pending actions, and GSD goes on.' : ''}`);
  out.push('You review the task\'s changes; you change no code, test or other file. The only file you write is the review file below.');
  out.push('');
  out.push('## The task');
  if (s.task.planLines.length > 0) out.push(`From ${rel(s, s.task.planFile)}:`, '', ...s.task.planLines.map((l) => `    ${untrusted(l)}`), '');
  else out.push(`(no entry for ${s.unit.taskId} in the slice plan${s.task.planFile ? ` ${rel(s, s.task.planFile)}` : ''})`, '');
  if (s.task.summary !== null) {
    const lines = s.task.summary.split(/\r?\n/);
    out.push(`What the task's summary says (${rel(s, s.task.summaryFile)}${lines.length > MAX_SUMMARY_LINES ? `, first ${MAX_SUMMARY_LINES} of ${lines.length} lines` : ''}):`, '');
    out.push(...lines.slice(0, MAX_SUMMARY_LINES).map((l) => `    ${untrusted(l)}`), '');
  } else {
    out.push('GSD wrote no summary for this task (yet).', '');
  }
  if (s.task.files.length > 0) out.push('Files the plan and the summary name (start there; look at the task\'s changes with git too):', ...s.task.files.map((f) => `- ${f}`), '');
  else out.push('Neither the plan nor the summary names the files; find the task\'s changes with git (git status, git log -p).', '');
  const before = s.earlier[s.earlier.length - 1];
  if (before) {
    out.push(`## Issues of cycle ${before.cycle}`);
    if (before.review.openIssues.length === 0) out.push('None were left open.');
    else {
      out.push('The task was run again to fix these. Check each one: copy it into your review, ticked `[x]` if it is fixed, unticked `[ ]` if it is not.');
      out.push(...before.review.openIssues.slice(0, MAX_EARLIER_ISSUES).map((i) => `- [ ] ${untrusted(issueLine(i))}`));
      if (before.review.openIssues.length > MAX_EARLIER_ISSUES) out.push(`(and ${before.review.openIssues.length - MAX_EARLIER_ISSUES} more in ${rel(s, before.file)})`);
    }
    out.push('');
  }
  out.push('## Write the review');
  out.push(`Write ${s.reviewFile} (relative to the project root), exactly in this shape:`, '');
  out.push(...exampleReview(s).map((l) => `    ${l}`), '');
  out.push('- The frontmatter keeps these three lines: `task` is this task, `cycle` is this cycle\'s number, `verdict: pending` (the next step sets the verdict GSD reads).');
  out.push('- Under `## Issues`, one line per issue: `[ ]` while it is open, `[x]` when it is fixed; a severity (critical, major, minor or nit); where it is, as `path:line` from the project root in backticks; then what is wrong and what the fix is.');
  out.push('- No issues: leave the list under `## Issues` empty.');
  out.push('');
  out.push('## Finish');
  out.push(`Run: ${GATE_COMMAND} ${s.unit.unitId} --done`);
  out.push('It checks the review and records it. If it reports a problem, fix the review file and run it again.');
  for (const n of s.notes) out.push('', `Note: ${n}`);
  return out.join('\n') + '\n';
}
