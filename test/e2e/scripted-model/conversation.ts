// The scripted model's view of one request, whatever API carried it: the system prompt, the
// conversation as a flat list of turns, the tools offered. Scripts decide the next turn from this, as
// a real model would, so every scenario reads the same shape for Claude Code (Anthropic Messages) and
// for Copilot CLI or VS Code (OpenAI chat completions).

export interface ToolCall {
  name: string;
  input: Record<string, unknown>;
  /** Made up by the server when the script gives none. */
  id?: string;
}

/** What the "model" answers: some text, and tool calls to make (none: the turn ends). */
export interface ScriptedTurn {
  text?: string;
  toolCalls?: ToolCall[];
  /** Wait this long before answering (a slow model: lets a host's other events happen first). */
  delayMs?: number;
}

export type Entry =
  | { role: 'user'; text: string }
  | { role: 'assistant'; text: string; toolCalls: ToolCall[] }
  | { role: 'tool'; toolCallId: string; toolName: string | null; text: string; isError: boolean };

export interface ModelRequest {
  api: 'anthropic' | 'openai';
  path: string;
  model: string;
  stream: boolean;
  system: string;
  entries: Entry[];
  /** Names of the tools offered. */
  tools: string[];
  /** The request body as received. */
  body: Record<string, unknown>;
  /** Milliseconds since the server started. */
  at: number;
  /** What the script answered (filled in once answered). */
  reply?: ScriptedTurn;
}

export type Script = (request: ModelRequest) => ScriptedTurn;

/** Everything the user side said (prompts, injected context, hook messages), oldest first. */
export function userTexts(request: ModelRequest): string[] {
  return request.entries.filter((e): e is Extract<Entry, { role: 'user' }> => e.role === 'user').map((e) => e.text);
}

/** The last tool result, if the conversation ends with tool results. */
export function lastToolResult(request: ModelRequest): Extract<Entry, { role: 'tool' }> | null {
  const last = request.entries[request.entries.length - 1];
  return last?.role === 'tool' ? last : null;
}

/** The tool calls the "model" made so far in this conversation, oldest first. */
export function toolCallsSoFar(request: ModelRequest): ToolCall[] {
  return request.entries.flatMap((e) => (e.role === 'assistant' ? e.toolCalls : []));
}

/** The whole request as one string (system, every turn, tool results), for `includes` tests. */
export function requestText(request: ModelRequest): string {
  return [request.system, ...request.entries.map((e) => (e.role === 'assistant' ? `${e.text}\n${JSON.stringify(e.toolCalls)}` : e.text))].join('\n');
}

/** Text of a content value that may be a string or a list of typed blocks. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((b) => {
        if (typeof b === 'string') return b;
        const block = b as Record<string, unknown>;
        if (typeof block.text === 'string') return block.text;
        if (block.content !== undefined) return textOf(block.content);
        return '';
      })
      .filter(Boolean)
      .join('\n');
  }
  return '';
}

let counter = 0;
export function callId(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter.toString(36)}`;
}
