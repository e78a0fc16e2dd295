// The one table of agent events (agent-events.ts) against the hosts' facts in DESIGN.md section 5,
// and the modules that read it: the payload reader's spellings, the answer shapes formatAnswer
// gives, and the composite provider, which must answer every method the table names.
import * as assert from 'node:assert/strict';
import { AGENT_EVENTS, eventName, HOOK_EVENTS, INSTALLED_EVENTS, PROVIDER_METHODS } from '../../src/core/agent-hooks/agent-events';
import { formatAnswer } from '../../src/core/agent-hooks/hook-payload';
import { CompositeHooksProvider } from '../../src/core/hooks/lifecycle/composite-hooks-provider';

/** DESIGN.md section 5: "Events we may use", sent by VS Code's Local agent and by Claude Code. */
const DESIGN_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PreCompact', 'SubagentStart', 'SubagentStop', 'Stop'];

describe('agent events table', () => {
  it('has every event the hosts send us, each sent by VS Code and Claude Code', () => {
    for (const e of DESIGN_EVENTS) {
      assert.ok(HOOK_EVENTS.includes(e as never), e);
      const hosts: readonly string[] = AGENT_EVENTS[e as keyof typeof AGENT_EVENTS].hosts;
      assert.ok(hosts.includes('vscode') && hosts.includes('claude'), e);
    }
    assert.ok(INSTALLED_EVENTS.every((e) => DESIGN_EVENTS.includes(e)));
  });

  it('reads every spelling the hosts use (Copilot CLI camelCase, snake_case, any case)', () => {
    const cases: Array<[string, string]> = [
      ['Stop', 'Stop'],
      ['stop', 'Stop'],
      ['userPromptSubmitted', 'UserPromptSubmit'],
      ['UserPromptSubmit', 'UserPromptSubmit'],
      ['subagent_stop', 'SubagentStop'],
      ['PRECOMPACT', 'PreCompact'],
      ['preToolUse', 'PreToolUse'],
      ['errorOccurred', 'ErrorOccurred'],
      ['sessionEnd', 'SessionEnd'],
    ];
    for (const [raw, event] of cases) assert.equal(eventName(raw), event, raw);
    for (const unknown of ['Notification', 'constructor', '__proto__', 'toString', '']) assert.equal(eventName(unknown), null, unknown);
  });

  it('gives each event the answer shape DESIGN.md section 5 says its host acts on', () => {
    const context = { additionalContext: 'ctx' };
    // additionalContext under hookSpecificOutput, with the event's own hookEventName (a mismatch drops the object).
    for (const e of ['SessionStart', 'SubagentStart', 'UserPromptSubmit'] as const) {
      assert.deepEqual(formatAnswer(e, context), { hookSpecificOutput: { hookEventName: e, additionalContext: 'ctx' } }, e);
    }
    assert.deepEqual(formatAnswer('PreToolUse', { permissionDecision: 'deny', reason: 'no' }), {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' },
    });
    for (const e of ['Stop', 'SubagentStop'] as const) {
      assert.deepEqual(formatAnswer(e, { decision: 'block', reason: 'review T01' }), {
        decision: 'block',
        reason: 'review T01',
        hookSpecificOutput: { hookEventName: e, decision: 'block', reason: 'review T01' },
      });
      assert.deepEqual(formatAnswer(e, { decision: 'block', reason: 'review T01' }, 'claude'), { decision: 'block', reason: 'review T01' });
    }
    // PreCompact output is ignored by the host: only a systemMessage (shown as a warning) goes out.
    assert.equal(formatAnswer('PreCompact', context), null);
    assert.deepEqual(formatAnswer('PreCompact', { ...context, systemMessage: 'saved' }), { systemMessage: 'saved' });
  });

  it('names provider methods the composite provider answers, one per event', () => {
    assert.equal(new Set(PROVIDER_METHODS).size, HOOK_EVENTS.length);
    const composite = new CompositeHooksProvider([]);
    for (const m of PROVIDER_METHODS) assert.equal(typeof composite[m], 'function', m);
  });
});
