// The rows of a successor gsd.db this reader needs, in one read transaction. Tables and columns
// from gsd-pi db-base-schema.ts (milestones, slices, tasks, assessments, rework_briefs,
// rework_brief_findings), db-canonical-foundation-schema.ts (project_authority, V31),
// db-lifecycle-foundation-schema.ts (workflow_item_lifecycles, V32; V50 adds `blocker-accepted`),
// db/hook-verdicts.ts (hook gate verdicts: assessments rows with scope `hook-gate`, path
// `hook-verdicts/<hook>/<unit id>.md`). Orders as GSD's own queries (db/queries.ts): milestones by
// `sequence > 0` first, then sequence, id; slices and tasks by sequence, id.
// A table or column an older schema lacks is simply not read.
import type { ReadOnlyDatabase, Row } from '../sqlite/read-only-database';

export interface DbMilestone {
  id: string;
  title: string;
  status: string;
  dependsOn: string[];
  completedAt?: string;
}

export interface DbSlice {
  milestoneId: string;
  id: string;
  title: string;
  status: string;
  risk?: string;
  depends: string[];
  demo?: string;
  completedAt?: string;
  replanTriggeredAt?: string;
}

export interface DbTask {
  milestoneId: string;
  sliceId: string;
  id: string;
  title: string;
  status: string;
  oneLiner?: string;
  estimate?: string;
  files: string[];
  verify?: string;
  verificationResult?: string;
  completedAt?: string;
  blockerDiscovered: boolean;
  knownIssues: string;
}

export interface DbLifecycle {
  kind: 'milestone' | 'slice' | 'task';
  milestoneId: string;
  sliceId: string | null;
  taskId: string | null;
  status: string;
  stateVersion?: number;
}

export interface DbHookVerdict {
  hook: string;
  unitId: string;
  milestoneId: string;
  sliceId: string | null;
  taskId: string | null;
  verdict: string;
  rationale: string;
  createdAt: string;
  path: string;
}

export interface DbReworkFinding {
  findingId: string;
  severity: string;
  description: string;
  requiredFix: string;
  status: string;
  evidence: string;
}

export interface DbReworkBrief {
  id: string;
  milestoneId: string;
  sliceId: string;
  taskId: string;
  createdAt: string;
  updatedAt: string;
  findings: DbReworkFinding[];
}

export interface SuccessorRows {
  schemaVersion: number;
  projectRevision: number | null;
  /** null when the database has no project_authority row (or table). */
  authorityEpoch: number | null;
  milestones: DbMilestone[];
  slices: DbSlice[];
  tasks: DbTask[];
  lifecycles: DbLifecycle[];
  hookVerdicts: DbHookVerdict[];
  reworkBriefs: DbReworkBrief[];
}

const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const opt = (v: unknown): string | undefined => (v === null || v === undefined || String(v).trim() === '' ? undefined : String(v));
const num = (v: unknown): number | null => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null);

/** GSD keeps lists as JSON text (`'[]'` by default); anything else reads as no list. */
function jsonList(v: unknown): string[] {
  if (typeof v !== 'string' || !v.trim()) return [];
  try {
    const parsed: unknown = JSON.parse(v);
    return Array.isArray(parsed) ? parsed.map((x) => String(x)).filter(Boolean) : [];
  } catch {
    return [];
  }
}

function column(db: ReadOnlyDatabase, table: string, name: string, fallback = 'NULL'): string {
  return db.hasColumn(table, name) ? name : `${fallback} AS ${name}`;
}

/** `hook-verdicts/<percent-encoded hook>/<unit id>.md` (db/hook-verdicts.ts hookGateVerdictPath). */
export function parseHookVerdictPath(p: string): { hook: string; unitId: string } | null {
  const m = /^hook-verdicts\/([^/]+)\/(.+)\.md$/.exec(p);
  if (!m) return null;
  try {
    return { hook: decodeURIComponent(m[1]), unitId: m[2] };
  } catch {
    return { hook: m[1], unitId: m[2] };
  }
}

/** The project's revision and authority epoch (`project_authority`, one row), and its id. */
function readAuthority(db: ReadOnlyDatabase): { projectRevision: number | null; authorityEpoch: number | null; projectId: string | null } {
  const a = db.hasTable('project_authority') ? db.get('SELECT project_id, revision, authority_epoch FROM project_authority WHERE singleton = 1') : undefined;
  if (!a) return { projectRevision: null, authorityEpoch: null, projectId: null };
  return { projectRevision: num(a.revision), authorityEpoch: num(a.authority_epoch), projectId: opt(a.project_id) ?? null };
}

function readMilestones(db: ReadOnlyDatabase): DbMilestone[] {
  if (!db.hasTable('milestones')) return [];
  return db
    .all(`SELECT id, title, status, ${column(db, 'milestones', 'depends_on', `'[]'`)}, completed_at, ${column(db, 'milestones', 'sequence', '0')} FROM milestones ORDER BY CASE WHEN sequence > 0 THEN 0 ELSE 1 END, sequence, id`)
    .map((r) => ({ id: str(r.id), title: str(r.title), status: str(r.status), dependsOn: jsonList(r.depends_on), completedAt: opt(r.completed_at) }));
}

