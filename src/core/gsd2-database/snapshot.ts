// The rows GSD-2's DB derivation looks at, read in GSD's own order. Sources in gsd-build/gsd-2 at
// 76568edc, src/resources/extensions/gsd/:
// - gsd-db.ts `getAllMilestones`: milestones with a positive `sequence` first, by sequence, then id;
//   `getMilestoneSlices` / `getSliceTasks`: by `sequence`, then id;
// - db-milestone-artifact-rows.ts `rowToMilestone` and db-task-slice-rows.ts `rowToSlice`/`rowToTask`:
//   `depends_on` and `depends` are JSON arrays, `blocker_discovered` and `is_sketch` count only as 1;
// - gsd-db.ts `getLatestAssessmentByScope(mid, 'milestone-validation')`: the newest by `created_at`;
// - gsd-db.ts `getPendingGateCountForTurn(mid, sid, 'gate-evaluate')` with gate-registry.ts: the
//   gates owned by the gate-evaluate turn are Q3 and Q4, pending means `status = 'pending'`;
//   `getPendingGates(mid, sid, 'slice')` (auto-dispatch.ts names the gate-evaluate unit by it): the
//   pending slice-scope gates, Q8 included, in rowid order (its query has no ORDER BY and SQLite
//   answers it from idx_quality_gates_pending, whose equal keys are kept in rowid order);
// - gsd-db.ts `getReplanHistory(mid, sid)`: rows of `replan_history` for the slice.
// Large text columns (plans, summaries, narratives) are never selected.
// Two depths: `all` reads every task row (the panel, `state --full`); `needed` (the CLI's lazy read)
// reads every milestone and slice row but the task rows only of the slices the derivation looks into
// (see derive.ts `slicesNeedingTasks`), and for the others counts tasks and closed tasks in SQL and
// reads only the tasks with known issues (the pending actions), so no row object is made for the rest.
import type { Diagnostic, Progress } from '../model/types';
import type { DatabaseSyncLike, SqliteRow, SqliteValue } from '../sqlite/node-sqlite';
import type { SchemaInfo } from './schema';
import { CLOSED_STATUSES } from './status-guards';

export interface MilestoneRow {
  id: string;
  title: string;
  status: string;
  dependsOn: string[];
  sequence: number;
}

export interface SliceRow {
  milestoneId: string;
  id: string;
  title: string;
  status: string;
  risk: string;
  depends: string[];
  demo: string;
  sequence: number;
  replanTriggeredAt: string | null;
  isSketch: boolean;
  /** `sketch_scope`: the boundary a sketch slice is refined within. */
  sketchScope: string;
}

export interface TaskRow {
  milestoneId: string;
  sliceId: string;
  id: string;
  title: string;
  status: string;
  /** What the task did in one sentence (gsd_task_complete's oneLiner). */
  oneLiner: string;
  verificationResult: string;
  completedAt: string | null;
  blockerDiscovered: boolean;
  estimate: string;
  files: string[];
  verify: string;
  sequence: number;
  escalationPending: boolean;
  escalationArtifactPath: string | null;
  /** gsd_task_complete's knownIssues: the markdown GSD renders under the summary's `## Known Issues`. */
  knownIssues: string;
}

export interface Gsd2Snapshot {
  schemaVersion: number;
  milestones: MilestoneRow[];
  /** By milestone id, in GSD's order. */
  slices: Map<string, SliceRow[]>;
  /** By `M001/S01`, in GSD's order. */
  tasks: Map<string, TaskRow[]>;
  /** `replan_history` rows by `M001/S01`: the task id each names (null when it names none). */
  replans: Map<string, Array<string | null>>;
  /** The newest milestone-validation assessment's status, by milestone id. */
  validationVerdicts: Map<string, string>;
  /** Pending gates of the gate-evaluate turn (Q3, Q4), by `M001/S01`. */
  pendingGateEvaluate: Map<string, number>;
  /** Ids of the pending slice-scope gates, by `M001/S01`, in GSD's order. */
  pendingSliceGates: Map<string, string[]>;
  /** The slices (`M001/S01`) whose task rows were read; null when every task row was read. */
  tasksReadFor: Set<string> | null;
  /** Tasks and closed tasks by `M001/S01`, counted in SQL for the slices whose rows were not read. */
  taskCounts: Map<string, Progress>;
  /** Tasks with known issues by `M001/S01`, in GSD's order, for the slices whose rows were not read. */
  knownIssues: Map<string, Array<{ id: string; knownIssues: string }>>;
}

export type TaskDepth = 'all' | 'needed';

/** Gates owned by GSD's `gate-evaluate` turn (gate-registry.ts). */
export const GATE_EVALUATE_GATES = ['Q3', 'Q4'] as const;

/** A bound on what one read holds in memory; far above any real project (10,000 tasks is large). */
export const MAX_ROWS = 200_000;

export const unitKey = (milestoneId: string, sliceId: string): string => `${milestoneId}/${sliceId}`;

