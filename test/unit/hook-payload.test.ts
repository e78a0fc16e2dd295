import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { eventName, formatAnswer, normalizePayload } from '../../src/core/agent-hooks/hook-payload';

describe('agent-hook payloads', () => {
  it('reads both field spellings to the same input', () => {
    const claude = normalizePayload(JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd: '/p', tool_name: 'Edit', tool_input: { file_path: 'a.ts' } }));
    const vscode = normalizePayload(JSON.stringify({ hookEventName: 'PreToolUse', sessionId: 's', cwd: '/p', toolName: 'Edit', toolInput: { file_path: 'a.ts' }, timestamp: 't' }));
    assert.deepEqual(claude?.input, { toolName: 'Edit', toolInput: { file_path: 'a.ts' } });
    assert.deepEqual(vscode?.input, claude?.input);
    assert.equal(vscode?.sessionId, 's');
  });

  it('reads tool input given as JSON text, stop_hook_active, agent fields and the compaction trigger', () => {
    assert.deepEqual(normalizePayload(JSON.stringify({ hookEventName: 'PreToolUse', toolInput: '{"path":"x"}' }))?.input, { toolName: '', toolInput: { path: 'x' } });
    assert.deepEqual(normalizePayload(JSON.stringify({ hook_event_name: 'SubagentStop', agent_id: 'a', agent_type: 'gsd-reviewer', stop_hook_active: true }))?.input, { agentId: 'a', agentType: 'gsd-reviewer', stopHookActive: true });
    assert.deepEqual(normalizePayload(JSON.stringify({ hook_event_name: 'PreCompact', trigger: 'manual' }))?.input, { trigger: 'manual' });
    assert.deepEqual(normalizePayload(JSON.stringify({ hook_event_name: 'PreCompact', trigger: 42 }))?.input, { trigger: 'auto' });
  });

  it('accepts event names in other spellings, and --event when the payload has none', () => {
    assert.equal(eventName('user_prompt_submit'), 'UserPromptSubmit');
    assert.equal(eventName('sessionStart'), 'SessionStart');
    assert.equal(normalizePayload('{"cwd":"/p"}', 'Stop')?.event, 'Stop');
    assert.equal(normalizePayload('{"cwd":"/p"}'), null);
  });

  it('writes the shape each event accepts', () => {
    assert.deepEqual(formatAnswer('PreToolUse', { permissionDecision: 'deny', reason: 'no' }), { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' } });
    // The hosts of .github/hooks each read their own spelling; Claude Code gets only the top-level one.
    assert.deepEqual(formatAnswer('Stop', { decision: 'block', reason: 'review T01' }), { decision: 'block', reason: 'review T01', hookSpecificOutput: { hookEventName: 'Stop', decision: 'block', reason: 'review T01' } });
    assert.deepEqual(formatAnswer('SubagentStop', { decision: 'block', reason: 'write it' }, 'claude'), { decision: 'block', reason: 'write it' });
    assert.equal(formatAnswer('Stop', { decision: 'allow' }), null);
    assert.deepEqual(formatAnswer('SubagentStart', { additionalContext: 'prompt' }), { hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: 'prompt' } });
    assert.deepEqual(formatAnswer('PreCompact', { systemMessage: 'saved' }), { systemMessage: 'saved' });
    assert.deepEqual(formatAnswer('UserPromptSubmit', { block: { reason: 'not now' } }), { decision: 'block', reason: 'not now' });
    assert.equal(formatAnswer('SessionStart', null), null);
  });

  it('never throws on arbitrary text or JSON (fast-check)', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
      normalizePayload(text);
    }), { numRuns: 1000 });
    fc.assert(fc.property(fc.record({ hook_event_name: fc.constantFrom('Stop', 'PreToolUse', 'SessionStart', 'PreCompact', 'SubagentStop'), tool_input: fc.anything(), stop_hook_active: fc.anything(), trigger: fc.anything(), cwd: fc.anything() }), (raw) => {
      const p = normalizePayload(JSON.stringify(raw));
      assert.ok(p);
    }), { numRuns: 500 });
  });
});
