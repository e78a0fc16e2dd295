// "A GSD write shows in the panel < 100 ms after the debounce" (issue 16 item 6), measured in the core:
// a second connection (GSD's stand-in, as the tests' Gsd2Project) commits a task's status to the WAL;
// timed from that commit to the engine's new state (`changed([wal])`, `state()`, the full read the
// panel uses) plus the panel's change computation (`stateChanges`). Not measured: the file watcher's
// own latency, the debounce, and VS Code drawing the tree. Baseline from the same run: a plain
// read-only SELECT of the same milestone, slice and task rows (no derivation).
import * as path from 'node:path';
import { openProject } from '../src/core/project/open-project';
import type { NodeSqlite } from '../src/core/sqlite/node-sqlite';
import { stateChanges } from '../src/core/state/state-changes';
import { median, timeMs } from './measure';

export interface WriteBenchResult {
  /** Median ms from GSD's commit to the new state and its changes. */
  update: number;
  /** Median ms of the plain SELECT of the same rows. */
  plainRead: number;
  /** Slices stateChanges reported in the last round (the write is seen: > 0). */
  slicesChanged: number;
}

export function databaseWriteBench(sqlite: NodeSqlite, root: string, rounds: number): WriteBenchResult {
  const dbPath = path.join(root, '.gsd', 'gsd.db');
  const wal = `${dbPath}-wal`;
  // GSD's own connection: WAL, kept open for the session (gsd-db.ts initSchema).
  const writer = new sqlite.DatabaseSync(dbPath);
  writer.exec('PRAGMA journal_mode=WAL');
  writer.exec('PRAGMA busy_timeout = 5000');
  const project = openProject(root, { reading: 'incremental' });
  try {
    let prev = project.state();
    // The active task; in a phase without one (a milestone waiting for its completion), the first open task.
    const open = prev.milestones.flatMap((m) => m.slices.flatMap((s) => s.tasks.filter((t) => !t.done).map((t) => ({ m: m.id, s: s.id, t: t.id }))))[0];
    const active = prev.activeMilestone && prev.activeSlice && prev.activeTask ? { m: prev.activeMilestone.id, s: prev.activeSlice.id, t: prev.activeTask.id } : open;
    if (!active) throw new Error(`the bench database has no open task (phase ${prev.phase})`);
    // GSD completing that task, then (next round) the same task reopened: every round is a real
    // change of the active unit, and an even number of rounds leaves the database as it was.
    const setStatus = writer.prepare('UPDATE tasks SET status = ?, completed_at = ? WHERE milestone_id = ? AND slice_id = ? AND id = ?');
    const plain = () => {
      const db = new sqlite.DatabaseSync(dbPath, { readOnly: true });
      try {
        db.prepare('SELECT * FROM milestones').all();
        db.prepare('SELECT * FROM slices').all();
        db.prepare('SELECT * FROM tasks').all();
      } finally {
        db.close();
      }
    };
    const updates: number[] = [];
    const plains: number[] = [];
    let slicesChanged = 0;
    const total = rounds % 2 === 0 ? rounds : rounds + 1;
    for (let r = 0; r < total + 2; r++) {
      const done = r % 2 === 0;
      setStatus.run(done ? 'complete' : 'pending', done ? new Date().toISOString() : null, active.m, active.s, active.t);
      let changes = 0;
      const update = timeMs(() => {
        project.changed([wal]);
        const next = project.state();
        changes = stateChanges(prev, next).slices.size;
        prev = next;
      });
      const base = timeMs(plain);
      // The first two rounds warm the JIT up, as the extension host is long-lived.
      if (r < 2) continue;
      updates.push(update);
      plains.push(base);
      slicesChanged = changes;
    }
    if (slicesChanged === 0) throw new Error('the write was not seen: no slice changed');
    return { update: median(updates), plainRead: median(plains), slicesChanged };
  } finally {
    project.reset();
    writer.close(); // as GSD leaves it after a clean close: the WAL folded in
  }
}
