import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NothingDispatchedError } from '../../src/core/dispatch/dispatch';
import { afterDispatch, dispatchNextUnit, type DispatchOptions } from './helpers/one-shot-dispatch';
import { NodeGsdStore, type CommitResult, type PlannedWrite } from '../../src/core/files/gsd-store';
import type { BuiltinHook } from '../../src/core/hooks/loading/hook-loader';
import { StateConflictError } from '../../src/core/hooks/engine/hook-state';
import { ChainCancelledError } from '../../src/core/hooks/engine/middleware';
import type { GSDMiddleware } from '../../src/core/hooks/engine/middleware-types';
import { FIX_TASK, REVIEW_TASK } from '../../src/core/hooks/builtin/review-loop/review-prompts';
import { PROMPTS } from '../../src/core/prompts/templates';
import { copyFixture, copySample } from './helpers/gsd-tree';
import { openProject } from '../../src/core/project/open-project';

const T03 = 'M002-k7q2xz/S02/T03';

function builtin(name: string, middleware: GSDMiddleware, priority?: number): BuiltinHook {
  return { name, register: (api) => api.registerHook(name, middleware, priority === undefined ? {} : { priority }) };
}

/** Every file under .gsd, path → bytes, to show a failed dispatch left no trace. */
function snapshot(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(path.relative(root, p), fs.readFileSync(p, 'latin1'));
    }
  };
  walk(path.join(root, '.gsd'));
  return out;
}

function withPrefs(root: string, yaml: string): void {
  fs.writeFileSync(path.join(root, '.gsd', 'PREFERENCES.md'), `---\n${yaml}---\n`);
  // The sample's own settings file would be read first; these tests set the hooks by gsd_hooks alone.
  fs.rmSync(path.join(root, '.gsd', 'gsd-review-loop.yaml'), { force: true });
}

/** The sample project with exactly these built-in hooks enabled in its PREFERENCES.md. */
function sampleWith(...names: string[]): string {
  const root = copySample();
  withPrefs(root, names.length ? `gsd_hooks:\n  enabled:\n${names.map((n) => `    - name: ${n}\n`).join('')}` : 'version: 1\n');
  return root;
}

const taskPlan = (root: string, t = 'T03') => path.join(root, '.gsd', 'milestones', 'M002-k7q2xz', 'slices', 'S02', 'tasks', `${t}-PLAN.md`);
/** The task's hook-state sidecar, beside its plan. */
const taskHooks = (root: string, t = 'T03') => path.join(path.dirname(taskPlan(root, t)), `${t}-HOOKS.md`);

