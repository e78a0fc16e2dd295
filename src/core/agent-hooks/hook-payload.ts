// The agent-hook wire format (docs/agent-hooks.md): one JSON object on stdin, one on stdout. VS Code
// builds and Claude Code spell fields differently (`hook_event_name` / `hookEventName`, …); this
// module reads both and writes the shape each event accepts. Anything it cannot read is `null`,
// never an exception.
import type {
  ErrorOccurredInput,
  PostToolUseInput,
  PreCompactInput,
  PreToolUseInput,
  SessionEndInput,
  SessionStartInput,
  StopInput,
  SubagentStartInput,
  SubagentStopInput,
  UserPromptSubmittedInput,
} from '../hooks/lifecycle/hooks-provider';
import type { HostDialect } from './agent-host';
import { AGENT_EVENTS, eventName, type HookEvent } from '../hooks/lifecycle/agent-events';

export { eventName, HOOK_EVENTS, type HookEvent } from '../hooks/lifecycle/agent-events';

export type EventInput =
  | { event: 'SessionStart'; input: SessionStartInput }
  | { event: 'UserPromptSubmit'; input: UserPromptSubmittedInput }
  | { event: 'PreToolUse'; input: PreToolUseInput }
  | { event: 'PostToolUse'; input: PostToolUseInput }
  | { event: 'PreCompact'; input: PreCompactInput }
  | { event: 'SubagentStart'; input: SubagentStartInput }
  | { event: 'SubagentStop'; input: SubagentStopInput }
  | { event: 'Stop'; input: StopInput }
  | { event: 'SessionEnd'; input: SessionEndInput }
  | { event: 'ErrorOccurred'; input: ErrorOccurredInput };

export type NormalizedPayload = EventInput & {
  sessionId: string;
  cwd: string | null;
  transcriptPath: string | null;
  timestamp: string;
  /** The payload as the host sent it (which host it is shows in its fields). */
  raw: Record<string, unknown>;
};

type Raw = Record<string, unknown>;

/**
 * The fields a payload names its agent in, in every host's spelling (the guard holds a reviewer by
 * this name). The hook launcher's shell fast path sends every payload holding one of them to the
 * bridge, so both read an agent from the same fields.
 */
export const AGENT_TYPE_FIELDS = ['agent_type', 'agentType', 'agentName', 'subagent_type'] as const;

/** First field present as a string, under any of its spellings. */
function str(raw: Raw, ...names: string[]): string | null {
  for (const n of names) {
    const v = raw[n];
    if (typeof v === 'string') return v;
  }
  return null;
}

function bool(raw: Raw, ...names: string[]): boolean {
  for (const n of names) {
    const v = raw[n];
    if (typeof v === 'boolean') return v;
    if (v === 'true') return true;
  }
  return false;
}

function record(raw: Raw, ...names: string[]): Record<string, unknown> {
  for (const n of names) {
    const v = raw[n];
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    if (typeof v === 'string') {
      try {
        const parsed = JSON.parse(v) as unknown;
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
      } catch {
        // not JSON text: no tool input
      }
    }
  }
  return {};
}

/**
 * The event a payload is for: its own name (`hook_event_name`, `hookEventName`), else the `--event`
 * the installed command names (Copilot CLI's SubagentStart payload carries none). A Stop that names
 * an agent (`agent_id`, `parent_agent_id`, or an agent type other than `default`) is that subagent
 * stopping (Copilot CLI fires Stop inside subagents): it is read as SubagentStop, never as the main
 * agent's Stop.
 */
export function eventOf(raw: Raw, fallbackEvent?: string | null): HookEvent | null {
  const event = eventName(str(raw, 'hook_event_name', 'hookEventName', 'event')) ?? eventName(fallbackEvent ?? null);
  if (event === 'Stop' && isSubagentPayload(raw)) return 'SubagentStop';
  return event;
}

function isSubagentPayload(raw: Raw): boolean {
  const id = str(raw, 'agent_id', 'agentId', 'parent_agent_id', 'parentAgentId');
  const type = str(raw, 'agent_type', 'agentType', 'agentName');
  return (id !== null && id !== '') || (type !== null && type !== '' && type !== 'default');
}

/** A numeric timestamp (Copilot CLI's camelCase payloads, ms) as ISO text. */
function timestampOf(raw: Raw): string {
  const t = raw.timestamp;
  if (typeof t === 'string') return t;
  if (typeof t === 'number' && Number.isFinite(t)) {
    const d = new Date(t);
    if (!Number.isNaN(d.getTime())) return d.toISOString();
  }
  return new Date().toISOString();
}

