// esbuild plugins shared by the build (esbuild.mjs) and the tests that bundle the CLI.

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
