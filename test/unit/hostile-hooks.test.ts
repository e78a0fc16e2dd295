// User hooks that misbehave, run through the real CLI as agents and scripts run it: a middleware that
// never settles or keeps the process alive, a later hook rewriting an earlier decision, a second
// next() nobody awaits, a throwing timer, a cyclic or BigInt answer, a reader that closes our stdout.
// Each case runs in a child process with a hard timeout, so a regression fails instead of hanging.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildCli } from './helpers/cli';
import { copySample } from './helpers/gsd-tree';

/** Budget the CLI is given for the hook chain in these tests (GSD_HOOK_BUDGET_MS). */
const BUDGET_MS = 600;
/** Hard limit of one child process: well above the budget, far below "hangs". */
const KILL_AFTER_MS = 15_000;

interface Run {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** The sample project with one workspace hook (`.gsd/extensions/<name>/gsd-hooks.js`) enabled first. */
function projectWithHook(source: string, name = 'hostile', extra: Record<string, string> = {}): string {
  const root = copySample();
  const write = (hook: string, code: string) => {
    const dir = path.join(root, '.gsd', 'extensions', hook);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'gsd-hooks.js'), code);
  };
  write(name, source);
  for (const [hook, code] of Object.entries(extra)) write(hook, code);
  const hooks = [name, ...Object.keys(extra)].map((h, i) => `    - name: ${h}\n      source: ${h}\n      priority: ${i + 1}\n`).join('');
  fs.writeFileSync(path.join(root, '.gsd', 'PREFERENCES.md'), `---\ngsd_hooks:\n  enabled:\n${hooks}    - name: review-loop\n      priority: 10\n---\n`);
  fs.rmSync(path.join(root, '.gsd', 'gsd-review-loop.yaml'), { force: true });
  return root;
}

function run(cli: string, args: string[], input = '', budgetMs = BUDGET_MS): Run {
  const t = Date.now();
  const r = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    input,
    timeout: KILL_AFTER_MS,
    env: { ...process.env, HOME: os.tmpdir(), GSD_HOOK_BUDGET_MS: String(budgetMs) },
  });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, ms: Date.now() - t };
}

function assertOneLineError(r: Run, pattern: RegExp): void {
  assert.equal(r.signal, null, `killed after ${KILL_AFTER_MS} ms: the process did not exit`);
  assert.doesNotMatch(r.stderr, /\n\s+at /, `stack trace on stderr:\n${r.stderr}`);
  const lines = r.stderr.trim().split('\n');
  assert.ok(lines.some((l) => pattern.test(l)), `no line matching ${pattern} in:\n${r.stderr}`);
}

const sessionStart = JSON.stringify({ hook_event_name: 'SessionStart', session_id: 's1', cwd: '.', source: 'startup' });

describe('hooks within a budget (class 8)', function () {
  this.timeout(60_000);
  let cli: string;
  before(async () => {
    cli = await buildCli();
  });

  it('a middleware that never settles ends `next --json` in one line within the budget (not a silent exit 0)', () => {
    const root = projectWithHook(`module.exports = (api) => api.registerHook('hostile', () => new Promise(() => {}));\n`);
    const r = run(cli, ['next', '--json', '--root', root]);
    assert.equal(r.status, 1, r.stderr);
    assertOneLineError(r, new RegExp(`hook hostile did not finish within ${BUDGET_MS} ms`));
    // The budget given is the one that ended it: another budget, another line.
    const other = run(cli, ['next', '--json', '--root', root], '', 250);
    assert.equal(other.status, 1, other.stderr);
    assertOneLineError(other, /hook hostile did not finish within 250 ms/);
  });

  it('a middleware that never settles and keeps a timer alive is given up after the budget', () => {
    const root = projectWithHook(`module.exports = (api) => api.registerHook('hostile', () => new Promise(() => { setInterval(() => {}, 50); }));\n`);
    const r = run(cli, ['next', '--json', '--root', root]);
    assert.equal(r.status, 1, r.stderr);
    assertOneLineError(r, new RegExp(`hook hostile did not finish within ${BUDGET_MS} ms`));
    assert.ok(r.ms < KILL_AFTER_MS / 2, `took ${r.ms} ms`);
  });

  it('a middleware that answers but leaves an interval running does not keep `next` alive', () => {
    const root = projectWithHook(`module.exports = (api) => api.registerHook('hostile', async (ctx, next) => { setInterval(() => {}, 50); await next(); });\n`);
    const r = run(cli, ['next', '--json', '--root', root]);
    assert.equal(r.signal, null, 'the process never exited');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).source, 'review-loop');
  });

  it('a lifecycle provider that answers but leaves an interval running does not keep `hook` alive', () => {
    const root = projectWithHook(`module.exports = (api) => api.registerProvider({ name: 'chatty', async onSessionStart() { setInterval(() => {}, 50); return { additionalContext: 'hello from chatty' }; } });\n`);
    const r = run(cli, ['hook', '--root', root], sessionStart);
    assert.equal(r.signal, null, 'the hook process never exited');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /hello from chatty/);
  });

  it('a later hook cannot rewrite the unit an earlier hook decided', () => {
    const first = `module.exports = (api) => api.registerHook('first', async (ctx, next) => {
  ctx.decision = { unitType: 'execute-task', unitId: 'M002-k7q2xz/S02/T02', prompt: 'do T02', data: { pick: 'T02' } };
  await next();
});\n`;
    // Not strict mode: a write to a frozen object is silently ignored there, which is what we check.
    const rewriter = `module.exports = (api) => api.registerHook('rewriter', async (ctx, next) => {
  try { ctx.decision.unitId = 'M001/S01/T01'; ctx.decision.prompt = 'rm -rf'; ctx.decision.data.pick = 'evil'; } catch (e) {}
  await next();
});\n`;
    const root = projectWithHook(first, 'first', { rewriter });
    const r = run(cli, ['next', '--json', '--root', root]);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual([out.source, out.unitId, out.prompt, out.data], ['first', 'M002-k7q2xz/S02/T02', 'do T02', { pick: 'T02' }]);
  });
});

