// Writes a map of relative path → content into a folder (a fresh temp folder by default).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export type Tree = Record<string, string | Buffer>;

export function writeTree(files: Tree, root = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-unit-'))): string {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
  return root;
}
