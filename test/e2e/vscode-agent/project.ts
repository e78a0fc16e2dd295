// The project VS Code's agent works in: a fresh git copy of the sample, set back to the moment task
// T02 was finished (its summary written, no review yet), with the hooks installed the way a user
// installs them (`gsd-review install-hooks --host vscode`, nothing stubbed between VS Code and
// dist/cli.js).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { copyTracked } from '../../../scripts/vscode-host/tracked-copy.cjs';

export const repoRoot = path.resolve(__dirname, '../../..');
export const cliPath = path.join(repoRoot, 'dist', 'cli.js');

export const TASK_DIR = '.gsd/milestones/M002-k7q2xz/slices/S02/tasks';
export const REVIEW_FILE = `${TASK_DIR}/T02-CODE-REVIEW.md`;
export const HOOK_STATE_FILE = `${TASK_DIR}/T02-HOOKS.md`;
export const SOURCE_FILE = 'src/rules.ts';

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=GSD e2e', '-c', 'user.email=e2e@example.invalid', ...args], { cwd, stdio: 'ignore' });
}

/** Writes the project into `dest` (which must not exist) and returns its root. */
export function prepareProject(dest: string): string {
  copyTracked('sample-project', dest);
  // The sample holds T02 in its second fix cycle; without its reviews and hook state, T02 is a task
  // just finished, waiting for review cycle 1.
  for (const name of fs.readdirSync(path.join(dest, TASK_DIR))) {
    if (/^T02-(CODE-REVIEW(-C\d+)?|HOOKS)\.md$/.test(name)) fs.rmSync(path.join(dest, TASK_DIR, name));
  }
  git(dest, 'init', '-q');
  git(dest, 'add', '-A');
  git(dest, 'commit', '-q', '-m', 'T02 done');
  execFileSync(process.execPath, [cliPath, 'install-hooks', '--host', 'vscode', '--root', dest], { stdio: 'ignore' });
  return dest;
}

export function readProjectFile(root: string, rel: string): string | null {
  try {
    return fs.readFileSync(path.join(root, rel), 'utf8');
  } catch {
    return null;
  }
}
