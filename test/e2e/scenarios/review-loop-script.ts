// The "model" of the full review loop, for any host: the main agent executes task T02 (a file and its
// summary), stops; when the Stop hook hands it a review it starts the gsd-reviewer subagent; when the
// Stop hook hands it a fix it fixes the file and stops again. The reviewer, told by SubagentStart
// which cycle and which review file, first tries to edit the source and to write through a shell
// redirect (both must be refused), then writes its review: changes requested in cycle 1, approved
// in cycle 2. Everything is decided from what the request contains, as a model would.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lastToolResult, requestText, toolCallsSoFar, userTexts, type ModelRequest, type Script, type ScriptedTurn } from '../scripted-model/conversation';
import type { ToolDialect } from './dialect';

// In T02's file list and in a folder that exists (Copilot's `create` makes no folders).
export const T02_SOURCE = 'src/rules-file.ts';
export const T02_SUMMARY = '.gsd/milestones/M002-k7q2xz/slices/S02/tasks/T02-SUMMARY.md';
export const REVIEWER_MARK = 'You are the reviewer of the GSD review loop';
export const EXECUTE_PROMPT = 'Execute task T02 (rule add / remove commands) of slice M002-k7q2xz/S02: write src/rules-file.ts and the task summary, then stop.';

const SOURCE_V1 = `// rule add / remove
export function removeRule(rules: string[], pattern: string): string[] {
  return rules.filter((r) => r !== pattern);
}
`;
const SOURCE_V2 = `// rule add / remove
export function removeRule(rules: string[], pattern: string): string[] {
  if (!rules.includes(pattern)) throw new Error(\`no rule matches \${pattern}\`);
  return rules.filter((r) => r !== pattern);
}
`;

export function summary(pendingActions: string[] = []): string {
  return `---
id: T02
parent: S02
milestone: M002-k7q2xz
key_files:
  - src/rules-file.ts
key_decisions:
  - Remove by exact pattern
duration: 20m
verification_result: passed
completed_at: 2026-11-25T10:00:00Z
blocker_discovered: false
---

# T02: rule add / remove commands

**\`ledgerline rule remove\` drops a rule by its pattern.**

## What Happened

Wrote the remove command.

## Verification

\`npm test -- --grep "rule command"\`: 4 passing.

## Known Issues

${pendingActions.length ? `Pending actions:\n${pendingActions.map((a) => `- ${a}`).join('\n')}` : 'None.'}

## Files Created/Modified

- \`src/rules-file.ts\` — remove command
`;
}

export const ISSUE = '`rule remove` of a missing pattern exits 0; it should say nothing matched.';

export interface LoopOptions {
  /** The main agent starts the reviewer in the background (Claude Code's default for its Agent tool). */
  background?: boolean;
  /** Pending actions the main agent lists in the task summary. */
  pendingActions?: string[];
  /** The review cycle whose review approves (default 2: cycle 1 asks for changes). */
  approveAt?: number;
  /** The reviewer first stops without writing its review. */
  reviewerStopsFirst?: boolean;
  /** The reviewer's first answer comes this late (ms): the main agent's events happen meanwhile. */
  reviewerDelayMs?: number;
}

function review(cycle: number, approveAt: number): string {
  const approved = cycle >= approveAt;
  return `---
task: T02
cycle: ${cycle}
verdict: ${approved ? 'approved' : 'changes-requested'}
---
# Code review: T02 (cycle ${cycle})

## Issues

- [${approved ? 'x' : ' '}] **major** \`src/rules-file.ts:3\` ${ISSUE}

## Notes

${approved ? 'The fix throws when nothing matches.' : 'One issue.'}
`;
}

/** Which texts the reviewer was given: its instructions from SubagentStart, anywhere in its request. */
function reviewerInstructions(request: ModelRequest): { cycle: number; reviewFile: string } | null {
  const text = requestText(request);
  const file = /the only file you write is (\S+?\.md)/.exec(text)?.[1];
  const cycle = /review cycle (\d+) of at most/.exec(text)?.[1];
  return file && cycle ? { cycle: Number(cycle), reviewFile: file } : null;
}

