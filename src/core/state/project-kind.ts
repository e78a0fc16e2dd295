// Which generation of GSD a `.gsd` folder belongs to (docs/project-kinds.md):
//   successor     @opengsd/gsd-pi 1.x: gsd.db stamped application_id 0x47534442 (schema >= 46), or
//                 a schema_version past GSD-2's 29, or a `phases/` layout / `.compat.json` beside a
//                 database, or `phases/` alone (gsd.db is usually git-ignored, so a clone has none);
//   gsd2-database gsd-build/gsd-2: gsd.db at schema_version <= 29 with the `milestones/` tree;
//   markdown      no database: the markdown is the truth.
// Facts: gsd-pi layout-policy.ts (LAYOUT_SEGMENTS.level1 = "phases", dbPath = .gsd/gsd.db),
// compat/compat-marker.ts (compatMarkerPath = .gsd/.compat.json), db/engine.ts (stamps,
// GSD_APPLICATION_ID, refusal of newer schemas), db-schema-metadata.ts (getCurrentSchemaVersion =
// MAX(version) of schema_version, which stays authoritative over user_version).
import * as path from 'node:path';
import { confineRegularFile } from '../files/confine';
import type { Diagnostic, ProjectKind } from '../model/types';
import { nodeSqliteAvailability, readDatabase } from '../sqlite/read-only-database';
import { GSD_APPLICATION_ID, LAST_GSD2_SCHEMA, LATEST_KNOWN_SCHEMA, schemaTooNewMessage } from './schema-versions';
import { readSqliteHeader } from '../sqlite/sqlite-header';
import { isFileAt, isFolderAt } from '../files/path-kind';

export type { ProjectKind } from '../model/types';

export interface ProjectKindReport {
  kind: ProjectKind;
  gsdDir: string;
  /** Absolute path of `gsd.db`, when there is one. */
  databaseFile?: string;
  /** The database's schema: `schema_version` when node:sqlite could read it, else the header's user_version. */
  schemaVersion?: number;
  schemaVersionFrom?: 'schema_version' | 'user_version';
  applicationId?: number;
  userVersion?: number;
  /** The database is newer than this reader knows: it is not read any further. */
  tooNew: boolean;
  hasPhasesDir: boolean;
  hasMilestonesDir: boolean;
  hasCompatMarker: boolean;
  /** Why the kind was chosen, one short line each. */
  reasons: string[];
  diagnostics: Diagnostic[];
}

export interface DetectOptions {
  /** `off` reads only the file header and the folders, as on Node 20. Default `auto`. */
  sqlite?: 'auto' | 'off';
}

export const DATABASE_FILE = 'gsd.db';
export const PHASES_DIR = 'phases';
export const MILESTONES_DIR = 'milestones';
export const COMPAT_MARKER = '.compat.json';

/** MAX(version) of schema_version, as GSD computes it; null when the table is missing or unreadable. */
function readSchemaVersion(file: string, diagnostics: Diagnostic[]): number | null {
  const r = readDatabase(file, (db) => {
    if (!db.hasTable('schema_version')) return null;
    const v = db.get('SELECT MAX(version) AS v FROM schema_version')?.v;
    return typeof v === 'number' || typeof v === 'bigint' ? Number(v) : 0;
  });
  if (!r.ok) {
    diagnostics.push({ file, severity: 'warning', message: r.reason });
    return null;
  }
  return r.value;
}

export function detectProjectKind(gsdDir: string, options: DetectOptions = {}): ProjectKindReport {
  const diagnostics: Diagnostic[] = [];
  const reasons: string[] = [];
  let databaseFile = path.join(gsdDir, DATABASE_FILE);
  let hasDatabase = isFileAt(databaseFile);
  if (hasDatabase) {
    // SQLite would read a linked database and create its -wal and -shm beside the link's target.
    try {
      databaseFile = confineRegularFile(gsdDir, DATABASE_FILE) ?? databaseFile;
    } catch (error) {
      diagnostics.push({ file: databaseFile, severity: 'warning', message: `${(error as Error).message}; the project is read as markdown` });
      hasDatabase = false;
    }
  }
  const hasPhasesDir = isFolderAt(path.join(gsdDir, PHASES_DIR));
  const hasMilestonesDir = isFolderAt(path.join(gsdDir, MILESTONES_DIR));
  const hasCompatMarker = isFileAt(path.join(gsdDir, COMPAT_MARKER));
  const report: ProjectKindReport = { kind: 'markdown', gsdDir, tooNew: false, hasPhasesDir, hasMilestonesDir, hasCompatMarker, reasons, diagnostics };

  if (!hasDatabase) {
    if (hasPhasesDir) {
      report.kind = 'successor';
      reasons.push('phases/ layout without gsd.db (the database is usually git-ignored): the markdown is all there is to read');
    } else {
      reasons.push('no gsd.db: the markdown is the truth');
    }
    return report;
  }

  report.databaseFile = databaseFile;
  const header = readSqliteHeader(databaseFile);
  if (!header) {
    diagnostics.push({ file: databaseFile, severity: 'warning', message: 'gsd.db is not an SQLite database (wrong or missing header); the project is read as markdown' });
    reasons.push('gsd.db is not an SQLite database');
    if (hasPhasesDir) {
      report.kind = 'successor';
      reasons.push('phases/ layout');
    }
    return report;
  }
  report.applicationId = header.applicationId;
  report.userVersion = header.userVersion;

  const useSqlite = options.sqlite !== 'off' && nodeSqliteAvailability().available;
  const schema = useSqlite ? readSchemaVersion(databaseFile, diagnostics) : null;
  const stamped = header.applicationId === GSD_APPLICATION_ID;
  if (schema !== null) {
    report.schemaVersion = schema;
    report.schemaVersionFrom = 'schema_version';
  } else if (stamped && header.userVersion > 0) {
    report.schemaVersion = header.userVersion;
    report.schemaVersionFrom = 'user_version';
  }
  const version = report.schemaVersion;

  if (stamped) reasons.push(`application_id 0x${GSD_APPLICATION_ID.toString(16)} ("GSDB"), user_version ${header.userVersion}`);
  if (schema !== null) reasons.push(`schema_version ${schema}`);
  if (stamped || (version !== undefined && version > LAST_GSD2_SCHEMA)) {
    report.kind = 'successor';
  } else if (hasPhasesDir || hasCompatMarker) {
    // An unstamped successor database (1.x before schema 46) read without node:sqlite.
    report.kind = 'successor';
    reasons.push([hasPhasesDir && 'phases/ layout', hasCompatMarker && '.compat.json'].filter(Boolean).join(' and ') + ' beside gsd.db');
  } else {
    report.kind = 'gsd2-database';
    reasons.push(version !== undefined ? `schema_version ${version} <= ${LAST_GSD2_SCHEMA}` : 'unstamped gsd.db', hasMilestonesDir ? 'milestones/ layout' : 'no phases/ layout');
  }

  if (report.kind === 'successor' && version !== undefined && version > LATEST_KNOWN_SCHEMA) {
    report.tooNew = true;
    diagnostics.push({ file: databaseFile, severity: 'error', message: schemaTooNewMessage(version) });
  }
  return report;
}
