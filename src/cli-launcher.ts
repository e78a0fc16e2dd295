// `gsd-review` starts here: it runs the command's CLI bundle (cli-main.js, cli-agent-hooks.js for the
// agent-hook commands, cli-gate.js for the successor's review gate: src/cli/cli-parts.ts) with a V8 code cache. Every agent
// event is a fresh process, and compiling the bundle's functions again on each run was about a third
// of our share of `next --json` (npm run bench). The bundle is compiled through vm.Script with the
// cache V8 made after an earlier run, so it holds the functions that ran compiled too. Node's own
// module.enableCompileCache (22.1+) caches at compile time only, before the lazily compiled functions
// exist: on Node 24 `state --json` of a 10,000-task database took 54 ms with it and 46 ms with this
// (`node -e 0`: 23 ms); the v8-compile-cache package caches before running and measured no gain
// either. A missing, stale or unwritable cache only loses the speed-up: the CLI then loads as a
// plain require.
// Named imports: esbuild makes each `import * as` of a builtin a copy of its properties: four
// copies at every start of every `gsd-review` process.
import { isAscii } from 'node:buffer';
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { ESM_IMPORT, type EsmImport } from './core/hooks/engine/esm-import';
import { BUNDLE_OF_PART, commandOf, partOf } from './cli/cli-parts';

const COMMAND = commandOf(process.argv.slice(2));
const BUNDLE = BUNDLE_OF_PART[partOf(COMMAND)];
const MAIN = join(__dirname, BUNDLE);
/** Beside the bundle: owned by whoever installed it, and gone with that version of the bundle. */
const CACHE_DIR = join(__dirname, '.v8-cache');

type Run = () => void;

const plain: Run = () => {
  createRequire(__filename)(MAIN);
};

/**
 * One cache per command: V8 puts in a cache only the functions that ran before it was made, so a
 * cache made by `next` left `state`'s database reader to be compiled on every run (Node 22, 2,000
 * tasks: `state --json` 2.12× `node -e 0` with another command's cache, 1.85× with its own).
 */
function cacheNameOf(command: string | undefined): string {
  if (command === undefined) return 'none';
  return /^[a-z][a-z-]{0,30}$/.test(command) ? command : 'other';
}

/** `cli-main-v20.20.2-x64-`: the bundle's caches for this Node. */
const CACHE_STEM = `${BUNDLE.replace(/\.js$/, '')}-${process.version}-${process.arch}-`;

function saveCodeCache(file: string, build: string, script: Script): void {
  try {
    const data = script.createCachedData();
    mkdirSync(CACHE_DIR, { recursive: true, mode: 0o700 });
    // Written aside and renamed: hooks of one agent session can start several processes at once.
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, data, { mode: 0o600 });
    renameSync(tmp, file);
    // Caches of earlier builds for this Node go; other Node versions and this build's other commands keep theirs.
    for (const name of readdirSync(CACHE_DIR)) {
      if (name.startsWith(CACHE_STEM) && !name.startsWith(CACHE_STEM + build + '-') && !name.endsWith('.tmp')) rmSync(join(CACHE_DIR, name), { force: true });
    }
  } catch {
    // A read-only install: every run compiles, as without a cache.
  }
}

/** What the bundle is compiled inside: a function of the module's five names, as Node's own loader does. */
const WRAP_HEAD = '(function (exports, require, module, __filename, __dirname) { ';
const WRAP_TAIL = '\n});';

/**
 * The bundle as V8 wants it, already inside its function wrapper: read into one buffer between the
 * wrapper's two halves, so the source is one flat string (`Module.wrap` joined three strings, and V8
 * copied the joined 0.3 MB into one before compiling: 0.35 ms, Node 20). Built ASCII-only
 * (esbuild.mjs checks), it becomes a one-byte string, read without UTF-8 decoding, half the bytes for
 * V8 to hash and keep; a non-ASCII byte would make the whole source a two-byte string (1.6 ms more per
 * `next --json`, Node 22). Also the bundle's size and time, which name its code cache.
 */
function readBundle(): { source: string; build: string } {
  const fd = openSync(MAIN, 'r');
  try {
    const stat = fstatSync(fd);
    const size = stat.size;
    const bytes = Buffer.allocUnsafe(WRAP_HEAD.length + size + WRAP_TAIL.length);
    bytes.write(WRAP_HEAD, 0, 'latin1');
    let got = 0;
    while (got < size) {
      const n = readSync(fd, bytes, WRAP_HEAD.length + got, size - got, got);
      if (n === 0) break;
      got += n;
    }
    const end = WRAP_HEAD.length + got;
    bytes.write(WRAP_TAIL, end, 'latin1');
    const text = bytes.subarray(0, end + WRAP_TAIL.length);
    return { source: text.toString(isAscii(text) ? 'latin1' : 'utf8'), build: `${size}-${Math.trunc(stat.mtimeMs)}` };
  } finally {
    closeSync(fd);
  }
}

function withVmCodeCache(): Run {
  const { source, build } = readBundle();
  const cacheFile = join(CACHE_DIR, `${CACHE_STEM}${build}-${cacheNameOf(COMMAND)}.bin`);
  let cached: Buffer | undefined;
  try {
    cached = readFileSync(cacheFile);
  } catch {
    cached = undefined;
  }
  // V8 checks the cache against this exact source and its own version and flags, and says so.
  const script = new Script(source, { filename: MAIN, cachedData: cached });
  if (cached === undefined || script.cachedDataRejected) process.once('exit', () => saveCodeCache(cacheFile, build, script));
  return () => {
    const mod = new Module(MAIN);
    mod.filename = MAIN;
    mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(MAIN));
    const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
    wrapper.call(mod.exports, mod.exports, createRequire(MAIN), mod, MAIN, dirname(MAIN));
    mod.loaded = true;
  };
}

// Functions read from a code cache may have no loader for import() (user hooks may be ES modules);
// this file's own import() has one, and core/esm-import.ts uses it.
const esmImport: EsmImport = (url) => import(url);
(globalThis as Record<symbol, unknown>)[ESM_IMPORT] = esmImport;

let run: Run;
try {
  run = withVmCodeCache();
} catch {
  run = plain;
}
// Outside the try: an error of the CLI itself is the CLI's to report, not a reason to run it twice.
if (!existsSync(MAIN)) {
  // A checkout whose build is partial or stale (dist/ is not committed): say so, not MODULE_NOT_FOUND.
  process.stderr.write(`gsd-review: ${MAIN} is missing: build the CLI with \`npm run build\` in ${dirname(__dirname)}\n`);
  process.exitCode = COMMAND === 'hook' ? 0 : 1;
} else {
  try {
    run();
  } catch (error) {
    // The bundle itself failed to load (damaged): one line, and `hook` still exits 0.
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    process.stderr.write(`gsd-review: cannot start: ${message}\n`);
    process.exitCode = COMMAND === 'hook' ? 0 : 1;
  }
}
