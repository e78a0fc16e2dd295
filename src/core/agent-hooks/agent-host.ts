// Which agent host runs this hook invocation, and so which answer shape it acts on
// (DESIGN.md section 5). Two facts tell it:
// - the file our command came from: the install writes `--host vscode|claude|copilot-cli` into it;
// - what the running host sends: VS Code's Copilot Chat puts `timestamp` into every payload
//   (microsoft/vscode-copilot-chat src/extension/chat/vscode-node/chatHookService.ts, commonInput),
//   as does Copilot CLI in its VS Code compatible format; Claude Code sends no `timestamp` and sets
//   CLAUDE_PROJECT_DIR for hook commands (Claude Code hooks reference, "Hook input" and
//   "Project-specific hook scripts").
// VS Code also reads `.claude/settings.json` (chat.hookFilesLocations), so a `--host claude` command
// can run under VS Code: then it answers as VS Code does, or stands aside when our `.github/hooks`
// entry runs the same event already (one bridge run per event).

import * as path from 'node:path';

/** Our `.github/hooks` file (VS Code, Copilot CLI), relative to the repository or the home folder's `.copilot/hooks`. */
export const GITHUB_HOOKS_FILE = path.join('.github', 'hooks', 'gsd-review-loop.json');

import { INSTALLED_EVENTS } from './agent-events';

export { INSTALLED_EVENTS };

export const AGENT_HOSTS = ['vscode', 'claude', 'copilot-cli'] as const;
export type AgentHost = (typeof AGENT_HOSTS)[number];

/**
 * The answer dialect: `github` for VS Code's Local agent, Copilot CLI and VS Code's Copilot harness,
 * which read the same `.github/hooks` files; `claude` for Claude Code.
 */
export type HostDialect = 'github' | 'claude';

export function isAgentHost(value: unknown): value is AgentHost {
  return typeof value === 'string' && (AGENT_HOSTS as readonly string[]).includes(value);
}

export interface RunningHost {
  dialect: HostDialect;
  /** The `--host` of the command, when the install wrote one. */
  origin: AgentHost | null;
}

/** Tells the running host from the payload, the environment and the command's `--host`. */
export function detectHost(raw: Record<string, unknown>, env: NodeJS.ProcessEnv, origin: AgentHost | null): RunningHost {
  const hasTimestamp = typeof raw.timestamp === 'string' || typeof raw.timestamp === 'number';
  if (hasTimestamp) return { dialect: 'github', origin };
  if (typeof env.CLAUDE_PROJECT_DIR === 'string' && env.CLAUDE_PROJECT_DIR !== '') return { dialect: 'claude', origin };
  // Claude Code's own spelling without its environment (a hand-run command): trust the install.
  if (origin === 'claude' || typeof raw.permission_mode === 'string') return { dialect: 'claude', origin };
  return { dialect: 'github', origin };
}

/**
 * True when this invocation repeats one the same host makes through another of our files: VS Code
 * running the `.claude/settings.json` entry for an event our `.github/hooks` file carries too. An
 * agent file's own hook (the reviewer's PreToolUse) runs only for that agent: never a repeat.
 */
export function isDuplicateRun(host: RunningHost, event: string, githubEntryInstalled: () => boolean): boolean {
  return host.origin === 'claude' && host.dialect === 'github' && (INSTALLED_EVENTS as readonly string[]).includes(event) && githubEntryInstalled();
}
