// Our runtime folder (`.gsd/runtime/gsd-review-loop/`: dispatch record, hook log, prompt files)
// ignores itself: a `.gitignore` of `*` inside it keeps these per-machine files out of the user's
// commits in any project, whatever the project's own .gitignore says.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { confinedDir } from './confine';

export function runtimeDir(gsdDir: string): string {
  return path.join(gsdDir, 'runtime', 'gsd-review-loop');
}

const IGNORE_ALL = '# Written by GSD Review Loop: runtime files of this machine, never committed.\n*\n';

/** The runtime folder, created with its `.gitignore` when missing. Best effort: never throws. */
export function ensureRuntimeDir(gsdDir: string): string {
  const dir = runtimeDir(gsdDir);
  try {
    // Confined: a runtime folder (or any folder above it) linked out of `.gsd` is refused, not created through.
    const real = confinedDir(gsdDir, path.relative(gsdDir, dir));
    const ignore = path.join(real, '.gitignore');
    // 'wx' is O_CREAT|O_EXCL: two processes starting at once do not both write, and a link planted
    // at the name (even a dangling one) is never written through.
    if (!fs.existsSync(ignore)) fs.writeFileSync(ignore, IGNORE_ALL, { flag: 'wx' });
  } catch {
    // read-only .gsd, a racing writer or a link out of .gsd: the caller's own (confined) write reports what matters
  }
  return dir;
}
