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
import { closeSync, constants, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * A cache file: `GSDC`, the bundle's length (u32 LE), the bundle's bytes, then V8's data. V8 checks a
 * cache against the length of the source only, so a bundle replaced by another of the same length
 * (an update that kept the size and time, a hand edit) ran the old one's compiled functions: the
 * cache is used only for the very bytes it was made from, compared whole (a memcmp; no hash module
 * to load on every start).
 */
const CACHE_MAGIC = 0x43445347;
const CACHE_HEADER = 8;
/** More V8 data than a cache of our bundles holds (about 2 MB): past it, the file is not read. */
const MAX_V8_DATA = 64 * 1024 * 1024;
const READ_CACHE = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * V8's data in the cache file made from `bundle`, or undefined: no file, another bundle's, or not a
 * regular file of a cache's size (a link to /dev/zero, a FIFO, a huge file are never read, and never waited on).
 */
function readCodeCache(file: string, bundle: Buffer): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, READ_CACHE);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    const size = stat.size;
    if (!stat.isFile() || size <= CACHE_HEADER + bundle.length || size > CACHE_HEADER + bundle.length + MAX_V8_DATA) return undefined;
    const data = Buffer.allocUnsafe(size);
    let got = 0;
    while (got < size) {
      const n = readSync(fd, data, got, size - got, got);
      if (n === 0) return undefined;
      got += n;
    }
    if (data.readUInt32LE(0) !== CACHE_MAGIC || data.readUInt32LE(4) !== bundle.length) return undefined;
    return data.subarray(CACHE_HEADER, CACHE_HEADER + bundle.length).equals(bundle) ? data.subarray(CACHE_HEADER + bundle.length) : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function saveCodeCache(file: string, build: string, bundle: Buffer, script: Script): void {
  try {
    const header = Buffer.allocUnsafe(CACHE_HEADER);
    header.writeUInt32LE(CACHE_MAGIC, 0);
    header.writeUInt32LE(bundle.length, 4);
    const data = Buffer.concat([header, bundle, script.createCachedData()]);
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
 * `next --json`, Node 22). Also the bundle's bytes, which its code cache must hold, and its size
 * and time, which name the cache (so caches of two builds do not take each other's place).
 */
function readBundle(): { source: string; bundle: Buffer; build: string } {
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
    return { source: text.toString(isAscii(text) ? 'latin1' : 'utf8'), bundle: bytes.subarray(WRAP_HEAD.length, end), build: `${size}-${Math.trunc(stat.mtimeMs)}` };
  } finally {
    closeSync(fd);
  }
}

function withVmCodeCache(): Run {
  const { source, bundle, build } = readBundle();
  const cacheFile = join(CACHE_DIR, `${CACHE_STEM}${build}-${cacheNameOf(COMMAND)}.bin`);
  const cached = readCodeCache(cacheFile, bundle);
  // V8 checks the cache against its own version and flags (and the source's length), and says so.
  const script = new Script(source, { filename: MAIN, cachedData: cached });
  if (cached === undefined || script.cachedDataRejected) process.once('exit', () => saveCodeCache(cacheFile, build, bundle, script));
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