const text = (v: SqliteValue | undefined): string => (v === null || v === undefined ? '' : typeof v === 'object' ? '' : String(v));
const textOrNull = (v: SqliteValue | undefined): string | null => (v === null || v === undefined ? null : text(v));
const int = (v: SqliteValue | undefined): number => (typeof v === 'number' || typeof v === 'bigint' ? Number(v) : Number(text(v)) || 0);
const isOne = (v: SqliteValue | undefined): boolean => int(v) === 1;

export class SnapshotReader {
  readonly diagnostics: Diagnostic[] = [];

  constructor(
    private readonly db: DatabaseSyncLike,
    private readonly schema: SchemaInfo,
    private readonly dbPath: string,
  ) {}

  private rows(table: keyof SchemaInfo['selects'], tail: string, params: SqliteValue[] = [], select = this.schema.selects[table]): SqliteRow[] {
    if (!select) return [];
    const rows = this.db.prepare(`SELECT ${select} FROM ${table} ${tail} LIMIT ${MAX_ROWS + 1}`).all(...params);
    if (rows.length > MAX_ROWS) {
      this.diagnostics.push({ file: this.dbPath, severity: 'warning', message: `${table} has more than ${MAX_ROWS} rows; only the first ${MAX_ROWS} were read` });
      rows.length = MAX_ROWS;
    }
    return rows;
  }

  /** A JSON array column (`depends_on`, `depends`): GSD's JSON.parse would throw on bad text; here it reads as none. */
  private jsonList(v: SqliteValue | undefined, where: string): string[] {
    const raw = text(v).trim();
    if (!raw) return [];
    try {
      const parsed: unknown = JSON.parse(raw);
      if (Array.isArray(parsed)) return parsed.filter((x) => x !== null && x !== undefined).map(String);
    } catch {
      // reported below
    }
    this.diagnostics.push({ file: this.dbPath, severity: 'warning', message: `${where} is not a JSON array (${raw.slice(0, 60)}); read as no dependencies` });
    return [];
  }

  /** `files` and the like: GSD's lenient parseTaskArrayColumn (JSON array, JSON string, or comma list). */
  private looseList(v: SqliteValue | undefined): string[] {
    const raw = text(v).trim();
    if (!raw) return [];
    try {
      const parsed: unknown = JSON.parse(raw);
      if (Array.isArray(parsed)) return parsed.filter((x): x is string => typeof x === 'string');
      if (typeof parsed === 'string') return parsed.trim() ? [parsed.trim()] : [];
      return parsed === null ? [] : [String(parsed)];
    } catch {
      return raw.split(',').map((s) => s.trim()).filter(Boolean);
    }
  }

  /**
   * One read. `needed` names the slices whose task rows the derivation needs, given the snapshot
   * without tasks (called only for `depth: 'needed'`).
   */
  read(depth: TaskDepth = 'all', needed: (units: Gsd2Snapshot) => Array<{ milestoneId: string; sliceId: string }> = () => []): Gsd2Snapshot {
    const snap = this.readUnits();
    if (depth === 'all') {
      this.readTasks(snap.tasks, 'ORDER BY milestone_id, slice_id, sequence, id');
      return snap;
    }
    snap.tasksReadFor = new Set();
    for (const { milestoneId, sliceId } of needed(snap)) {
      const key = unitKey(milestoneId, sliceId);
      snap.tasksReadFor.add(key);
      snap.tasks.set(key, []);
      this.readTasks(snap.tasks, 'WHERE milestone_id = ? AND slice_id = ? ORDER BY sequence, id', [milestoneId, sliceId]);
    }
    this.countTasks(snap);
    return snap;
  }

  private readTasks(tasks: Map<string, TaskRow[]>, tail: string, params: SqliteValue[] = []): void {
    for (const r of this.rows('tasks', tail, params)) {
      const row: TaskRow = {
        milestoneId: text(r.milestone_id),
        sliceId: text(r.slice_id),
        id: text(r.id),
        title: text(r.title),
        status: text(r.status),
        oneLiner: text(r.one_liner),
        verificationResult: text(r.verification_result),
        completedAt: textOrNull(r.completed_at),
        blockerDiscovered: isOne(r.blocker_discovered),
        estimate: text(r.estimate),
        files: this.looseList(r.files),
        verify: text(r.verify),
        sequence: int(r.sequence),
        escalationPending: isOne(r.escalation_pending),
        escalationArtifactPath: textOrNull(r.escalation_artifact_path),
        knownIssues: text(r.known_issues),
      };
      const key = unitKey(row.milestoneId, row.sliceId);
      const list = tasks.get(key);
      if (list) list.push(row);
      else tasks.set(key, [row]);
    }
  }

