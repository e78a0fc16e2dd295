import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { eventName, eventOf, normalizePayload } from '../../src/core/agent-hooks/hook-payload';

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

  it('reads Copilot CLI\'s camelCase SubagentStart (no event name: --event), its numeric timestamp and agentName', () => {
    // docs/agent-hooks.md: Copilot CLI's SubagentStart has no hook_event_name; camelCase sessionId,
    // transcriptPath, agentName, numeric timestamp.
    const text = JSON.stringify({ sessionId: 'c1', transcriptPath: '/t/c1.jsonl', agentName: 'gsd-reviewer', timestamp: 1764100000000, cwd: '/p' });
    assert.equal(normalizePayload(text), null);
    const p = normalizePayload(text, 'SubagentStart');
    assert.equal(p?.event, 'SubagentStart');
    assert.deepEqual(p?.input, { agentId: '', agentType: 'gsd-reviewer' });
    assert.equal(p?.sessionId, 'c1');
    assert.equal(p?.transcriptPath, '/t/c1.jsonl');
    assert.equal(p?.timestamp, new Date(1764100000000).toISOString());
  });

  it('takes a Stop fired inside a subagent for that subagent\'s stop (Copilot CLI), never the main agent\'s', () => {
    const inside = normalizePayload(JSON.stringify({ hook_event_name: 'Stop', session_id: 's', timestamp: '2026-11-25T10:00:00Z', cwd: '/p', agent_id: 'a7', agent_type: 'gsd-reviewer', parent_agent_id: 'main', stop_hook_active: false }));
    assert.equal(inside?.event, 'SubagentStop');
    assert.deepEqual(inside?.input, { agentId: 'a7', agentType: 'gsd-reviewer', stopHookActive: false });
    assert.equal(eventOf({ hook_event_name: 'Stop', parent_agent_id: 'main' }), 'SubagentStop');
    // The main agent's Stop (Claude Code, VS Code's `default` agent) stays Stop.
    assert.equal(normalizePayload(JSON.stringify({ hook_event_name: 'Stop', session_id: 's', permission_mode: 'default', stop_hook_active: false }))?.event, 'Stop');
    assert.equal(eventOf({ hook_event_name: 'Stop', agent_type: 'default' }), 'Stop');
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