describe('dispatchNextUnit', () => {
  it('falls back to GSD default dispatch and writes nothing without --apply', async () => {
    const root = copySample();
    const before = snapshot(root);
    const out = await dispatchNextUnit({ root });
    assert.deepEqual([out.decision?.unitType, out.decision?.unitId, out.decision?.source], ['execute-task', T03, 'default']);
    assert.match(out.decision!.prompt, /T03-SUMMARY\.md/);
    assert.deepEqual(snapshot(root), before);
  });

  it('commits hook state with --apply, each hook in its own namespace', async () => {
    const root = sampleWith('alpha', 'beta');
    const builtins = [
      builtin('alpha', async (ctx, next) => {
        ctx.store.set(T03, { claimed: true });
        await next();
      }),
      builtin('beta', async (ctx, next) => {
        assert.equal(ctx.store.hook, 'beta');
        assert.deepEqual(Object.keys(ctx.store).sort(), ['get', 'hook', 'set']);
        assert.throws(() => {
          (ctx.state.extensions as Record<string, unknown>).alpha = 'overwritten';
        }, TypeError);
        assert.throws(() => {
          (ctx.store as { hook: string }).hook = 'alpha';
        }, TypeError);
        ctx.store.set(T03, ['beta', 1]);
        await next();
      }),
    ];
    const plan = fs.readFileSync(taskPlan(root), 'utf8');
    const out = await dispatchNextUnit({ root, builtins, apply: true });
    assert.equal(out.applied, true);
    const text = fs.readFileSync(taskHooks(root), 'utf8');
    assert.match(text, /^---\nextensions:\n {2}alpha:\n {4}claimed: true\n {2}beta:\n {4}- beta\n {4}- 1\n---\n# Hook state of task M002-k7q2xz\/S02\/T03\n/);
    assert.equal(fs.readFileSync(taskPlan(root), 'utf8'), plan, "GSD's task plan is not written");
    const again = await dispatchNextUnit({ root, builtins: [builtin('alpha', async (ctx, next) => {
      assert.deepEqual(ctx.store.get(T03), { claimed: true });
      assert.deepEqual(ctx.state.extensions.alpha, { [T03]: { claimed: true } });
      await next();
    })] });
    assert.equal(again.decision?.source, 'default');
  });

  it('leaves every file byte-identical when a hook throws', async () => {
    const root = sampleWith('stager', 'thrower');
    const before = snapshot(root);
    const builtins = [
      builtin('stager', async (ctx, next) => {
        ctx.store.set(T03, { staged: 1 });
        ctx.store.set('M002-k7q2xz/S02', { staged: 2 });
        await next();
      }, 1),
      builtin('thrower', async () => {
        throw new Error('policy exploded');
      }, 2),
    ];
    await assert.rejects(dispatchNextUnit({ root, builtins, apply: true }), /policy exploded/);
    assert.deepEqual(snapshot(root), before);
  });

  it('leaves every file byte-identical when the dispatch is cancelled', async () => {
    const root = sampleWith('stager', 'decider');
    const before = snapshot(root);
    const controller = new AbortController();
    const builtins = [
      builtin('stager', async (ctx, next) => {
        ctx.store.set(T03, { staged: 1 });
        controller.abort();
        await next();
      }),
      builtin('decider', async (ctx, next) => {
        ctx.decision = { unitType: 'execute-task', unitId: T03, prompt: 'x' };
        await next();
      }),
    ];
    await assert.rejects(dispatchNextUnit({ root, builtins, apply: true, signal: controller.signal }), ChainCancelledError);
    assert.deepEqual(snapshot(root), before);
  });

  it('keeps an edit another writer saved between our read and our write', async () => {
    const root = sampleWith('alpha');
    const file = taskHooks(root);
    fs.writeFileSync(file, '---\nextensions:\n  beta:\n    note: kept\n---\n# T03: hook state\n');
    let interfered = false;
    class OtherWriterStore extends NodeGsdStore {
      override commit(gsdDir: string, plan: () => PlannedWrite[]): CommitResult {
        if (!interfered) {
          interfered = true;
          // The user saves the sidecar (new frontmatter key, new body line) just before our commit.
          fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('---\nextensions:', '---\nowner: sam\nextensions:') + 'Edited by hand.\n');
        }
        return super.commit(gsdDir, plan);
      }
    }
    const builtins = [builtin('alpha', async (ctx, next) => {
      ctx.store.set(T03, { cycle: 1 });
      await next();
    })];
    await dispatchNextUnit({ root, builtins, apply: true, store: new OtherWriterStore() });
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(interfered);
    assert.match(text, /owner: sam/);
    assert.match(text, /Edited by hand\./);
    assert.match(text, /beta:\n {4}note: kept/);
    assert.match(text, /alpha:\n {4}cycle: 1/);
  });

  it('refuses to overwrite our own block when someone else changed it meanwhile', async () => {
    const root = sampleWith('review-loop');
    const file = taskHooks(root, 'T02');
    const builtins = [builtin('review-loop', async (ctx, next) => {
      ctx.store.get('M002-k7q2xz/S02/T02');
      // Someone edits extensions.review-loop by hand while the chain runs.
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('cycle: 2', 'cycle: 4'));
      ctx.store.set('M002-k7q2xz/S02/T02', { activeReview: null });
      await next();
    })];
    await assert.rejects(dispatchNextUnit({ root, builtins, apply: true }), StateConflictError);
    assert.match(fs.readFileSync(file, 'utf8'), /cycle: 4/);
  });

  it('writes slice state to the sidecar in a legacy-named CRLF slice folder, and GSD\'s plan stays byte-identical', async () => {
    const root = copyFixture('legacy-flight-sim');
    const dir = path.join(root, '.gsd', 'milestones', 'M001-FLIGHT-SIM', 'slices', 'S02-CONTROLS');
    const file = path.join(dir, 'S02-CONTROLS-PLAN.md');
    const before = fs.readFileSync(file, 'utf8');
    await dispatchNextUnit({ root, apply: true, builtins: [builtin('h', async (ctx, next) => {
      ctx.store.set('M001/S02', { note: 'slice state' });
      await next();
    })] });
    assert.equal(fs.readFileSync(file, 'utf8'), before);
    assert.match(fs.readFileSync(path.join(dir, 'S02-HOOKS.md'), 'utf8'), /^---\nextensions:\n {2}h:\n {4}note: slice state\n---\n# Hook state of slice M001\/S02\n/);
  });

  it('stops a hook that decides the same unit forever (loop guard)', async () => {
    const root = sampleWith('stuck');
    const builtins = [builtin('stuck', async (ctx, next) => {
      ctx.decision = { unitType: 'review-task', unitId: 'M002-k7q2xz/S02/T02', prompt: 'review T02' };
      await next();
    })];
    for (let i = 0; i < 3; i++) assert.equal((await dispatchNextUnit({ root, builtins, apply: true })).decision?.unitType, 'review-task');
    const fourth = await dispatchNextUnit({ root, builtins, apply: true });
    assert.equal(fourth.decision, null);
    assert.match(fourth.blocker ?? '', /review-task M002-k7q2xz\/S02\/T02 was dispatched 3 times in a row with nothing changed/);
    // A change on disk that the decision rests on lifts the guard.
    fs.writeFileSync(path.join(path.dirname(taskPlan(root)), 'T03-SUMMARY.md'), '---\nid: T03\n---\n# T03\n');
    assert.equal((await dispatchNextUnit({ root, builtins, apply: true })).decision?.unitType, 'review-task');
  });

  it('loads workspace hooks only in a trusted workspace, and user hooks from their folder', async () => {
    const root = copySample();
    const hookDir = path.join(root, '.gsd', 'extensions', 'my-policy');
    fs.mkdirSync(hookDir, { recursive: true });
    fs.writeFileSync(path.join(hookDir, 'gsd-hooks.js'), `module.exports = function (api) {
  api.registerHook('my-policy', async (ctx, next) => {
    ctx.decision = { unitType: 'replan-slice', unitId: 'M002-k7q2xz/S02', prompt: 'replan because ' + ctx.options.why };
    await next();
  });
};\n`);
    withPrefs(root, 'gsd_hooks:\n  enabled:\n    - name: my-policy\n      source: my-policy\n      options: { why: policy }\n');
    const untrusted = await dispatchNextUnit({ root, trusted: false });
    assert.equal(untrusted.decision?.source, 'default');
    assert.deepEqual(untrusted.hooks.skipped, [{ name: 'my-policy', reason: 'hook code from the workspace runs only in a trusted workspace' }]);
    const trusted = await dispatchNextUnit({ root, trusted: true });
    assert.deepEqual([trusted.decision?.source, trusted.decision?.prompt], ['my-policy', 'replan because policy']);

    const userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-user-hooks-'));
    fs.mkdirSync(path.join(userDir, 'mine'));
    fs.writeFileSync(path.join(userDir, 'mine', 'gsd-hooks.mjs'), `export default function (api) {
  api.registerHook('mine', async (ctx, next) => { ctx.decision = { unitType: 'plan-slice', unitId: 'M002-k7q2xz/S03', prompt: 'user hook' }; await next(); });
}\n`);
    withPrefs(root, 'gsd_hooks:\n  enabled:\n    - name: mine\n      source: mine\n    - name: ghost\n      source: ../../etc\n');
    const user = await dispatchNextUnit({ root, trusted: false, userHooksDir: userDir });
    assert.equal(user.decision?.source, 'mine');
    assert.match(user.hooks.skipped[0].reason, /must be a folder name/);
  });

  it('runs built-in hooks by default when PREFERENCES.md names none, and honours gsd_hooks.disabled', async () => {
    const root = sampleWith();
    const builtins = [builtin('chooser', async (ctx, next) => {
      ctx.decision = { unitType: 'complete-slice', unitId: 'M002-k7q2xz/S02', prompt: 'by built-in' };
      await next();
    })];
    assert.equal((await dispatchNextUnit({ root, builtins })).decision?.source, 'chooser');
    withPrefs(root, 'gsd_hooks:\n  disabled: [chooser]\n');
    assert.equal((await dispatchNextUnit({ root, builtins })).decision?.source, 'default');
  });
});

