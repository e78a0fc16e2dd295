// Our runtime folder (`.gsd/runtime/gsd-review-loop/`: dispatch record, hook log, prompt files)
// ignores itself: a `.gitignore` of `*` inside it keeps these per-machine files out of the user's
// commits in any project, whatever the project's own .gitignore says.
import * as fs from 'node:fs';
import * as path from 'node:path';

export function runtimeDir(gsdDir: string): string {
  return path.join(gsdDir, 'runtime', 'gsd-review-loop');
}

const IGNORE_ALL = '# Written by GSD Review Loop: runtime files of this machine, never committed.\n*\n';

/** The runtime folder, created with its `.gitignore` when missing. Best effort: never throws. */
export function ensureRuntimeDir(gsdDir: string): string {
  const dir = runtimeDir(gsdDir);
  const ignore = path.join(dir, '.gitignore');
  try {
    if (!fs.existsSync(ignore)) {
      fs.mkdirSync(dir, { recursive: true });
      // 'wx': two processes starting at once must not both write; the second simply finds it.
      fs.writeFileSync(ignore, IGNORE_ALL, { flag: 'wx' });
    }
  } catch {
    // read-only .gsd or a racing writer: the caller's own write reports what matters
  }
  return dir;
}
