// esbuild plugins shared by the build (esbuild.mjs) and the tests that bundle the CLI.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// The `yaml` package (half of the CLI bundle) is needed only to write frontmatter. It gets a bundle
// of its own, required at run time from beside the bundle that needs it, so the CLI's read-only
// commands (`next`, `hook`, run on every agent event) start without compiling it.
export const separateYaml = {
  name: 'separate-yaml',
  setup(build) {
    build.onResolve({ filter: /^yaml$/ }, () => ({ path: './vendor-yaml.js', external: true }));
  },
};

/** The bundle `separateYaml` points at, for `outdir`. */
export function vendorYamlBuild(outfile) {
  return { entryPoints: ['node_modules/yaml/dist/index.js'], outfile, bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'warning' };
}

// gray-matter binds its default YAML engine (js-yaml 3, YAML 1.1, plus argparse: ~130 KB) when it
// loads. We always pass our own engine (src/core/parse/gray-matter-frontmatter.ts), so its js-yaml is
// replaced by a stub that says so if it were ever called, and the bundles stay their size.
export const grayMatterOwnYaml = {
  name: 'gray-matter-own-yaml',
  setup(build) {
    build.onResolve({ filter: /^js-yaml$/ }, (args) =>
      /[\\/]gray-matter[\\/]/.test(args.importer) ? { path: 'gray-matter-js-yaml-stub', namespace: 'gray-matter-own-yaml' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'gray-matter-own-yaml' }, () => ({
      contents: "const none = () => { throw new Error('gray-matter: its default YAML engine is not bundled; pass engines.yaml'); };\nmodule.exports = { safeLoad: none, safeDump: none };\n",
      loader: 'js',
    }));
  },
};

// esbuild turns each `import * as fs from 'node:fs'` of a CommonJS bundle into its own copy of the
// module's properties (`__toESM`): 91 copies in the CLI, a few ms of every `gsd-review` process.
// The builtins our sources import whole (path, fs, os) go through one module of the bundle instead,
// which names each export of the builtin (as this Node has them). With the names known, esbuild
// writes `fs.readFileSync` as a property read of the builtin itself: no copy at all (an `export *`
// still copied every property once, as getters: 0.3 ms of each start). A name the builtin lacks
// fails the build. Named imports (`{ parseArgs } from 'node:util'`) are plain requires and stay so.
const builtinExports = (name) => Object.keys(createRequire(import.meta.url)(name)).filter((k) => /^[A-Za-z_$][\w$]*$/.test(k));

export const oneCopyPerBuiltin = {
  name: 'one-copy-per-builtin',
  setup(build) {
    build.onResolve({ filter: /^node:(fs|os|path)$/ }, (args) =>
      args.kind === 'import-statement' && args.namespace === 'file' && !/[\\/]node_modules[\\/]/.test(args.importer) ? { path: args.path, namespace: 'one-copy-per-builtin' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'one-copy-per-builtin' }, (args) => ({
      contents: `export { ${builtinExports(args.path).join(', ')} } from ${JSON.stringify(args.path)};\n`,
      loader: 'js',
    }));
  },
};

/**
 * `gsd-review`'s bundles, named once in src/cli/cli-bundles.json (which the launcher reads too): two
 * from src/cli.ts, each built with GSD_CLI_PART defined so esbuild drops the other part's commands,
 * and the gate's from src/cli-gate.ts.
 */
export const CLI_PARTS = Object.entries(JSON.parse(readFileSync(new URL('../src/cli/cli-bundles.json', import.meta.url), 'utf8'))).map(([part, file]) => ({ part, file }));

/** The entry each bundle is built from: the gate has its own (src/cli-gate.ts); the others src/cli.ts with GSD_CLI_PART. */
export function cliPartEntry(part) {
  return part === 'gate' ? 'src/cli-gate.ts' : 'src/cli.ts';
}

export function cliPartDefine(part) {
  return { GSD_CLI_PART: JSON.stringify(part) };
}
