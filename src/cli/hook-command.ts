// `gsd-review hook`: one agent-hook payload on stdin, the answer on stdout. Exit 0 always: our own
// trouble (bad JSON, no .gsd, a failing hook) must never block the agent. A deliberate block is
// said in the JSON (`decision: "block"`, `permissionDecision: "deny"`), which every host honours.
import { isAgentHost } from '../core/agent-hooks/agent-host';
import { HOOK_PAYLOAD, hookCacheContext } from '../core/agent-hooks/answer-cache';
import { runAgentHook } from '../core/agent-hooks/hook-bridge';
import { MAX_PAYLOAD_BYTES, UNREAD_PAYLOAD_NOTE, unreadPayloadAnswer } from '../core/agent-hooks/fail-closed';
import type { BuiltinHook } from '../core/hooks/loading/hook-loader';
import { writeAnswer } from './process-exit';
import { readStdinBounded } from './read-stdin';

export interface HookCliOptions {
  root?: string;
  event?: string;
  /** `--host`: which of our hook files runs this (written by the install). */
  host?: string;
  trusted: boolean;
  builtins: readonly BuiltinHook[];
}

export async function runHookCommand(o: HookCliOptions): Promise<number> {
  // dist/hook.js has read the payload already when it hands over to the full CLI.
  const handed = (globalThis as Record<symbol, unknown>)[HOOK_PAYLOAD];
  const text = typeof handed === 'string' ? (handed.length > MAX_PAYLOAD_BYTES ? null : handed) : await readStdinBounded(MAX_PAYLOAD_BYTES);
  const host = isAgentHost(o.host) ? o.host : null;
  if (text === null) {
    // The small entry's rule: a tool call during a review is asked, not let through unread.
    process.stderr.write(UNREAD_PAYLOAD_NOTE);
    const output = unreadPayloadAnswer(o.event, o.root ?? null, host, process.env);
    if (output) writeAnswer(JSON.stringify(output) + '\n');
    return 0;
  }
  const result = await runAgentHook(text, { builtins: o.builtins, trusted: o.trusted, host, cacheContext: hookCacheContext(o.root, !o.trusted), ...(o.root ? { root: o.root } : {}) }, o.event);
  for (const w of result.warnings ?? []) process.stderr.write(`gsd-review hook: ${w}\n`);
  if (result.error) process.stderr.write(`gsd-review hook: ${result.event}: ${result.error} (answered nothing)\n`);
  if (result.output) writeAnswer(JSON.stringify(result.output) + '\n');
  return 0;
}
