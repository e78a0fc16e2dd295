// Runs one agent host headless in a world, against the scripted model: its own process group, a time
// bound, and the whole group killed afterwards (hook processes and tool shells included).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { World } from './project';
import { CLI } from './project';

export interface HostRun {
  code: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface RunOptions {
  executable: string;
  args: string[];
  world: World;
  env: Record<string, string>;
  timeoutMs: number;
  /** Where to keep stdout/stderr for a failing test (default: the world's folder). */
  label: string;
}

/**
 * Environment of a user's shell, reduced: PATH (for `node`, `git`, `sh`), the temporary HOME, and the
 * pointer to the CLI the hook launcher looks for first (a user of the npm package has `gsd-review`
 * on PATH instead; the launcher then runs the same dist/cli.js).
 */
export function baseEnv(world: World): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: world.home,
    USER: 'e2e',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    TMPDIR: path.join(world.dir, 'tmp'),
    GSD_REVIEW_CLI: CLI,
    NO_COLOR: '1',
  };
}

export function runHost(o: RunOptions): Promise<HostRun> {
  fs.mkdirSync(o.env.TMPDIR ?? path.join(o.world.dir, 'tmp'), { recursive: true });
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(o.executable, o.args, { cwd: o.world.project, env: o.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, o.timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // Background tool shells or hook processes the host left behind go with it.
      killGroup();
      fs.writeFileSync(path.join(o.world.dir, `${o.label}.stdout`), stdout);
      fs.writeFileSync(path.join(o.world.dir, `${o.label}.stderr`), stderr);
      resolve({ code, signal, timedOut, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** The JSON lines a host printed (`--output-format json` / `stream-json`); other lines are skipped. */
export function jsonLines(stdout: string): Array<Record<string, any>> {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, any>];
      } catch {
        return [];
      }
    });
}
