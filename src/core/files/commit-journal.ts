// All-or-nothing commits of several files (one dispatch's or one completion's hook state, review
// snapshots and the dispatch record). The full set of new texts is first written, atomically, to an
// intent journal in our runtime folder; that rename is the commit point. Then each file is replaced
// and the journal removed. A process killed in between leaves the journal, and the next start of any
// command or of the extension rolls it forward; killed before the commit point, nothing was changed
// (only an unused temp file remains, which is tidied), so the commit is rolled back by construction.
// A journal carries a MAC with the user's secret (user-secret.ts): a repository could otherwise commit
// one and have even a read-only command write what it says into GSD's own files. So a commit that
// could not be signed is not started (nothing is written): an unsigned journal could never be told
// from a planted one, and a crash would leave the commit half done. A journal that does not check
// out is set aside beside where it was, never applied, and never removed without a word.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { replaceAtomically, removeStaleTemps } from './atomic-write';
import { readBoundedText } from './bounded-read';
import { confine, confinedDir, isWithin } from './confine';
import { withGsdLock } from './gsd-lock';
import { RUNTIME_FOLDER } from './runtime-folder';
import { userSecret, userSecrets } from './user-secret';
import { nodeOs } from './user-home';

export interface PlannedWrite {
  /** Real path inside the real `.gsd` (confined by the caller). */
  file: string;
  text: string;
  /** The file's text the write rests on (null: it did not exist). */
  expected: string | null;
}

interface JournalEntry {
  /** Relative to the real `.gsd`. */
  file: string;
  before: string | null;
  after: string;
}

interface Journal {
  version: 1;
  pid: number;
  at: string;
  writes: JournalEntry[];
  /** HMAC-SHA256 of the fields above with the user's secret (older versions wrote null without one). */
  mac?: string | null;
}

function macOf(journal: Journal, secret: string): string {
  const { version, pid, at, writes } = journal;
  // node:crypto loaded when a journal is signed or checked, not at every start (the hook entry loads this module).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createHmac } = require('node:crypto') as typeof import('node:crypto');
  return createHmac('sha256', secret).update(JSON.stringify({ version, pid, at, writes })).digest('hex');
}

