// One consistent, read-only look at GSD's database, shared by every reader of `gsd.db` (GSD-2's and
// the successor's). GSD writes it from its own long-lived connection, so we must never be the one
// that migrates, checkpoints or writes it, nor leave a file of ours beside it:
// - the connection is opened read-only (SQLITE_OPEN_READONLY) and also set `query_only`;
// - every query of one read runs inside one short `BEGIN … COMMIT`, so all rows come from the same
//   WAL snapshot (a task list that matches its slice list) and the read lock is held for milliseconds;
// - SQLITE_BUSY / SQLITE_LOCKED (GSD inside a rollback-journal write, e.g. on WSL DrvFs where GSD
//   uses journal_mode=DELETE, or a WAL recovery in progress) is retried a few times with a short
//   backoff, so the total wait stays bounded.
// A read-only connection cannot checkpoint, so closing it never folds or deletes GSD's WAL.
// What a read-only open does with GSD's side files (SQLite 3.5x, checked by the tests):
// - GSD running (`gsd.db-wal`, `gsd.db-shm` present): gsd.db and -wal stay byte-identical; -shm is
//   SQLite's shared WAL index, in which every reader (GSD's own included) sets its read mark, so its
//   bytes may change and its size does not;
// - GSD closed cleanly (a WAL database with no -wal): a plain read-only open would create an empty
//   -wal and a 32 KiB -shm and leave them. So it is opened `immutable=1` instead (no locks, no side
//   files), and should a -wal appear meanwhile (GSD started), the read is done once more the ordinary
//   way, which then uses GSD's own -wal and -shm;
// - GSD killed (-wal with committed rows, no -shm): the index is rebuilt in a new -shm, the rows in
//   the WAL are read, gsd.db and -wal stay byte-identical (a writable connection would fold them in).
// A read never runs without end: each reader checks that what it reads is a plain table
// (plain-tables.ts), and where the runtime allows, an authorizer refuses recursion and views
// (read-authorizer.ts).
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
