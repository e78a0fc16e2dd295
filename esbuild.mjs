// Builds the extension, the CLI, the integration tests and the hook authors' dist/gsd-hooks.d.ts. `--production` minifies (with source
// maps), `--watch` rebuilds on change.
import * as esbuild from 'esbuild';
import { isAscii } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';
import { CLI_PARTS, cliPartDefine, cliPartEntry, grayMatterOwnYaml, oneCopyPerBuiltin, separateYaml, vendorYamlBuild } from './scripts/esbuild-plugins.mjs';
import { bundleHookTypes, HOOK_TYPES_FILE } from './scripts/hook-types.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'linked',
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
  // Node 20 and VS Code's Electron read `\p{…}` in regular expressions. Told otherwise, esbuild turns
  // such a literal into `new RegExp(…)`, which it cannot drop when unused: valibot's emoji pattern
  // was compiled at every start of the CLI (0.2 ms) and of the extension, and we never use it.
  supported: { 'regexp-unicode-property-escapes': true },
};

function listTests(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => path.join(dir, f));
}

const builds = [
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'], plugins: [separateYaml, grayMatterOwnYaml] },
  { ...vendorYamlBuild('dist/vendor-yaml.js'), minify: production },
  // The CLI must never pull in vscode; marking it external would hide such an import, so it is not.
  ...CLI_PARTS.map(({ part, file }) => ({ ...common, entryPoints: [cliPartEntry(part)], outfile: `dist/${file}`, define: cliPartDefine(part), plugins: [separateYaml, grayMatterOwnYaml, oneCopyPerBuiltin] })),
  // `gsd-review` itself: starts the command's bundle with a V8 code cache (src/cli-launcher.ts).
  { ...common, entryPoints: ['src/cli-launcher.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  // What the agent-hook launcher runs: answers from the answer cache, else starts cli.js (src/hook-entry.ts).
  { ...common, entryPoints: ['src/hook-entry.ts'], outfile: 'dist/hook.js', plugins: [oneCopyPerBuiltin] },
  {
    ...common,
    sourcemap: 'inline',
    minify: false,
    entryPoints: ['test/integration/index.ts', 'test/integration/successor-fixture.ts', ...listTests('test/integration')],
    outbase: 'test/integration',
    outdir: 'dist/test/integration',
    // mocha is resolved from node_modules at run time: bundling it breaks its reporter loading.
    external: ['vscode', 'mocha'],
  },
  {
    ...common,
    sourcemap: false,
    minify: false,
    entryPoints: ['bench/bench.ts', 'bench/read-every-file-main.ts', 'bench/database-bench-main.ts', 'bench/generate-tree-main.ts'],
    outdir: 'dist/bench',
  },
];

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('esbuild: watching src/ and test/integration/ …');
} else {
  fs.rmSync('dist', { recursive: true, force: true });
  await Promise.all(builds.map((b) => esbuild.build(b)));
  fs.chmodSync('dist/cli.js', 0o755);
  // The launcher reads the CLI bundle as a one-byte string only when it is ASCII (src/cli-launcher.ts).
  // Minified, esbuild escapes non-ASCII text except inside regular expressions: those are written as
  // \u escapes. (A development build keeps comments, some not ASCII: it starts a little slower.)
  for (const { file } of CLI_PARTS) {
    const bundle = fs.readFileSync(`dist/${file}`);
    if (production && !isAscii(bundle)) {
      const at = bundle.findIndex((b) => b > 0x7f);
      throw new Error(`dist/${file} is not ASCII (byte ${at}: …${bundle.subarray(Math.max(0, at - 40), at + 8).toString('utf8')}…): write that character as a \\u escape in the source`);
    }
  }
  // Hook authors' declarations (the front door, one file); not in --watch, where only code changes.
  fs.writeFileSync(path.join('dist', HOOK_TYPES_FILE), bundleHookTypes());
}
