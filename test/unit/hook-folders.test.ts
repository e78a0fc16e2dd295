// User hook folders (seed 000's shape, docs/hooks.md): a pi extension folder whose
// optional `gsd-hooks.*` file exports the hook definitions. GSD imports `.gsd/extensions/` as pi
// extensions when trusted, so the two loaders must never run each other's code: pi never loads our
// file, and we never load pi's entry. Also the documented export shapes of a hook file, and the
// example hook under examples/ loaded through the real loader.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import ts from 'typescript';
import { afterDispatch, dispatchNextUnit } from './helpers/one-shot-dispatch';
import type { EnabledHook } from '../../src/core/hooks/engine/hook-config';
import { loadHooks, type BuiltinHook, type LoadedHooks } from '../../src/core/hooks/loading/hook-loader';
import { copySample, writeTree } from './helpers/gsd-tree';

const silent = { info: () => undefined, warn: () => undefined };

/**
 * pi's extension discovery as its documentation states it (pi-coding-agent docs/extensions.md,
 * "Discovery rules"): files directly in `extensions/` ending in .ts or .js; a subfolder's
 * `index.ts` or `index.js`; or, when the subfolder's package.json has a `pi` field, the files its
 * `pi.extensions` lists. One level only.
 */
function piDiscovers(extensionsDir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(extensionsDir, { withFileTypes: true })) {
    const p = path.join(extensionsDir, e.name);
    if (e.isFile() && /\.(ts|js)$/.test(e.name)) out.push(p);
    if (!e.isDirectory()) continue;
    const pkgFile = path.join(p, 'package.json');
    const pkg = fs.existsSync(pkgFile) ? (JSON.parse(fs.readFileSync(pkgFile, 'utf8')) as { pi?: { extensions?: string[] } }) : {};
    if (pkg.pi) out.push(...(pkg.pi.extensions ?? []).map((x) => path.resolve(p, x)));
    else {
      const index = ['index.ts', 'index.js'].map((n) => path.join(p, n)).find((f) => fs.existsSync(f));
      if (index) out.push(index);
    }
  }
  return out;
}

function user(name: string, source = name): EnabledHook {
  return { name, kind: 'user', source, options: {} };
}

/** A `.gsd` with `extensions/<folder>/…` files, and a marker file pi's entry writes if anyone runs it. */
function gsdWith(files: Record<string, string>): { gsdDir: string; marker: string } {
  const root = writeTree(Object.fromEntries(Object.entries(files).map(([rel, text]) => [path.join('.gsd', 'extensions', rel), text])));
  return { gsdDir: path.join(root, '.gsd'), marker: path.join(root, 'pi-entry-ran') };
}

const piEntry = (marker: string) => `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\nmodule.exports = function (pi) { pi.on('session_start', () => undefined); };\n`;

const decides = (name: string, prompt: string) =>
  `module.exports = function (api) {\n  api.registerHook(${JSON.stringify(name)}, async (ctx, next) => { ctx.decision = { unitType: 'plan-slice', unitId: 'M001/S01', prompt: ${JSON.stringify(prompt)} }; await next(); });\n};\n`;

async function load(gsdDir: string, hooks: EnabledHook[], trusted = true, userHooksDir = path.join(gsdDir, 'no-user-hooks')): Promise<LoadedHooks> {
  return loadHooks(hooks, { gsdDir, builtins: [], trusted, userHooksDir, log: silent });
}

