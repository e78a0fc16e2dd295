import * as assert from 'node:assert/strict';
import { CompositeHooksProvider } from '../../src/core/hooks/lifecycle/composite-hooks-provider';
import { DefaultHooksProvider, type HookContext, type HooksProvider } from '../../src/core/hooks/lifecycle/hooks-provider';
import { runAgentHook } from '../../src/core/agent-hooks/hook-bridge';
import { roadmap, slicePlan, taskSummary, writeTree } from './helpers/gsd-tree';

const ctx: HookContext = { sessionId: 's1', root: '/p', cwd: '/p', timestamp: '2026-11-21T00:00:00Z' };
const tool = { toolName: 'edit_file', toolInput: { file_path: '/p/src/a.ts' } };

describe('CompositeHooksProvider', () => {
  it('lets the first deny win, even after an allow', async () => {
    const c = new CompositeHooksProvider([
      { name: 'silent', onPreToolUse: async () => null },
      { name: 'allow', onPreToolUse: async () => ({ permissionDecision: 'allow' }) },
      { name: 'deny-1', onPreToolUse: async () => ({ permissionDecision: 'deny', reason: 'first' }) },
      { name: 'deny-2', onPreToolUse: async () => ({ permissionDecision: 'deny', reason: 'second' }) },
    ]);
    assert.deepEqual(await c.onPreToolUse(tool, ctx), { permissionDecision: 'deny', reason: 'first' });
  });

  it('otherwise returns the first non-null answer', async () => {
    const c = new CompositeHooksProvider([
      {},
      { name: 'a', onSessionStart: async () => null },
      { name: 'b', onSessionStart: async () => ({ additionalContext: 'from b' }) },
      { name: 'c', onSessionStart: async () => ({ additionalContext: 'from c' }) },
    ]);
    assert.deepEqual(await c.onSessionStart({}, ctx), { additionalContext: 'from b' });
    assert.equal(await c.onStop({ stopHookActive: false }, ctx), null);
  });

  it('treats a Stop block as a refusal that wins', async () => {
    const c = new CompositeHooksProvider([
      { onStop: async () => ({ decision: 'allow' }) },
      { onStop: async () => ({ decision: 'block', reason: 'review cycle 2 is due' }) },
    ]);
    assert.deepEqual(await c.onStop({ stopHookActive: false }, ctx), { decision: 'block', reason: 'review cycle 2 is due' });
  });

  it('runs void hooks in every provider, even when one throws', async () => {
    const ran: string[] = [];
    const logs: string[] = [];
    const c = new CompositeHooksProvider([
      { name: 'a', onSessionEnd: async () => void ran.push('a') },
      { name: 'bad', onSessionEnd: async () => { throw new Error('disk full'); } },
      { name: 'c', onSessionEnd: async () => void ran.push('c') },
    ], { log: (m) => logs.push(m) });
    await c.onSessionEnd({ reason: 'exit' }, ctx);
    assert.deepEqual(ran.sort(), ['a', 'c']);
    assert.deepEqual(logs, ['bad.onSessionEnd failed: disk full; skipped']);
  });

  it('skips a provider that throws or overruns its budget, and keeps asking the others', async () => {
    const logs: string[] = [];
    const slow: HooksProvider = { name: 'slow', onPreToolUse: () => new Promise((r) => setTimeout(() => r({ permissionDecision: 'deny' }), 500)) };
    const broken: HooksProvider = { name: 'broken', onPreToolUse: async () => { throw new Error('bug'); } };
    const ok: HooksProvider = { name: 'ok', onPreToolUse: async () => ({ permissionDecision: 'ask', reason: 'check' }) };
    const c = new CompositeHooksProvider([slow, broken, ok], { timeoutMs: 30, log: (m) => logs.push(m) });
    const started = Date.now();
    assert.deepEqual(await c.onPreToolUse(tool, ctx), { permissionDecision: 'ask', reason: 'check' });
    assert.ok(Date.now() - started < 400);
    assert.deepEqual(logs, ['slow.onPreToolUse took longer than 30 ms; skipped', 'broken.onPreToolUse failed: bug; skipped']);
  });

  it('waits for a slow provider that stays within its budget', async () => {
    const c = new CompositeHooksProvider([{ onPreCompact: () => new Promise((r) => setTimeout(() => r({ systemMessage: 'saved' }), 20)) }], { timeoutMs: 1000 });
    assert.deepEqual(await c.onPreCompact({ trigger: 'auto' }, ctx), { systemMessage: 'saved' });
  });
});

describe('DefaultHooksProvider', () => {
  const provider = new DefaultHooksProvider({
    describeProject: () => 'GSD: executing M001/S01/T02',
    isProtectedPath: (p) => p.includes('.gsd/gsd-review-loop/'),
  });

  it('gives the project state as session context', async () => {
    // Through the bridge an agent's hook runs, on a tree written here: T01 done, T02 "CSV export" next.
    const M = '.gsd/milestones/M001';
    const S = `${M}/slices/S01`;
    const root = writeTree({
      [`${M}/M001-ROADMAP.md`]: roadmap('M001', 'Billing', [{ id: 'S01', title: 'Invoices' }]),
      [`${S}/S01-PLAN.md`]: slicePlan('S01', 'Invoices', [{ id: 'T01', title: 'Invoice model', done: true }, { id: 'T02', title: 'CSV export' }]),
      [`${S}/tasks/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001'),
    });
    const payload = JSON.stringify({ hook_event_name: 'SessionStart', session_id: 's1', cwd: root, source: 'startup' });
    const r = await runAgentHook(payload, { builtins: [], trusted: true, home: root });
    const context = (r.output as { hookSpecificOutput?: { additionalContext?: string } } | null)?.hookSpecificOutput?.additionalContext ?? '';
    assert.match(context, /phase executing/);
    assert.match(context, /M001\/S01\/T02 \(CSV export\)/);
    assert.doesNotMatch(context, /T01 \(Invoice model\)/);
  });

  it('denies writes to our runtime records and lets everything else through', async () => {
    const denied = await provider.onPreToolUse({ toolName: 'Write', toolInput: { file_path: '/p/.gsd/gsd-review-loop/dispatch.json' } });
    assert.equal(denied?.permissionDecision, 'deny');
    assert.equal(await provider.onPreToolUse({ toolName: 'Write', toolInput: { file_path: '/p/src/a.ts' } }), null);
    assert.equal(await provider.onPreToolUse({ toolName: 'Read', toolInput: { file_path: '/p/.gsd/gsd-review-loop/dispatch.json' } }), null);
  });
});