  private readUnits(): Gsd2Snapshot {
    const milestones: MilestoneRow[] = this.rows('milestones', 'ORDER BY CASE WHEN sequence > 0 THEN 0 ELSE 1 END, sequence, id').map((r) => ({
      id: text(r.id),
      title: text(r.title),
      status: text(r.status),
      dependsOn: this.jsonList(r.depends_on, `milestones ${text(r.id)}: depends_on`),
      sequence: int(r.sequence),
    }));

    const slices = new Map<string, SliceRow[]>();
    for (const r of this.rows('slices', 'ORDER BY milestone_id, sequence, id')) {
      const row: SliceRow = {
        milestoneId: text(r.milestone_id),
        id: text(r.id),
        title: text(r.title),
        status: text(r.status),
        risk: text(r.risk),
        depends: this.jsonList(r.depends, `slices ${text(r.milestone_id)}/${text(r.id)}: depends`),
        demo: text(r.demo),
        sequence: int(r.sequence),
        replanTriggeredAt: textOrNull(r.replan_triggered_at),
        isSketch: isOne(r.is_sketch),
        sketchScope: text(r.sketch_scope),
      };
      const list = slices.get(row.milestoneId);
      if (list) list.push(row);
      else slices.set(row.milestoneId, [row]);
    }

    const replans = new Map<string, Array<string | null>>();
    for (const r of this.rows('replan_history', 'WHERE slice_id IS NOT NULL ORDER BY created_at')) {
      const key = unitKey(text(r.milestone_id), text(r.slice_id));
      const list = replans.get(key) ?? [];
      list.push(textOrNull(r.task_id));
      replans.set(key, list);
    }

    const validationVerdicts = new Map<string, string>();
    for (const r of this.rows('assessments', "WHERE scope = 'milestone-validation' ORDER BY milestone_id, created_at DESC")) {
      const mid = text(r.milestone_id);
      if (!validationVerdicts.has(mid)) validationVerdicts.set(mid, text(r.status));
    }

    const pendingGateEvaluate = new Map<string, number>();
    const pendingSliceGates = new Map<string, string[]>();
    const evaluateTurn: readonly string[] = GATE_EVALUATE_GATES;
    // Only the gates either map keeps: GSD opens Q5-Q7 for every task it plans (three rows a task,
    // 3,000 of a 2,000-task project's 4,700 pending ones), and neither question asks about them.
    const scope = this.schema.defaulted.includes('quality_gates.scope') ? "'slice'" : 'scope';
    const turnGates = evaluateTurn.map((g) => `'${g}'`).join(', ');
    for (const r of this.rows('quality_gates', `WHERE status = 'pending' AND (${scope} = 'slice' OR gate_id IN (${turnGates})) ORDER BY rowid`)) {
      const key = unitKey(text(r.milestone_id), text(r.slice_id));
      const gate = text(r.gate_id);
      if (evaluateTurn.includes(gate)) pendingGateEvaluate.set(key, (pendingGateEvaluate.get(key) ?? 0) + 1);
      if (text(r.scope) === 'slice') pendingSliceGates.set(key, [...(pendingSliceGates.get(key) ?? []), gate]);
    }

    return {
      schemaVersion: this.schema.version,
      milestones,
      slices,
      tasks: new Map(),
      replans,
      validationVerdicts,
      pendingGateEvaluate,
      pendingSliceGates,
      tasksReadFor: null,
      taskCounts: new Map(),
      knownIssues: new Map(),
    };
  }

  /** Per slice: tasks and closed tasks (isClosedStatus in SQL), and the tasks with known issues. */
  private countTasks(snap: Gsd2Snapshot): void {
    const closed = CLOSED_STATUSES.map((c) => `'${c}'`).join(', ');
    // Only the key and status columns: GSD's idx_tasks_active (milestone_id, slice_id, status) covers
    // them, so the count reads the index alone, not the table (1.3 ms instead of 2.7 ms for 10,000).
    const counts = `milestone_id, slice_id, COUNT(*) AS total, SUM(CASE WHEN status IN (${closed}) THEN 1 ELSE 0 END) AS closed`;
    for (const r of this.rows('tasks', 'GROUP BY milestone_id, slice_id', [], counts)) {
      snap.taskCounts.set(unitKey(text(r.milestone_id), text(r.slice_id)), { done: int(r.closed), total: int(r.total) });
    }
    // A schema before known_issues reads it as '' (no actions), as the full read does.
    if (this.schema.defaulted.includes('tasks.known_issues')) return;
    // Only text that can hold a `Pending actions:` line (LIST_START spells its letters in ASCII, and
    // LIKE matches ASCII letters in either case): GSD stores "None." for every task it finishes.
    for (const r of this.rows('tasks', "WHERE known_issues LIKE '%pending actions%' ORDER BY milestone_id, slice_id, sequence, id", [], 'milestone_id, slice_id, id, known_issues')) {
      const key = unitKey(text(r.milestone_id), text(r.slice_id));
      const list = snap.knownIssues.get(key) ?? [];
      list.push({ id: text(r.id), knownIssues: text(r.known_issues) });
      snap.knownIssues.set(key, list);
    }
  }
}
