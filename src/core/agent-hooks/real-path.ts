// The real path of a file that may not exist yet: the deepest existing folder resolved through its
// symlinks, the rest appended. The review guard compares both sides this way, since `.gsd` is often
// a symlink and an agent may name a file through the link or through its target.
// (A shared confinement helper is being built for the store; this local one serves the guard only.)
import * as fs from 'node:fs';
import * as path from 'node:path';

export function realPathOf(p: string): string {
  const abs = path.resolve(p);
  const rest: string[] = [];
  let dir = abs;
  for (;;) {
    try {
      const real = fs.realpathSync.native(dir);
      return rest.length ? path.join(real, ...rest.reverse()) : real;
    } catch {
      const parent = path.dirname(dir);
      if (parent === dir) return abs;
      rest.push(path.basename(dir));
      dir = parent;
    }
  }
}
