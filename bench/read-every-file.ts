// The floor no derivation can beat: list and read every file under a folder, nothing else.
import * as fs from 'node:fs';
import * as path from 'node:path';

export function readEveryFile(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        bytes += fs.readFileSync(p, 'utf8').length;
        files++;
      }
    }
  };
  walk(dir);
  return { files, bytes };
}
