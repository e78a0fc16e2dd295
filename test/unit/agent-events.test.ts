// The one table of agent events (agent-events.ts) against the hosts' facts in docs/agent-hooks.md,
// and the modules that read it: the payload reader's spellings, the answer shapes formatAnswer
// gives, and the composite provider, which must answer every method the table names.
import * as assert from 'node:assert/strict';
import { claudeCompactionAddition, claudeContext, claudePermission, claudeStopReason, copilotCliContext, copilotCliPermission, copilotCliStopReason, vscodeContext, vscodePermission, vscodeStopReasons, type CommandRun } from './helpers/host-rules';
import { AGENT_EVENTS, eventName, HOOK_EVENTS, INSTALLED_EVENTS, PROVIDER_METHODS } from '../../src/core/hooks/lifecycle/agent-events';
import { formatAnswer } from '../../src/core/agent-hooks/hook-payload';
import { CompositeHooksProvider } from '../../src/core/hooks/lifecycle/composite-hooks-provider';

/**
 * Sent by VS Code's Local agent and by Claude Code: the seven docs/agent-hooks.md, "What we install",
 * lists, and PostToolUse, which both send and we do not install.
 */
const DOCUMENTED_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PreCompact', 'SubagentStart', 'SubagentStop', 'Stop'];

describe('agent events table', () => {
  it('has every event the hosts send us, each sent by VS Code and Claude Code', () => {
    for (const e of DOCUMENTED_EVENTS) {
      assert.ok(HOOK_EVENTS.includes(e as never), e);
      const hosts: readonly string[] = AGENT_EVENTS[e as keyof typeof AGENT_EVENTS].hosts;
      assert.ok(hosts.includes('vscode') && hosts.includes('claude'), e);
    }
    assert.ok(INSTALLED_EVENTS.every((e) => DOCUMENTED_EVENTS.includes(e)));
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

  it('answers each host in its own dialect, as each host reads it (docs/agent-hooks.md)', () => {
    const run = (out: Record<string, unknown> | null): CommandRun => ({ status: 0, stdout: out ? JSON.stringify(out) + '\n' : '', stderr: '' });
    const context = { additionalContext: 'ctx' };
    for (const e of ['SessionStart', 'SubagentStart', 'UserPromptSubmit'] as const) {
      assert.equal(vscodeContext(e, run(formatAnswer(e, context, 'vscode'))), 'ctx', `vscode ${e}`);
      assert.equal(claudeContext(e, run(formatAnswer(e, context, 'claude'))), 'ctx', `claude ${e}`);
      assert.equal(copilotCliContext(run(formatAnswer(e, context, 'copilot-cli'))), 'ctx', `copilot-cli ${e}`);
    }
    for (const d of ['allow', 'ask', 'deny'] as const) {
      assert.deepEqual(vscodePermission([run(formatAnswer('PreToolUse', { permissionDecision: d, reason: 'r' }, 'vscode'))]), { decision: d, reason: 'r' });
      assert.deepEqual(claudePermission(run(formatAnswer('PreToolUse', { permissionDecision: d, reason: 'r' }, 'claude'))), { decision: d, reason: 'r' });
      assert.deepEqual(copilotCliPermission(run(formatAnswer('PreToolUse', { permissionDecision: d, reason: 'r' }, 'copilot-cli'))), { decision: d, reason: 'r' });
    }
    for (const e of ['Stop', 'SubagentStop'] as const) {
      const block = { decision: 'block', reason: 'review T01' };
      assert.deepEqual(vscodeStopReasons(e, [run(formatAnswer(e, block, 'vscode'))]), ['review T01']);
      assert.equal(claudeStopReason(run(formatAnswer(e, block, 'claude')), true), 'review T01');
      assert.equal(copilotCliStopReason(run(formatAnswer(e, block, 'copilot-cli'))), 'review T01');
      for (const d of ['vscode', 'claude', 'copilot-cli'] as const) assert.equal(formatAnswer(e, { decision: 'allow' }, d), null);
    }
    // Claude Code appends a PreCompact hook's stdout to the compaction instructions: nothing from us.
    assert.equal(claudeCompactionAddition(run(formatAnswer('PreCompact', { ...context, systemMessage: 'saved' }, 'claude'))), '');
    assert.equal(formatAnswer('PreCompact', context, 'vscode'), null);
  });

  it('names provider methods the composite provider answers, one per event', () => {
    assert.equal(new Set(PROVIDER_METHODS).size, HOOK_EVENTS.length);
    const composite = new CompositeHooksProvider([]);
    for (const m of PROVIDER_METHODS) assert.equal(typeof composite[m], 'function', m);
  });
});
