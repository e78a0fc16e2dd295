// The Anthropic Messages side of the scripted model (Claude Code with ANTHROPIC_BASE_URL): reads a
// request into the shared conversation shape and writes the script's turn back, streamed as the
// Messages API's server-sent events (message_start … message_stop) or as one message object.
import type { ServerResponse } from 'node:http';
import { callId, textOf, type Entry, type ModelRequest, type ScriptedTurn, type ToolCall } from './conversation';

type Block = Record<string, unknown> & { type?: string };

export function readAnthropicRequest(body: Record<string, unknown>, path: string, at: number): ModelRequest {
  const entries: Entry[] = [];
  const names = new Map<string, string>();
  for (const m of (Array.isArray(body.messages) ? body.messages : []) as { role: string; content: unknown }[]) {
    const blocks: Block[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? (m.content as Block[]) : [];
    if (m.role === 'assistant') {
      const toolCalls: ToolCall[] = blocks
        .filter((b) => b.type === 'tool_use')
        .map((b) => {
          names.set(String(b.id), String(b.name));
          return { id: String(b.id), name: String(b.name), input: (b.input ?? {}) as Record<string, unknown> };
        });
      entries.push({ role: 'assistant', text: blocks.filter((b) => b.type === 'text').map((b) => String(b.text)).join('\n'), toolCalls });
      continue;
    }
    const texts: string[] = [];
    for (const b of blocks) {
      if (b.type === 'tool_result') {
        const id = String(b.tool_use_id);
        entries.push({ role: 'tool', toolCallId: id, toolName: names.get(id) ?? null, text: textOf(b.content), isError: b.is_error === true });
      } else if (b.type === 'text') texts.push(String(b.text));
    }
    if (texts.length) entries.push({ role: 'user', text: texts.join('\n') });
  }
  const tools = (Array.isArray(body.tools) ? body.tools : []).map((t) => (t as { name?: string }).name).filter((n): n is string => typeof n === 'string');
  return { api: 'anthropic', path, model: String(body.model ?? ''), stream: body.stream === true, system: textOf(body.system), entries, tools, body, at };
}

const USAGE = { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

function blocksOf(turn: ScriptedTurn): Block[] {
  const blocks: Block[] = [];
  if (turn.text || !turn.toolCalls?.length) blocks.push({ type: 'text', text: turn.text ?? '' });
  for (const c of turn.toolCalls ?? []) blocks.push({ type: 'tool_use', id: c.id ?? callId('toolu_'), name: c.name, input: c.input });
  return blocks;
}

export function writeAnthropicTurn(res: ServerResponse, request: ModelRequest, turn: ScriptedTurn): void {
  const id = callId('msg_');
  const blocks = blocksOf(turn);
  const stopReason = turn.toolCalls?.length ? 'tool_use' : 'end_turn';
  const message = { id, type: 'message', role: 'assistant', model: request.model, content: [] as Block[], stop_reason: null as string | null, stop_sequence: null, usage: USAGE };
  if (!request.stream) {
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': id });
    res.end(JSON.stringify({ ...message, content: blocks, stop_reason: stopReason }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'request-id': id });
  const event = (name: string, data: Record<string, unknown>) => res.write(`event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`);
  event('message_start', { message });
  blocks.forEach((b, index) => {
    if (b.type === 'text') {
      event('content_block_start', { index, content_block: { type: 'text', text: '' } });
      if (b.text) event('content_block_delta', { index, delta: { type: 'text_delta', text: b.text } });
    } else {
      event('content_block_start', { index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } });
      event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) } });
    }
    event('content_block_stop', { index });
  });
  event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: USAGE.output_tokens } });
  event('message_stop', {});
  res.end();
}

/** `POST /v1/messages/count_tokens`: a plausible count; nothing depends on it. */
export function writeAnthropicTokenCount(res: ServerResponse, body: Record<string, unknown>): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ input_tokens: Math.ceil(JSON.stringify(body).length / 4) }));
}
