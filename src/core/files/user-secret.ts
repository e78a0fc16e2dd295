// A random secret of this user, kept outside every repository. What we leave in a repository's `.gsd`
// for a later process of ours to act on (a cached hook answer, an interrupted commit's journal)
// carries it (in its key, or as a MAC), so a repository cannot commit such a file and have it taken
// as ours.
//
// Kept in `~/.gsd-review-loop/answer-cache.key`. When the home folder cannot hold it (HOME unset or
// pointing nowhere, read-only, another user's), in a folder of this user's own in the temp folder
// (`<tmp>/gsd-review-loop-<uid>/`, mode 0700, refused if another user made it): a commit must be
// signed to be finished after a crash, so there has to be a key. Null only when neither can be used
// (then multi-file commits are refused: commit-journal.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readBoundedText } from './bounded-read';
import { nodeOs, userHome } from './user-home';

const KEY_FILE = 'answer-cache.key';
const cache = new Map<string, string | null>();

function readKey(file: string): string | null {
  const text = readBoundedText(file, 1024);
  return text && /^[0-9a-f]{32}$/.test(text.trim()) ? text.trim() : null;
}

/** The key in `dir`, made there if there is none (published whole: two first runs agree on one). */
function keyIn(dir: string): string | null {
  const file = path.join(dir, KEY_FILE);
  try {
    const known = readKey(file);
    if (known !== null) return known;
    // node:crypto only here, once per user: loading it costs milliseconds at every hook start.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { randomBytes } = require('node:crypto') as typeof import('node:crypto');
    const tmp = path.join(dir, `.${KEY_FILE}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
    fs.writeFileSync(tmp, randomBytes(16).toString('hex') + '\n', { flag: 'wx', mode: 0o600 });
    try {
      // A link fails if the name exists: whoever comes second reads the first one's whole key.
      fs.linkSync(tmp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(tmp, { force: true });
    }
    return readKey(file);
  } catch {
    return null;
  }
}

function homeKey(home: string): string | null {
  if (!home || !path.isAbsolute(home)) return null;
  const dir = path.join(home, '.gsd-review-loop');
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    // an existing key can still be read from a read-only home
  }
  return keyIn(dir);
}

/** This user's folder in the temp folder: made by us, a real folder, nobody else's to read. */
function tempKey(): string | null {
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  const dir = path.join(nodeOs().tmpdir(), `gsd-review-loop-${uid ?? nodeOs().userInfo().username}`);
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return null;
  }
  try {
    const stat = fs.lstatSync(dir);
    // Windows' temp folder is the user's own; elsewhere the folder must be ours alone.
    if (!stat.isDirectory() || (uid !== null && (stat.uid !== uid || (stat.mode & 0o077) !== 0))) return null;
  } catch {
    return null;
  }
  return keyIn(dir);
}

function cached(key: string, find: () => string | null): string | null {
  if (!cache.has(key)) cache.set(key, find());
  return cache.get(key)!;
}

/** The secret new records are signed with: the home folder's, else the temp folder's; null when neither works. */
export function userSecret(home = userHome()): string | null {
  return cached(`home:${home}`, () => homeKey(home)) ?? cached(`tmp:${nodeOs().tmpdir()}`, tempKey);
}

/** Every secret a record of this user may carry (the home folder's and the temp folder's). */
export function userSecrets(home = userHome()): string[] {
  const keys = [cached(`home:${home}`, () => homeKey(home)), cached(`tmp:${nodeOs().tmpdir()}`, tempKey)];
  return keys.filter((k): k is string => k !== null);
}
