import * as assert from 'node:assert/strict';
import { HookTimeoutError } from '../../src/core/hooks/engine/hook-budget';
import { ChainCancelledError, runMiddleware } from '../../src/core/hooks/engine/middleware';
import { HookRegistry } from '../../src/core/hooks/engine/hook-registry';
import type { ChainHost, GSDMiddleware } from '../../src/core/hooks/engine/middleware-types';
import type { HookStateHandle } from '../../src/core/hooks/engine/hook-state';
import type { GSDState } from '../../src/core/model/types';

function host(overrides: Partial<ChainHost> = {}): ChainHost {
  return {
    state: { phase: 'executing' } as unknown as GSDState,
    phase: 'dispatch',
    result: null,
    signal: new AbortController().signal,
    handleFor: (hook) => ({ hook, get: () => undefined, set: () => undefined }) as HookStateHandle,
    options: () => ({}),
    readGsdFile: () => null,
    writeGsdFile: () => undefined,
    report: () => undefined,
    log: () => ({ info: () => undefined, warn: () => undefined }),
    ...overrides,
  };
}

const decide = (unitId: string): GSDMiddleware => async (ctx, next) => {
  ctx.decision = { unitType: 'execute-task', unitId, prompt: `do ${unitId}` };
  await next();
};
const pass: GSDMiddleware = async (_ctx, next) => next();

