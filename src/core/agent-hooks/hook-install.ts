// What `install-hooks` / `uninstall-hooks` (CLI) and GSD: Install Agent Hooks (VS Code) write, per
// host, as a list of file changes to preview, apply and undo. Facts (docs/agent-hooks.md):
// - VS Code's Local agent and Copilot CLI read `.github/hooks/*.json` (user level: `~/.copilot/hooks`):
//   `{"hooks": {"Stop": [{"type": "command", "command": …}]}}`; VS Code takes `command` (+ `windows`),
//   Copilot CLI `bash` / `powershell` and `timeoutSec` (docs.github.com, Copilot CLI hooks
//   reference), so one entry carries both spellings and each host runs it once. PascalCase event
//   names make Copilot CLI send VS Code's snake_case payload.
// - Claude Code reads `.claude/settings.json` (user: `~/.claude/settings.json`) in matcher groups,
//   sets CLAUDE_PROJECT_DIR, and reads subagents from `.claude/agents/<name>.md`, whose frontmatter
//   may carry `hooks` scoped to that subagent (Claude Code hooks reference, "Hooks in skills and
//   agents"). VS Code reads `.claude/settings.json` too; the bridge then stands aside when our
//   `.github/hooks` entry exists (agent-host.ts).
// - The review guard (PreToolUse) is scoped to the reviewer: VS Code agent-scoped `hooks` in the
//   `.agent.md` frontmatter (chat.useCustomAgentHooks), Claude Code subagent frontmatter.
// Files in the repository name no path of one machine: the command runs a small committed launcher
// by a relative path (VS Code and Copilot CLI run hooks in the repository root; Claude Code gives
// CLAUDE_PROJECT_DIR), and the launcher finds this machine's CLI (launcher.ts).
import * as path from 'node:path';
import { guardMatcher } from '../hooks/lifecycle/edit-tools';
import { GITHUB_HOOKS_FILE, INSTALLED_EVENTS, type AgentHost } from './agent-host';
import { AGENT_EVENTS } from '../hooks/lifecycle/agent-events';
import { quotePosix, quoteWindows } from '../shell/shell-quote';
import { appendTo, lineAt, nodeAt, parseJsonTree, propertyOf, removeNode, repeatedAlong, repeatedKey } from './json-splice';
import type { Node as JsonNode } from 'jsonc-parser/lib/esm/main.js';
import { confineTo, type FileChange, type ReadFile } from '../files/file-changes';

export type { FileChange, ReadFile } from '../files/file-changes';
import { LAUNCHER_PS1, LAUNCHER_SH } from './launcher';
import { planWorkflowServer } from './workflow-mcp-server';
import type { ProjectKind } from '../state/project-kind';

export const MARKER = 'gsd-review-loop';
export { GITHUB_HOOKS_FILE };
export const REVIEWER_NAME = 'gsd-reviewer';

/** The events each install runs our bridge on: only those the bridge acts on. */
export { INSTALLED_EVENTS };
const TIMEOUT_S = 30;

export interface InstallOptions {
  /** The project root (the folder with `.gsd`). */
  root: string;
  host: AgentHost;
  /** User-level files instead of the repository's. */
  user: boolean;
  home: string;
  /** A GSD-2 database project also gets GSD's workflow MCP server in `.vscode/mcp.json` (host vscode). */
  projectKind?: ProjectKind;
}


type Family = 'github' | 'claude';
const familyOf = (host: AgentHost): Family => (host === 'claude' ? 'claude' : 'github');

interface Layout {
  family: Family;
  /** The settings/hook file that gets our entries. */
  hooksFile: string;
  launcherSh: string;
  launcherPs1: string | null;
  agentFile: string;
  /** The command for POSIX shells, and for Windows, that runs the bridge on `event`. */
  command(event: string): string;
  windowsCommand: ((event: string) => string) | null;
}

