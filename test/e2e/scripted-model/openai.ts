// The OpenAI chat-completions side of the scripted model (Copilot CLI's bring-your-own-model
// provider, VS Code's `customendpoint` models): reads a request into the shared conversation shape and
// writes the script's turn back, streamed as `chat.completion.chunk` events or as one JSON object.
import type { ServerResponse } from 'node:http';
import { callId, textOf, type Entry, type ModelRequest, type ScriptedTurn, type ToolCall } from './conversation';

interface OpenAiMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
  name?: string;
}

function parseArguments(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : { value: v };
  } catch {
    return { raw: text };
  }
}

export function readOpenAiRequest(body: Record<string, unknown>, path: string, at: number): ModelRequest {
  const messages = (Array.isArray(body.messages) ? body.messages : []) as OpenAiMessage[];
  const system: string[] = [];
  const entries: Entry[] = [];
  const names = new Map<string, string>();
  for (const m of messages) {
    if (m.role === 'system' || m.role === 'developer') system.push(textOf(m.content));
    else if (m.role === 'user') entries.push({ role: 'user', text: textOf(m.content) });
    else if (m.role === 'assistant') {
      const toolCalls: ToolCall[] = (m.tool_calls ?? []).map((c) => {
        names.set(c.id, c.function.name);
        return { id: c.id, name: c.function.name, input: parseArguments(c.function.arguments) };
      });
      entries.push({ role: 'assistant', text: textOf(m.content), toolCalls });
    } else if (m.role === 'tool') {
      const id = m.tool_call_id ?? '';
      entries.push({ role: 'tool', toolCallId: id, toolName: names.get(id) ?? null, text: textOf(m.content), isError: false });
    }
  }
  const tools = (Array.isArray(body.tools) ? body.tools : [])
    .map((t) => (t as { function?: { name?: string }; name?: string }).function?.name ?? (t as { name?: string }).name)
    .filter((n): n is string => typeof n === 'string');
  return { api: 'openai', path, model: String(body.model ?? ''), stream: body.stream === true, system: system.join('\n\n'), entries, tools, body, at };
}

function usage() {
  return { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };
}

/** Writes the turn as the API answers: SSE chunks when the request streamed, else one completion. */
export function writeOpenAiTurn(res: ServerResponse, request: ModelRequest, turn: ScriptedTurn): void {
  const id = callId('chatcmpl-');
  const created = Math.floor(Date.now() / 1000);
  const calls = (turn.toolCalls ?? []).map((c) => ({ id: c.id ?? callId('call_'), type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.input) } }));
  const finish = calls.length ? 'tool_calls' : 'stop';
  if (!request.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({
      id, object: 'chat.completion', created, model: request.model,
      choices: [{ index: 0, message: { role: 'assistant', content: turn.text ?? (calls.length ? null : ''), ...(calls.length ? { tool_calls: calls } : {}) }, finish_reason: finish }],
      usage: usage(),
    }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const chunk = (delta: Record<string, unknown>, finishReason: string | null, extra: Record<string, unknown> = {}) =>
    res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: request.model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`);
  chunk({ role: 'assistant', content: '' }, null);
  if (turn.text) chunk({ content: turn.text }, null);
  calls.forEach((c, index) => {
    chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } }] }, null);
    chunk({ tool_calls: [{ index, function: { arguments: c.function.arguments } }] }, null);
  });
  chunk({}, finish, { usage: usage() });
  res.write('data: [DONE]\n\n');
  res.end();
}

/** `GET /v1/models`: the one model the server plays. */
export function writeOpenAiModels(res: ServerResponse, model: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: 'scripted', capabilities: { supports: { tool_calls: true, streaming: true } } }] }));
}
