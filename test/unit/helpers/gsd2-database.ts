// Builds GSD-2 database projects for tests: a temp folder with `.gsd/gsd.db` at schema 29 and, when a
// test wants it, the markdown GSD renders beside it. The tables and columns are the schema facts of
// gsd-build/gsd-2 at 76568edc (src/resources/extensions/gsd/db-base-schema.ts, db-migration-steps.ts,
// `SCHEMA_VERSION = 29` in gsd-db.ts), written here from those facts (only the tables the state
// derivation touches, plus the two requirement/decision tables every GSD database has). The writer
// connection is set up the way GSD's `initSchema` sets up its own: WAL, busy_timeout 5000, and it is
// kept open, as GSD keeps it open for the whole session.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadNodeSqlite, type DatabaseSyncLike, type NodeSqlite, type SqliteValue } from '../../../src/core/sqlite/node-sqlite';
import { writeTree, type Tree } from './gsd-tree';

const loaded = loadNodeSqlite();
/** `node:sqlite`, or null in a runtime without it (the tests that need it skip). */
export const nodeSqlite: NodeSqlite | null = 'sqlite' in loaded ? loaded.sqlite : null;
export const noSqliteReason: string | null = 'unavailable' in loaded ? loaded.unavailable : null;

/** Schema 29 DDL for the tables the state derivation reads (column names, types and defaults as GSD-2 has them). */
export const SCHEMA_29 = `
CREATE TABLE schema_version (version INTEGER NOT NULL, applied_at TEXT NOT NULL);
CREATE TABLE decisions (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, when_context TEXT NOT NULL DEFAULT '',
  scope TEXT NOT NULL DEFAULT '', decision TEXT NOT NULL DEFAULT '', choice TEXT NOT NULL DEFAULT '', rationale TEXT NOT NULL DEFAULT '',
  revisable TEXT NOT NULL DEFAULT '', made_by TEXT NOT NULL DEFAULT 'agent', source TEXT NOT NULL DEFAULT 'discussion', superseded_by TEXT DEFAULT NULL);
CREATE TABLE requirements (id TEXT PRIMARY KEY, class TEXT NOT NULL DEFAULT '', status TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '',
  why TEXT NOT NULL DEFAULT '', source TEXT NOT NULL DEFAULT '', primary_owner TEXT NOT NULL DEFAULT '', supporting_slices TEXT NOT NULL DEFAULT '',
  validation TEXT NOT NULL DEFAULT '', notes TEXT NOT NULL DEFAULT '', full_content TEXT NOT NULL DEFAULT '', superseded_by TEXT DEFAULT NULL);
CREATE TABLE artifacts (path TEXT PRIMARY KEY, artifact_type TEXT NOT NULL DEFAULT '', milestone_id TEXT DEFAULT NULL, slice_id TEXT DEFAULT NULL,
  task_id TEXT DEFAULT NULL, full_content TEXT NOT NULL DEFAULT '', imported_at TEXT NOT NULL DEFAULT '', content_hash TEXT DEFAULT NULL);
CREATE TABLE milestones (id TEXT PRIMARY KEY, title TEXT NOT NULL DEFAULT '', status TEXT NOT NULL DEFAULT 'active',
  depends_on TEXT NOT NULL DEFAULT '[]', created_at TEXT NOT NULL DEFAULT '', completed_at TEXT DEFAULT NULL, vision TEXT NOT NULL DEFAULT '',
  success_criteria TEXT NOT NULL DEFAULT '[]', key_risks TEXT NOT NULL DEFAULT '[]', proof_strategy TEXT NOT NULL DEFAULT '[]',
  verification_contract TEXT NOT NULL DEFAULT '', verification_integration TEXT NOT NULL DEFAULT '', verification_operational TEXT NOT NULL DEFAULT '',
  verification_uat TEXT NOT NULL DEFAULT '', definition_of_done TEXT NOT NULL DEFAULT '[]', requirement_coverage TEXT NOT NULL DEFAULT '',
  boundary_map_markdown TEXT NOT NULL DEFAULT '', sequence INTEGER DEFAULT 0);
CREATE TABLE slices (milestone_id TEXT NOT NULL, id TEXT NOT NULL, title TEXT NOT NULL DEFAULT '', status TEXT NOT NULL DEFAULT 'pending',
  risk TEXT NOT NULL DEFAULT 'medium', depends TEXT NOT NULL DEFAULT '[]', demo TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL DEFAULT '',
  completed_at TEXT DEFAULT NULL, full_summary_md TEXT NOT NULL DEFAULT '', full_uat_md TEXT NOT NULL DEFAULT '', goal TEXT NOT NULL DEFAULT '',
  success_criteria TEXT NOT NULL DEFAULT '', proof_level TEXT NOT NULL DEFAULT '', integration_closure TEXT NOT NULL DEFAULT '',
  observability_impact TEXT NOT NULL DEFAULT '', target_repositories TEXT NOT NULL DEFAULT '[]', sequence INTEGER DEFAULT 0,
  replan_triggered_at TEXT DEFAULT NULL, is_sketch INTEGER NOT NULL DEFAULT 0, sketch_scope TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (milestone_id, id), FOREIGN KEY (milestone_id) REFERENCES milestones(id));
CREATE TABLE tasks (milestone_id TEXT NOT NULL, slice_id TEXT NOT NULL, id TEXT NOT NULL, title TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'pending', one_liner TEXT NOT NULL DEFAULT '', narrative TEXT NOT NULL DEFAULT '',
  verification_result TEXT NOT NULL DEFAULT '', duration TEXT NOT NULL DEFAULT '', completed_at TEXT DEFAULT NULL,
  blocker_discovered INTEGER DEFAULT 0, blocker_source TEXT NOT NULL DEFAULT '', escalation_pending INTEGER NOT NULL DEFAULT 0,
  escalation_awaiting_review INTEGER NOT NULL DEFAULT 0, escalation_artifact_path TEXT DEFAULT NULL, escalation_override_applied_at TEXT DEFAULT NULL,
  deviations TEXT NOT NULL DEFAULT '', known_issues TEXT NOT NULL DEFAULT '', key_files TEXT NOT NULL DEFAULT '[]',
  key_decisions TEXT NOT NULL DEFAULT '[]', full_summary_md TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '',
  estimate TEXT NOT NULL DEFAULT '', files TEXT NOT NULL DEFAULT '[]', verify TEXT NOT NULL DEFAULT '', inputs TEXT NOT NULL DEFAULT '[]',
  expected_output TEXT NOT NULL DEFAULT '[]', observability_impact TEXT NOT NULL DEFAULT '', full_plan_md TEXT NOT NULL DEFAULT '',
  target_repositories TEXT NOT NULL DEFAULT '[]', sequence INTEGER DEFAULT 0,
  PRIMARY KEY (milestone_id, slice_id, id), FOREIGN KEY (milestone_id, slice_id) REFERENCES slices(milestone_id, id));
CREATE TABLE replan_history (id INTEGER PRIMARY KEY AUTOINCREMENT, milestone_id TEXT NOT NULL DEFAULT '', slice_id TEXT DEFAULT NULL,
  task_id TEXT DEFAULT NULL, summary TEXT NOT NULL DEFAULT '', previous_artifact_path TEXT DEFAULT NULL, replacement_artifact_path TEXT DEFAULT NULL,
  created_at TEXT NOT NULL DEFAULT '', FOREIGN KEY (milestone_id) REFERENCES milestones(id));
CREATE TABLE assessments (path TEXT PRIMARY KEY, milestone_id TEXT NOT NULL DEFAULT '', slice_id TEXT DEFAULT NULL, task_id TEXT DEFAULT NULL,
  status TEXT NOT NULL DEFAULT '', scope TEXT NOT NULL DEFAULT '', full_content TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL DEFAULT '',
  FOREIGN KEY (milestone_id) REFERENCES milestones(id));
CREATE TABLE quality_gates (milestone_id TEXT NOT NULL, slice_id TEXT NOT NULL, gate_id TEXT NOT NULL, scope TEXT NOT NULL DEFAULT 'slice',
  task_id TEXT NOT NULL DEFAULT '', status TEXT NOT NULL DEFAULT 'pending', verdict TEXT NOT NULL DEFAULT '', rationale TEXT NOT NULL DEFAULT '',
  findings TEXT NOT NULL DEFAULT '', evaluated_at TEXT DEFAULT NULL, PRIMARY KEY (milestone_id, slice_id, gate_id, task_id),
  FOREIGN KEY (milestone_id, slice_id) REFERENCES slices(milestone_id, id));
CREATE TABLE slice_dependencies (milestone_id TEXT NOT NULL, slice_id TEXT NOT NULL, depends_on_slice_id TEXT NOT NULL,
  PRIMARY KEY (milestone_id, slice_id, depends_on_slice_id), FOREIGN KEY (milestone_id, slice_id) REFERENCES slices(milestone_id, id),
  FOREIGN KEY (milestone_id, depends_on_slice_id) REFERENCES slices(milestone_id, id));
CREATE INDEX idx_tasks_active ON tasks(milestone_id, slice_id, status);
CREATE INDEX idx_slices_active ON slices(milestone_id, status);
CREATE INDEX idx_quality_gates_pending ON quality_gates(milestone_id, slice_id, status);
CREATE UNIQUE INDEX idx_replan_history_unique ON replan_history(milestone_id, slice_id, task_id) WHERE slice_id IS NOT NULL AND task_id IS NOT NULL;
`;