describe('afterDispatch', () => {
  it('runs the chain with the finished unit and commits what the hooks stage, once', async () => {
    const root = sampleWith('tracker');
    const seen: unknown[] = [];
    const builtins = [builtin('tracker', async (ctx, next) => {
      if (ctx.phase === 'after') {
        seen.push([ctx.result?.unitType, ctx.result?.unitId, ctx.result?.source]);
        ctx.store.set(ctx.result!.unitId, { finished: ctx.result!.completedAt });
      }
      await next();
    })];
    const options: DispatchOptions = { root, builtins, now: () => new Date('2026-11-21T12:00:00Z') };
    await assert.rejects(afterDispatch(options), NothingDispatchedError);
    await dispatchNextUnit({ ...options, apply: true });
    const done = await afterDispatch(options);
    assert.deepEqual(seen, [['execute-task', T03, 'default']]);
    assert.match(fs.readFileSync(taskHooks(root), 'utf8'), /tracker:\n {4}finished: "?2026-11-21T12:00:00.000Z"?/);
    assert.equal(done.result.completedAt, '2026-11-21T12:00:00.000Z');
    await assert.rejects(afterDispatch(options), /already completed/);
  });
});

describe('cancelling the unit in flight', () => {
  it('leaves nothing in flight and nothing to complete, keeps the unit in the history, and the next dispatch is recorded as usual', async () => {
    const root = sampleWith('tracker');
    const ran: string[] = [];
    const builtins = [builtin('tracker', async (ctx, next) => {
      if (ctx.phase === 'after') ran.push(ctx.result!.unitId);
      await next();
    })];
    const project = openProject(root, { builtins, now: () => new Date('2026-11-21T12:00:00Z') });
    assert.equal(project.cancel(), null);
    await project.dispatch();
    const flying = project.currentUnit()!;
    assert.equal(flying.unitId, T03);
    assert.deepEqual(project.cancel(), flying);
    assert.equal(project.currentUnit(), null);
    await assert.rejects(project.complete(), NothingDispatchedError);
    assert.deepEqual(ran, [], 'no afterDispatch for a cancelled unit');
    const record = JSON.parse(fs.readFileSync(path.join(root, '.gsd', 'gsd-review-loop', 'dispatch.json'), 'utf8'));
    assert.equal(record.current, null);
    assert.equal(record.history.at(-1).cancelledAt, '2026-11-21T12:00:00.000Z');
    await project.dispatch();
    assert.equal(project.currentUnit()?.unitId, T03);
  });
});

