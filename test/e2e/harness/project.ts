// One run's world: a temporary HOME and a fresh git copy of sample-project/, with the hooks installed
// the way a user installs them (`gsd-review install-hooks --host …` from dist/). Everything lives in
// one temporary folder that `dispose` removes.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { copyTracked } from '../../../scripts/vscode-host/tracked-copy.cjs';

export const REPO = path.resolve(__dirname, '..', '..', '..');
export const CLI = path.join(REPO, 'dist', 'cli.js');

export const S02 = '.gsd/milestones/M002-k7q2xz/slices/S02';
export const S02_TASKS = `${S02}/tasks`;

export interface World {
  dir: string;
  home: string;
  /** The project (a git repository), by its real path. */
  project: string;
  file(rel: string): string;
  read(rel: string): string | null;
  exists(rel: string): boolean;
  /** Paths git sees changed or added since the fixture's commit (porcelain, untracked files listed one by one). */
  changedFiles(): string[];
  dispose(): void;
}

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: cwd } });
}

/**
 * A fresh copy of the sample; `prepare` changes it before the fixture commit (e.g. takes task T02
 * back to before it ran). Not yet any hooks: see `installHooks`.
 */
export function makeWorld(prepare?: (project: string) => void): World {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: build first (node esbuild.mjs)`);
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-e2e-')));
  const home = path.join(dir, 'home');
  const project = path.join(dir, 'ledgerline');
  fs.mkdirSync(home);
  copyTracked('sample-project', project);
  prepare?.(project);
  git(project, ['init', '-q', '-b', 'main']);
  git(project, ['add', '-A']);
  git(project, ['-c', 'user.email=e2e@example.invalid', '-c', 'user.name=e2e', 'commit', '-q', '-m', 'fixture']);
  const abs = (rel: string) => path.join(project, rel);
  return {
    dir,
    home,
    project,
    file: abs,
    read: (rel) => (fs.existsSync(abs(rel)) ? fs.readFileSync(abs(rel), 'utf8') : null),
    exists: (rel) => fs.existsSync(abs(rel)),
    changedFiles: () =>
      git(project, ['status', '--porcelain', '--untracked-files=all'])
        .split('\n')
        .filter(Boolean)
        .map((l) => l.slice(3)),
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * `gsd-review install-hooks --host H` in the project, as a user runs it, and commits what it wrote;
 * `user`: `--user` as well (the hooks in the temporary HOME, for every folder).
 */
export function installHooks(world: World, host: 'claude' | 'copilot-cli', o: { user?: boolean } = {}): string {
  const install = (extra: string[]) =>
    execFileSync(process.execPath, [CLI, 'install-hooks', '--host', host, '--root', world.project, ...extra], {
      cwd: world.project,
      encoding: 'utf8',
      env: { ...process.env, HOME: world.home },
    });
  const out = install([]) + (o.user ? install(['--user']) : '');
  git(world.project, ['add', '-A']);
  git(world.project, ['-c', 'user.email=e2e@example.invalid', '-c', 'user.name=e2e', 'commit', '-q', '-m', `hooks for ${host}`]);
  return out;
}

/** Takes task T02 of S02 back to before it ran: no summary, no reviews, no hook state. */
export function beforeT02(project: string): void {
  const tasks = path.join(project, S02_TASKS);
  for (const f of fs.readdirSync(tasks)) if (/^T02-(SUMMARY|HOOKS|CODE-REVIEW.*)\.md$/.test(f)) fs.rmSync(path.join(tasks, f));
  // T02's source too (the sample has it since the review threads): Copilot CLI's `create` refuses a file that exists.
  fs.rmSync(path.join(project, 'src', 'rules-file.ts'), { force: true });
}

/** `gsd-review next --apply --json` in the project, as the user's terminal dispatch runs it: the unit's prompt. */
export function dispatchNext(world: World): { unitType: string; unitId: string; prompt: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, 'next', '--apply', '--json', '--root', world.project], {
    cwd: world.project,
    encoding: 'utf8',
    env: { ...process.env, HOME: world.home },
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`gsd-review next --apply exited ${r.status}: ${r.stderr}`);
  // What the user's terminal shows besides the prompt (stderr): warnings given before the dispatch.
  return { ...(JSON.parse(r.stdout) as { unitType: string; unitId: string; prompt: string }), stderr: r.stderr };
}