export interface MilestoneSpec {
  id: string;
  title?: string;
  status?: string;
  dependsOn?: string[];
  sequence?: number;
}
export interface SliceSpec {
  milestoneId?: string;
  id: string;
  title?: string;
  status?: string;
  risk?: string;
  depends?: string[];
  demo?: string;
  sequence?: number;
  isSketch?: boolean;
  replanTriggeredAt?: string | null;
}
export interface TaskSpec {
  milestoneId?: string;
  sliceId?: string;
  id: string;
  title?: string;
  status?: string;
  sequence?: number;
  blockerDiscovered?: boolean;
  escalationPending?: boolean;
  escalationArtifactPath?: string | null;
  estimate?: string;
  files?: string[];
  verify?: string;
  completedAt?: string | null;
}

const NOW = '2026-11-20T10:00:00.000Z';

export interface Gsd2ProjectOptions {
  /** GSD uses WAL; DELETE is what it uses on WSL DrvFs mounts (gsd-db.ts `initSchema`). */
  journalMode?: 'WAL' | 'DELETE';
  schemaVersion?: number;
  /** Markdown files GSD would have rendered, by path relative to the project root. */
  files?: Tree;
}

/** A GSD-2 project whose database writer (standing in for GSD's own connection) stays open. */
export class Gsd2Project {
  readonly root: string;
  readonly gsdDir: string;
  readonly dbPath: string;
  writer: DatabaseSyncLike;