/**
 * The options every command carries: the event (Copilot CLI's SubagentStart payload names none), and
 * for user-level files `--untrusted`: such a hook runs in every project the agent opens, so it never
 * runs a repository's own hook code (`.gsd` hook folders); a project's own install may.
 */
function commandOptions(o: InstallOptions, host: AgentHost, event: string): string {
  return `--host ${host} --event ${event}${o.user ? ' --untrusted' : ''}`;
}

function layout(o: InstallOptions): Layout {
  const family = familyOf(o.host);
  const base = o.user ? o.home : o.root;
  const rel = (...parts: string[]) => path.join(base, ...parts);
  if (family === 'github') {
    const dir = o.user ? ['.copilot', 'hooks'] : ['.github', 'hooks'];
    const launcherSh = rel(...dir, 'gsd-review-loop.sh');
    const launcherPs1 = rel(...dir, 'gsd-review-loop.ps1');
    // In the repository: relative to the repository root, where both hosts run hook commands.
    const shPath = o.user ? quotePosix(launcherSh) : '.github/hooks/gsd-review-loop.sh';
    const ps1Path = o.user ? quoteWindows(launcherPs1) : '.github\\hooks\\gsd-review-loop.ps1';
    return {
      family,
      hooksFile: rel(...dir, 'gsd-review-loop.json'),
      launcherSh,
      launcherPs1,
      agentFile: o.user ? rel('.copilot', 'agents', `${REVIEWER_NAME}.agent.md`) : rel('.github', 'agents', `${REVIEWER_NAME}.agent.md`),
      // VS Code and Copilot CLI run the same entry: the bridge tells them apart (agent-host.ts).
      command: (event) => `sh ${shPath} ${commandOptions(o, 'vscode', event)}`,
      windowsCommand: (event) => `powershell -NoProfile -ExecutionPolicy Bypass -File ${ps1Path} ${commandOptions(o, 'vscode', event)}`,
    };
  }
  const launcherSh = rel('.claude', 'hooks', 'gsd-review-loop.sh');
  return {
    family,
    hooksFile: rel('.claude', 'settings.json'),
    launcherSh,
    launcherPs1: null,
    agentFile: rel('.claude', 'agents', `${REVIEWER_NAME}.md`),
    // Claude Code and Copilot CLI run commands with CLAUDE_PROJECT_DIR set; VS Code may not.
    command: (event) => (o.user ? `sh ${quotePosix(launcherSh)} ${commandOptions(o, 'claude', event)}` : `sh "\${CLAUDE_PROJECT_DIR:-.}/.claude/hooks/gsd-review-loop.sh" ${commandOptions(o, 'claude', event)}`),
    windowsCommand: null,
  };
}

/** One `.github/hooks` entry that VS Code and Copilot CLI each run once (both take `linux` before `bash`, `windows` before `powershell`). */
function githubEntry(l: Layout, event: string): Record<string, unknown> {
  const sh = l.command(event);
  const win = l.windowsCommand ? l.windowsCommand(event) : null;
  return { type: 'command', command: sh, bash: sh, windows: win, powershell: win, timeout: TIMEOUT_S, timeoutSec: TIMEOUT_S };
}

function githubHooksFile(l: Layout): string {
  const hooks: Record<string, unknown[]> = {};
  // Copilot CLI honours a matcher here (VS Code ignores it, and the launcher's fast path answers there).
  for (const event of INSTALLED_EVENTS) hooks[event] = [{ ...(event === 'PreToolUse' ? { matcher: guardMatcher(['copilot-cli', 'claude']) } : {}), ...githubEntry(l, event) }];
  return JSON.stringify({ version: 1, hooks }, null, 2) + '\n';
}

/**
 * Claude Code matcher groups. The guard's matcher comes from the tool table (edit-tools.ts), so no
 * process starts for a tool it never acts on; it covers Copilot CLI's names too, which reads this file
 * as well. The reviewer's own events (SubagentStart/Stop) match its agent type.
 */
