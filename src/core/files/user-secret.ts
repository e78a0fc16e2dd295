// A random secret of this user, kept outside every repository (`~/.gsd-review-loop/answer-cache.key`).
// What we leave in a repository's `.gsd` for a later process of ours to act on (a cached hook answer,
// an interrupted commit's journal) carries it (in its key, or as a MAC), so a repository cannot
// commit such a file and have it taken as ours. Null when it cannot be read or made.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readBoundedText } from './bounded-read';

let secret: string | null | undefined;

export function userSecret(home = os.homedir()): string | null {
  if (secret !== undefined) return secret;
  const file = path.join(home, '.gsd-review-loop', 'answer-cache.key');
  const read = (): string | null => {
    const text = readBoundedText(file, 1024);
    return text && /^[0-9a-f]{32}$/.test(text.trim()) ? text.trim() : null;
  };
  try {
    secret = read();
    if (secret === null) {
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      try {
        // node:crypto only here, once per user: loading it costs milliseconds at every hook start.
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { randomBytes } = require('node:crypto') as typeof import('node:crypto');
        fs.writeFileSync(file, randomBytes(16).toString('hex') + '\n', { flag: 'wx', mode: 0o600 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      secret = read();
    }
  } catch {
    secret = null;
  }
  return secret;
}
