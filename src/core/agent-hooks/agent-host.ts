// Which agent host runs this hook invocation, and so which answer dialect it acts on (docs/agent-hooks.md:
// the three differ in how they read context and Stop answers). Three facts tell it:
// - the environment: Copilot CLI sets COPILOT_CLI=1 (and COPILOT_PROJECT_DIR, and CLAUDE_PROJECT_DIR
//   too) for every hook command it runs, from `.github/hooks` and from `.claude/settings.json` alike
//   (seen on Copilot CLI 1.0.102); Claude Code sets CLAUDE_PROJECT_DIR;
// - what the host sends: VS Code's Local agent puts an ISO `timestamp` into every payload
//   (vscode-copilot-chat chatHookService.ts, commonInput); Claude Code sends none;
// - the file our command came from: the install writes `--host vscode|claude|copilot-cli` into it.
//   VS Code and Copilot CLI both run the same `.github/hooks` entry (each takes `linux` before `bash`),
//   so `--host vscode` there names the file, not the host.
// A host that reads `.claude/settings.json` besides its own files (Copilot CLI always, VS Code with
// chat.useClaudeHooks) stands aside there when our `.github/hooks` file carries the same event.

import * as fs from 'node:fs';
import * as path from 'node:path';

/** Our `.github/hooks` file (VS Code, Copilot CLI), relative to the repository or the home folder's `.copilot/hooks`. */
export const GITHUB_HOOKS_FILE = path.join('.github', 'hooks', 'gsd-review-loop.json');

import { INSTALLED_EVENTS } from '../hooks/lifecycle/agent-events';

export { INSTALLED_EVENTS };

export const AGENT_HOSTS = ['vscode', 'claude', 'copilot-cli'] as const;
export type AgentHost = (typeof AGENT_HOSTS)[number];

/** The answer dialect: each host reads its own (docs/agent-hooks.md). */
export type HostDialect = AgentHost;

export function isAgentHost(value: unknown): value is AgentHost {
  return typeof value === 'string' && (AGENT_HOSTS as readonly string[]).includes(value);
}

export interface RunningHost {
  dialect: HostDialect;
  /** The `--host` of the command, when the install wrote one. */
  origin: AgentHost | null;
}

/** Tells the running host from the environment, the payload and the command's `--host`. */
export function detectHost(raw: Record<string, unknown>, env: NodeJS.ProcessEnv, origin: AgentHost | null): RunningHost {
  if (env.COPILOT_CLI === '1' || env.COPILOT_CLI === 'true') return { dialect: 'copilot-cli', origin };
  if (origin === 'copilot-cli') return { dialect: 'copilot-cli', origin };
  // Copilot CLI's camelCase payloads (SubagentStart) carry a numeric timestamp; VS Code's is ISO text.
  if (typeof raw.timestamp === 'number') return { dialect: 'copilot-cli', origin };
  if (typeof raw.timestamp === 'string') return { dialect: 'vscode', origin };
  if (typeof env.CLAUDE_PROJECT_DIR === 'string' && env.CLAUDE_PROJECT_DIR !== '') return { dialect: 'claude', origin };
  // Claude Code's own spelling without its environment (a hand-run command): trust the install.
  if (origin === 'claude' || typeof raw.permission_mode === 'string') return { dialect: 'claude', origin };
  // Nothing tells (a command run by hand, no `--host`): the top-level shape Claude Code and Copilot
  // CLI read for Stop, and the nested one for context.
  return { dialect: origin ?? 'claude', origin };
}

/** Whether our `.github/hooks` entry is installed: in the project, or for the user in `~/.copilot/hooks`. */
export function githubEntryInstalled(root: string, home: string): boolean {
  return fs.existsSync(path.join(root, GITHUB_HOOKS_FILE)) || fs.existsSync(path.join(home, '.copilot', 'hooks', path.basename(GITHUB_HOOKS_FILE)));
}

/**
 * True when this invocation repeats one the same host makes through another of our files: Copilot CLI
 * (or VS Code with chat.useClaudeHooks) running the `.claude/settings.json` entry for an event our
 * `.github/hooks` file carries too.
 */
export function isDuplicateRun(host: RunningHost, event: string, githubEntryInstalled: () => boolean): boolean {
  return host.origin === 'claude' && host.dialect !== 'claude' && (INSTALLED_EVENTS as readonly string[]).includes(event) && githubEntryInstalled();
}