describe('middleware chain', () => {
  it('runs lower priority first and keeps registration order for ties', async () => {
    const order: string[] = [];
    const r = new HookRegistry();
    const mark = (name: string): GSDMiddleware => async (_c, next) => {
      order.push(name);
      await next();
    };
    r.register('late', mark('late'), { priority: 90 });
    r.register('tie-a', mark('tie-a'), { priority: 10 });
    r.register('default-priority', mark('default-priority'));
    r.register('tie-b', mark('tie-b'), { priority: 10 });
    r.register('first', mark('first'), { priority: -5 });
    await runMiddleware(r, host());
    assert.deepEqual(order, ['first', 'tie-a', 'tie-b', 'late', 'default-priority']);
  });

  it('keeps the first decision, names its hook as source, and lists the ignored ones', async () => {
    const r = new HookRegistry();
    r.register('observer', pass, { priority: 1 });
    r.register('winner', decide('M001/S01/T01'), { priority: 5 });
    r.register('loser', decide('M001/S01/T02'), { priority: 6 });
    const out = await runMiddleware(r, host());
    assert.equal(out.decision?.source, 'winner');
    assert.equal(out.decision?.unitId, 'M001/S01/T01');
    assert.deepEqual(out.ignored, [{ hook: 'loser', unitType: 'execute-task', unitId: 'M001/S01/T02' }]);
    assert.deepEqual(out.trace.map((t) => [t.hook, t.decided]), [['observer', false], ['winner', true], ['loser', false]]);
  });

  it('lets later hooks see who decided', async () => {
    const r = new HookRegistry();
    let seen: string | null = 'unset';
    r.register('a', decide('M001'));
    r.register('b', async (ctx, next) => {
      seen = ctx.decidedBy;
      await next();
    });
    await runMiddleware(r, host());
    assert.equal(seen, 'a');
  });

  it('stops at a hook that does not call next()', async () => {
    const r = new HookRegistry();
    let reached = false;
    r.register('gate', async () => undefined, { priority: 1 });
    r.register('after', async (_c, next) => {
      reached = true;
      await next();
    }, { priority: 2 });
    const out = await runMiddleware(r, host());
    assert.equal(reached, false);
    assert.equal(out.decision, null);
    assert.deepEqual(out.trace.map((t) => [t.hook, t.calledNext]), [['gate', false]]);
  });

  it('refuses next() called twice', async () => {
    const r = new HookRegistry();
    r.register('twice', async (_c, next) => {
      await next();
      await next();
    });
    await assert.rejects(runMiddleware(r, host()), /called next\(\) twice/);
  });

  it('propagates a hook error and stops when the signal aborts', async () => {
    const r = new HookRegistry();
    r.register('boom', async () => {
      throw new Error('hook failed');
    });
    await assert.rejects(runMiddleware(r, host()), /hook failed/);
    const c = new AbortController();
    const r2 = new HookRegistry();
    r2.register('cancel', async (_ctx, next) => {
      c.abort();
      await next();
    });
    r2.register('never', decide('M001'));
    await assert.rejects(runMiddleware(r2, host({ signal: c.signal })), ChainCancelledError);
  });

  it('hands hooks a signal that never aborts when the caller gave none', async () => {
    const r = new HookRegistry();
    const seen: AbortSignal[] = [];
    r.register('a', async (ctx, next) => {
      seen.push(ctx.signal);
      await next();
    });
    r.register('b', async (ctx, next) => {
      seen.push(ctx.signal);
      ctx.decision = { unitType: 'execute-task', unitId: 'M001', prompt: 'do M001' };
      await next();
    });
    const { signal: _none, ...withoutSignal } = host();
    const out = await runMiddleware(r, withoutSignal);
    assert.equal(out.decision?.unitId, 'M001');
    assert.equal(seen.length, 2);
    for (const s of seen) {
      assert.ok(s instanceof AbortSignal);
      assert.equal(s.aborted, false);
    }
    // One signal per run: listeners a hook leaves on it go with its run, not pile up in a long-lived host.
    assert.equal(seen[0], seen[1]);
    await runMiddleware(r, withoutSignal);
    assert.notEqual(seen[2], seen[0]);
  });

  it('waits for a next() the hook did not await, and for what the hooks below it do', async () => {
    const r = new HookRegistry();
    const done: string[] = [];
    r.register('fire-and-forget', async (_c, next) => {
      void next();
      done.push('fire-and-forget');
    }, { priority: 1 });
    r.register('slow-decider', async (ctx, next) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      ctx.decision = { unitType: 'execute-task', unitId: 'M001/S01/T02', prompt: 'do it' };
      await next();
      done.push('slow-decider');
    }, { priority: 2 });
    const out = await runMiddleware(r, host());
    assert.deepEqual(done, ['fire-and-forget', 'slow-decider']);
    assert.equal(out.decision?.source, 'slow-decider');
    assert.deepEqual(out.trace.map((t) => [t.hook, t.calledNext, t.decided]), [['fire-and-forget', true, false], ['slow-decider', true, true]]);
  });

  it('fails the run when a step nobody awaited fails', async () => {
    const r = new HookRegistry();
    r.register('fire-and-forget', async (_c, next) => {
      void next().catch(() => undefined);
    }, { priority: 1 });
    r.register('late-failure', async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      throw new Error('late failure');
    }, { priority: 2 });
    await assert.rejects(runMiddleware(r, host()), /late failure/);
  });

  it('gives up on a hook that never settles once the budget is spent, never before, and names it', async () => {
    const r = new HookRegistry();
    r.register('outer', pass, { priority: 1 });
    r.register('stuck', () => new Promise<void>(() => undefined), { priority: 2 });
    const budgetMs = 150;
    const started = performance.now();
    await assert.rejects(runMiddleware(r, host(), { budgetMs }), (error: unknown) => {
      assert.ok(error instanceof HookTimeoutError);
      assert.match(error.message, /hook stuck did not finish within 150 ms/);
      return true;
    });
    assert.ok(performance.now() - started >= budgetMs, 'the budget ran out early');
  });

  it('times a chain with hook-folder code in it, and leaves a chain of built-in hooks alone untimed', async () => {
    const budgetMs = 100;
    const stuckBuiltins = new HookRegistry();
    stuckBuiltins.register('review-loop', pass, { priority: 1 }, 'builtin');
    stuckBuiltins.register('stuck', () => new Promise<void>(() => undefined), { priority: 2 }, 'builtin');
    const untimed = runMiddleware(stuckBuiltins, host(), { budgetMs });
    const outcome = await Promise.race([untimed.then(() => 'settled', () => 'timed out'), new Promise((resolve) => setTimeout(() => resolve('still running'), 4 * budgetMs))]);
    assert.equal(outcome, 'still running');
    // The same chain with one hook from a hook folder is timed; a hook's own options cannot say it is built in.
    const mixed = new HookRegistry();
    mixed.register('review-loop', pass, { priority: 1 }, 'builtin');
    mixed.register('stuck', () => new Promise<void>(() => undefined), { priority: 2, builtin: true } as never);
    // Nor can code that reaches the registrations mark itself so later.
    assert.throws(() => {
      (mixed.ordered()[1] as { builtin: boolean }).builtin = true;
    }, TypeError);
    await assert.rejects(runMiddleware(mixed, host(), { budgetMs }), /hook stuck did not finish within 100 ms/);
  });

  it('ignores decisions in the after phase', async () => {
    const r = new HookRegistry();
    r.register('a', decide('M001'));
    const out = await runMiddleware(r, host({ phase: 'after' }));
    assert.equal(out.decision, null);
  });

  it('rejects duplicate and malformed hook names', () => {
    const r = new HookRegistry();
    r.register('a', pass);
    assert.throws(() => r.register('a', pass), /already registered/);
    assert.throws(() => r.register('../evil', pass), /must be letters/);
  });
});
