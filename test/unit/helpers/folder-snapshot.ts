// Every file under a folder with its bytes' hash, size and mtime: what "changed nothing" compares.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** `skip`: paths (relative to `dir`) a run may change by design, such as an event log. */
export function snapshotTree(dir: string, skip: (rel: string) => boolean = () => false): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of fs.readdirSync(dir, { recursive: true }).map(String).sort()) {
    if (skip(rel)) continue;
    const abs = path.join(dir, rel);
    const st = fs.statSync(abs);
    if (!st.isFile()) continue;
    out[rel] = `${crypto.createHash('sha256').update(fs.readFileSync(abs)).digest('hex')} ${st.size} ${st.mtimeMs}`;
  }
  return out;
}
