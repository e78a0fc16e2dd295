// Type-level tests of the hook authors' declarations, as the build ships them (dist/gsd-hooks.d.ts,
// bundled by scripts/hook-types.mjs): hook sources are compiled against that file with the
// TypeScript compiler API, and the test asserts which ones compile and which errors the wrong ones
// get. Declaration merging must type `ctx.store` per unit and the project-wide summary.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import ts from 'typescript';

const REPO = path.resolve(__dirname, '..', '..');
const EXAMPLE = path.join(REPO, 'examples', 'hooks', 'attempt-limit', 'gsd-hooks.ts');

let typesFile = '';

/** Compiles `files` (name → source) in one program with `gsd-review-loop/hooks` mapped to the shipped `.d.ts`. */
function compile(files: Record<string, string>): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-hook-types-'));
  const names = Object.entries(files).map(([name, text]) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  });
  const program = ts.createProgram(names, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    types: [],
    baseUrl: dir,
    paths: { 'gsd-review-loop/hooks': [typesFile] },
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1} ` : '';
    return `${where}TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}

/** A hook module declaring `counter`'s per-unit and project-wide state, with `body` inside register(). */
function counterHook(body: string): string {
  return `import type { HookApi, GSDMiddleware } from 'gsd-review-loop/hooks';
export interface CounterState { count: number }
declare module 'gsd-review-loop/hooks' {
  interface GSDUnitExtensions { counter: CounterState }
  interface GSDStateExtensions { counter: { total: number } }
}
export default function register(api: HookApi): void {
${body}
}
`;
}

describe('hook authors\' declarations (dist/gsd-hooks.d.ts)', function () {
  this.timeout(120_000);

  before(async () => {
    // The same bundler call the build makes (esbuild.mjs), into a file of this test's own.
    const { bundleHookTypes } = (await import(path.join(REPO, 'scripts', 'hook-types.mjs'))) as { bundleHookTypes: () => string };
    typesFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-hooks-dts-')), 'gsd-hooks.d.ts');
    fs.writeFileSync(typesFile, bundleHookTypes());
  });

  it('is one self-contained file: no imports of our internal modules, and it compiles on its own', () => {
    const text = fs.readFileSync(typesFile, 'utf8');
    assert.doesNotMatch(text, /^import .* from '\.{1,2}\//m);
    assert.deepEqual(compile({ 'use.ts': `import type { GSDState, HooksProvider, MiddlewareContext } from 'gsd-review-loop/hooks';\nexport type T = [GSDState, HooksProvider, MiddlewareContext];\n` }), []);
  });

  it('compiles the example hook under examples/ with no error', () => {
    assert.deepEqual(compile({ 'gsd-hooks.ts': fs.readFileSync(EXAMPLE, 'utf8') }), []);
  });

  it('types ctx.store by the hook name: a well-typed hook compiles', () => {
    const ok = counterHook(`  api.registerHook('counter', async (ctx, next) => {
    const n = ctx.store.get('M001')?.count ?? 0;
    ctx.store.set('M001', { count: n + 1 });
    await next();
  }, { summarize: () => ({ total: 1 }) });`);
    assert.deepEqual(compile({ 'ok.ts': ok }), []);
  });

  it('refuses to compile a hook that stores a number where its declared object belongs', () => {
    const wrong = counterHook(`  api.registerHook('counter', async (ctx, next) => {
    ctx.store.set('M001', 42);
    await next();
  });`);
    const errors = compile({ 'wrong.ts': wrong });
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0], /^wrong\.ts:9 TS2345 Argument of type 'number' is not assignable to parameter of type 'CounterState'/);
  });

  it('refuses a middleware written for another state type, and a summary of the wrong shape', () => {
    const wrongMiddleware = counterHook(`  const mw: GSDMiddleware<{ seen: string }> = async (_ctx, next) => next();
  api.registerHook('counter', mw);`);
    const errors = compile({ 'mw.ts': wrongMiddleware });
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0], /^mw\.ts:9 TS2345 Argument of type 'GSDMiddleware<\{ seen: string; \}>' is not assignable to parameter of type 'GSDMiddleware<CounterState>'/);

    const wrongSummary = counterHook(`  api.registerHook('counter', async (_ctx, next) => next(), { summarize: () => ({ total: 'all' }) });`);
    const summaryErrors = compile({ 'summary.ts': wrongSummary });
    assert.equal(summaryErrors.length, 1, summaryErrors.join('\n'));
    assert.match(summaryErrors[0], /^summary\.ts:8 TS2322 .*The types of 'total' are incompatible between these types\. +Type 'string' is not assignable to type 'number'/);
  });

  it('types state.extensions by the declared project-wide view', () => {
    const reader = counterHook(`  api.registerHook('counter', async (ctx, next) => {
    const total: string = ctx.state.extensions.counter?.total ?? '';
    void total;
    await next();
  });`);
    const errors = compile({ 'reader.ts': reader });
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0], /^reader\.ts:9 TS2322 Type 'number \| ""' is not assignable to type 'string'/);
  });

  it('leaves the store of a hook that declared nothing as unknown (it must check what it reads)', () => {
    const untyped = `import type { HookApi } from 'gsd-review-loop/hooks';
export default function register(api: HookApi): void {
  api.registerHook('plain', async (ctx, next) => {
    const n: number = ctx.store.get('M001');
    void n;
    await next();
  });
}
`;
    const errors = compile({ 'plain.ts': untyped });
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0], /^plain\.ts:4 TS2322 Type 'unknown' is not assignable to type 'number'/);
  });
});