/** Reads a payload; null when it is not a hook payload we know (wrong JSON, unknown event). */
export function normalizePayload(text: string, fallbackEvent?: string): NormalizedPayload | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const r = raw as Raw;
  const event = eventOf(r, fallbackEvent);
  if (!event) return null;
  const common = {
    sessionId: str(r, 'session_id', 'sessionId') ?? 'unknown',
    cwd: str(r, 'cwd'),
    transcriptPath: str(r, 'transcript_path', 'transcriptPath'),
    timestamp: timestampOf(r),
    raw: r,
  };
  const toolName = str(r, 'tool_name', 'toolName') ?? '';
  const toolInput = record(r, 'tool_input', 'toolInput', 'toolArgs');
  const agentId = str(r, 'agent_id', 'agentId') ?? '';
  const agentType = str(r, ...AGENT_TYPE_FIELDS) ?? '';
  const stopHookActive = bool(r, 'stop_hook_active', 'stopHookActive');
  switch (event) {
    case 'SessionStart':
      return { ...common, event, input: { ...(str(r, 'source') ? { source: str(r, 'source')! } : {}) } };
    case 'UserPromptSubmit':
      return { ...common, event, input: { prompt: str(r, 'prompt', 'userPrompt') ?? '' } };
    case 'PreToolUse':
      // Inside a subagent Claude Code and Copilot CLI name it (`agent_type`): the guard holds a reviewer whatever the loop's state.
      return { ...common, event, input: { toolName, toolInput, ...(agentType ? { agentType } : {}) } };
    case 'PostToolUse':
      return { ...common, event, input: { toolName, toolInput, toolResponse: r.tool_response ?? r.toolResponse ?? null } };
    case 'PreCompact': {
      const trigger = str(r, 'trigger') === 'manual' ? 'manual' : 'auto';
      const custom = str(r, 'custom_instructions', 'customInstructions');
      return { ...common, event, input: { trigger, ...(custom ? { customInstructions: custom } : {}) } };
    }
    case 'SubagentStart':
      return { ...common, event, input: { agentId, agentType } };
    case 'SubagentStop':
      return { ...common, event, input: { agentId, agentType, stopHookActive } };
    case 'Stop':
      return { ...common, event, input: { stopHookActive } };
    case 'SessionEnd':
      return { ...common, event, input: { ...(str(r, 'reason') ? { reason: str(r, 'reason')! } : {}) } };
    case 'ErrorOccurred':
      return { ...common, event, input: { error: str(r, 'error', 'message') ?? '', ...(str(r, 'error_type', 'errorType') ? { errorType: str(r, 'error_type', 'errorType')! } : {}) } };
  }
}

type Answer = Record<string, unknown> | null | undefined | void;

/**
 * The JSON the running host acts on for this event's answer; null means "print nothing" (proceed as
 * usual). Each host reads its own dialect (docs/agent-hooks.md, from the hosts' shipped code):
 * - context (SessionStart, SubagentStart, UserPromptSubmit): VS Code and Claude Code read
 *   `hookSpecificOutput.additionalContext`; Copilot CLI reads only a top-level `additionalContext`
 *   and drops the nested one.
 * - Stop / SubagentStop: VS Code keeps the agent working only for `hookSpecificOutput{decision:
 *   "block", reason}`; Claude Code and Copilot CLI read a top-level `decision` + non-empty `reason`
 *   (Claude Code refuses `hookSpecificOutput` on Stop).
 * - PreCompact: Claude Code appends stdout to the compaction instructions and shows it to the user,
 *   so it gets nothing; the hook acts through the checkpoint file.
 * - PreToolUse: `hookSpecificOutput.permissionDecision` everywhere (`hookEventName` must match).
 */
export function formatAnswer(event: HookEvent, answer: Answer, dialect: HostDialect): Record<string, unknown> | null {
  if (!answer) return null;
  const a = answer as Record<string, unknown>;
  const system = typeof a.systemMessage === 'string' ? { systemMessage: a.systemMessage } : {};
  const context = (name: HookEvent) => {
    if (typeof a.additionalContext !== 'string' || !a.additionalContext) return {};
    return dialect === 'copilot-cli' ? { additionalContext: a.additionalContext } : { hookSpecificOutput: { hookEventName: name, additionalContext: a.additionalContext } };
  };
  switch (AGENT_EVENTS[event].answer) {
    case 'context': {
      const out = { ...context(event), ...system };
      return Object.keys(out).length ? out : null;
    }
    case 'context-or-block': {
      const block = a.block as { reason?: string } | undefined;
      if (block) return { decision: 'block', reason: block.reason || 'Blocked by GSD Review Loop', ...system };
      const out = { ...context(event), ...system };
      return Object.keys(out).length ? out : null;
    }
    case 'permission':
      return {
        hookSpecificOutput: {
          hookEventName: event,
          permissionDecision: a.permissionDecision,
          ...(a.reason ? { permissionDecisionReason: a.reason } : {}),
          ...(a.additionalContext ? { additionalContext: a.additionalContext } : {}),
        },
        ...system,
      };
    case 'stop':
      if (a.decision === 'block') {
        const reason = typeof a.reason === 'string' && a.reason ? a.reason : 'GSD Review Loop has more work for this task.';
        if (dialect === 'vscode') return { hookSpecificOutput: { hookEventName: event, decision: 'block', reason }, ...system };
        return { decision: 'block', reason, ...system };
      }
      return Object.keys(system).length ? system : null;
    case 'ignored':
      if (event === 'PreCompact' && dialect === 'claude') return null;
      return Object.keys(system).length ? system : null;
    case 'none':
      return Object.keys(system).length ? system : null;
  }
}
