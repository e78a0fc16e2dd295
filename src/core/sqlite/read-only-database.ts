// Reading the successor's gsd.db without writing a byte of it, through the read-only reader every
// GSD database shares (sqlite/read-only-snapshot.ts: read-only, `query_only`, one short read
// transaction, bounded retries when busy, `immutable=1` when no GSD process has the database open).
// This file gives the successor's readers their small query interface over it.
import { loadNodeSqlite, type DatabaseSyncLike, type SqliteValue } from './node-sqlite';
import { RefusedTableError, tableShape, type TableShape } from './plain-tables';
import { readSnapshot } from './read-only-snapshot';
import { readSqliteHeader } from './sqlite-header';

export type Row = Record<string, unknown>;

/** What a read callback gets: queries only, inside the read transaction. */
export interface ReadOnlyDatabase {
  get(sql: string, ...params: unknown[]): Row | undefined;
  all(sql: string, ...params: unknown[]): Row[];
  hasTable(name: string): boolean;
  hasColumn(table: string, column: string): boolean;
}

export type SqliteAvailability = { available: true } | { available: false; reason: string };

export function nodeSqliteAvailability(): SqliteAvailability {
  const l = loadNodeSqlite();
  return 'sqlite' in l ? { available: true } : { available: false, reason: l.unavailable };
}

export type ReadResult<T> = { ok: true; value: T } | { ok: false; reason: string };

const BUSY_RETRIES = 3;

function session(db: DatabaseSyncLike): ReadOnlyDatabase {
  // Each table is looked at before its first read: a view, virtual table or computed column in its
  // place ends the read with a reason (sqlite/plain-tables.ts), rather than being run or skipped.
  const shapes = new Map<string, TableShape>();
  const shapeOf = (table: string): TableShape => {
    let shape = shapes.get(table);
    if (!shape) {
      shape = tableShape(db, table);
      shapes.set(table, shape);
    }
    if (shape.kind === 'refused') throw new RefusedTableError(shape.reason);
    return shape;
  };
  return {
    get: (sql, ...params) => db.prepare(sql).get(...(params as SqliteValue[])),
    all: (sql, ...params) => db.prepare(sql).all(...(params as SqliteValue[])),
    hasTable: (name) => shapeOf(name).kind === 'table',
    hasColumn: (table, column) => {
      const shape = shapeOf(table);
      return shape.kind === 'table' && shape.columns.has(column);
    },
  };
}

/** Runs `read` on the database, read-only, in one transaction. Never throws. */
export function readDatabase<T>(file: string, read: (db: ReadOnlyDatabase) => T): ReadResult<T> {
  const l = loadNodeSqlite();
  if (!('sqlite' in l)) return { ok: false, reason: l.unavailable };
  if (!readSqliteHeader(file)) return { ok: false, reason: `${file} is not an SQLite database` };
  const r = readSnapshot(l.sqlite, file, (db) => read(session(db)), { attempts: BUSY_RETRIES + 1, backoffMs: 30 });
  if (r.ok) return { ok: true, value: r.value };
  return { ok: false, reason: r.cause === 'busy' ? `gsd.db stayed busy after ${BUSY_RETRIES} retries: ${r.message}` : `gsd.db could not be read: ${r.message}` };
}