function claudeGroups(l: Layout): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const event of INSTALLED_EVENTS) {
    const matcher = event === 'PreToolUse' ? { matcher: guardMatcher(['claude', 'copilot-cli']) } : AGENT_EVENTS[event].reviewerOnly ? { matcher: REVIEWER_NAME } : {};
    out[event] = { ...matcher, hooks: [{ type: 'command', command: l.command(event), timeout: TIMEOUT_S }] };
  }
  return out;
}

const isOurEntry = (entry: unknown): boolean =>
  !!entry && typeof entry === 'object' && typeof (entry as { command?: unknown }).command === 'string' && (entry as { command: string }).command.includes(`${MARKER}.sh`);

/**
 * Refuses a settings file where `hooks`, or a key anywhere in it, appears twice: Claude Code reads
 * the last of two keys (JSON.parse), a splice the first, so an install would write where nothing
 * runs it and report success, and an uninstall would leave the entries that do run.
 */
function refuseRepeatedKeys(text: string, file: string): void {
  const root = parseJsonTree(text, file);
  const hooks = nodeAt(root, ['hooks']);
  const twice = repeatedAlong(root, ['hooks']) ?? (hooks ? repeatedKey(hooks, ['hooks']) : null);
  if (twice) throw new Error(`${file}:${lineAt(text, twice.offset)}: "${twice.path}" appears twice (Claude Code reads only the last); left as it is`);
}

/**
 * Takes out our hook entries one by one, and then only what they leave empty: a matcher group whose
 * every entry was ours, an event list of only such groups, and a `hooks` object of only such lists.
 * A hook the user added (even into one of our groups) stays, with its group and matcher.
 */
export function withoutOurClaudeHooks(text: string, file: string): string {
  refuseRepeatedKeys(text, file);
  let out = text;
  for (let guard = 0; guard < 10_000; guard++) {
    const hooks = nodeAt(parseJsonTree(out, file), ['hooks']);
    if (!hooks || hooks.type !== 'object') return out;
    const next = removeOneOfOurs(out, hooks);
    if (next === null) return out;
    out = next;
  }
  return out;
}

/** The text with one entry of ours (and what it alone filled) removed; null when none is left. */
function removeOneOfOurs(text: string, hooks: JsonNode): string | null {
  for (const prop of hooks.children ?? []) {
    const list = prop.children?.[1];
    if (!list || list.type !== 'array') continue;
    for (const group of list.children ?? []) {
      const entries = group.type === 'object' ? nodeAt(group, ['hooks']) : undefined;
      if (!entries || entries.type !== 'array') continue;
      const mine = (entries.children ?? []).find((e) => isOurEntry(toValue(e)));
      if (!mine) continue;
      const others = (entries.children ?? []).filter((e) => e !== mine);
      if (others.length > 0) return removeNode(text, mine);
      // The group held our entry alone: it goes, and so does a list or `hooks` left with nothing.
      if ((list.children ?? []).length > 1) return removeNode(text, group);
      if ((hooks.children ?? []).length > 1) return removeNode(text, prop);
      return removeNode(text, propertyOf(hooks));
    }
  }
  return null;
}

function toValue(node: JsonNode): unknown {
  switch (node.type) {
    case 'object':
      return Object.fromEntries((node.children ?? []).map((p) => [String(p.children![0].value), p.children![1] ? toValue(p.children![1]) : null]));
    case 'array':
      return (node.children ?? []).map(toValue);
    default:
      return node.value;
  }
}

/** Our matcher groups added to a settings file, the user's keys and hooks kept byte for byte. */
export function withOurClaudeHooks(text: string | null, l: Layout, file: string): string {
  let out = text === null || text.trim() === '' ? '{}\n' : withoutOurClaudeHooks(text, file);
  for (const [event, group] of Object.entries(claudeGroups(l))) {
    const root = parseJsonTree(out, file);
    const hooks = nodeAt(root, ['hooks']);
    if (!hooks) {
      out = appendTo(out, root, { key: 'hooks', value: { [event]: [group] } });
      continue;
    }
    if (hooks.type !== 'object') throw new Error(`${file}: "hooks" is not an object; left as it is`);
    const list = nodeAt(root, ['hooks', event]);
    if (!list) out = appendTo(out, hooks, { key: event, value: [group] });
    else if (list.type === 'array') out = appendTo(out, list, { value: group });
    else throw new Error(`${file}: "hooks.${event}" is not a list; left as it is`);
  }
  return out;
}

