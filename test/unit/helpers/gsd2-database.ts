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
import { SCHEMA_29 } from './gsd2-schema';
import { skipBecause } from '../../shared/skip-because';

export { SCHEMA_29 };

const loaded = loadNodeSqlite();
/** `node:sqlite`, or null in a runtime without it (the tests that need it skip). */
export const nodeSqlite: NodeSqlite | null = 'sqlite' in loaded ? loaded.sqlite : null;
export const noSqliteReason: string | null = 'unavailable' in loaded ? loaded.unavailable : null;

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
  /** `sketch_scope`: the boundary the sketch is refined within. */
  sketchScope?: string;
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
  /** gsd_task_complete's knownIssues (tasks.known_issues). */
  knownIssues?: string;
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
        'INSERT INTO slices (milestone_id, id, title, status, risk, depends, demo, created_at, sequence, is_sketch, sketch_scope, replan_triggered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(mid, s.id, s.title ?? `Slice ${s.id}`, s.status ?? 'pending', s.risk ?? 'medium', JSON.stringify(s.depends ?? []), s.demo ?? '', NOW, s.sequence ?? 0, s.isSketch ? 1 : 0, s.sketchScope ?? '', s.replanTriggeredAt ?? null);
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
          escalation_pending, escalation_artifact_path, estimate, files, verify, sequence, known_issues) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
        t.knownIssues ?? '',
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
    skipBecause(this, `${noSqliteReason}; run with Node ≥ 22.5 (Node 24 from the registry)`);
  }
}
