// State of a GSD-2 database project (gsd-pi 3.x), read from `.gsd/gsd.db` the way GSD-2 itself
// derives it. Read-only and WAL-aware (see ../sqlite/read-only-snapshot.ts); nothing here writes, migrates or
// checkpoints GSD's database. When the database cannot be read (no node:sqlite in this runtime, a
// schema newer than we know, a damaged file, GSD holding a lock too long) the answer is `unavailable`
// with one line saying why, and the caller falls back to the markdown, marked as such.
import * as path from 'node:path';
import { confineRegularFile } from '../files/confine';
import type { Diagnostic } from '../model/types';
import { deriveFromSnapshot, type Gsd2DatabaseState } from './derive';
import { slicesNeedingTasks } from './milestone-registry';
import { readEscalationArtifact } from './escalation-artifact';
import { loadNodeSqlite, type NodeSqliteLoad } from '../sqlite/node-sqlite';
import { readSnapshot, type SnapshotOptions } from '../sqlite/read-only-snapshot';
import { checkSchema, SUPPORTED_SCHEMA_VERSION, type SchemaCheckFailure } from './schema';
import { SnapshotReader, type Gsd2Snapshot, type TaskDepth } from './snapshot';
import { UnitPaths } from './unit-paths';

/** GSD-2's database inside the real `.gsd` (paths.ts: `projectDb` is `<project .gsd>/gsd.db`). */
export const GSD2_DATABASE_FILE = 'gsd.db';

export type Gsd2UnavailableCause =
  /** No `.gsd/gsd.db`: a markdown project. */
  | 'no-database'
  /** The runtime has no `node:sqlite`. */
  | 'no-node-sqlite'
  /** A SQLite file without GSD's tables. */
  | 'not-gsd-database'
  /** A view, virtual table or computed column where GSD keeps a stored table: refused unread. */
  | 'unsafe-schema'
  /** `schema_version` above the version we checked. */
  | 'schema-too-new'
  /** Still locked after every retry. */
  | 'busy'
  /** Not a database, damaged, or not openable. */
  | 'unreadable';

export type Gsd2DatabaseRead =
  | { source: 'gsd2-database'; state: Gsd2DatabaseState; schemaVersion: number; diagnostics: Diagnostic[] }
  | { source: 'gsd2-database'; unavailable: string; cause: Gsd2UnavailableCause; diagnostics: Diagnostic[] };

export interface ReadGsd2DatabaseOptions extends SnapshotOptions {
  /** The folder that holds `.gsd` (default: the parent of `gsdDir`); escalation paths resolve from it. */
  root?: string;
  /** Where `node:sqlite` comes from (tests stand in a runtime without it). */
  loadSqlite?: () => NodeSqliteLoad;
  /**
   * `all` (default): every task row, as the panel shows them. `needed`: the CLI's lazy read, task rows
   * only of the slices the derivation looks into; the other slices have `planLoaded: false`, their
   * progress counted in SQL.
   */
  tasks?: TaskDepth;
}

export function gsd2DatabasePath(gsdDir: string): string {
  return path.join(gsdDir, GSD2_DATABASE_FILE);
}

type SnapshotOutcome = { ok: true; snapshot: Gsd2Snapshot; diagnostics: Diagnostic[]; defaulted: string[] } | SchemaCheckFailure;

/** `gsdDir` is the real path of `.gsd`. Never throws. */
export function readGsd2Database(gsdDir: string, options: ReadGsd2DatabaseOptions = {}): Gsd2DatabaseRead {
  const dbPath = gsd2DatabasePath(gsdDir);
  const root = options.root ?? path.dirname(gsdDir);
  const unavailable = (cause: Gsd2UnavailableCause, reason: string, severity: Diagnostic['severity'] = 'warning'): Gsd2DatabaseRead => ({
    source: 'gsd2-database',
    unavailable: reason,
    cause,
    diagnostics: cause === 'no-database' ? [] : [{ file: dbPath, severity, message: reason }],
  });

  // Checked before node:sqlite is loaded, so a markdown project never pays for it. Confined: SQLite
  // would read a linked database and create its -wal and -shm beside the link's target.
  let realDb: string | null;
  try {
    realDb = confineRegularFile(gsdDir, GSD2_DATABASE_FILE);
  } catch (error) {
    return unavailable('unreadable', `GSD's database is not read: ${(error as Error).message}`, 'error');
  }
  if (realDb === null) return unavailable('no-database', `no ${GSD2_DATABASE_FILE} in ${gsdDir}`);

  const loaded = (options.loadSqlite ?? loadNodeSqlite)();
  if ('unavailable' in loaded) return unavailable('no-node-sqlite', loaded.unavailable);

  const result = readSnapshot(
    loaded.sqlite,
    realDb,
    (db): SnapshotOutcome => {
      const check = checkSchema(db);
      if (!check.ok) return check;
      const reader = new SnapshotReader(db, check.schema, dbPath);
      const snapshot = reader.read(options.tasks ?? 'all', slicesNeedingTasks);
      return { ok: true, snapshot, diagnostics: reader.diagnostics, defaulted: check.schema.defaulted };
    },
    options,
  );
  if (!result.ok) {
    return result.cause === 'busy'
      ? unavailable('busy', `GSD's database stayed locked through ${result.attempts} attempts (${result.message})`)
      : unavailable('unreadable', `GSD's database cannot be read: ${result.message}`, 'error');
  }
  const outcome = result.value;
  if (!outcome.ok) return unavailable(outcome.cause, `GSD's database ${outcome.message}`, outcome.cause === 'schema-too-new' ? 'warning' : 'error');

  const paths = new UnitPaths(gsdDir);
  const state = deriveFromSnapshot(outcome.snapshot, {
    root,
    gsdDir,
    dbPath,
    paths,
    readEscalation: (artifactPath) => readEscalationArtifact(root, artifactPath, gsdDir),
  });
  const diagnostics: Diagnostic[] = [...outcome.diagnostics, ...paths.refused.map((message) => ({ file: gsdDir, severity: 'warning' as const, message }))];
  if (outcome.defaulted.length > 0) {
    diagnostics.push({
      file: dbPath,
      severity: 'info',
      message: `schema version ${outcome.snapshot.schemaVersion} predates ${SUPPORTED_SCHEMA_VERSION}; ${outcome.defaulted.join(', ')} read as their defaults until GSD migrates it`,
    });
  }
  if (result.attempts > 1) diagnostics.push({ file: dbPath, severity: 'info', message: `GSD's database was busy; read on attempt ${result.attempts}` });
  state.diagnostics.unshift(...diagnostics);
  return { source: 'gsd2-database', state, schemaVersion: outcome.snapshot.schemaVersion, diagnostics: state.diagnostics };
}
