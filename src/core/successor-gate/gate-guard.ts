// The reviewer may not edit code: inside GSD's session of our gate, each tool call is judged here
// (asked by the guard extension GSD loads, gate-guard-extension.ts). An allowlist: the reviewer
// reads and searches (`read`, `grep`, `find`, `ls`), writes its review file with `write` or `edit`
// (never with a verdict of its own: `gate --done` sets that), and runs the gate command or a plain
// reading command with `bash`. Every other tool is refused with the reason, which the agent sees as
// the tool's result: GSD's own `gsd_*` tools, `subagent` (a child agent runs unguarded), `mcp_call`
// (any configured server's tools), the browser tools that write files, and anything not known.
//
// Paths are judged as pi's write and edit tools resolve them (gsd-pi 1.16.1 pi-coding-agent
// tools/path-utils.ts resolveToCwd: unicode spaces made plain, a leading `@` dropped, `~` expanded,
// `file://` read), and must be the review file itself, named through the project, with no link on
// the way below `.gsd`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { linkBelow } from '../files/link-free';
import { userHome } from '../files/user-home';
import { GATE_COMMAND } from './gate-hook';
import { gsdReadsVerdict } from './gate-verdict';

export interface GateGuardCall {
  toolName: string;
  input: Record<string, unknown>;
}

export interface GateGuardContext {
  /** The project root (GSD's cwd for the session). */
  root: string;
  unitId: string;
  /** The review file, absolute, in the real `.gsd`: the one file the reviewer writes. */
  reviewFile: string;
  /** The same as the reviewer names it (through the project's `.gsd`), relative to the root. */
  reviewShown: string;
  /** The real `.gsd`. */
  gsdDir: string;
  /** This cycle's review is recorded already (`--done` ran): the file is not to change any more. */
  recorded?: boolean;
}

export interface GateGuardAnswer {
  block: boolean;
  reason?: string;
}

const READING = new Set(['read', 'grep', 'find', 'ls']);

// Not rg, file, sort, uniq, tree or less: each has an option that writes a file or runs a program.
const READ_COMMANDS = new Set(['cat', 'head', 'tail', 'wc', 'ls', 'grep', 'egrep', 'fgrep', 'diff', 'stat', 'pwd', 'echo', 'cut', 'nl', 'du', 'realpath', 'basename', 'dirname', 'find']);
// Not branch or tag (with a name they create one), nor grep (-O runs a program).
const GIT_READS = new Set(['diff', 'log', 'show', 'status', 'blame', 'ls-files', 'rev-parse', 'shortlog', 'describe', 'cat-file']);
// Anything that could redirect, chain, substitute, background, or expand into planted names (a file
// named `-delete` matched by `*`): such a command is refused, not judged. (`~` only names the home
// folder, which reading may: `HEAD~1` stays.)
const SHELL_SYNTAX = /[;&|<>`$(){}\n\\*?[\]]/;
// Options that write a file or run a program: git's --output, find's actions.
const WRITING_OPTION = /^(--output(=|$)|-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$)/;
const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/** Where pi's write and edit tools put `raw` (tools/path-utils.ts resolveToCwd). */
export function piPath(raw: string, root: string): string {
  let p = raw.replace(UNICODE_SPACES, ' ');
  if (p.startsWith('@')) p = p.slice(1);
  if (p === '~') p = userHome();
  else if (p.startsWith('~/')) p = path.join(userHome(), p.slice(2));
  else if (p.startsWith('file://')) {
    try {
      p = fileURLToPath(p);
    } catch {
      return '';
    }
  }
  return path.resolve(root, p);
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
  // The words as the shell passes them (quotes gone): `'--output=x'` is --output=x.
  const words = c.split(/\s+/).map((w) => w.replace(/['"]/g, ''));
  if (words.some((w) => WRITING_OPTION.test(w))) return false;
  // git: the subcommand right after `git` (options before it, like -c, may run programs).
  if (words[0] === 'git') return words.length > 1 && GIT_READS.has(words[1]);
  return READ_COMMANDS.has(words[0]);
}

/** The text a write or edit leaves in the review file, or null when it cannot be told. */
function textAfter(call: GateGuardCall, file: string): string | null {
  if (call.toolName === 'write') return typeof call.input.content === 'string' ? call.input.content : null;
  let current: string;
  try {
    current = fs.readFileSync(file, 'utf8');
  } catch {
    current = '';
  }
  // pi's edit: `edits` (maybe as a JSON string) and the older oldText/newText, each matched in the original.
  let edits: unknown = call.input.edits;
  if (typeof edits === 'string') {
    try {
      edits = JSON.parse(edits);
    } catch {
      return null;
    }
  }
  const list = [...(Array.isArray(edits) ? edits : []), ...(typeof call.input.oldText === 'string' ? [{ oldText: call.input.oldText, newText: call.input.newText }] : [])];
  let out = current;
  for (const e of list) {
    const { oldText, newText } = (e ?? {}) as { oldText?: unknown; newText?: unknown };
    if (typeof oldText !== 'string' || typeof newText !== 'string') return null;
    const at = current.indexOf(oldText);
    if (at === -1) return null;
    out = out.replace(oldText, () => newText);
  }
  return out;
}

export function judgeGateToolCall(call: GateGuardCall, ctx: GateGuardContext): GateGuardAnswer {
  const name = call.toolName;
  const review = ctx.reviewShown;
  const only = `The reviewer of ${ctx.unitId} reads, and writes only ${review} (GSD Review Loop)`;
  if (READING.has(name)) return { block: false };
  if (name === 'bash') {
    const command = typeof call.input.command === 'string' ? call.input.command : '';
    if (isGateCommand(command, ctx.unitId) || readsOnly(command)) return { block: false };
    return { block: true, reason: `${only}; this command may change files, so it is not run during the review: ${command.slice(0, 200)}. Read with the read, grep, find and ls tools or plain git diff / git log; write the review with the write tool.` };
  }
  if (name !== 'write' && name !== 'edit') {
    const why = name.startsWith('gsd_') ? `GSD's own tools (${name}) change GSD's records` : name === 'subagent' ? 'a subagent would work unguarded' : `${name} is not one of the reviewer's tools (read, grep, find, ls, write and edit of the review file, bash for reading)`;
    return { block: true, reason: `${only}; ${why}. Record the review with: ${GATE_COMMAND} ${ctx.unitId} --done` };
  }
  const raw = typeof call.input.path === 'string' ? call.input.path : '';
  const target = raw ? piPath(raw, ctx.root) : '';
  const accepted = [path.resolve(ctx.root, review), ctx.reviewFile];
  // The file itself, by name, and no link from the real `.gsd` down to it (a review file linked to
  // GSD's own files, or a planted link in the phase folder, is no review file).
  if (!target || !accepted.includes(target) || linkBelow(ctx.gsdDir, ctx.reviewFile) !== null) {
    return { block: true, reason: `${only}; ${raw || `this ${name} call`} is for the fix that follows the review, not for the reviewer.` };
  }
  if (ctx.recorded) return { block: true, reason: `${only}; this cycle's review is recorded already (gate --done), so it stays as it is.` };
  const after = textAfter(call, ctx.reviewFile);
  const verdict = after === null ? 'unknown' : gsdReadsVerdict(after);
  if (verdict !== undefined && verdict !== 'pending') {
    return { block: true, reason: `${only}; leave the frontmatter line verdict: pending: ${GATE_COMMAND} ${ctx.unitId} --done sets the verdict GSD reads.` };
  }
  return { block: false };
}
