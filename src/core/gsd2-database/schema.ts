// What of GSD-2's schema we rely on, checked before any row is read. Facts from gsd-build/gsd-2 at
// 76568edc (gsd-pi 3.0.0): `SCHEMA_VERSION = 29` in src/resources/extensions/gsd/gsd-db.ts; tables and
// columns in db-base-schema.ts (`createBaseSchemaObjects`), and the version each column arrived in
// from db-migration-steps.ts. The version is `MAX(version)` of `schema_version`
// (db-schema-metadata.ts, `getCurrentSchemaVersion`).
import type { DatabaseSyncLike } from '../sqlite/node-sqlite';
import { tableShape } from '../sqlite/plain-tables';

/** The newest schema whose meaning we checked. A newer GSD's database may mean other things. */
export const SUPPORTED_SCHEMA_VERSION = 29;

/**
 * The columns the derivation reads, with the DDL default GSD's migrations give an older row. A
 * database at an older version lacks the later columns until GSD migrates it on its next open; they
 * then read as these defaults, which is what the migration would fill in.
 */
export const COLUMNS = {
  milestones: {
    id: null,
    title: "''",
    status: "'active'",
    depends_on: "'[]'", // v7
    sequence: '0', // v23
  },
  slices: {
    milestone_id: null,
    id: null,
    title: "''",
    status: "'pending'",
    risk: "'medium'",
    depends: "'[]'", // v7
    demo: "''", // v7
    sequence: '0', // v9
    replan_triggered_at: 'NULL', // v10
    is_sketch: '0', // v16
    sketch_scope: "''", // v16
  },
  tasks: {
    milestone_id: null,
    slice_id: null,
    id: null,
    title: "''",
    status: "'pending'",
    one_liner: "''",
    verification_result: "''",
    completed_at: 'NULL',
    blocker_discovered: '0',
    estimate: "''", // v8
    files: "'[]'", // v8
    verify: "''", // v8
    sequence: '0', // v9
    escalation_pending: '0', // v17
    escalation_artifact_path: 'NULL', // v17
    known_issues: "''",
  },
  replan_history: { milestone_id: null, slice_id: 'NULL', task_id: 'NULL', created_at: "''" }, // v8
  assessments: { milestone_id: null, status: "''", scope: "''", created_at: "''" }, // v8, scope v22
  quality_gates: { milestone_id: null, slice_id: null, gate_id: null, scope: "'slice'", task_id: "''", status: "'pending'" }, // v12
} as const satisfies Record<string, Record<string, string | null>>;

export type TableName = keyof typeof COLUMNS;

/** Without these there is no hierarchy to derive from (GSD added them in v5). */
const REQUIRED_TABLES: readonly TableName[] = ['milestones', 'slices', 'tasks'];

export interface SchemaInfo {
  version: number;
  /** Per table present: the SELECT list, missing columns replaced by their default. */
  selects: Partial<Record<TableName, string>>;
  /** Columns read as defaults because this version predates them, as `table.column`. */
  defaulted: string[];
}

export type SchemaCheckFailure = { ok: false; cause: 'not-gsd-database' | 'schema-too-new' | 'unsafe-schema'; message: string };
export type SchemaCheck = { ok: true; schema: SchemaInfo } | SchemaCheckFailure;

/** Every table read, checked before any of them is: a view or virtual table in place of one refuses the database. */
function plainTables(db: DatabaseSyncLike): Map<string, Set<string>> | SchemaCheckFailure {
  const found = new Map<string, Set<string>>();
  for (const table of ['schema_version', ...Object.keys(COLUMNS)]) {
    const shape = tableShape(db, table);
    if (shape.kind === 'refused') return { ok: false, cause: 'unsafe-schema', message: `is not read: ${shape.reason}` };
    if (shape.kind === 'table') found.set(table, shape.columns);
  }
  return found;
}

export function checkSchema(db: DatabaseSyncLike): SchemaCheck {
  const tables = plainTables(db);
  if (!(tables instanceof Map)) return tables;
  if (!tables.has('schema_version')) {
    return { ok: false, cause: 'not-gsd-database', message: 'has no schema_version table: not a GSD-2 database (or GSD never finished creating it)' };
  }
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_version').get();
  const version = Number(row?.v ?? 0);
  if (!Number.isFinite(version)) {
    return { ok: false, cause: 'not-gsd-database', message: `schema_version holds ${String(row?.v)}, not a number` };
  }
  if (version > SUPPORTED_SCHEMA_VERSION) {
    return {
      ok: false,
      cause: 'schema-too-new',
      message: `schema version ${version} is newer than ${SUPPORTED_SCHEMA_VERSION}, the newest this extension understands (gsd-pi 3.0.0); not read, since a newer GSD's database may mean other things`,
    };
  }
  const selects: SchemaInfo['selects'] = {};
  const defaulted: string[] = [];
  for (const [table, columns] of Object.entries(COLUMNS) as Array<[TableName, Record<string, string | null>]>) {
    const present = tables.get(table);
    if (!present) {
      if (REQUIRED_TABLES.includes(table)) {
        return { ok: false, cause: 'not-gsd-database', message: `schema version ${version} has no ${table} table (GSD-2 adds it in version 5 and fills it when it next opens the project)` };
      }
      continue;
    }
    const list: string[] = [];
    for (const [column, fallback] of Object.entries(columns)) {
      if (present.has(column)) list.push(column);
      else if (fallback === null) return { ok: false, cause: 'not-gsd-database', message: `table ${table} has no ${column} column` };
      else {
        list.push(`${fallback} AS ${column}`);
        defaulted.push(`${table}.${column}`);
      }
    }
    selects[table] = list.join(', ');
  }
  return { ok: true, schema: { version, selects, defaulted } };
}
