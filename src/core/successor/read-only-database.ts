// Reading gsd.db without writing a byte of it, through Node's built-in node:sqlite (Node >= 22.5;
// current VS Code runtimes have it). The module is loaded lazily inside a try, so nothing is paid
// when no successor project is open and Node 20 simply reports it missing.
//
// Never a byte in .gsd: a plain read-only open of a WAL database creates gsd.db-wal and gsd.db-shm
// when they are absent (checked under Node 24). So when the database is in WAL mode and no -wal file
// exists (no GSD process has it open), it is opened `immutable=1`, which takes no locks and creates
// nothing; if a -wal file appeared meanwhile (GSD started), the read is done once more the ordinary
// way, which then uses GSD's own -wal/-shm. Every read runs with `query_only`, in one short read
// transaction, and SQLITE_BUSY is retried a bounded number of times.
// Small duplication note: the GSD-2 database reader has its own opener; the two are to be merged.
import * as fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { readSqliteHeader } from './sqlite-header';

/** The few parts of node:sqlite this reader uses (the installed @types/node predates the module). */
interface StatementSync {
  get(...params: unknown[]): Record<string, unknown> | undefined;
  all(...params: unknown[]): Array<Record<string, unknown>>;
}
interface DatabaseSync {
  exec(sql: string): void;
  prepare(sql: string): StatementSync;
  close(): void;
}
interface NodeSqlite {
  DatabaseSync: new (path: string | URL, options?: { readOnly?: boolean; timeout?: number }) => DatabaseSync;
}

export type Row = Record<string, unknown>;

/** What a read callback gets: queries only, inside the read transaction. */
export interface ReadOnlyDatabase {
  get(sql: string, ...params: unknown[]): Row | undefined;
  all(sql: string, ...params: unknown[]): Row[];
  hasTable(name: string): boolean;
  hasColumn(table: string, column: string): boolean;
}

export type SqliteAvailability = { available: true } | { available: false; reason: string };

let loaded: { module: NodeSqlite } | { error: string } | undefined;

function load(): { module: NodeSqlite } | { error: string } {
  if (loaded) return loaded;
  try {
    // A plain require of the node: name: esbuild leaves node: built-ins external, and Node 20 throws
    // ERR_UNKNOWN_BUILTIN_MODULE here, which becomes the reason below.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
    loaded = { module: require('node:sqlite') as NodeSqlite };
  } catch (error) {
    loaded = { error: `node:sqlite is not available in Node ${process.versions.node} (it needs Node 22.5 or later): ${(error as Error).message.split('\n')[0]}` };
  }
  return loaded;
}

export function nodeSqliteAvailability(): SqliteAvailability {
  const l = load();
  return 'module' in l ? { available: true } : { available: false, reason: l.error };
}

export type ReadResult<T> = { ok: true; value: T } | { ok: false; reason: string };

const BUSY_RETRIES = 3;
const BUSY_WAIT_MS = 30;

function isBusy(error: unknown): boolean {
  const e = error as { errcode?: number; message?: string };
  // SQLITE_BUSY (5) and SQLITE_LOCKED (6), with their extended codes in the low byte.
  return ((e?.errcode ?? 0) & 0xff) === 5 || ((e?.errcode ?? 0) & 0xff) === 6 || /database is (locked|busy)/i.test(e?.message ?? '');
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function session(db: DatabaseSync): ReadOnlyDatabase {
  const tables = new Set(db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all().map((r) => String(r.name)));
  const columns = new Map<string, Set<string>>();
  return {
    get: (sql, ...params) => db.prepare(sql).get(...params),
    all: (sql, ...params) => db.prepare(sql).all(...params),
    hasTable: (name) => tables.has(name),
    hasColumn: (table, column) => {
      if (!tables.has(table)) return false;
      let set = columns.get(table);
      if (!set) {
        // The table name comes from our own code, never from the database or the user.
        set = new Set(db.prepare(`PRAGMA table_info(${table})`).all().map((r) => String(r.name)));
        columns.set(table, set);
      }
      return set.has(column);
    },
  };
}

function readOnce<T>(sqlite: NodeSqlite, file: string, immutable: boolean, read: (db: ReadOnlyDatabase) => T): T {
  const target = immutable ? new URL(`${pathToFileURL(file).href}?immutable=1`) : file;
  const db = new sqlite.DatabaseSync(target, { readOnly: true, timeout: 100 });
  try {
    db.exec('PRAGMA query_only = 1');
    db.exec('BEGIN');
    try {
      return read(session(db));
    } finally {
      db.exec('COMMIT');
    }
  } finally {
    db.close();
  }
}

/** Runs `read` on the database, read-only, in one transaction. Never throws. */
export function readDatabase<T>(file: string, read: (db: ReadOnlyDatabase) => T): ReadResult<T> {
  const l = load();
  if (!('module' in l)) return { ok: false, reason: l.error };
  const header = readSqliteHeader(file);
  if (!header) return { ok: false, reason: `${file} is not an SQLite database` };
  let lastError: unknown;
  for (let attempt = 0; attempt <= BUSY_RETRIES; attempt++) {
    const immutable = header.wal && !fs.existsSync(`${file}-wal`);
    try {
      const value = readOnce(l.module, file, immutable, read);
      // A GSD process opened the database while we read it without locks: read again, normally.
      if (immutable && fs.existsSync(`${file}-wal`)) return { ok: true, value: readOnce(l.module, file, false, read) };
      return { ok: true, value };
    } catch (error) {
      lastError = error;
      if (!isBusy(error)) break;
      sleep(BUSY_WAIT_MS * (attempt + 1));
    }
  }
  const message = (lastError as Error)?.message ?? String(lastError);
  return { ok: false, reason: isBusy(lastError) ? `gsd.db stayed busy after ${BUSY_RETRIES} retries: ${message}` : `gsd.db could not be read: ${message}` };
}
