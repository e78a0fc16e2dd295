// The scripted model's part in the review loop, played once by VS Code's main agent and once by our
// gsd-reviewer (run through `runSubagent`). Like a real model it decides each turn from what the
// host sent: the hook messages VS Code put into the conversation and the results of its own tool
// calls. What the workspace looked like right after each reviewer tool call is noted, so the suite
// can say the tool never ran (the file unchanged then), not merely that it was answered.
import * as path from 'node:path';
import { requestText, toolCallsSoFar, type Entry, type ModelRequest, type ScriptedTurn } from '../scripted-model/server';
import { readProjectFile, REVIEW_FILE, SOURCE_FILE } from './project';

export const REVIEWER_AGENT = 'gsd-reviewer';
/** The reviewer agent file's own words (install-hooks writes them): how a reviewer request is told apart. */
export const REVIEWER_MARK = 'You are the reviewer of the GSD review loop.';

export interface ReviewerAttempt {
  tool: string;
  /** The tool result VS Code gave the model. */
  result: string;
  /** The source file right after the call. */
  sourceAfter: string | null;
}

export interface LoopRecord {
  /** Reviewer attempts at tools the guard must stop, in order. */
  attempts: ReviewerAttempt[];
  /** The tool result of the reviewer's write of its review, per cycle. */
  reviewWritten: Record<number, { result: string }>;
  /** Prompts the reviewer got for each cycle (the text that names the cycle). */
  reviewerSawCycle: number[];
  mainFixResult: string | null;
  /** The review file on disk each time the main agent was back from a reviewer run. */
  reviewOnReturn: (string | null)[];
  /** How often the main agent ended a turn right after a reviewer run. */
  mainEndedAfterReview: number;
}

const isReviewer = (r: ModelRequest): boolean => requestText(r).includes(REVIEWER_MARK);

function lastEntries(r: ModelRequest): { lastAssistant: Extract<Entry, { role: 'assistant' }> | null; after: Entry[] } {
  let i = r.entries.length - 1;
  while (i >= 0 && r.entries[i].role !== 'assistant') i--;
  return { lastAssistant: i >= 0 ? (r.entries[i] as Extract<Entry, { role: 'assistant' }>) : null, after: r.entries.slice(i + 1) };
}

function toolResult(r: ModelRequest, name: string): string | null {
  const { after } = lastEntries(r);
  const hit = after.find((e): e is Extract<Entry, { role: 'tool' }> => e.role === 'tool' && e.toolName === name);
  return hit ? hit.text : null;
}

function reviewText(cycle: number): string {
  const issue = '**major** `src/rules.ts:7` `categorise()` returns a category nobody asked for when no rule matches; say so in a comment and cover it with a test.';
  return [
    '---',
    'task: T02',
    `cycle: ${cycle}`,
    `verdict: ${cycle === 1 ? 'changes-requested' : 'approved'}`,
    '---',
    `# Code review: T02 (cycle ${cycle})`,
    '## Issues',
    cycle === 1 ? `- [ ] ${issue}` : `- [x] ${issue} (fixed)`,
    '## Notes',
    cycle === 1 ? 'The rest matches the plan.' : 'The fix is in; nothing else open.',
    '',
  ].join('\n');
}

/**
 * The script: `root` is the project VS Code has open. The reviewer of cycle 1 tries, in turn, an
 * edit of a source file, a rename across files and a shell redirect, then writes its review; the
 * main agent hands reviews to the reviewer and makes the fix when a hook tells it to.
 */
export function reviewLoopScript(root: string, record: LoopRecord, moment: (name: string) => void = () => undefined): (r: ModelRequest) => ScriptedTurn {
  const abs = (rel: string) => path.join(root, rel);
  const source = () => readProjectFile(root, SOURCE_FILE);
  return (r) => {
    const text = requestText(r);
    if (isReviewer(r)) {
      const cycle = Number(/review cycle (\d+) of at most/.exec(text)?.[1] ?? 0);
      if (!cycle) return { text: 'I was given no review to do.' };
      const calls = toolCallsSoFar(r).map((c) => c.name);
      if (calls.length === 0) record.reviewerSawCycle.push(cycle);
      const note = (tool: string) => {
        const result = toolResult(r, tool);
        if (result !== null) record.attempts.push({ tool, result, sourceAfter: source() });
      };
      const writeReview = (): ScriptedTurn => {
        const current = readProjectFile(root, REVIEW_FILE);
        return current === null
          ? { toolCalls: [{ name: 'create_file', input: { filePath: abs(REVIEW_FILE), content: reviewText(cycle) } }] }
          : { toolCalls: [{ name: 'replace_string_in_file', input: { filePath: abs(REVIEW_FILE), oldString: current, newString: reviewText(cycle) } }] };
      };
      if (cycle === 1) {
        if (calls.length === 0) {
          return { toolCalls: [{ name: 'replace_string_in_file', input: { filePath: abs(SOURCE_FILE), oldString: "  return 'uncategorised';", newString: "  return 'other';" } }] };
        }
        if (calls.length === 1) {
          note('replace_string_in_file');
          moment('reviewer-edit-denied');
          return { toolCalls: [{ name: 'vscode_renameSymbol', input: { symbol: 'categorise', newName: 'categorize', filePath: SOURCE_FILE, lineContent: 'export function categorise(' } }] };
        }
        if (calls.length === 2) {
          note('vscode_renameSymbol');
          return { toolCalls: [{ name: 'run_in_terminal', input: { command: `echo "export const x = 1;" > ${SOURCE_FILE}`, explanation: 'overwrite the source', goal: 'edit', mode: 'sync' } }] };
        }
        if (calls.length === 3) {
          note('run_in_terminal');
          return writeReview();
        }
      } else if (calls.length === 0) {
        return writeReview();
      }
      const last = lastEntries(r).after.find((e): e is Extract<Entry, { role: 'tool' }> => e.role === 'tool');
      if (last && !record.reviewWritten[cycle]) {
        record.reviewWritten[cycle] = { result: last.text };
        moment(`review-cycle-${cycle}-written`);
      }
      return { text: `Review of T02, cycle ${cycle}, written to ${REVIEW_FILE}.` };
    }
    // The main agent.
    const { after } = lastEntries(r);
    const subagentDone = after.some((e) => e.role === 'tool' && e.toolName === 'runSubagent');
    if (subagentDone) {
      record.mainEndedAfterReview += 1;
      record.reviewOnReturn.push(readProjectFile(root, REVIEW_FILE));
      return { text: 'The reviewer has written its review.' };
    }
    const fixResult = toolResult(r, 'replace_string_in_file');
    if (fixResult !== null) {
      record.mainFixResult = fixResult;
      moment('main-agent-fixed');
      return { text: 'Fixed the open issue.' };
    }
    const hookSaid = after.filter((e) => e.role === 'user').map((e) => e.text).join('\n');
    if (/hook blocked you/.test(hookSaid) && /Review it now/.test(hookSaid)) {
      return {
        toolCalls: [{ name: 'runSubagent', input: { agentName: REVIEWER_AGENT, description: 'Review task T02', prompt: 'Review task T02 as the GSD review loop asks, writing only the review file.' } }],
      };
    }
    if (/hook blocked you/.test(hookSaid) && /Fix the open issues now/.test(hookSaid)) {
      return {
        toolCalls: [{ name: 'replace_string_in_file', input: { filePath: abs(SOURCE_FILE), oldString: "  return 'uncategorised';", newString: "  // No rule matched: the transaction stays uncategorised.\n  return 'uncategorised';" } }],
      };
    }
    return { text: 'T02 is finished: the rule commands are in.' };
  };
}