function reviewerAgent(l: Layout): string {
  const body = [
    `<!-- ${MARKER}: written by GSD Review Loop's hook install; uninstall-hooks removes it. -->`,
    'You are the reviewer of the GSD review loop. Your instructions name one task, one review cycle and one review file (`.gsd/milestones/…/tasks/T0n-CODE-REVIEW.md`).',
    '',
    '- Read the task plan, the task summary and the code the task changed; check them against the plan.',
    '- Write the review file in the format your instructions give: frontmatter `task`, `cycle`, `verdict`, then `## Issues` as checkbox items (unchecked = open), then `## Notes`.',
    '- Tick issues of the previous cycle that are fixed; keep the others open.',
    '- Do not edit any other file: fixes are the next cycle\'s work. A hook holds you to this during a review and asks the user before any terminal command.',
    '',
  ].join('\n');
  // No hooks in the agent file: those run only in a trusted folder (Claude Code) or once it is trusted
  // (Copilot CLI), and the project-level PreToolUse guards every review already.
  if (l.family === 'github') {
    return ['---', `name: ${REVIEWER_NAME}`, 'description: Reviews one finished GSD task and writes its CODE-REVIEW.md. Never edits code.', "tools: ['search', 'read', 'edit']", '---', body].join('\n');
  }
  return [
    '---',
    `name: ${REVIEWER_NAME}`,
    'description: Reviews one finished GSD task and writes its CODE-REVIEW.md. Use it when the GSD review loop asks for a review. Never edits code.',
    'tools: Read, Grep, Glob, Write, Edit, Bash',
    '---',
    body,
  ].join('\n');
}

/** Ours: it carries the marker, or it is the reviewer agent earlier versions wrote (no marker then). */
const ours = (text: string | null): boolean => text !== null && (text.includes(MARKER) || text.startsWith(`---\nname: ${REVIEWER_NAME}\n`) && text.includes('You are the reviewer of the GSD review loop.'));

function ownFile(file: string, text: string, read: ReadFile, purpose: string): FileChange | string {
  const before = read(file);
  if (before !== null && !ours(before)) return `${file} exists and is not ours; left as it is (remove or rename it to install)`;
  return { file, before, after: text, purpose };
}

export interface Plan {
  changes: FileChange[];
  /** Files left alone, with why. */
  skipped: string[];
  /** Worth saying, but nothing went wrong (GSD's MCP server not set up yet). */
  notes?: string[];
}

/** VS Code's agent gets GSD's workflow server where its prompts ask for its tools (workflow-mcp-server.ts). */
function wantsWorkflowServer(o: InstallOptions): boolean {
  return !o.user && o.host === 'vscode' && o.projectKind === 'gsd2-database';
}

function addWorkflowServer(o: InstallOptions, read: ReadFile, root: string | undefined, plan: Plan, remove: boolean): void {
  if (!wantsWorkflowServer(o)) return;
  const step = planWorkflowServer(o.root, read, remove);
  if (step.change) plan.changes.push(root ? { ...step.change, root } : step.change);
  if (step.skipped) plan.skipped.push(step.skipped);
  if (step.note) (plan.notes ??= []).push(step.note);
}

/**
 * A repository's files are as untrusted as its `.gsd`: each is read only when its real path stays in
 * the repository, and every change carries that boundary for the write.
 */
function bounded(o: InstallOptions, read: ReadFile): { read: ReadFile; root?: string } {
  if (o.user) return { read };
  return { read: (file) => (confineTo(o.root, file), read(file)), root: o.root };
}