describe('errors in one line (class 9)', function () {
  this.timeout(60_000);
  let cli: string;
  before(async () => {
    cli = await buildCli();
  });

  it('an unawaited second next() is one line, not an unhandled-rejection stack trace', () => {
    const root = projectWithHook(`module.exports = (api) => api.registerHook('hostile', async (ctx, next) => { next(); next(); });\n`);
    const r = run(cli, ['next', '--json', '--root', root]);
    assert.equal(r.status, 1, r.stderr);
    assertOneLineError(r, /hook hostile called next\(\) twice/);
  });

  it('a timer that throws is one line; in `hook` the exit code stays 0', () => {
    const mw = `module.exports = (api) => {
  api.registerHook('hostile', async (ctx, next) => { setTimeout(() => { throw new Error('boom from a timer'); }, 0); await new Promise((r) => setTimeout(r, 100)); await next(); });
  api.registerProvider({ name: 'hostile', async onSessionStart() { setTimeout(() => { throw new Error('boom from a timer'); }, 0); await new Promise((r) => setTimeout(r, 100)); return null; } });
};\n`;
    const root = projectWithHook(mw);
    const next = run(cli, ['next', '--json', '--root', root]);
    assert.equal(next.status, 1, next.stderr);
    assertOneLineError(next, /boom from a timer/);
    const hook = run(cli, ['hook', '--root', root], sessionStart);
    assert.equal(hook.status, 0, hook.stderr);
    assertOneLineError(hook, /boom from a timer/);
  });

  it('a cyclic or BigInt decision is one line naming the hook', () => {
    for (const data of ['(() => { const o = {}; o.self = o; return o; })()', '{ big: 10n }']) {
      const root = projectWithHook(`module.exports = (api) => api.registerHook('hostile', async (ctx, next) => {
  ctx.decision = { unitType: 'execute-task', unitId: 'M002-k7q2xz/S02/T02', prompt: 'x', data: ${data} };
  await next();
});\n`);
      const r = run(cli, ['next', '--json', '--root', root]);
      assert.equal(r.status, 1, r.stderr);
      assertOneLineError(r, /hook hostile decided with data that is not plain data/);
    }
  });

  it('`hook` exits 0 on options it does not know (never 2, which would block the agent)', () => {
    const r = run(cli, ['hook', '--no-such-option'], sessionStart);
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  });

  it('a reader that closes our stdout (EPIPE) gets no stack trace, and `hook` still exits 0', async () => {
    const root = copySample();
    // A long answer, so the write meets the closed pipe.
    const big = JSON.stringify({ hook_event_name: 'SessionStart', session_id: 's1', cwd: root, source: 'startup' });
    // A witness loaded before the CLI notes each error of a write to fd 1, so the test sees that the
    // answer did meet the closed pipe (not that nothing was written at all).
    const witnessDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-epipe-'));
    const witness = path.join(witnessDir, 'witness.js');
    fs.writeFileSync(
      witness,
      `const fs = require('node:fs');
const note = (code) => fs.appendFileSync(process.env.GSD_TEST_WRITE_ERRORS, String(code) + '\\n');
const write = fs.writeSync;
fs.writeSync = function (fd, ...rest) {
  try { return write.call(this, fd, ...rest); } catch (e) { if (fd === 1) note(e.code); throw e; }
};
// process.stdout stays lazy (made on first use, as without the witness); its failed writes are noted too.
const d = Object.getOwnPropertyDescriptor(process, 'stdout');
let stream;
Object.defineProperty(process, 'stdout', { configurable: true, enumerable: d.enumerable, get() {
  if (!stream) {
    stream = d.get.call(process);
    const write = stream._write;
    stream._write = function (chunk, encoding, done) {
      return write.call(this, chunk, encoding, (e) => { if (e) note(e.code); done(e); });
    };
  }
  return stream;
} });
`,
    );
    for (const args of [['state', '--json', '--full', '--root', root], ['hook', '--root', root]]) {
      const errors = path.join(witnessDir, `${args[0]}.log`);
      const r = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
        const child = spawn(process.execPath, ['--require', witness, cli, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, HOME: os.tmpdir(), GSD_TEST_WRITE_ERRORS: errors } });
        let stderr = '';
        child.stderr.on('data', (d) => (stderr += d));
        child.stdout.destroy();
        child.stdin.end(big);
        const killer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
        child.on('error', reject);
        child.on('close', (code) => {
          clearTimeout(killer);
          resolve({ code, stderr });
        });
      });
      assert.doesNotMatch(r.stderr, /\n\s+at /, `${args[0]}: stack trace:\n${r.stderr}`);
      assert.equal(fs.existsSync(errors) ? fs.readFileSync(errors, 'utf8') : '(no write failed)', 'EPIPE\n', `${args[0]}: the answer never met the closed pipe`);
      if (args[0] === 'hook') assert.equal(r.code, 0, r.stderr);
      else assert.match(r.stderr, /^gsd-review: cannot write the answer: EPIPE/, r.stderr);
    }
  });
});
