// git as the tests run it on a project copy: a throwaway identity, no signing, failures asserted.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

export function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

/** Untracked files git would offer to commit, as paths relative to the repository. */
export function untracked(root: string): string[] {
  return git(root, 'status', '--porcelain', '--untracked-files=all').split('\n').filter((l) => l.startsWith('??')).map((l) => l.slice(3));
}