  constructor(options: Gsd2ProjectOptions = {}) {
    if (!nodeSqlite) throw new Error(`Gsd2Project needs node:sqlite: ${noSqliteReason}`);
    this.root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gsd2-db-')));
    this.gsdDir = path.join(this.root, '.gsd');
    fs.mkdirSync(path.join(this.gsdDir, 'milestones'), { recursive: true });
    if (options.files) writeTree(options.files, this.root);
    this.dbPath = path.join(this.gsdDir, 'gsd.db');
    this.writer = new nodeSqlite.DatabaseSync(this.dbPath);
    this.writer.exec(`PRAGMA journal_mode=${options.journalMode ?? 'WAL'}`);
    this.writer.exec('PRAGMA busy_timeout = 5000');
    this.writer.exec('PRAGMA foreign_keys = ON');
    this.writer.exec(SCHEMA_29);
    this.writer.prepare('INSERT INTO schema_version (version, applied_at) VALUES (?, ?)').run(options.schemaVersion ?? 29, NOW);
  }

  milestone(m: MilestoneSpec): this {
    this.writer
      .prepare('INSERT INTO milestones (id, title, status, depends_on, created_at, sequence) VALUES (?, ?, ?, ?, ?, ?)')
      .run(m.id, m.title ?? `${m.id}: Milestone ${m.id}`, m.status ?? 'active', JSON.stringify(m.dependsOn ?? []), NOW, m.sequence ?? 0);
    return this;
  }

