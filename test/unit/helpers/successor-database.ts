// Writes successor gsd.db files for tests with node:sqlite (Node >= 22.5 only: callers skip
// without it). Tables and columns as gsd-pi creates them: db-base-schema.ts (schema_version,
// milestones, slices, tasks, assessments, rework_briefs, rework_brief_findings),
// db-canonical-foundation-schema.ts (project_authority), db-lifecycle-foundation-schema.ts
// (workflow_item_lifecycles; the CHECK gains `blocker-accepted` at V50,
// db-blocker-accepted-closeout-schema.ts); the V46 stamps (db/engine.ts stampStateCutoverPragmas);
// hook gate verdict rows (db/writers/hook-verdicts.ts upsertHookGateVerdict). WAL journal mode, as
// GSD runs it. Columns the reader does not use are left out.

export interface DbSpec {
  schema: number;
  /** application_id + user_version stamps; default: schema >= 46. */
  stamped?: boolean;
  /** user_version when it should differ from the schema (schema_version stays authoritative). */
  userVersion?: number;
  /** GSD runs WAL; `delete` is its conservative mode on WSL drives (db/engine.ts configureSchemaConnection). */
  journal?: 'wal' | 'delete';
  /** null: no project_authority row. */
  authorityEpoch?: number | null;
  revision?: number;
  milestones: Array<{ id: string; title: string; status: string; sequence?: number }>;
  slices: Array<{ milestoneId: string; id: string; title: string; status: string; depends?: string[]; sequence?: number; replanTriggeredAt?: string }>;
  tasks: Array<{ milestoneId: string; sliceId: string; id: string; title: string; status: string; knownIssues?: string; estimate?: string; completedAt?: string; sequence?: number }>;
  lifecycles?: Array<{ kind: 'milestone' | 'slice' | 'task'; milestoneId: string; sliceId?: string; taskId?: string; status: string }>;
  hookVerdicts?: Array<{ hook: string; milestoneId: string; sliceId?: string; taskId?: string; verdict: string; rationale: string; createdAt: string }>;
  reworkBriefs?: Array<{ id: string; milestoneId: string; sliceId: string; taskId: string; createdAt: string; findings: Array<{ findingId: string; severity: string; description: string; requiredFix: string; status: string }> }>;
}

interface Db {
  exec(sql: string): void;
  prepare(sql: string): { run(...params: unknown[]): unknown };
  close(): void;
}

export function sqliteAvailable(): boolean {
  try {
    require('node:sqlite');
    return true;
  } catch {
    return false;
  }
}

export const PROJECT_ID = 'proj-0001';

/** Old status column → lifecycle status, as GSD's LEGACY_STATUS_MAP (db/lifecycle-shadow-comparison.ts). */
const CANONICAL: Record<string, string> = { complete: 'completed', active: 'in_progress', pending: 'pending' };

