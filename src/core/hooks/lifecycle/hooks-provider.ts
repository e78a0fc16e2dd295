// Lifecycle hooks (docs/architecture.md, "The hook contract"): one interface, every method optional, each
// with its own input and output type (no single global decision type).
import type { AGENT_EVENTS, HookEvent, ProviderMethod } from './agent-events';
import { classifyToolCall } from './edit-tools';
import type { AfterDispatchOutcome, DispatchOutcome } from '../../dispatch/dispatch-outcome';
import type { DispatchRecord } from '../../dispatch/dispatch-record';
import type { GSDState } from '../../model/types';

/**
 * What a lifecycle hook may do to the project, through the host (narrow, host-made
 * handles; no raw writers). Present when hooks run through the agent-hook bridge.
 */
export interface LifecycleHost {
  readonly root: string;
  readonly gsdDir: string;
  /** The derived state (read once per invocation). */
  state(): GSDState;
  /** The unit recorded as dispatched and not yet completed. */
  currentUnit(): DispatchRecord | null;
  /** What would be dispatched next, hooks included, without writing. */
  preview(): Promise<DispatchOutcome>;
  /** Dispatches the next unit: commits hook state and records it. */
  dispatch(): Promise<DispatchOutcome>;
  /** Completes the recorded unit (afterDispatch); null when none is waiting. */
  complete(): Promise<AfterDispatchOutcome | null>;
  /** A file inside `.gsd` (relative path); null when missing or outside. */
  readGsdFile(relativePath: string): string | null;
  /** Creates a file inside `.gsd` atomically; false when it already exists. Never overwrites. */
  createGsdFile(relativePath: string, text: string): boolean;
  /** Small JSON state of the bridge itself, kept in our runtime folder (`.gsd/gsd-review-loop/`). */
  runtimeGet<T>(key: string): T | undefined;
  runtimeSet(key: string, value: unknown): void;
  /** A hook's options from PREFERENCES.md. */
  options(hook: string): Readonly<Record<string, unknown>>;
  log(message: string): void;
}

/** What every lifecycle hook gets besides its own input. */
export interface HookContext {
  sessionId: string;
  /** The project root (the folder with `.gsd`). */
  root: string;
  cwd: string;
  timestamp: string;
  transcriptPath?: string;
  /** The agent (or subagent) type when the event says it. */
  agentType?: string;
  host?: LifecycleHost;
}

export interface SessionStartInput {
  source?: string;
}
export interface SessionStartOutput {
  additionalContext?: string;
}

export interface UserPromptSubmittedInput {
  prompt: string;
}
export interface UserPromptSubmittedOutput {
  additionalContext?: string;
  /** Refuse the prompt, with the reason shown to the user. */
  block?: { reason: string };
}

export interface PreToolUseInput {
  toolName: string;
  toolInput: Record<string, unknown>;
  /** The subagent making the call, when the host says (Claude Code, Copilot CLI). */
  agentType?: string;
}
export interface PreToolUseOutput {
  permissionDecision: 'allow' | 'ask' | 'deny';
  reason?: string;
  additionalContext?: string;
}

export interface PostToolUseInput {
  toolName: string;
  toolInput: Record<string, unknown>;
  toolResponse: unknown;
}
export interface PostToolUseOutput {
  additionalContext?: string;
  /** Tell the model the tool result is not acceptable, with the reason. */
  block?: { reason: string };
}

export interface SessionEndInput {
  reason?: string;
}

export interface ErrorOccurredInput {
  error: string;
  errorType?: string;
}
export interface ErrorOccurredOutput {
  retry: boolean;
  additionalContext?: string;
}

export interface PreCompactInput {
  trigger: 'auto' | 'manual';
  customInstructions?: string;
}
export interface PreCompactOutput {
  systemMessage?: string;
  /** Files written to keep state across the compaction, for the log. */
  savedFiles?: string[];
}

export interface SubagentStartInput {
  agentId: string;
  agentType: string;
}
export interface SubagentStartOutput {
  additionalContext?: string;
}

export interface SubagentStopInput {
  agentId: string;
  agentType: string;
  stopHookActive: boolean;
}
export interface StopInput {
  stopHookActive: boolean;
}
/** Stop and SubagentStop: `block` keeps the agent working, with the reason as its next instruction. */
export interface StopOutput {
  decision: 'block' | 'allow';
  reason?: string;
  systemMessage?: string;
}

export interface HooksProvider {
  readonly name?: string;
  onSessionStart?(input: SessionStartInput, ctx: HookContext): Promise<SessionStartOutput | null>;
  onUserPromptSubmitted?(input: UserPromptSubmittedInput, ctx: HookContext): Promise<UserPromptSubmittedOutput | null>;
  onPreToolUse?(input: PreToolUseInput, ctx: HookContext): Promise<PreToolUseOutput | null>;
  onPostToolUse?(input: PostToolUseInput, ctx: HookContext): Promise<PostToolUseOutput | null>;
  onSessionEnd?(input: SessionEndInput, ctx: HookContext): Promise<void>;
  onErrorOccurred?(input: ErrorOccurredInput, ctx: HookContext): Promise<ErrorOccurredOutput | null>;
  onPreCompact?(input: PreCompactInput, ctx: HookContext): Promise<PreCompactOutput | null>;
  onSubagentStart?(input: SubagentStartInput, ctx: HookContext): Promise<SubagentStartOutput | null>;
  onSubagentStop?(input: SubagentStopInput, ctx: HookContext): Promise<StopOutput | null>;
  onStop?(input: StopInput, ctx: HookContext): Promise<StopOutput | null>;
}

/** The methods whose answer the host acts on, and the one that answers nothing (agent-events.ts). */
export type VoidMethod = { [E in HookEvent]: (typeof AGENT_EVENTS)[E]['answer'] extends 'none' ? (typeof AGENT_EVENTS)[E]['method'] : never }[HookEvent];
export type DecisionMethod = Exclude<ProviderMethod, VoidMethod>;

export interface DefaultProviderOptions {
  /** A short summary of the project (phase, next unit, pending actions) for session context, or null. */
  describeProject(): Promise<string | null> | string | null;
  /** True for a path the agent must not write (our own runtime records). */
  isProtectedPath(path: string): boolean;
}

/**
 * The built-in behaviour every session gets: the GSD state as session context, and our runtime
 * records (dispatch log, hook log) kept out of the agent's edits. Built-in hooks (review loop,
 * pending actions) put their own providers in front of this one.
 */
export class DefaultHooksProvider implements HooksProvider {
  readonly name = 'default';

  constructor(private readonly options: DefaultProviderOptions) {}

  async onSessionStart(): Promise<SessionStartOutput | null> {
    const summary = await this.options.describeProject();
    return summary ? { additionalContext: summary } : null;
  }

  /** Each prompt carries the current state too: the agent's own memory of it may be stale. */
  async onUserPromptSubmitted(): Promise<UserPromptSubmittedOutput | null> {
    const summary = await this.options.describeProject();
    return summary ? { additionalContext: summary } : null;
  }

  async onPreToolUse(input: PreToolUseInput): Promise<PreToolUseOutput | null> {
    const call = classifyToolCall(input.toolName, input.toolInput);
    if (call.kind !== 'edit' && call.kind !== 'unknown-edit') return null;
    const blocked = call.paths.find((p) => this.options.isProtectedPath(p));
    return blocked
      ? { permissionDecision: 'deny', reason: `${blocked} is GSD Review Loop's own record of dispatched units; it is written by gsd-review, not by hand.` }
      : null;
  }
}
