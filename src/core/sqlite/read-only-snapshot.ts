// One consistent, read-only look at GSD's database, for every reader of `gsd.db`. GSD writes it from
// its own connection, so we never migrate, checkpoint or write it, nor leave a file beside it:
// - read-only and `query_only`; every query of one read in one short `BEGIN … COMMIT` (one WAL
//   snapshot, the read lock held for milliseconds); SQLITE_BUSY/LOCKED retried a few times, bounded;
// - a WAL database GSD closed cleanly is opened `immutable=1` (a plain open would leave an empty
//   -wal and a -shm); if a -wal appears meanwhile, the read is done once more the ordinary way;
// - a read never runs without end: each reader checks that what it reads is a plain table
//   (plain-tables.ts) and, where the runtime allows, an authorizer refuses recursion and views.
// docs/trust-boundary.md ("Databases") has what each case does to GSD's side files; the tests check it.
import * as fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { guardReads } from './read-authorizer';
import { readSqliteHeader } from './sqlite-header';
import type { DatabaseSyncLike, NodeSqlite } from './node-sqlite';

export interface SnapshotOptions {
  /** Attempts in all, the first included (default 4). */
  attempts?: number;
  /** Wait before the 2nd attempt; doubled each time after (default 20 ms). */
  backoffMs?: number;
  /** SQLite's own busy wait inside one attempt (default 100 ms). */
  busyTimeoutMs?: number;
}

export type SnapshotResult<T> =
  | { ok: true; value: T; attempts: number }
  | { ok: false; cause: 'busy' | 'unreadable'; message: string; attempts: number };

const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;

/** SQLite's primary result code of an error thrown by node:sqlite (extended codes carry it in the low byte). */
export function sqlitePrimaryCode(err: unknown): number | null {
  const code = (err as { errcode?: unknown }).errcode;
  return typeof code === 'number' ? code & 0xff : null;
}

function isBusy(err: unknown): boolean {
  const code = sqlitePrimaryCode(err);
  if (code === SQLITE_BUSY || code === SQLITE_LOCKED) return true;
  // Older node:sqlite builds put no errcode on the error; the message is SQLite's own text.
  return code === null && /database (?:is|table is) locked/i.test(String((err as Error)?.message));
}

function sleepSync(ms: number): void {
  if (ms > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function closeQuietly(db: DatabaseSyncLike | null): void {
  try {
    db?.close();
  } catch {
    // Closing a read-only connection has nothing to lose.
  }
}

/**
 * Opens `dbPath` read-only; `immutable` (a WAL database nobody has open) creates no side files. A
 * runtime whose node:sqlite takes no URL gets the ordinary read-only open.
 */
function openReadOnly(sqlite: NodeSqlite, dbPath: string, immutable: boolean): DatabaseSyncLike {
  const options = { readOnly: true, enableForeignKeyConstraints: false };
  if (immutable) {
    try {
      return new sqlite.DatabaseSync(new URL(`${pathToFileURL(dbPath).href}?immutable=1`), options);
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
    }
  }
  return new sqlite.DatabaseSync(dbPath, options);
}

/** A WAL database with no `-wal` beside it: no GSD process has it open. */
function closedWalDatabase(dbPath: string): boolean {
  return readSqliteHeader(dbPath)?.wal === true && !fs.existsSync(`${dbPath}-wal`);
}

/** Runs `read` against `dbPath` in one read transaction of a read-only connection. Never throws. */
export function readSnapshot<T>(
  sqlite: NodeSqlite,
  dbPath: string,
  read: (db: DatabaseSyncLike) => T,
  options: SnapshotOptions = {},
): SnapshotResult<T> {
  const attempts = Math.max(1, options.attempts ?? 4);
  let backoff = options.backoffMs ?? 20;
  const timeout = options.busyTimeoutMs ?? 100;
  let last: unknown = null;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (attempt > 1) {
      sleepSync(backoff);
      backoff *= 2;
    }
    let db: DatabaseSyncLike | null = null;
    let inTransaction = false;
    const immutable = closedWalDatabase(dbPath);
    try {
      db = openReadOnly(sqlite, dbPath, immutable);
      // A connection setting, not a write; the `timeout` option would do the same only from Node 22.16.
      db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(timeout))}`);
      db.exec('PRAGMA query_only = 1');
      guardReads(db);
      db.exec('BEGIN');
      inTransaction = true;
      const value = read(db);
      db.exec('COMMIT');
      inTransaction = false;
      // Read without locks, and GSD opened the database meanwhile: read again, the ordinary way.
      if (immutable && fs.existsSync(`${dbPath}-wal`)) {
        closeQuietly(db);
        db = null;
        const again = readSnapshot(sqlite, dbPath, read, { ...options, attempts: attempts - attempt + 1 });
        return again.ok ? { ...again, attempts: attempt - 1 + again.attempts } : again;
      }
      return { ok: true, value, attempts: attempt };
    } catch (err) {
      last = err;
      if (inTransaction) {
        try {
          db?.exec('ROLLBACK');
        } catch {
          // The connection is closed next anyway.
        }
      }
      if (!isBusy(err)) {
        return { ok: false, cause: 'unreadable', message: (err as Error)?.message ?? String(err), attempts: attempt };
      }
    } finally {
      closeQuietly(db);
    }
  }
  return { ok: false, cause: 'busy', message: (last as Error)?.message ?? 'database is locked', attempts };
}