  slice(s: SliceSpec): this {
    const mid = s.milestoneId ?? 'M001';
    this.writer
      .prepare(
        'INSERT INTO slices (milestone_id, id, title, status, risk, depends, demo, created_at, sequence, is_sketch, replan_triggered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(mid, s.id, s.title ?? `Slice ${s.id}`, s.status ?? 'pending', s.risk ?? 'medium', JSON.stringify(s.depends ?? []), s.demo ?? '', NOW, s.sequence ?? 0, s.isSketch ? 1 : 0, s.replanTriggeredAt ?? null);
    // GSD mirrors `depends` into slice_dependencies; a dependency on a slice not inserted yet (or a
    // cycle) has no row to point at, so that junction row is left out, as a foreign key requires.
    for (const dep of s.depends ?? []) {
      const target = this.writer.prepare('SELECT 1 AS x FROM slices WHERE milestone_id = ? AND id = ?').get(mid, dep);
      if (target) this.writer.prepare('INSERT OR IGNORE INTO slice_dependencies (milestone_id, slice_id, depends_on_slice_id) VALUES (?, ?, ?)').run(mid, s.id, dep);
    }
    return this;
  }

  task(t: TaskSpec): this {
    const closed = ['complete', 'done'].includes(t.status ?? 'pending');
    this.writer
      .prepare(
        `INSERT INTO tasks (milestone_id, slice_id, id, title, status, one_liner, verification_result, completed_at, blocker_discovered,
          escalation_pending, escalation_artifact_path, estimate, files, verify, sequence) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        t.milestoneId ?? 'M001',
        t.sliceId ?? 'S01',
        t.id,
        t.title ?? `Task ${t.id}`,
        t.status ?? 'pending',
        closed ? `${t.id} done` : '',
        closed ? 'passed' : '',
        t.completedAt !== undefined ? t.completedAt : closed ? NOW : null,
        t.blockerDiscovered ? 1 : 0,
        t.escalationPending ? 1 : 0,
        t.escalationArtifactPath ?? null,
        t.estimate ?? '30m',
        JSON.stringify(t.files ?? [`src/${t.id.toLowerCase()}.ts`]),
        t.verify ?? 'npm test',
        t.sequence ?? 0,
      );
    return this;
  }

  replan(milestoneId: string, sliceId: string, taskId: string | null, createdAt = NOW): this {
    this.writer
      .prepare('INSERT INTO replan_history (milestone_id, slice_id, task_id, summary, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(milestoneId, sliceId, taskId, 'Replanned after blocker', createdAt);
    return this;
  }

  assessment(milestoneId: string, status: string, createdAt = NOW, scope = 'milestone-validation'): this {
    this.writer
      .prepare('INSERT INTO assessments (path, milestone_id, status, scope, full_content, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(`.gsd/milestones/${milestoneId}/${milestoneId}-VALIDATION-${createdAt}.md`, milestoneId, status, scope, `verdict: ${status}`, createdAt);
    return this;
  }

  gate(milestoneId: string, sliceId: string, gateId: string, status = 'pending', options: { scope?: string; taskId?: string } = {}): this {
    this.writer
      .prepare('INSERT INTO quality_gates (milestone_id, slice_id, gate_id, scope, task_id, status) VALUES (?, ?, ?, ?, ?, ?)')
      .run(milestoneId, sliceId, gateId, options.scope ?? 'slice', options.taskId ?? '', status);
    return this;
  }

  run(sql: string, ...params: SqliteValue[]): this {
    this.writer.prepare(sql).run(...params);
    return this;
  }

  write(files: Tree): this {
    writeTree(files, this.root);
    return this;
  }

  /** Closes GSD's stand-in connection (SQLite checkpoints the WAL into the main file and removes it). */
  close(): void {
    try {
      this.writer.close();
    } catch {
      // already closed
    }
  }

  remove(): void {
    this.close();
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

/** For a suite's `before`: skip it, saying why, where this Node has no `node:sqlite`. */
export function skipWithoutSqlite(this: Mocha.Context): void {
  if (!nodeSqlite) {
    console.log(`      skipped: ${noSqliteReason}; run with Node ≥ 22.5 (Node 24 from the registry)`);
    this.skip();
  }
}