/** The project of helpers/successor-project.ts as GSD's database holds it. */
export function baseSpec(schema: number, authorityEpoch: number | null): DbSpec {
  const spec: DbSpec = {
    schema,
    authorityEpoch,
    milestones: [
      { id: 'M001', title: 'Checkout flow', status: 'active', sequence: 1 },
      { id: 'M002', title: 'Order history', status: 'pending', sequence: 2 },
    ],
    slices: [
      { milestoneId: 'M001', id: 'S01', title: 'Cart model', status: 'complete', sequence: 1 },
      { milestoneId: 'M001', id: 'S02', title: 'Payment', status: 'active', depends: ['S01'], sequence: 2 },
      { milestoneId: 'M001', id: 'R01', title: 'Fix rounding', status: 'pending', depends: ['S02'], sequence: 3 },
      { milestoneId: 'M002', id: 'S01', title: 'List orders', status: 'pending', sequence: 1 },
    ],
    tasks: [
      { milestoneId: 'M001', sliceId: 'S01', id: 'T01', title: 'Cart entity', status: 'complete', sequence: 1 },
      { milestoneId: 'M001', sliceId: 'S01', id: 'T02', title: 'Cart totals', status: 'complete', sequence: 2, knownIssues: '- Rounding of totals over 1,000 is off by one cent.\n- Cart is not persisted across sessions.' },
      { milestoneId: 'M001', sliceId: 'S02', id: 'T01', title: 'Payment intent', status: 'complete', sequence: 1 },
      { milestoneId: 'M001', sliceId: 'S02', id: 'T02', title: 'Capture payment', status: 'pending', sequence: 2, knownIssues: '- Capture retries are untested.' },
      { milestoneId: 'M001', sliceId: 'S02', id: 'T03', title: 'Refunds', status: 'pending', sequence: 3 },
      { milestoneId: 'M001', sliceId: 'R01', id: 'T01', title: 'Round half-even', status: 'pending', sequence: 1 },
      { milestoneId: 'M002', sliceId: 'S01', id: 'T01', title: 'Orders query', status: 'complete', sequence: 1 },
      { milestoneId: 'M002', sliceId: 'S01', id: 'T02', title: 'Orders page', status: 'pending', sequence: 2 },
    ],
  };
  return spec;
}

/** Lifecycle rows for every item, from the columns, with the given disagreements. */
export function withLifecycles(spec: DbSpec, overrides: Record<string, string>, omit: string[] = []): DbSpec {
  const rows: NonNullable<DbSpec['lifecycles']> = [];
  for (const m of spec.milestones) rows.push({ kind: 'milestone', milestoneId: m.id, status: CANONICAL[m.status] });
  for (const s of spec.slices) rows.push({ kind: 'slice', milestoneId: s.milestoneId, sliceId: s.id, status: CANONICAL[s.status] });
  for (const t of spec.tasks) rows.push({ kind: 'task', milestoneId: t.milestoneId, sliceId: t.sliceId, taskId: t.id, status: CANONICAL[t.status] });
  const key = (r: (typeof rows)[number]) => [r.milestoneId, r.sliceId, r.taskId].filter(Boolean).join('/');
  return { ...spec, lifecycles: rows.filter((r) => !omit.includes(key(r))).map((r) => ({ ...r, status: overrides[key(r)] ?? r.status })) };
}


