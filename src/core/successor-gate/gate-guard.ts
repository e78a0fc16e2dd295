// The reviewer may not edit code: inside GSD's session of our gate, each tool call is judged here
// (asked by the guard extension GSD loads, gate-guard-extension.ts). The reviewer writes its review
// file and nothing else; it reads, searches, and runs the gate command; any other command, any
// other write and any tool of GSD's own (gsd_task_complete and the like, which change GSD's
// records) is refused with the reason, which the agent sees as the tool's result.
//
// GSD's tools in a hook session (gsd-pi 1.16.1, pi-coding-agent): `read`, `grep`, `find`, `ls` read;
// `write` and `edit` take `path`; `bash` takes `command`; GSD's workflow tools are named `gsd_*`.
// Tools of the other hosts' names are judged by our table (edit-tools.ts); a tool we know nothing
// of that may change files is refused (the guard fails closed while the review runs).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { classifyToolCall } from '../agent-hooks/edit-tools';
import { isWithin } from '../files/confine';
import { GATE_COMMAND } from './gate-hook';

export interface GateGuardCall {
  toolName: string;
  input: Record<string, unknown>;
}

export interface GateGuardContext {
  /** The project root (GSD's cwd for the session). */
  root: string;
  unitId: string;
  /** The review file, absolute: the one file the reviewer writes. */
  reviewFile: string;
  /** The same as the reviewer names it (through the project's `.gsd`), for the reasons. */
  reviewShown: string;
  /** The real `.gsd`: a review file whose real path leaves it (a planted link) is no review file. */
  gsdDir: string;
}

export interface GateGuardAnswer {
  block: boolean;
  reason?: string;
}

const READING = new Set(['read', 'grep', 'find', 'ls']);
const WRITING = new Set(['write', 'edit']);

/** Commands that only read, and the git subcommands that only read. */
// Not sort, uniq or tree (they take an output file), nor less (a pager runs commands).
const READ_COMMANDS = new Set(['cat', 'head', 'tail', 'wc', 'ls', 'grep', 'egrep', 'fgrep', 'rg', 'diff', 'file', 'stat', 'pwd', 'echo', 'cut', 'nl', 'du', 'realpath', 'basename', 'dirname']);
// Not branch or tag (with a name they create one), nor grep (-O runs a program).
const GIT_READS = new Set(['diff', 'log', 'show', 'status', 'blame', 'ls-files', 'rev-parse', 'shortlog', 'describe', 'cat-file']);
// Anything that could redirect, chain, substitute, expand or background: such a command is refused, not judged.
const SHELL_SYNTAX = /[;&|<>`$(){}\n\\]/;
// Options that write a file or run a program: git's --output and -c, rg's --pre, find's actions.
const WRITING_OPTION = /^(--output(=|$)|--pre(=|$)|-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$)/;

function real(p: string): string | null {
  try {
    return fs.realpathSync(p);
  } catch {
    // A file that does not exist yet: its folder's real path and its name.
    try {
      return path.join(fs.realpathSync(path.dirname(p)), path.basename(p));
    } catch {
      return null;
    }
  }
}

/** The gate command for this task, exactly as the prompt gives it (the only command with shell syntax allowed). */
function isGateCommand(command: string, unitId: string): boolean {
  const rest = command.trim();
  const head = `${GATE_COMMAND} ${unitId}`;
  if (!rest.startsWith(head)) return false;
  const flags = rest.slice(head.length).trim().split(/\s+/).filter(Boolean);
  return flags.every((f) => f === '--done' || f === '--json');
}

/** A plain command that only reads: no shell syntax, a reading program, git only with a reading subcommand. */
function readsOnly(command: string): boolean {
  const c = command.trim();
  if (!c || SHELL_SYNTAX.test(c.replace(/'[^']*'|"[^"$`\\]*"/g, ''))) return false;
  // The words as the shell passes them (quotes gone): `'--pre=x'` is --pre=x.
  const words = c.split(/\s+/).map((w) => w.replace(/['"]/g, ''));
  if (words.some((w) => WRITING_OPTION.test(w))) return false;
  // git: the subcommand right after `git` (options before it, like -c, may run programs).
  if (words[0] === 'git') return words.length > 1 && GIT_READS.has(words[1]);
  return words[0] === 'find' || READ_COMMANDS.has(words[0]);
}

export function judgeGateToolCall(call: GateGuardCall, ctx: GateGuardContext): GateGuardAnswer {
  const name = call.toolName;
  const review = ctx.reviewShown;
  const only = `The reviewer of ${ctx.unitId} writes only ${review} (GSD Review Loop)`;
  if (READING.has(name)) return { block: false };
  if (name.startsWith('gsd_')) return { block: true, reason: `${only}; GSD's own tools (${name}) change GSD's records and are not the reviewer's. Record the review with: ${GATE_COMMAND} ${ctx.unitId} --done` };
  if (name === 'bash') {
    const command = typeof call.input.command === 'string' ? call.input.command : '';
    if (isGateCommand(command, ctx.unitId) || readsOnly(command)) return { block: false };
    return { block: true, reason: `${only}; this command may change files, so it is not run during the review: ${command.slice(0, 200)}. Read with the read, grep, find and ls tools or plain git diff / git log; write the review with the write tool.` };
  }
  const classified = WRITING.has(name) ? { kind: 'edit' as const, paths: typeof call.input.path === 'string' ? [call.input.path] : [] } : classifyToolCall(name, call.input);
  if (classified.kind === 'other' || classified.kind === 'subagent') return { block: false };
  if (classified.kind === 'terminal') return { block: true, reason: `${only}; commands that may change files are not run during the review.` };
  const reviewReal = real(ctx.reviewFile);
  const gsdReal = real(ctx.gsdDir);
  const target = reviewReal && gsdReal && isWithin(gsdReal, reviewReal) ? reviewReal : null;
  const outside = classified.paths.find((p) => {
    const r = real(path.resolve(ctx.root, p));
    return r === null || target === null || r !== target;
  });
  if (classified.paths.length > 0 && !outside) return { block: false };
  return { block: true, reason: `${only}; ${outside ?? `this ${name} call`} is for the fix that follows the review, not for the reviewer.` };
}
