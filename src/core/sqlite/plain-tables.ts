// Whether a table a reader is about to read is a plain stored table. `gsd.db` comes with the
// repository, so its schema is the repository's to choose, and one node:sqlite call is synchronous
// native code that nothing interrupts: no timer fires, `Worker#terminate()` waits for it, and
// `process.exit()` then hangs with it (both measured on Node 24). So what could run without end, or
// compute on every row, is refused before a row is read:
// - a view (a recursive CTE in place of `schema_version` never finishes);
// - a virtual table (its module's code runs the scan);
// - a virtual generated column (its expression is computed on every row read).
// GSD makes none of these for the tables we read. Triggers are not looked at: they run only when a
// row is written, and our connection is read-only and `query_only`.
import type { DatabaseSyncLike } from './node-sqlite';

export type TableShape =
  | { kind: 'table'; columns: Set<string> }
  | { kind: 'missing' }
  | { kind: 'refused'; reason: string };

/** `PRAGMA table_xinfo`'s `hidden` for a virtual generated column (SQLite's pragma.html). */
const VIRTUAL_GENERATED = 2;

const quoteName = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * What `name` is in the database's main schema, as SQLite itself classifies it (`PRAGMA table_list`,
 * SQLite 3.37; every node:sqlite bundles a later one), not as the schema's text reads, which a
 * hostile file can word as it likes. SQLite matches table names case-insensitively, as here.
 */
export function tableShape(db: DatabaseSyncLike, name: string): TableShape {
  const entry = db.prepare(`PRAGMA main.table_list(${quoteName(name)})`).get();
  if (!entry) return { kind: 'missing' };
  if (entry.type === 'view') return { kind: 'refused', reason: `${name} is a view, not a table (GSD never makes one; a view can run without end)` };
  if (entry.type !== 'table') {
    return { kind: 'refused', reason: `${name} is a ${String(entry.type)} table, not a stored one (GSD never makes one; its module's code would run the read)` };
  }
  const columns = new Set<string>();
  for (const c of db.prepare(`PRAGMA main.table_xinfo(${quoteName(name)})`).all()) {
    if (Number(c.hidden) === VIRTUAL_GENERATED) {
      return { kind: 'refused', reason: `${name}.${String(c.name)} is a generated column computed on every read (GSD never makes one)` };
    }
    columns.add(String(c.name));
  }
  return { kind: 'table', columns };
}

/** Thrown inside a read when a table it needs is refused; the read reports it as its reason. */
export class RefusedTableError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'RefusedTableError';
  }
}
