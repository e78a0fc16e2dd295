// Builds the CLI bundle once per test run and runs it as a child process, as scripts and agent
// hooks do.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

let built: string | null = null;

export async function buildCli(): Promise<string> {
  if (built) return built;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-cli-'));
  const out = path.join(dir, 'cli.js');
  const repo = path.join(__dirname, '..', '..', '..');
  // The same layout as dist/: the launcher, the CLI's two bundles it starts, and yaml in its own bundle beside them.
  const plugins = (await import(pathToFileURL(path.join(repo, 'scripts', 'esbuild-plugins.mjs')).href)) as {
    separateYaml: esbuild.Plugin;
    grayMatterOwnYaml: esbuild.Plugin;
    vendorYamlBuild(outfile: string): esbuild.BuildOptions;
    CLI_PARTS: Array<{ part: string; file: string }>;
    cliPartDefine(part: string): Record<string, string>;
    cliPartEntry(part: string): string;
  };
  const common = { bundle: true, platform: 'node', target: 'node20', logLevel: 'error' } as const;
  for (const { part, file } of plugins.CLI_PARTS) {
    await esbuild.build({ ...common, entryPoints: [path.join(repo, plugins.cliPartEntry(part))], outfile: path.join(dir, file), define: plugins.cliPartDefine(part), plugins: [plugins.separateYaml, plugins.grayMatterOwnYaml] });
  }
  await esbuild.build({ ...common, entryPoints: [path.join(repo, 'src', 'cli-launcher.ts')], outfile: out });
  await esbuild.build({ ...common, entryPoints: [path.join(repo, 'src', 'hook-entry.ts')], outfile: path.join(dir, 'hook.js') });
  await esbuild.build({ ...plugins.vendorYamlBuild(path.join(dir, 'vendor-yaml.js')), absWorkingDir: repo, logLevel: 'error' });
  built = out;
  return out;
}

export interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
  json: any;
}

export function cli(script: string, args: string[], input?: string, env: NodeJS.ProcessEnv = {}): CliRun {
  const r = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', input, env: { ...process.env, HOME: os.tmpdir(), ...env } });
  let json: unknown = null;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    // not JSON output
  }
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, json };
}