export function planInstall(o: InstallOptions, unboundedRead: ReadFile): Plan {
  const l = layout(o);
  const { read, root } = bounded(o, unboundedRead);
  const changes: FileChange[] = [];
  const skipped: string[] = [];
  const add = (make: () => FileChange | string) => {
    let c: FileChange | string;
    try {
      c = make();
    } catch (error) {
      c = (error as Error).message;
    }
    if (typeof c === 'string') skipped.push(c);
    else if (c.before !== c.after) changes.push(root ? { ...c, root } : c);
  };
  // In this order (applyFileChanges keeps it): the launchers before the hook file that runs them, so
  // a host never finds a command naming a launcher that is not there yet (`sh` exits 2 on it, a block).
  add(() => ownFile(l.launcherSh, LAUNCHER_SH, read, 'launcher: finds this machine\'s gsd-review CLI and runs `gsd-review hook`'));
  if (l.launcherPs1) add(() => ownFile(l.launcherPs1!, LAUNCHER_PS1, read, 'launcher for Windows'));
  add(() => ownFile(l.agentFile, reviewerAgent(l), read, `the ${REVIEWER_NAME} agent, with the review guard (PreToolUse) for it alone`));
  if (l.family === 'github') {
    add(() => ownFile(l.hooksFile, githubHooksFile(l), read, `hooks for VS Code and Copilot CLI: ${INSTALLED_EVENTS.join(', ')}`));
  } else {
    add(() => {
      const before = read(l.hooksFile);
      return { file: l.hooksFile, before, after: withOurClaudeHooks(before, l, l.hooksFile), purpose: `Claude Code hooks merged in: ${INSTALLED_EVENTS.join(', ')}` };
    });
  }
  const plan: Plan = { changes, skipped };
  addWorkflowServer(o, read, root, plan, false);
  return plan;
}

export function planUninstall(o: InstallOptions, unboundedRead: ReadFile): Plan {
  const l = layout(o);
  const { read, root } = bounded(o, unboundedRead);
  const changes: FileChange[] = [];
  const skipped: string[] = [];
  const drop = (file: string, purpose: string) => {
    let before: string | null;
    try {
      before = read(file);
    } catch (error) {
      skipped.push((error as Error).message);
      return;
    }
    if (before === null) return;
    if (!ours(before)) skipped.push(`${file} is not ours; left as it is`);
    else changes.push({ file, before, after: null, purpose, ...(root ? { root } : {}) });
  };
  // The reverse order of an install: our entries leave the hook file first, the launchers they run
  // last, and only once the hook file runs none of them any more.
  const refusedBefore = skipped.length;
  if (l.family === 'github') drop(l.hooksFile, 'hooks for VS Code and Copilot CLI');
  else {
    try {
      const before = read(l.hooksFile);
      if (before !== null) {
        const after = withoutOurClaudeHooks(before, l.hooksFile);
        if (after !== before) changes.push({ file: l.hooksFile, before, after: isEmptySettings(after) && !isEmptySettings(before) ? null : after, purpose: 'our Claude Code hooks taken out', ...(root ? { root } : {}) });
      }
    } catch (error) {
      skipped.push((error as Error).message);
    }
  }
  const hookFileLeft = skipped.length > refusedBefore;
  drop(l.agentFile, `the ${REVIEWER_NAME} agent`);
  if (hookFileLeft) {
    skipped.push(`${l.launcherSh} left in place: ${l.hooksFile} may still run it`);
  } else {
    drop(l.launcherSh, 'launcher');
    if (l.launcherPs1) drop(l.launcherPs1, 'launcher for Windows');
  }
  const plan: Plan = { changes, skipped };
  addWorkflowServer(o, read, root, plan, true);
  return plan;
}

/** A settings file that holds nothing once our hooks are out: it was ours alone. */
function isEmptySettings(text: string): boolean {
  try {
    return Object.keys(JSON.parse(text) as object).length === 0;
  } catch {
    return false;
  }
}
