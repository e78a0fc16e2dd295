// The agent events, once (docs/agent-hooks.md): which lifecycle method answers each, what shape of
// answer the host acts on, which hosts send it, whether our hook files install it, and which payload
// fields an answer depends on (for the answer cache). The bridge, the payload reader, the providers'
// method names, the installer and the answer cache all read this table.

/** What the host does with our answer. */
export type AnswerShape =
  /** `hookSpecificOutput.additionalContext` is added to the model's context. */
  | 'context'
  /** Context as above, or `decision: "block"` + `reason` refusing the prompt or the tool result. */
  | 'context-or-block'
  /** `permissionDecision` allow/ask/deny, most restrictive wins. */
  | 'permission'
  /** `decision: "block"` + `reason` keeps the agent working. */
  | 'stop'
  /** Only `systemMessage` is shown (PreCompact's output is otherwise ignored); the hook acts through files. */
  | 'ignored'
  /** The method returns nothing. */
  | 'none';

export type AgentHostName = 'vscode' | 'claude' | 'copilot-cli';

export interface AgentEventSpec {
  /** The HooksProvider method that answers it. */
  readonly method: string;
  readonly answer: AnswerShape;
  /** Hosts that send it (docs/agent-hooks.md; Copilot CLI also spells names in camelCase). */
  readonly hosts: readonly AgentHostName[];
  /**
   * Carried by our `.github/hooks` and `.claude/settings.json` entries. PreToolUse (the review guard)
   * is one of them, not an agent-file hook: agent-file hooks run only in a trusted folder in Claude
   * Code and are deferred until then in Copilot CLI, and the guard must hold everywhere.
   */
  readonly installed: boolean;
  /** Only for our reviewer subagent (Claude Code's matcher is the agent type). */
  readonly reviewerOnly: boolean;
  /**
   * Payload fields the answer depends on besides the project's files (both spellings), or null when
   * the answer is never cached.
   */
  readonly cacheKey: readonly string[] | null;
}

const ALL: readonly AgentHostName[] = ['vscode', 'claude', 'copilot-cli'];

export const AGENT_EVENTS = {
  SessionStart: { method: 'onSessionStart', answer: 'context', hosts: ALL, installed: true, reviewerOnly: false, cacheKey: ['source'] },
  UserPromptSubmit: { method: 'onUserPromptSubmitted', answer: 'context-or-block', hosts: ALL, installed: true, reviewerOnly: false, cacheKey: [] },
  PreToolUse: {
    method: 'onPreToolUse',
    answer: 'permission',
    hosts: ALL,
    installed: true,
    reviewerOnly: false,
    cacheKey: ['tool_name', 'toolName', 'tool_input', 'toolInput', 'toolArgs', 'cwd', 'agent_type', 'agentType'],
  },
  PostToolUse: { method: 'onPostToolUse', answer: 'context-or-block', hosts: ALL, installed: false, reviewerOnly: false, cacheKey: ['tool_name', 'toolName', 'tool_input', 'toolInput', 'cwd'] },
  PreCompact: { method: 'onPreCompact', answer: 'ignored', hosts: ALL, installed: true, reviewerOnly: false, cacheKey: null },
  SubagentStart: { method: 'onSubagentStart', answer: 'context', hosts: ALL, installed: true, reviewerOnly: true, cacheKey: ['agent_type', 'agentType', 'agentName', 'agent_id', 'agentId'] },
  SubagentStop: {
    method: 'onSubagentStop',
    answer: 'stop',
    hosts: ALL,
    installed: true,
    reviewerOnly: true,
    cacheKey: ['agent_type', 'agentType', 'agentName', 'agent_id', 'agentId', 'stop_hook_active', 'stopHookActive', 'session_id', 'sessionId'],
  },
  Stop: { method: 'onStop', answer: 'stop', hosts: ALL, installed: true, reviewerOnly: false, cacheKey: ['stop_hook_active', 'stopHookActive', 'session_id', 'sessionId'] },
  SessionEnd: { method: 'onSessionEnd', answer: 'none', hosts: ['claude', 'copilot-cli'], installed: false, reviewerOnly: false, cacheKey: null },
  ErrorOccurred: { method: 'onErrorOccurred', answer: 'ignored', hosts: ['copilot-cli'], installed: false, reviewerOnly: false, cacheKey: null },
} as const satisfies Record<string, AgentEventSpec>;

export type HookEvent = keyof typeof AGENT_EVENTS;
export type ProviderMethod = (typeof AGENT_EVENTS)[HookEvent]['method'];

export const HOOK_EVENTS = Object.keys(AGENT_EVENTS) as HookEvent[];
export const PROVIDER_METHODS: readonly ProviderMethod[] = HOOK_EVENTS.map((e) => AGENT_EVENTS[e].method);

/** The events our hook files carry. */
export const INSTALLED_EVENTS: readonly HookEvent[] = HOOK_EVENTS.filter((e) => AGENT_EVENTS[e].installed);

function squash(name: string): string {
  return name.replace(/[_\s-]/g, '').toLowerCase();
}

/**
 * Every spelling hosts use (`Stop`, `stop`, `userPromptSubmitted`, `subagent_stop`) → the event. Made
 * on first use: built at load, it ran at every `gsd-review` start, `next` and `state` included, which
 * never ask for an event name.
 */
let aliases: Map<string, HookEvent> | undefined;

export function eventName(value: string | null): HookEvent | null {
  aliases ??= new Map(HOOK_EVENTS.flatMap((e) => [[squash(e), e] as const, [squash(AGENT_EVENTS[e].method.replace(/^on/, '')), e] as const]));
  return value ? (aliases.get(squash(value)) ?? null) : null;
}