function readSlices(db: ReadOnlyDatabase): DbSlice[] {
  if (!db.hasTable('slices')) return [];
  return db
    .all(`SELECT milestone_id, id, title, status, risk, depends, demo, completed_at, ${column(db, 'slices', 'replan_triggered_at')}, ${column(db, 'slices', 'sequence', '0')} FROM slices ORDER BY milestone_id, sequence, id`)
    .map((r) => ({
      milestoneId: str(r.milestone_id),
      id: str(r.id),
      title: str(r.title),
      status: str(r.status),
      risk: opt(r.risk),
      depends: jsonList(r.depends),
      demo: opt(r.demo),
      completedAt: opt(r.completed_at),
      replanTriggeredAt: opt(r.replan_triggered_at),
    }));
}

function readTasks(db: ReadOnlyDatabase): DbTask[] {
  if (!db.hasTable('tasks')) return [];
  return db
    .all(
      `SELECT milestone_id, slice_id, id, title, status, one_liner, estimate, files, verify, verification_result, completed_at, blocker_discovered, known_issues, ${column(db, 'tasks', 'sequence', '0')} FROM tasks ORDER BY milestone_id, slice_id, sequence, id`,
    )
    .map((r: Row) => ({
      milestoneId: str(r.milestone_id),
      sliceId: str(r.slice_id),
      id: str(r.id),
      title: str(r.title),
      status: str(r.status),
      oneLiner: opt(r.one_liner),
      estimate: opt(r.estimate),
      files: jsonList(r.files),
      verify: opt(r.verify),
      verificationResult: opt(r.verification_result),
      completedAt: opt(r.completed_at),
      blockerDiscovered: num(r.blocker_discovered) === 1,
      knownIssues: str(r.known_issues),
    }));
}

/** Only the lifecycle rows of this project (the status writer joins on project_authority the same way). */
function readLifecycles(db: ReadOnlyDatabase, projectId: string | null): DbLifecycle[] {
  if (!db.hasTable('workflow_item_lifecycles') || projectId === null) return [];
  return db
    .all(`SELECT item_kind, milestone_id, slice_id, task_id, lifecycle_status, state_version FROM workflow_item_lifecycles WHERE project_id = ?`, projectId)
    .map((r) => ({
      kind: str(r.item_kind) as DbLifecycle['kind'],
      milestoneId: str(r.milestone_id),
      sliceId: opt(r.slice_id) ?? null,
      taskId: opt(r.task_id) ?? null,
      status: str(r.lifecycle_status),
      stateVersion: num(r.state_version) ?? undefined,
    }));
}

/** The hook gates' verdicts: `assessments` rows of scope `hook-gate`. */
function readHookVerdicts(db: ReadOnlyDatabase): DbHookVerdict[] {
  const hookVerdicts: DbHookVerdict[] = [];
  if (db.hasTable('assessments') && db.hasColumn('assessments', 'scope')) {
    for (const r of db.all(`SELECT path, milestone_id, slice_id, task_id, status, full_content, created_at FROM assessments WHERE scope = 'hook-gate' ORDER BY created_at, path`)) {
      const parsed = parseHookVerdictPath(str(r.path));
      hookVerdicts.push({
        hook: parsed?.hook ?? str(r.path),
        unitId: parsed?.unitId ?? '',
        milestoneId: str(r.milestone_id),
        sliceId: opt(r.slice_id) ?? null,
        taskId: opt(r.task_id) ?? null,
        verdict: str(r.status).trim().toLowerCase(),
        rationale: str(r.full_content),
        createdAt: str(r.created_at),
        path: str(r.path),
      });
    }
  }
  return hookVerdicts;
}

/** GSD's rework briefs, each with its findings. */
function readReworkBriefs(db: ReadOnlyDatabase): DbReworkBrief[] {
  const reworkBriefs: DbReworkBrief[] = [];
  if (db.hasTable('rework_briefs')) {
    const findings = new Map<string, DbReworkFinding[]>();
    if (db.hasTable('rework_brief_findings')) {
      for (const r of db.all(`SELECT brief_id, finding_id, severity, description, required_fix, status, evidence FROM rework_brief_findings ORDER BY brief_id, finding_id`)) {
        const list = findings.get(str(r.brief_id)) ?? [];
        list.push({ findingId: str(r.finding_id), severity: str(r.severity), description: str(r.description), requiredFix: str(r.required_fix), status: str(r.status), evidence: str(r.evidence) });
        findings.set(str(r.brief_id), list);
      }
    }
    for (const r of db.all(`SELECT id, milestone_id, slice_id, task_id, created_at, updated_at FROM rework_briefs ORDER BY created_at, id`)) {
      reworkBriefs.push({
        id: str(r.id),
        milestoneId: str(r.milestone_id),
        sliceId: str(r.slice_id),
        taskId: str(r.task_id),
        createdAt: str(r.created_at),
        updatedAt: str(r.updated_at),
        findings: findings.get(str(r.id)) ?? [],
      });
    }
  }
  return reworkBriefs;
}

export function readSuccessorRows(db: ReadOnlyDatabase): SuccessorRows {
  const schemaVersion = db.hasTable('schema_version') ? num(db.get('SELECT MAX(version) AS v FROM schema_version')?.v) ?? 0 : 0;
  const { projectRevision, authorityEpoch, projectId } = readAuthority(db);
  return {
    schemaVersion,
    projectRevision,
    authorityEpoch,
    milestones: readMilestones(db),
    slices: readSlices(db),
    tasks: readTasks(db),
    lifecycles: readLifecycles(db, projectId),
    hookVerdicts: readHookVerdicts(db),
    reworkBriefs: readReworkBriefs(db),
  };
}
