// Reading what a host did from the requests the scripted model received: which conversation each
// request belongs to (main agent or reviewer), the hook messages the host fed its model, the tool
// results it reported, and a short transcript to print under each scenario.
import { lastToolResult, type Entry, type ModelRequest } from '../scripted-model/conversation';
import { isReviewer } from './review-loop-script';

export type Who = 'main' | 'reviewer';

const who = (r: ModelRequest): Who => (isReviewer(r) ? 'reviewer' : 'main');

/** A compaction request (both hosts ask for "a detailed summary of the conversation"). */
export function isCompaction(r: ModelRequest): boolean {
  const last = r.entries[r.entries.length - 1];
  return last?.role === 'user' && /detailed summary of the conversation/i.test(last.text);
}

/**
 * The conversations, each as its longest request: a request that does not extend the one before
 * of the same agent starts a new conversation (a new reviewer, a new session).
 */
export function conversations(requests: ModelRequest[], agent: Who): ModelRequest[] {
  const out: ModelRequest[] = [];
  for (const r of requests.filter((q) => who(q) === agent && !isCompaction(q))) {
    const prev = out[out.length - 1];
    if (prev && r.entries.length > prev.entries.length && sameStart(prev, r)) out[out.length - 1] = r;
    else out.push(r);
  }
  return out;
}

function sameStart(a: ModelRequest, b: ModelRequest): boolean {
  const first = (r: ModelRequest) => JSON.stringify(r.entries.find((e) => e.role === 'user') ?? null);
  return first(a) === first(b);
}

/**
 * Hook messages the host fed its model, one per hook answer: the user-side texts between two model
 * turns, taken together (Claude Code sends a Stop block as two user messages: a system reminder and
 * "Stop hook blocking error …"), where one of our hooks wrote them ("GSD review loop:").
 */
export function hookMessages(conversation: ModelRequest): string[] {
  const groups: string[][] = [[]];
  for (const e of conversation.entries) {
    if (e.role === 'user') groups[groups.length - 1].push(e.text);
    else if (groups[groups.length - 1].length) groups.push([]);
  }
  return groups.map((g) => g.join('\n')).filter((t) => t.includes('GSD review loop:'));
}

/** Tool results of a conversation, with the call they answer. */
export function toolResults(conversation: ModelRequest): { name: string; input: Record<string, unknown>; text: string; isError: boolean }[] {
  const calls = new Map<string, { name: string; input: Record<string, unknown> }>();
  for (const e of conversation.entries) if (e.role === 'assistant') for (const c of e.toolCalls) calls.set(c.id ?? '', c);
  return conversation.entries
    .filter((e): e is Extract<Entry, { role: 'tool' }> => e.role === 'tool')
    .map((e) => ({ ...(calls.get(e.toolCallId) ?? { name: e.toolName ?? '?', input: {} }), text: e.text, isError: e.isError }));
}

const oneLine = (s: string, n = 110) => {
  const t = s.replace(/<current_datetime>.*?<\/current_datetime>/gs, '').replace(/\s+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n)}…` : t;
};

/** One line per model request: whose, what it answered (the last thing the host sent), what the model did. */
export function transcript(requests: ModelRequest[]): string[] {
  return requests.map((r) => {
    const agent = isCompaction(r) ? 'compaction' : who(r);
    const result = lastToolResult(r);
    const last = r.entries[r.entries.length - 1];
    const got = result
      ? `${result.toolName ?? 'tool'} result: ${oneLine(result.text, 90)}`
      : last?.role === 'user'
        ? `said: ${oneLine(last.text.replace(/^[\s\S]*?(GSD review loop:|Stop hook feedback:)/, '$1'), 90)}`
        : '(start)';
    const reply = r.reply?.toolCalls?.length ? `calls ${r.reply.toolCalls.map((c) => c.name).join(', ')}` : `ends: ${oneLine(r.reply?.text ?? '', 50)}`;
    return `${agent.padEnd(10)} ← ${got}\n${' '.repeat(11)}→ ${reply}`;
  });
}