describe('user hook folders', () => {
  it('loads gsd-hooks.js from a pi extension folder and never runs pi\'s index.js; pi never discovers gsd-hooks.js', async () => {
    const { gsdDir, marker } = gsdWith({ 'policy/index.js': '', 'policy/gsd-hooks.js': decides('policy', 'from gsd-hooks') });
    fs.writeFileSync(path.join(gsdDir, 'extensions', 'policy', 'index.js'), piEntry(marker));
    const loaded = await load(gsdDir, [user('policy')]);
    assert.deepEqual(loaded.loaded, [{ name: 'policy', kind: 'user', from: path.join(gsdDir, 'extensions', 'policy', 'gsd-hooks.js') }]);
    assert.deepEqual(loaded.registry.ordered().map((r) => r.name), ['policy']);
    assert.equal(fs.existsSync(marker), false, "pi's entry ran");
    const pi = piDiscovers(path.join(gsdDir, 'extensions'));
    assert.deepEqual(pi, [path.join(gsdDir, 'extensions', 'policy', 'index.js')]);
  });

  it('skips a folder with only pi\'s entry, saying which file it looks for, and never runs that entry', async () => {
    const { gsdDir, marker } = gsdWith({ 'only-pi/index.js': '' });
    fs.writeFileSync(path.join(gsdDir, 'extensions', 'only-pi', 'index.js'), piEntry(marker));
    fs.writeFileSync(path.join(gsdDir, 'extensions', 'only-pi', 'package.json'), JSON.stringify({ main: 'index.js' }));
    const loaded = await load(gsdDir, [user('only-pi')]);
    assert.deepEqual(loaded.loaded, []);
    assert.match(loaded.skipped[0].reason, /has no gsd-hooks\.js, gsd-hooks\.cjs, gsd-hooks\.mjs; its index file is pi's entry/);
    assert.equal(fs.existsSync(marker), false, "pi's entry ran");
  });

  it('refuses a gsd-hooks file that pi\'s manifest lists (GSD would run it with its API), and one left as TypeScript', async () => {
    const { gsdDir } = gsdWith({
      'listed/gsd-hooks.js': decides('listed', 'x'),
      'listed/package.json': JSON.stringify({ pi: { extensions: ['./gsd-hooks.js'] } }),
      'uncompiled/gsd-hooks.ts': 'export default function () {}\n',
      'both/gsd-hooks.js': decides('both', 'x'),
      'both/gsd-hooks.mjs': 'export default function () {}\n',
    });
    const loaded = await load(gsdDir, [user('listed'), user('uncompiled'), user('both')]);
    assert.deepEqual(loaded.loaded, []);
    assert.match(loaded.skipped[0].reason, /gsd-hooks\.js is listed in package\.json's pi\.extensions, so GSD runs it as a pi extension/);
    assert.ok(piDiscovers(path.join(gsdDir, 'extensions')).includes(path.join(gsdDir, 'extensions', 'listed', 'gsd-hooks.js')));
    assert.match(loaded.skipped[1].reason, /gsd-hooks\.ts is not loaded as it is: compile it to gsd-hooks\.js/);
    assert.match(loaded.skipped[2].reason, /has gsd-hooks\.js and gsd-hooks\.mjs; keep one/);
  });

  it('runs workspace hook folders only in a trusted workspace; user-level folders (~/.gsd/agent/extensions) also untrusted', async () => {
    const { gsdDir } = gsdWith({ 'ws/gsd-hooks.js': decides('ws', 'workspace') });
    const userDir = writeTree({ 'mine/gsd-hooks.mjs': "export function register(api) { api.registerHook('mine', async (ctx, next) => next()); }\n" });
    const untrusted = await load(gsdDir, [user('ws'), user('mine')], false, userDir);
    assert.deepEqual(untrusted.skipped, [{ name: 'ws', reason: 'hook code from the workspace runs only in a trusted workspace' }]);
    assert.deepEqual(untrusted.loaded.map((l) => [l.name, l.from]), [['mine', path.join(userDir, 'mine', 'gsd-hooks.mjs')]]);
    const trusted = await load(gsdDir, [user('ws')], true, userDir);
    assert.deepEqual(trusted.loaded.map((l) => l.name), ['ws']);
  });

  it('loads a gsd-hooks.js that is ES module code ("type": "module" in the folder\'s package.json)', async () => {
    const { gsdDir } = gsdWith({
      'esm/package.json': JSON.stringify({ type: 'module' }),
      'esm/gsd-hooks.js': "export default function (api) { api.registerHook('esm', async (ctx, next) => next()); }\n",
    });
    const loaded = await load(gsdDir, [user('esm')]);
    assert.deepEqual([loaded.loaded.map((l) => l.name), loaded.skipped], [['esm'], []]);
  });
});

describe('hook file export shapes', () => {
  const provider = "{ name: 'p', async onStop() { return null; } }";
  const shapes: Array<[string, string, string]> = [
    ['CommonJS module.exports = function', "module.exports = function (api) { api.registerHook('s', async (c, n) => n()); };", 'js'],
    ['ESM default function', "export default function (api) { api.registerHook('s', async (c, n) => n()); }", 'mjs'],
    ['named register', "exports.register = (api, options) => api.registerHook('s', async (c, n) => n(), { priority: options.p });", 'js'],
    ['provider alone', `exports.provider = ${provider};`, 'js'],
    ['register and provider', `export function register(api) { api.registerHook('s', async (c, n) => n()); }\nexport const provider = ${provider};`, 'mjs'],
  ];
  for (const [label, code, ext] of shapes) {
    it(`accepts ${label}`, async () => {
      const { gsdDir } = gsdWith({ [`s/gsd-hooks.${ext}`]: code + '\n' });
      const loaded = await load(gsdDir, [user('s')]);
      assert.deepEqual(loaded.skipped, []);
      assert.equal(loaded.registry.has('s'), code.includes('registerHook'));
      assert.equal(loaded.providers.length, code.includes('provider') ? 1 : 0);
    });
  }

  const refused: Array<[string, string, RegExp]> = [
    ['a provider under another name', `exports.hooksProvider = ${provider};`, /exports `hooksProvider`; export a default function, a function named `register`, or an object named `provider` \(`hooksProvider` is not read: name it `provider`\)/],
    ['a default object', `export default { provider: ${provider} };`, /its default export is object, not a function/],
    ['both a default function and register', 'export default function () {}\nexport function register() {}', /exports both a default function and `register`; export one of them/],
    ['nothing of use', 'exports.helper = 1;', /exports `helper`; export a default function/],
    ['a provider method no event calls', "exports.provider = { async onStopp() { return null; } };", /`provider` has onStopp, which no lifecycle event calls \(known: onSessionStart, /],
    ['a register that is not a function', "exports.register = 'yes';", /`register` is string, not a function/],
  ];
  for (const [label, code, reason] of refused) {
    it(`refuses ${label}, saying what to export`, async () => {
      const ext = code.includes('export ') ? 'mjs' : 'js';
      const { gsdDir } = gsdWith({ [`s/gsd-hooks.${ext}`]: code + '\n' });
      const loaded = await load(gsdDir, [user('s')]);
      assert.deepEqual(loaded.loaded, []);
      assert.equal(loaded.skipped.length, 1);
      assert.match(loaded.skipped[0].reason, reason);
    });
  }
});

describe('the example hook (examples/hooks/attempt-limit)', () => {
  it('loads through the real loader and sends a task executed max_attempts times back to replan-slice', async function () {
    this.timeout(60_000);
    const root = copySample();
    const source = fs.readFileSync(path.join(__dirname, '..', '..', 'examples', 'hooks', 'attempt-limit', 'gsd-hooks.ts'), 'utf8');
    // What the example's README comment tells its author to do: compile it to gsd-hooks.js.
    const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
    const dir = path.join(root, '.gsd', 'extensions', 'attempt-limit');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'gsd-hooks.js'), js);
    fs.rmSync(path.join(root, '.gsd', 'gsd-review-loop.yaml'), { force: true }); // gsd_hooks below, not the sample's settings
    fs.writeFileSync(path.join(root, '.gsd', 'PREFERENCES.md'), '---\ngsd_hooks:\n  enabled:\n    - name: attempt-limit\n      source: attempt-limit\n      options: { max_attempts: 2 }\n---\n');
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-no-user-hooks-'));
    const opts = { root, trusted: true, apply: true, userHooksDir: home };
    const T03 = 'M002-k7q2xz/S02/T03';

    for (let attempt = 1; attempt <= 2; attempt++) {
      const out = await dispatchNextUnit(opts);
      assert.deepEqual(out.hooks.loaded.map((l) => l.name), ['attempt-limit']);
      assert.deepEqual([out.decision?.unitType, out.decision?.unitId, out.decision?.source], ['execute-task', T03, 'default'], `attempt ${attempt}`);
      await afterDispatch(opts);
    }
    const limited = await dispatchNextUnit(opts);
    assert.deepEqual([limited.decision?.unitType, limited.decision?.unitId, limited.decision?.source], ['replan-slice', 'M002-k7q2xz/S02', 'attempt-limit']);
    assert.match(limited.decision!.prompt, /Task T03 \(".+"\) was executed 2 times without being finished/);
    // Once its replan finished, the task is counted afresh.
    await afterDispatch(opts);
    const after = await dispatchNextUnit({ ...opts, apply: false });
    assert.deepEqual([after.decision?.unitType, after.decision?.unitId], ['execute-task', T03]);
  });
});

describe('hook code and the CLI deadline', () => {
  it('says before each hook module from a folder runs, and never for built-in hooks or skipped folders', async () => {
    const { gsdDir, marker } = gsdWith({
      'ran/gsd-hooks.js': '',
      'pi-only/index.js': piEntry(path.join(os.tmpdir(), 'unused-pi')),
    });
    // Its first line leaves the marker (known once the tree exists).
    fs.writeFileSync(path.join(gsdDir, 'extensions', 'ran', 'gsd-hooks.js'), `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\nmodule.exports = (api) => api.registerHook('ran', async (ctx, next) => next());\n`);
    const calls: boolean[] = [];
    const builtin = { name: 'review-loop', register: (api: Parameters<BuiltinHook['register']>[0]) => api.registerHook('review-loop', async (_ctx, next) => next()) };
    const hooks = [{ name: 'review-loop', kind: 'builtin' as const, options: {} }, user('ran'), user('pi-only'), user('missing')];
    const loaded = await loadHooks(hooks, { gsdDir, builtins: [builtin], trusted: true, userHooksDir: path.join(gsdDir, 'none'), log: silent, beforeHookCode: () => calls.push(fs.existsSync(marker)) });
    assert.deepEqual(loaded.loaded.map((h) => h.name), ['review-loop', 'ran']);
    // The chain times hook-folder code, not ours (runMiddleware): the loader, not the hook, says which is which.
    assert.deepEqual(loaded.registry.ordered().map((h) => [h.name, h.builtin]), [['review-loop', true], ['ran', false]]);
    // Once, for the one module that ran, and before its first line ran.
    assert.deepEqual(calls, [false]);
    assert.ok(fs.existsSync(marker));
    // Untrusted, the workspace's module is skipped unread: nothing to guard.
    const untrusted: boolean[] = [];
    await loadHooks([user('ran')], { gsdDir, builtins: [], trusted: false, userHooksDir: path.join(gsdDir, 'none'), log: silent, beforeHookCode: () => untrusted.push(true) });
    assert.deepEqual(untrusted, []);
  });
});
