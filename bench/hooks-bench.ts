// Overhead of the hook machinery itself: one dispatch decision through 10 middlewares, one lifecycle
// hook through a composite of 5 providers; and the same work through @bradygaster/squad-sdk's
// HookPipeline, measured in the same run (installed on demand into .bench/peer).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CompositeHooksProvider } from '../src/core/hooks/lifecycle/composite-hooks-provider';
import type { HookStateHandle } from '../src/core/hooks/engine/hook-state';
import type { HookContext, HooksProvider } from '../src/core/hooks/lifecycle/hooks-provider';
import { runMiddleware } from '../src/core/hooks/engine/middleware';
import { HookRegistry } from '../src/core/hooks/engine/hook-registry';
import type { ChainHost, GSDMiddleware } from '../src/core/hooks/engine/middleware-types';
import type { GSDState } from '../src/core/model/types';
import { ratio } from './measure';

const PEER = '@bradygaster/squad-sdk@0.13.1';

interface SquadPipeline {
  addPreToolHook(hook: (ctx: unknown) => unknown): void;
  runPreToolHooks(ctx: unknown): Promise<{ action: string }>;
}

async function loadPeer(benchDir: string): Promise<(new (config: object) => SquadPipeline) | null> {
  const dir = path.join(benchDir, 'peer');
  const entry = path.join(dir, 'node_modules', '@bradygaster', 'squad-sdk', 'dist', 'hooks', 'index.js');
  if (!fs.existsSync(entry)) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), '{"name":"bench-peer","private":true}');
    try {
      execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', PEER], { cwd: dir, stdio: 'ignore' });
    } catch {
      return null;
    }
  }
  const mod = (await import(pathToFileURL(entry).href)) as { HookPipeline: new (config: object) => SquadPipeline };
  return mod.HookPipeline;
}

/**
 * Median time per call in µs of each function, over `rounds` batches of `batch` awaited calls,
 * taken round-robin so that a busy neighbour on this shared machine slows all of them alike.
 */
async function perCallUs(fns: Array<() => Promise<unknown>>, batch = 20_000, rounds = 7): Promise<number[]> {
  for (const fn of fns) for (let i = 0; i < batch; i++) await fn();
  const samples = fns.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    for (const [k, fn] of fns.entries()) {
      const t = process.hrtime.bigint();
      for (let i = 0; i < batch; i++) await fn();
      samples[k].push(Number(process.hrtime.bigint() - t) / 1e3 / batch);
    }
  }
  return samples.map((s) => s.sort((a, b) => a - b)[Math.floor(rounds / 2)]);
}

export async function hooksBench(benchDir: string): Promise<void> {
  const registry = new HookRegistry();
  for (let i = 0; i < 9; i++) registry.register(`observer-${i}`, (async (_ctx, next) => next()) as GSDMiddleware, { priority: i });
  registry.register('decider', (async (ctx, next) => {
    ctx.decision = { unitType: 'review-task', unitId: 'M001/S01/T01', prompt: 'review' };
    await next();
  }) as GSDMiddleware, { priority: 50 });
  const handle: HookStateHandle = Object.freeze({ hook: 'x', get: () => undefined, set: () => undefined });
  const signal = new AbortController().signal;
  const noLog = { info: () => undefined, warn: () => undefined };
  const host: ChainHost = {
    state: { phase: 'executing' } as unknown as GSDState,
    phase: 'dispatch',
    result: null,
    signal,
    handleFor: () => handle,
    options: () => ({}),
    readGsdFile: () => null,
    writeGsdFile: () => undefined,
    report: () => undefined,
    log: () => noLog,
  };
  const chain = () => runMiddleware(registry, host);

  // The floor of any onion chain (docs/architecture.md: a middleware is (ctx, next) => Promise<void>): the same
  // ten hook bodies nested by next() with nothing else (no context per hook, no trace, no budget,
  // no waiting for a next() a hook did not await). What our chain adds is the distance from it.
  const bodies = registry.ordered().map((r) => r.middleware);
  const pastTheEnd = Promise.resolve();
  const bareOnion = (): Promise<void> => {
    const ctx = { decision: null } as unknown as Parameters<GSDMiddleware>[0];
    const enter = (i: number): Promise<void> => (i < bodies.length ? bodies[i](ctx, () => enter(i + 1)) : pastTheEnd);
    return enter(0);
  };

  const providers: HooksProvider[] = Array.from({ length: 5 }, (_, i) => ({ name: `p${i}`, onPreToolUse: async () => null }));
  const composite = new CompositeHooksProvider(providers);
  const ctx: HookContext = { sessionId: 's', root: '/p', cwd: '/p', timestamp: '' };
  const input = { toolName: 'edit_file', toolInput: { file_path: '/p/src/a.ts' } };
  const preToolUse = () => composite.onPreToolUse(input, ctx);

  const HookPipeline = await loadPeer(benchDir);
  console.log('\n## Hook machinery (per call, median of 7 × 20,000, interleaved)');
  if (!HookPipeline) {
    const [chainUs, compositeUs] = await perCallUs([chain, preToolUse]);
    console.log(`dispatch decision through 10 middlewares   ${chainUs.toFixed(2)} µs   (target < 5 µs; seed ceiling 1,000 µs)`);
    console.log(`PreToolUse through a composite of 5        ${compositeUs.toFixed(2)} µs   (target < 5 µs)`);
    console.log(`peer ${PEER} could not be installed here; no comparison`);
    return;
  }
  // The same decisions as our chain: nine hooks pass, the last one decides (in Squad's terms, the
  // first 'block' wins and ends the run; our decider is last too, so nothing runs after it).
  const pipe10 = new HookPipeline({ blockedCommands: [] });
  for (let i = 0; i < 9; i++) pipe10.addPreToolHook(async () => ({ action: 'allow' }));
  pipe10.addPreToolHook(async () => ({ action: 'block', reason: 'review M001/S01/T01' }));
  const pipe5 = new HookPipeline({ blockedCommands: [] });
  for (let i = 0; i < 5; i++) pipe5.addPreToolHook(async () => ({ action: 'allow' }));
  const squadCtx = { toolName: 'edit_file', arguments: { file_path: '/p/src/a.ts' }, agentName: 'a', sessionId: 's' };
  const [chainUs, squad10, bareUs] = await perCallUs([chain, () => pipe10.runPreToolHooks(squadCtx), bareOnion]);
  const [compositeUs, squad5] = await perCallUs([preToolUse, () => pipe5.runPreToolHooks(squadCtx)]);
  console.log(`dispatch decision through 10 middlewares   ${chainUs.toFixed(2)} µs   (target < 5 µs; seed ceiling 1,000 µs)`);
  console.log(`PreToolUse through a composite of 5        ${compositeUs.toFixed(2)} µs   (target < 5 µs)`);
  console.log(`${PEER} HookPipeline, 10 hooks    ${squad10.toFixed(2)} µs   ours ${ratio(chainUs, squad10)} of it (for comparison, no target: the (ctx, next) onion is the seeds' contract; the 10th hook decides in both)`);
  console.log(`bare onion of the same 10 hooks          ${bareUs.toFixed(2)} µs   ${ratio(bareUs, squad10)} of HookPipeline (the floor of any (ctx, next) chain, ours included); ours ${ratio(chainUs, bareUs)} of it`);
  console.log(`${PEER} HookPipeline, 5 hooks     ${squad5.toFixed(2)} µs   ours ${ratio(compositeUs, squad5)} of it`);
}
