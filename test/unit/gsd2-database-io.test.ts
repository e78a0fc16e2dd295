// How the GSD-2 database is read: WAL content GSD has not checkpointed, busy retries, a too-new or
// older schema, damaged files, and that reading leaves GSD's files as they were.
// Needs node:sqlite (Node ≥ 22.5): run with Node 24 from the registry; skipped under Node 20.
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { readGsd2Database, type Gsd2DatabaseRead } from '../../src/core/gsd2-database';
import { loadNodeSqlite } from '../../src/core/sqlite/node-sqlite';
import { readSnapshot } from '../../src/core/sqlite/read-only-snapshot';
import { Gsd2Project, nodeSqlite, skipWithoutSqlite } from './helpers/gsd2-database';

const fingerprint = (file: string): string | null => (fs.existsSync(file) ? `${fs.statSync(file).size}:${crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex')}` : null);

function phaseOf(read: Gsd2DatabaseRead): string {
  assert.ok('state' in read, `expected a state, got: ${'unavailable' in read ? read.unavailable : ''}`);
  return `${read.state.phase} ${read.state.activeSlice?.id ?? '-'} ${read.state.activeTask?.id ?? '-'}`;
}

/** A second connection that holds an EXCLUSIVE lock for `holdMs`, as GSD does while writing in rollback-journal mode. */
async function holdExclusiveLock(dbPath: string, holdMs: number, during: () => void): Promise<void> {
  const shared = new SharedArrayBuffer(8);
  const flag = new Int32Array(shared);
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads');
     const { DatabaseSync } = require('node:sqlite');
     const flag = new Int32Array(workerData.shared);
     const db = new DatabaseSync(workerData.dbPath);
     db.exec('BEGIN EXCLUSIVE');
     db.exec("UPDATE tasks SET status = 'complete', completed_at = '2026-11-20T12:00:00Z' WHERE id = 'T01'");
     Atomics.store(flag, 0, 1); Atomics.notify(flag, 0);
     Atomics.wait(flag, 1, 0, workerData.holdMs);
     db.exec('COMMIT'); db.close();`,
    { eval: true, workerData: { shared, dbPath, holdMs } },
  );
  const exited = once(worker, 'exit');
  Atomics.wait(flag, 0, 0, 10_000);
  assert.equal(Atomics.load(flag, 0), 1, 'the lock holder started');
  try {
    during();
  } finally {
    await exited;
  }
}

describe('GSD-2 database: reading GSD\'s live database', function () {
  let projects: Gsd2Project[] = [];
  const project = (options?: ConstructorParameters<typeof Gsd2Project>[0]) => {
    const p = new Gsd2Project(options);
    projects.push(p);
    return p;
  };
  const basic = (p: Gsd2Project) => p.milestone({ id: 'M001' }).slice({ id: 'S01' }).task({ id: 'T01', title: 'Panel' }).task({ id: 'T02', title: 'Gauges' });

  before(skipWithoutSqlite);
  afterEach(() => {
    for (const p of projects) p.remove();
    projects = [];
  });

  describe('WAL', () => {
    it('sees rows GSD committed to the WAL but never checkpointed, and leaves gsd.db and gsd.db-wal byte-identical', () => {
      const p = basic(project());
      p.writer.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      p.writer.exec('PRAGMA wal_autocheckpoint = 0');
      p.run("UPDATE tasks SET status = 'complete', title = 'Panel-finished-in-wal' WHERE id = 'T01'");
      // The update lives only in the WAL: the main file still has the old row.
      assert.ok(!fs.readFileSync(p.dbPath).includes('Panel-finished-in-wal'));
      assert.ok(fs.readFileSync(`${p.dbPath}-wal`).includes('Panel-finished-in-wal'));

      const before = [fingerprint(p.dbPath), fingerprint(`${p.dbPath}-wal`), fs.statSync(`${p.dbPath}-shm`).size];
      const r = readGsd2Database(p.gsdDir);
      assert.equal(phaseOf(r), 'executing S01 T02');
      assert.ok('state' in r && r.state.milestones[0].slices[0].tasks[0].title === 'Panel-finished-in-wal');
      // gsd.db-shm is SQLite's shared WAL index: every reader, GSD's own included, updates its read
      // marks there, so its bytes may change; its size and the data files do not.
      assert.deepEqual([fingerprint(p.dbPath), fingerprint(`${p.dbPath}-wal`), fs.statSync(`${p.dbPath}-shm`).size], before);
      // GSD's connection goes on writing and reads its own data afterwards.
      p.run("UPDATE tasks SET status = 'complete' WHERE id = 'T02'");
      assert.equal(phaseOf(readGsd2Database(p.gsdDir)), 'summarizing S01 -');
    });

    it('does not see a write still in progress, and does not wait for it', () => {
      const p = basic(project());
      p.writer.exec('BEGIN IMMEDIATE');
      p.run("UPDATE tasks SET status = 'complete' WHERE id = 'T01'");
      assert.equal(phaseOf(readGsd2Database(p.gsdDir, { attempts: 1, busyTimeoutMs: 0 })), 'executing S01 T01');
      p.writer.exec('COMMIT');
      assert.equal(phaseOf(readGsd2Database(p.gsdDir)), 'executing S01 T02');
    });

    it('with GSD not running (no -wal/-shm) leaves gsd.db byte-identical and creates no -wal or -shm beside it', () => {
      const p = basic(project());
      p.close(); // GSD's clean close checkpoints and removes gsd.db-wal and gsd.db-shm
      const wal = `${p.dbPath}-wal`;
      assert.equal(fs.existsSync(wal), false);
      const before = fingerprint(p.dbPath);
      assert.equal(phaseOf(readGsd2Database(p.gsdDir)), 'executing S01 T01');
      assert.equal(fingerprint(p.dbPath), before);
      // A plain read-only open of a WAL database would create gsd.db-shm and an empty gsd.db-wal (a
      // write into GSD's folder); nothing of ours may be left there.
      assert.deepEqual(fs.readdirSync(p.gsdDir).filter((n) => n.startsWith('gsd.db')), ['gsd.db']);
      // GSD opening the project again works as usual, and what it commits is read.
      const gsd = new nodeSqlite!.DatabaseSync(p.dbPath);
      gsd.exec('PRAGMA journal_mode=WAL');
      gsd.prepare("UPDATE tasks SET status = 'complete' WHERE id = 'T01'").run();
      gsd.close();
      assert.equal(fs.existsSync(wal), false);
      assert.equal(fs.existsSync(`${p.dbPath}-shm`), false);
      assert.equal(phaseOf(readGsd2Database(p.gsdDir)), 'executing S01 T02');
      assert.deepEqual(fs.readdirSync(p.gsdDir).filter((n) => n.startsWith('gsd.db')), ['gsd.db']);
    });

    it('GSD starting while nothing had it open: rows it commits to its new WAL are read (the ordinary way, through its -shm)', () => {
      const p = basic(project());
      p.close();
      const gsd = new nodeSqlite!.DatabaseSync(p.dbPath);
      gsd.exec('PRAGMA journal_mode=WAL');
      gsd.exec('PRAGMA wal_autocheckpoint = 0');
      gsd.prepare("UPDATE tasks SET status = 'complete' WHERE id = 'T01'").run();
      assert.ok(fs.statSync(`${p.dbPath}-wal`).size > 0);
      assert.equal(phaseOf(readGsd2Database(p.gsdDir)), 'executing S01 T02');
      gsd.close();
    });

    it('after GSD was killed (WAL left with committed rows, no -shm), reads them and leaves gsd.db and gsd.db-wal byte-identical', () => {
      const p = basic(project());
      p.writer.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      p.writer.exec('PRAGMA wal_autocheckpoint = 0');
      p.run("UPDATE tasks SET status = 'complete' WHERE id = 'T01'");
      // The files as a killed GSD leaves them: main file and WAL, no clean close, no WAL index.
      const crashed = project();
      crashed.close();
      for (const suffix of ['-wal', '-shm']) fs.rmSync(`${crashed.dbPath}${suffix}`, { force: true });
      fs.copyFileSync(p.dbPath, crashed.dbPath);
      fs.copyFileSync(`${p.dbPath}-wal`, `${crashed.dbPath}-wal`);
      const before = [fingerprint(crashed.dbPath), fingerprint(`${crashed.dbPath}-wal`)];
      assert.ok(fs.statSync(`${crashed.dbPath}-wal`).size > 0);
      assert.equal(phaseOf(readGsd2Database(crashed.gsdDir)), 'executing S01 T02');
      // A writable connection closing last would fold the WAL into gsd.db and delete it; ours cannot.
      assert.deepEqual([fingerprint(crashed.dbPath), fingerprint(`${crashed.dbPath}-wal`)], before);
    });

    it('the connection refuses writes (read-only and query_only)', () => {
      const p = basic(project());
      const before = fingerprint(p.dbPath);
      const sqlite = loadNodeSqlite();
      assert.ok('sqlite' in sqlite);
      const r = readSnapshot(sqlite.sqlite, p.dbPath, (db) => db.exec("INSERT INTO milestones (id) VALUES ('M999')"));
      assert.equal(r.ok, false);
      assert.ok(!r.ok && r.cause === 'unreadable' && /readonly|read-only|query_only/i.test(r.message), !r.ok ? r.message : '');
      assert.equal(fingerprint(p.dbPath), before);
      const s = readGsd2Database(p.gsdDir);
      assert.ok('state' in s && s.state.milestones.length === 1);
    });
  });

  describe('busy', () => {
    it('retries while GSD holds a write lock (rollback journal, as on WSL DrvFs) and then reads the committed rows', async () => {
      const p = basic(project({ journalMode: 'DELETE' }));
      let r: Gsd2DatabaseRead | null = null;
      await holdExclusiveLock(p.dbPath, 150, () => {
        r = readGsd2Database(p.gsdDir, { attempts: 8, backoffMs: 20, busyTimeoutMs: 5 });
      });
      assert.ok(r);
      assert.equal(phaseOf(r), 'executing S01 T02');
      assert.ok((r as Gsd2DatabaseRead).diagnostics.some((d) => /busy; read on attempt [2-8]/.test(d.message)));
    });

    it('gives up after its attempts with one clear reason, without throwing', async () => {
      const p = basic(project({ journalMode: 'DELETE' }));
      let r: Gsd2DatabaseRead | null = null;
      await holdExclusiveLock(p.dbPath, 1500, () => {
        r = readGsd2Database(p.gsdDir, { attempts: 3, backoffMs: 10, busyTimeoutMs: 5 });
      });
      assert.ok(r && 'unavailable' in r);
      const u = r as Extract<Gsd2DatabaseRead, { unavailable: string }>;
      assert.equal(u.cause, 'busy');
      assert.match(u.unavailable, /locked through 3 attempts/);
      assert.equal(u.diagnostics.length, 1);
    });
  });

  describe('schema', () => {
    it('a schema newer than 29 gets one diagnostic and is not read further', () => {
      const p = project();
      p.run("INSERT INTO schema_version (version, applied_at) VALUES (30, '2026-12-01T00:00:00Z')");
      // A newer GSD might have reshaped the tables: none of them is looked at.
      p.writer.exec('DROP TABLE tasks');
      const r = readGsd2Database(p.gsdDir);
      assert.ok('unavailable' in r);
      assert.equal(r.cause, 'schema-too-new');
      assert.equal(r.diagnostics.length, 1);
      assert.match(r.diagnostics[0].message, /schema version 30 is newer than 29/);
      assert.equal(r.diagnostics[0].file, p.dbPath);
    });

    it('an older schema (v16, before escalations and milestone sequence) reads its missing columns as the migration defaults', () => {
      const p = project({ schemaVersion: 16 });
      for (const [table, column] of [
        ['milestones', 'sequence'],
        ['tasks', 'escalation_pending'],
        ['tasks', 'escalation_artifact_path'],
        ['tasks', 'target_repositories'],
      ]) {
        p.writer.exec(`ALTER TABLE ${table} DROP COLUMN ${column}`);
      }
      p.run("INSERT INTO milestones (id, title, status) VALUES ('M002', 'M002: Second', 'active')")
        .run("INSERT INTO milestones (id, title, status) VALUES ('M001', 'M001: First', 'active')")
        .run("INSERT INTO slices (milestone_id, id, title, status, sequence) VALUES ('M001', 'S01', 'One', 'pending', 0)")
        .run("INSERT INTO tasks (milestone_id, slice_id, id, title, status) VALUES ('M001', 'S01', 'T01', 'Only', 'pending')");
      const r = readGsd2Database(p.gsdDir);
      assert.equal(phaseOf(r), 'executing S01 T01');
      assert.ok('state' in r && r.state.activeMilestone?.id === 'M001' && r.schemaVersion === 16);
      const note = r.diagnostics.find((d) => /predates 29/.test(d.message));
      assert.ok(note, 'names the defaulted columns');
      assert.match(note.message, /milestones\.sequence/);
      assert.match(note.message, /tasks\.escalation_pending/);
    });

    it('a SQLite file without GSD\'s tables is not a GSD database', () => {
      const p = project();
      p.writer.exec('DROP TABLE schema_version');
      const r = readGsd2Database(p.gsdDir);
      assert.ok('unavailable' in r && r.cause === 'not-gsd-database');
      assert.equal(r.diagnostics.length, 1);
    });

    it('a dependency list that is not JSON is a diagnostic, read as no dependencies', () => {
      const p = project().milestone({ id: 'M001' }).slice({ id: 'S01' }).slice({ id: 'S02' });
      p.run("UPDATE slices SET depends = 'S01,' WHERE id = 'S02'");
      const r = readGsd2Database(p.gsdDir);
      assert.equal(phaseOf(r), 'planning S01 -');
      assert.ok(r.diagnostics.some((d) => d.severity === 'warning' && /M001\/S02: depends is not a JSON array/.test(d.message)));
    });
  });

  describe('damaged files', () => {
    it('a file that is not a database is a diagnostic, not a throw', () => {
      const p = project();
      p.close();
      for (const suffix of ['-wal', '-shm']) fs.rmSync(`${p.dbPath}${suffix}`, { force: true });
      fs.writeFileSync(p.dbPath, 'SQLite format 2\0'.padEnd(4096, 'x'));
      const r = readGsd2Database(p.gsdDir);
      assert.ok('unavailable' in r);
      assert.equal(r.cause, 'unreadable');
      assert.equal(r.diagnostics.length, 1);
      assert.equal(r.diagnostics[0].severity, 'error');
      assert.match(r.unavailable, /not a database/);
    });

    it('a truncated database is a diagnostic, not a throw; an empty file has no GSD tables', () => {
      const p = basic(project());
      for (let i = 0; i < 200; i++) p.task({ sliceId: 'S01', id: `T${100 + i}`, title: 'x'.repeat(400) });
      p.close();
      const full = fs.readFileSync(p.dbPath);
      fs.writeFileSync(p.dbPath, full.subarray(0, Math.floor(full.length / 3)));
      const r = readGsd2Database(p.gsdDir);
      assert.ok('unavailable' in r, 'unavailable');
      assert.equal(r.cause, 'unreadable');
      assert.match(r.unavailable, /malformed|corrupt|not a database/i);
      fs.writeFileSync(p.dbPath, '');
      const empty = readGsd2Database(p.gsdDir);
      assert.ok('unavailable' in empty && empty.cause === 'not-gsd-database');
    });
  });
});
