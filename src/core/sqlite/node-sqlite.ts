// Node's built-in SQLite (`node:sqlite`, Node ≥ 22.5), loaded only when a GSD database is read, so
// the module costs nothing where it is unused. Only a real SQLite that reads the WAL sees what GSD has
// committed (GSD keeps its connection open and rarely checkpoints), so there is no fallback library:
// where the runtime has no `node:sqlite` the caller gets one line saying so.
//
// The few types used are declared here instead of relying on @types/node (the installed 20.x has none,
// and a module declaration would clash with a later @types/node that has them).

export type SqliteValue = null | number | bigint | string | Uint8Array;
export type SqliteRow = Record<string, SqliteValue>;

export interface StatementSyncLike {
  all(...params: SqliteValue[]): SqliteRow[];
  get(...params: SqliteValue[]): SqliteRow | undefined;
  run(...params: SqliteValue[]): unknown;
}

/** `sqlite3_set_authorizer`'s callback: action code, two arguments, database name, trigger or view. */
export type Authorizer = (action: number, arg1: string | null, arg2: string | null, dbName: string | null, triggerOrView: string | null) => number;

export interface DatabaseSyncLike {
  exec(sql: string): void;
  prepare(sql: string): StatementSyncLike;
  close(): void;
  /** Node ≥ 24.10 only. */
  setAuthorizer?(callback: Authorizer | null): void;
}

export interface DatabaseSyncOptions {
  open?: boolean;
  readOnly?: boolean;
  enableForeignKeyConstraints?: boolean;
}

export interface NodeSqlite {
  DatabaseSync: new (path: string | URL, options?: DatabaseSyncOptions) => DatabaseSyncLike;
}

export type NodeSqliteLoad = { sqlite: NodeSqlite } | { unavailable: string };

let cached: NodeSqliteLoad | null = null;

/** `node:sqlite`, or why this runtime has none (Node < 22.5, or 22.5–22.12 without --experimental-sqlite). */
export function loadNodeSqlite(): NodeSqliteLoad {
  if (cached) return cached;
  cached = requireNodeSqlite();
  return cached;
}

function requireNodeSqlite(): NodeSqliteLoad {
  const version = process.versions.node;
  // Node 22 prints "ExperimentalWarning: SQLite is an experimental feature" on first load: noise on the
  // CLI's stderr for a feature we chose on purpose, so that one warning is dropped while loading.
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning?.message;
    if (typeof text === 'string' && /sqlite/i.test(text)) return;
    return (emitWarning as (...a: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    // A plain require of a node builtin: esbuild leaves `node:` imports external on platform node.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require('node:sqlite') as Partial<NodeSqlite>;
    if (typeof mod?.DatabaseSync !== 'function') {
      return { unavailable: `node:sqlite in Node ${version} has no DatabaseSync; GSD-2's database needs Node ≥ 22.5` };
    }
    return { sqlite: mod as NodeSqlite };
  } catch (err) {
    const code = (err as { code?: string }).code;
    const flagged = code === 'ERR_UNKNOWN_BUILTIN_MODULE' && /^22\./.test(version);
    return {
      unavailable: flagged
        ? `Node ${version} has node:sqlite only behind --experimental-sqlite; GSD-2's database (.gsd/gsd.db) cannot be read`
        : `Node ${version} has no node:sqlite (needs Node ≥ 22.5); GSD-2's database (.gsd/gsd.db) cannot be read`,
    };
  } finally {
    process.emitWarning = emitWarning;
  }
}