/** Written by a process of this user: its MAC checks out with one of the user's secrets. */
function signedByUs(journal: Journal): boolean {
  if (typeof journal.mac !== 'string') return false;
  const given = Buffer.from(journal.mac, 'hex');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { timingSafeEqual } = require('node:crypto') as typeof import('node:crypto');
  return userSecrets().some((secret) => {
    const expected = Buffer.from(macOf(journal, secret), 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** A commit of several files refused before anything was written: there is no key to sign its journal with. */
export class UnsignableCommitError extends Error {}

const RUNTIME = RUNTIME_FOLDER;
const JOURNAL = 'commit-journal.json';
/** A journal holds every file of one commit; each file is at most MAX_READ_BYTES. */
const MAX_JOURNAL_BYTES = 32 * 1024 * 1024;

export function journalFile(gsdDir: string): string {
  return path.join(gsdDir, RUNTIME, JOURNAL);
}

/**
 * Writes the files, all or none; the caller holds the project's write lock. Throws only before the
 * commit point (nothing changed). After it, a failure leaves the journal for the next start to
 * finish and is returned as a note: the commit stands.
 */
export function applyCommit(gsdDir: string, writes: PlannedWrite[]): string[] {
  if (writes.length === 0) return [];
  for (const w of writes) fs.mkdirSync(path.dirname(w.file), { recursive: true });
  if (writes.length === 1) {
    // One rename is already all-or-nothing.
    replaceAtomically(writes[0].file, writes[0].text);
    removeStaleTemps(path.dirname(writes[0].file), path.basename(writes[0].file));
    return [];
  }
  const root = fs.realpathSync(gsdDir);
  const journal: Journal = {
    version: 1,
    pid: process.pid,
    at: new Date().toISOString(),
    writes: writes.map((w) => ({ file: path.relative(root, w.file), before: w.expected, after: w.text })),
  };
  const secret = userSecret();
  if (secret === null) {
    throw new UnsignableCommitError(
      `no key to sign the commit journal with: neither ~/.gsd-review-loop (HOME=${process.env.HOME ?? 'unset'}) nor the temp folder (${path.join(nodeOs().tmpdir(), 'gsd-review-loop-<uid>')}) can hold it; nothing was written (a commit interrupted without a signed journal could not be finished)`,
    );
  }
  journal.mac = macOf(journal, secret);
  const dir = confinedDir(gsdDir, RUNTIME);
  const file = path.join(dir, JOURNAL);
  replaceAtomically(file, JSON.stringify(journal));
  // Committed: from here on, nothing may be reported as a failure.
  let notes: string[];
  try {
    notes = rollForward(gsdDir, journal);
    fs.rmSync(file, { force: true });
  } catch (error) {
    return [`committed; ${(error as Error).message}; the next start finishes writing it`];
  }
  removeStaleTemps(dir, JOURNAL);
  for (const w of writes) removeStaleTemps(path.dirname(w.file), path.basename(w.file));
  return notes;
}

/** Applies a committed journal; returns notes about files someone else changed meanwhile. */
function rollForward(gsdDir: string, journal: Journal): string[] {
  const notes: string[] = [];
  for (const entry of journal.writes) {
    const real = confine(gsdDir, entry.file);
    const current = readBoundedText(real);
    if (current === entry.after) continue;
    if (current !== entry.before) {
      notes.push(`${real} changed after an interrupted commit of ${journal.at}; left as it is`);
      continue;
    }
    fs.mkdirSync(path.dirname(real), { recursive: true });
    replaceAtomically(real, entry.after);
  }
  return notes;
}

function validJournal(value: unknown, root: string): value is Journal {
  const j = value as Journal | null;
  if (!j || typeof j !== 'object' || j.version !== 1 || !Array.isArray(j.writes)) return false;
  return j.writes.every(
    (w) =>
      w &&
      typeof w.file === 'string' &&
      !path.isAbsolute(w.file) &&
      isWithin(root, path.resolve(root, w.file)) &&
      typeof w.after === 'string' &&
      (w.before === null || typeof w.before === 'string'),
  );
}

/**
 * A journal we do not apply is moved aside (`commit-journal.set-aside-<time>.json`), where the user
 * can look at it: it may be a commit of ours we cannot prove (signed with a key this process does
 * not have), and what it holds is then the only record of it. Returns the note that says so.
 */
function setAside(real: string, why: string): string {
  const aside = path.join(path.dirname(real), `commit-journal.set-aside-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}.json`);
  try {
    fs.renameSync(real, aside);
  } catch (error) {
    return `${real} ${why}; not applied, and it could not be set aside (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}), so it stays where it is`;
  }
  return `${real} ${why}; not applied, kept as ${path.basename(aside)} (if it is a commit of yours, the files it names may be half updated)`;
}

/**
 * Finishes a commit a killed process left behind (rolled forward), before anything reads the state.
 * Cheap when there is none (one failed lstat). Returns notes for the user (the project's
 * diagnostics); never throws.
 */
export function recoverInterruptedCommit(gsdDir: string): string[] {
  const file = journalFile(gsdDir);
  try {
    if (!fs.lstatSync(file, { throwIfNoEntry: false })) return [];
  } catch (error) {
    // Our folder is a file, a FIFO or a link loop the repository put there: there is no journal to
    // finish, and reading the project must go on (writing will refuse that folder with its own note).
    return [`${file} cannot be looked at (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); no interrupted commit to finish`];
  }
  try {
    return withGsdLock(gsdDir, () => {
      const root = fs.realpathSync(gsdDir);
      const real = confine(gsdDir, file);
      let text: string | null;
      try {
        text = readBoundedText(real, MAX_JOURNAL_BYTES);
      } catch (error) {
        return [setAside(real, `cannot be read as a commit journal (${(error as Error).message})`)];
      }
      if (text === null) return [];
      let journal: unknown;
      try {
        journal = JSON.parse(text);
      } catch {
        journal = null;
      }
      if (!validJournal(journal, root)) return [setAside(real, 'is not a commit journal of ours')];
      if (!signedByUs(journal)) return [setAside(real, 'is not signed with a key of this user (a journal a repository planted, or one written with a key this process cannot read)')];
      const notes = [`finished an interrupted commit of ${journal.at} (${journal.writes.length} files)`, ...rollForward(gsdDir, journal)];
      fs.rmSync(real, { force: true });
      removeStaleTemps(path.dirname(real), JOURNAL);
      return notes;
    });
  } catch (error) {
    return [`could not finish an interrupted commit: ${(error as Error).message}`];
  }
}
