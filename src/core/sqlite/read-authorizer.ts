// A second guard for every query of a read, where node:sqlite has `setAuthorizer` (Node ≥ 24.10):
// SQLite asks it about each thing a statement would do while the statement is prepared, before any
// row is read. Denied: a recursive common table expression (none of our queries has one), and
// anything a view or trigger would do on our behalf (we read tables only). plain-tables.ts refuses
// those before they are read on every runtime; this catches what that check did not foresee, and a
// denied statement fails at once with "not authorized" instead of running.
import type { Authorizer, DatabaseSyncLike } from './node-sqlite';

// SQLite's C API codes (sqlite.org/c3ref/c_alter_table.html, c_deny.html): stable across versions.
const SQLITE_OK = 0;
const SQLITE_DENY = 1;
const SQLITE_RECURSIVE = 33;

export const readAuthorizer: Authorizer = (action, _arg1, _arg2, _dbName, triggerOrView) =>
  action === SQLITE_RECURSIVE || typeof triggerOrView === 'string' ? SQLITE_DENY : SQLITE_OK;

/** Installs the authorizer where the runtime has one; elsewhere plain-tables.ts stands alone. */
export function guardReads(db: DatabaseSyncLike): void {
  if (typeof db.setAuthorizer === 'function') db.setAuthorizer(readAuthorizer);
}