export function buildSuccessorDatabase(file: string, spec: DbSpec): void {
  const { DatabaseSync } = require('node:sqlite') as { DatabaseSync: new (p: string) => Db };
  const db = new DatabaseSync(file);
  db.exec(`PRAGMA journal_mode = ${spec.journal === 'delete' ? 'DELETE' : 'WAL'}`);
  const lifecycleStatuses = ["'pending'", "'ready'", "'in_progress'", "'paused'", "'completed'", "'cancelled'", ...(spec.schema >= 50 ? ["'blocker-accepted'"] : [])].join(', ');
  db.exec(`
    CREATE TABLE schema_version (version INTEGER NOT NULL, applied_at TEXT NOT NULL);
    CREATE TABLE milestones (
      id TEXT PRIMARY KEY, title TEXT NOT NULL DEFAULT '', status TEXT NOT NULL DEFAULT 'active',
      depends_on TEXT NOT NULL DEFAULT '[]', created_at TEXT NOT NULL DEFAULT '', completed_at TEXT DEFAULT NULL,
      vision TEXT NOT NULL DEFAULT '', sequence INTEGER DEFAULT 0);
    CREATE TABLE slices (
      milestone_id TEXT NOT NULL, id TEXT NOT NULL, title TEXT NOT NULL DEFAULT '', status TEXT NOT NULL DEFAULT 'pending',
      risk TEXT NOT NULL DEFAULT 'medium', depends TEXT NOT NULL DEFAULT '[]', demo TEXT NOT NULL DEFAULT '',
      created_at TEXT NOT NULL DEFAULT '', completed_at TEXT DEFAULT NULL, full_summary_md TEXT NOT NULL DEFAULT '',
      goal TEXT NOT NULL DEFAULT '', sequence INTEGER DEFAULT 0, replan_triggered_at TEXT DEFAULT NULL,
      is_sketch INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (milestone_id, id));
    CREATE TABLE tasks (
      milestone_id TEXT NOT NULL, slice_id TEXT NOT NULL, id TEXT NOT NULL, title TEXT NOT NULL DEFAULT '',
      status TEXT NOT NULL DEFAULT 'pending', one_liner TEXT NOT NULL DEFAULT '', narrative TEXT NOT NULL DEFAULT '',
      verification_result TEXT NOT NULL DEFAULT '', duration TEXT NOT NULL DEFAULT '', completed_at TEXT DEFAULT NULL,
      blocker_discovered INTEGER DEFAULT 0, deviations TEXT NOT NULL DEFAULT '', known_issues TEXT NOT NULL DEFAULT '',
      key_files TEXT NOT NULL DEFAULT '[]', key_decisions TEXT NOT NULL DEFAULT '[]', full_summary_md TEXT NOT NULL DEFAULT '',
      description TEXT NOT NULL DEFAULT '', estimate TEXT NOT NULL DEFAULT '', files TEXT NOT NULL DEFAULT '[]',
      verify TEXT NOT NULL DEFAULT '', required_workflow_tools TEXT NOT NULL DEFAULT '[]', sequence INTEGER DEFAULT 0,
      PRIMARY KEY (milestone_id, slice_id, id));
    CREATE TABLE assessments (
      path TEXT PRIMARY KEY, milestone_id TEXT NOT NULL DEFAULT '', slice_id TEXT DEFAULT NULL, task_id TEXT DEFAULT NULL,
      status TEXT NOT NULL DEFAULT '', scope TEXT NOT NULL DEFAULT '', full_content TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL DEFAULT '');
    CREATE TABLE rework_briefs (
      id TEXT PRIMARY KEY, milestone_id TEXT NOT NULL DEFAULT '', slice_id TEXT NOT NULL DEFAULT '', task_id TEXT NOT NULL DEFAULT '',
      created_at TEXT NOT NULL DEFAULT '', updated_at TEXT NOT NULL DEFAULT '');
    CREATE TABLE rework_brief_findings (
      brief_id TEXT NOT NULL, finding_id TEXT NOT NULL, severity TEXT NOT NULL DEFAULT 'blocking', description TEXT NOT NULL DEFAULT '',
      required_fix TEXT NOT NULL DEFAULT '', verification_commands TEXT NOT NULL DEFAULT '[]', status TEXT NOT NULL DEFAULT 'pending',
      evidence TEXT NOT NULL DEFAULT '', decision_ref TEXT NOT NULL DEFAULT '', updated_at TEXT NOT NULL DEFAULT '',
      PRIMARY KEY (brief_id, finding_id));
  `);
  if (spec.schema >= 31) {
    db.exec(`CREATE TABLE project_authority (
      singleton INTEGER PRIMARY KEY CHECK (singleton = 1), project_id TEXT NOT NULL UNIQUE, project_root_realpath TEXT NOT NULL DEFAULT '',
      revision INTEGER NOT NULL DEFAULT 0 CHECK (revision >= 0), authority_epoch INTEGER NOT NULL DEFAULT 0 CHECK (authority_epoch >= 0),
      created_at TEXT NOT NULL DEFAULT '', updated_at TEXT NOT NULL DEFAULT '')`);
  }
  if (spec.schema >= 32) {
    db.exec(`CREATE TABLE workflow_item_lifecycles (
      lifecycle_id TEXT PRIMARY KEY, project_id TEXT NOT NULL,
      item_kind TEXT NOT NULL CHECK (item_kind IN ('milestone', 'slice', 'task')),
      milestone_id TEXT NOT NULL, slice_id TEXT DEFAULT NULL, task_id TEXT DEFAULT NULL,
      lifecycle_status TEXT NOT NULL CHECK (lifecycle_status IN (${lifecycleStatuses})),
      state_version INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
      last_operation_id TEXT NOT NULL, last_project_revision INTEGER NOT NULL, last_authority_epoch INTEGER NOT NULL)`);
  }
  const now = '2026-10-01T10:00:00Z';
  for (const v of [1, Math.max(1, spec.schema - 1), spec.schema]) db.prepare('INSERT INTO schema_version (version, applied_at) VALUES (?, ?)').run(v, now);
  if (spec.schema >= 31 && spec.authorityEpoch !== null) {
    db.prepare('INSERT INTO project_authority (singleton, project_id, revision, authority_epoch) VALUES (1, ?, ?, ?)').run(PROJECT_ID, spec.revision ?? 42, spec.authorityEpoch ?? 0);
  }
  for (const m of spec.milestones) db.prepare('INSERT INTO milestones (id, title, status, sequence) VALUES (?, ?, ?, ?)').run(m.id, m.title, m.status, m.sequence ?? 0);
  for (const s of spec.slices) {
    db.prepare('INSERT INTO slices (milestone_id, id, title, status, depends, sequence, replan_triggered_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(s.milestoneId, s.id, s.title, s.status, JSON.stringify(s.depends ?? []), s.sequence ?? 0, s.replanTriggeredAt ?? null);
  }
  for (const t of spec.tasks) {
    db.prepare('INSERT INTO tasks (milestone_id, slice_id, id, title, status, known_issues, estimate, completed_at, files, sequence) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
      t.milestoneId, t.sliceId, t.id, t.title, t.status, t.knownIssues ?? '', t.estimate ?? '', t.completedAt ?? null, JSON.stringify([`src/${t.id.toLowerCase()}.ts`]), t.sequence ?? 0,
    );
  }
  (spec.lifecycles ?? []).forEach((l, i) => {
    db.prepare(`INSERT INTO workflow_item_lifecycles (lifecycle_id, project_id, item_kind, milestone_id, slice_id, task_id, lifecycle_status, state_version, created_at, updated_at, last_operation_id, last_project_revision, last_authority_epoch)
      VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, 1, ?)`).run(`lc-${i}`, PROJECT_ID, l.kind, l.milestoneId, l.sliceId ?? null, l.taskId ?? null, l.status, now, now, `op-${i}`, spec.authorityEpoch ?? 0);
  });
  for (const v of spec.hookVerdicts ?? []) {
    const unitId = [v.milestoneId, v.sliceId, v.taskId].filter(Boolean).join('/');
    db.prepare(`INSERT INTO assessments (path, milestone_id, slice_id, task_id, status, scope, full_content, created_at) VALUES (?, ?, ?, ?, ?, 'hook-gate', ?, ?)`).run(
      `hook-verdicts/${encodeURIComponent(v.hook)}/${unitId}.md`, v.milestoneId, v.sliceId ?? null, v.taskId ?? null, v.verdict, v.rationale, v.createdAt,
    );
  }
  for (const b of spec.reworkBriefs ?? []) {
    db.prepare('INSERT INTO rework_briefs (id, milestone_id, slice_id, task_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(b.id, b.milestoneId, b.sliceId, b.taskId, b.createdAt, b.createdAt);
    for (const f of b.findings) {
      db.prepare('INSERT INTO rework_brief_findings (brief_id, finding_id, severity, description, required_fix, status) VALUES (?, ?, ?, ?, ?, ?)').run(b.id, f.findingId, f.severity, f.description, f.requiredFix, f.status);
    }
  }
  if (spec.stamped ?? spec.schema >= 46) {
    db.exec('PRAGMA application_id = 1196639298'); // 0x47534442, "GSDB"
    db.exec(`PRAGMA user_version = ${spec.userVersion ?? spec.schema}`);
  }
  db.close();
}

/** Opens a writer on the database and keeps it open (GSD running): WAL files exist while it is. */
export function openWriter(file: string): Db {
  const { DatabaseSync } = require('node:sqlite') as { DatabaseSync: new (p: string) => Db };
  return new DatabaseSync(file);
}