export function isReviewer(request: ModelRequest): boolean {
  return request.system.includes(REVIEWER_MARK) || userTexts(request).some((t) => t.includes(REVIEWER_MARK));
}

export const STOPPED_EARLY = 'The change looks fine to me.';

/** The reviewer's turns: edit the source (refused), a shell redirect (refused or asked), the review. */
export function reviewerScript(tools: ToolDialect, root: string, request: ModelRequest, options: LoopOptions = {}): ScriptedTurn {
  const done = toolCallsSoFar(request).length;
  const given = reviewerInstructions(request);
  const delay = request.entries.some((e) => e.role === 'assistant') ? {} : { delayMs: options.reviewerDelayMs ?? 0 };
  if (!given) return { ...delay, text: 'I was given no review to do (no review cycle, no review file in my instructions).' };
  const toldToWrite = userTexts(request).some((t) => t.includes('before stopping'));
  if (options.reviewerStopsFirst && done === 0 && !toldToWrite) return { ...delay, text: STOPPED_EARLY };
  if (done === 0) return { ...delay, text: 'Let me fix the missing check myself.', toolCalls: [tools.edit(path.join(root, T02_SOURCE), 'return rules.filter', '/* reviewed */ return rules.filter')] };
  if (done === 1) return { text: 'Then through the shell.', toolCalls: [tools.shell(`echo '// reviewer was here' >> ${T02_SOURCE}`)] };
  if (done === 2) {
    // The review file of the cycle before is still there (its snapshot is a copy): replace it.
    const file = path.join(root, given.reviewFile);
    const text = review(given.cycle, options.approveAt ?? 2);
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
    return { text: 'Writing the review.', toolCalls: [current === null ? tools.write(file, text) : tools.rewrite(file, current, text)] };
  }
  return { text: `Review of cycle ${given.cycle} written to ${given.reviewFile}.` };
}

/** The main agent's turns. */
export function mainScript(tools: ToolDialect, root: string, request: ModelRequest, options: LoopOptions = {}): ScriptedTurn {
  const calls = toolCallsSoFar(request);
  const last = request.entries[request.entries.length - 1];
  const result = lastToolResult(request);
  if (calls.length === 0 && requestText(request).includes('Execute task T02')) {
    return {
      text: 'Writing T02.',
      toolCalls: [tools.write(path.join(root, T02_SOURCE), SOURCE_V1), tools.write(path.join(root, T02_SUMMARY), summary(options.pendingActions))],
    };
  }
  if (last?.role === 'user') {
    // A hook's word after our turn ended (Claude Code: the Stop block's reason as a user message).
    if (/GSD review loop: .*Review it now/s.test(last.text)) {
      return { text: 'Handing the review to gsd-reviewer.', toolCalls: [tools.subagent('gsd-reviewer', 'Review task T02 as the GSD review loop asks.', { background: options.background ?? false })] };
    }
    if (/GSD review loop: .*Fix the open issues now/s.test(last.text)) {
      return { text: 'Fixing the open issue.', toolCalls: [tools.edit(path.join(root, T02_SOURCE), '  return rules.filter', '  if (!rules.includes(pattern)) throw new Error(`no rule matches ${pattern}`);\n  return rules.filter')] };
    }
  }
  if (result) return { text: `Done (${result.toolName ?? 'tool'} finished).` };
  return { text: 'Nothing more to do.' };
}

export function reviewLoopScript(tools: ToolDialect, root: string, options: LoopOptions = {}): Script {
  return (request) => (isReviewer(request) ? reviewerScript(tools, root, request, options) : mainScript(tools, root, request, options));
}

export const SOURCES = { v1: SOURCE_V1, v2: SOURCE_V2 };