describe('prompt paths', () => {
  it('name files through .gsd even when .gsd is a symlink to a folder elsewhere', async () => {
    const real = copySample();
    const project = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-linked-'));
    fs.symlinkSync(path.join(real, '.gsd'), path.join(project, '.gsd'));
    const out = await dispatchNextUnit({ root: project });
    assert.match(out.decision!.prompt, /Read the task plan \(\.gsd\/milestones\/M002-k7q2xz\/slices\/S02\/tasks\/T03-PLAN\.md\)/);
    assert.doesNotMatch(out.decision!.prompt, /\.\.\//);
  });
});

describe('prompt templates', () => {
  it('keep each paragraph on one line: only lists, placeholders and format examples break lines', () => {
    const templates: Array<[string, string]> = [...Object.entries(PROMPTS), ['review-task', REVIEW_TASK], ['fix-task', FIX_TASK]];
    for (const [name, text] of templates) {
      const lines = text.split('\n');
      for (let i = 0; i + 1 < lines.length; i++) {
        const [line, next] = [lines[i], lines[i + 1]];
        const structural = (l: string) => /^(\s*[-*>] |\s*- \[|---|#|\{\{\w+\}\}$|\w+:\s)/.test(l);
        if (line === '' || next === '' || structural(line) || structural(next)) continue;
        assert.fail(`${name}: a sentence is broken across lines ${i + 1}-${i + 2}:\n${line}\n${next}`);
      }
    }
  });
});
