// Builds the CLI bundle once per test run and runs it as a child process, as scripts and agent
// hooks do.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

let built: string | null = null;

export async function buildCli(): Promise<string> {
  if (built) return built;
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-cli-')), 'cli.js');
  await esbuild.build({ entryPoints: [path.join(__dirname, '..', '..', '..', 'src', 'cli.ts')], bundle: true, platform: 'node', target: 'node20', outfile: out, logLevel: 'error' });
  built = out;
  return out;
}

export interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
  json: any;
}

export function cli(script: string, args: string[], input?: string): CliRun {
  const r = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', input, env: { ...process.env, HOME: os.tmpdir() } });
  let json: unknown = null;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    // not JSON output
  }
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, json };
}
