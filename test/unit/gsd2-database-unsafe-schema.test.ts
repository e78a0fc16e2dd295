// A `gsd.db` whose schema is the repository's choice: a view in place of a table GSD keeps (a
// recursive one never finishes), a virtual table, a column computed on every read. One node:sqlite
// call is synchronous native code nothing interrupts, so before the fix `state` and every hook event
// spun at 100 % CPU for ever on such a database. Each is now refused before a row is read, and the
// state comes from the markdown with a diagnostic saying why.
// The endless cases run the CLI and the hook entry as child processes, killed if they outlive a
// generous bound, so the old code fails these tests instead of hanging the suite.
// Needs node:sqlite (Node ≥ 22.5): run with Node 24 from the registry; skipped under Node 20.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readGsd2Database } from '../../src/core/gsd2-database';
import { readSnapshot } from '../../src/core/sqlite/read-only-snapshot';
import { readSuccessorProject } from '../../src/core/successor/read-successor-project';
import { buildCli } from './helpers/cli';
import { Gsd2Project, nodeSqlite, skipWithoutSqlite } from './helpers/gsd2-database';
import { baseSpec, buildSuccessorDatabase, openWriter } from './helpers/successor-database';
import { writeSuccessorLayout } from './helpers/successor-project';
import { skipBecause } from '../shared/skip-because';

const ENDLESS_VERSION_VIEW = `DROP TABLE schema_version;
  CREATE VIEW schema_version AS WITH RECURSIVE r(version) AS (SELECT 1 UNION ALL SELECT version + 1 FROM r) SELECT version, '' AS applied_at FROM r`;

/** A GSD-2 project, one task, whose database is then changed by `sql` (GSD's connection closed). */
function hostileGsd2(sql: string): Gsd2Project {
  const p = new Gsd2Project({ files: { '.gsd/milestones/M001/M001-ROADMAP.md': '# M001: Checkout\n\n## Slices\n\n- [ ] **S01: Cart** `risk:low`\n' } })
    .milestone({ id: 'M001', title: 'M001: Checkout' })
    .slice({ id: 'S01', title: 'Cart' })
    .task({ id: 'T01', title: 'Cart model' });
  p.writer.exec(sql);
  p.close();
  return p;
}

/** Far above any real answer; only a process that never ends reaches it (and is then killed). */
const HANG_BOUND_MS = 60_000;

function runBounded(args: string[], input: string, cwd: string): { status: number | null; signal: string | null; out: string } {
  const r = spawnSync(process.execPath, args, { cwd, input, encoding: 'utf8', timeout: HANG_BOUND_MS, killSignal: 'SIGKILL', env: { ...process.env, HOME: os.tmpdir() } });
  return { status: r.status, signal: r.signal, out: `${r.stdout}\n${r.stderr}` };
}

describe('gsd.db with a view, virtual table or computed column where GSD keeps a table', function () {
  this.timeout(3 * HANG_BOUND_MS);
  before(skipWithoutSqlite);

  describe('an endless view in place of schema_version', () => {
    let p: Gsd2Project;
    let cli: string;
    before(async () => {
      cli = await buildCli();
    });
    beforeEach(() => {
      p = hostileGsd2(ENDLESS_VERSION_VIEW);
    });
    afterEach(() => p.remove());

    it('`state` answers, saying the database is not read and why', () => {
      const r = runBounded([cli, 'state', '--root', p.root], '', p.root);
      assert.equal(r.signal, null, 'state never ended (killed)');
      assert.equal(r.status, 0, r.out);
      assert.match(r.out, /schema_version is a view, not a table/);
      assert.match(r.out, /source:\s+markdown — fallback/);
      assert.match(r.out, /milestone:\s+M001/, 'the markdown stands in for the database');
    });

    it('the hook entry (dist/hook.js) and `gsd-review hook` answer an agent event', () => {
      const event = JSON.stringify({ hook_event_name: 'SessionStart', session_id: 's1', cwd: p.root, source: 'startup' });
      for (const args of [[path.join(path.dirname(cli), 'hook.js'), '--root', p.root], [cli, 'hook', '--root', p.root]]) {
        const r = runBounded(args, event, p.root);
        assert.equal(r.signal, null, `${path.basename(args[0])} ${args[1]} never ended (killed)`);
        assert.equal(r.status, 0, r.out);
        const answer = JSON.parse(r.out.trim().split('\n')[0]) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
        assert.equal(answer.hookSpecificOutput.hookEventName, 'SessionStart');
        assert.match(answer.hookSpecificOutput.additionalContext, /GSD project/);
      }
    });
  });

  describe('the GSD-2 reader refuses, before reading a row', () => {
    const cases: Array<[string, string, RegExp]> = [
      ['a view in place of tasks', 'ALTER TABLE tasks RENAME TO tasks_real; CREATE VIEW tasks AS SELECT * FROM tasks_real', /tasks is a view, not a table/],
      [
        'a virtual table in place of tasks',
        `DROP TABLE tasks; CREATE VIRTUAL TABLE tasks USING fts5(milestone_id, slice_id, id, title, status, one_liner, verification_result, completed_at, blocker_discovered, known_issues);
         INSERT INTO tasks VALUES ('M001', 'S01', 'T01', 'Cart model', 'pending', '', '', NULL, 0, '')`,
        /tasks is a virtual table/,
      ],
      ['a computed column in milestones', "ALTER TABLE milestones ADD COLUMN vision_text TEXT GENERATED ALWAYS AS (title || title) VIRTUAL", /milestones\.vision_text is a generated column/],
    ];
    for (const [name, sql, reason] of cases) {
      it(name, () => {
        const p = hostileGsd2(sql);
        try {
          const r = readGsd2Database(p.gsdDir);
          assert.ok('unavailable' in r, `read as ${'state' in r ? r.state.phase : ''}`);
          assert.equal(r.cause, 'unsafe-schema');
          assert.match(r.diagnostics[0].message, reason);
          assert.equal(r.diagnostics[0].severity, 'error');
        } finally {
          p.remove();
        }
      });
    }
  });

  describe('the successor reader says why instead of reading or skipping', () => {
    const cases: Array<[string, string, RegExp]> = [
      ['an endless view in place of tasks', 'DROP TABLE tasks; CREATE VIEW tasks AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n AS id FROM r', /tasks is a view, not a table/],
      ['a computed column in tasks', "ALTER TABLE tasks ADD COLUMN verify_note TEXT GENERATED ALWAYS AS (title || '!') VIRTUAL", /tasks\.verify_note is a generated column/],
    ];
    for (const [name, sql, reason] of cases) {
      it(name, () => {
        const { root, gsdDir } = writeSuccessorLayout();
        try {
          const db = path.join(gsdDir, 'gsd.db');
          buildSuccessorDatabase(db, baseSpec(51, 1));
          const w = openWriter(db);
          w.exec(sql);
          w.close();
          const state = readSuccessorProject(gsdDir);
          assert.notEqual(state.readFrom, 'database');
          const line = state.diagnostics.find((d) => reason.test(d.message));
          assert.ok(line, state.diagnostics.map((d) => d.message).join('\n'));
          assert.match(line.message, /read from the \.gsd\/phases markdown only/);
          assert.ok(state.milestones.length > 0, 'the markdown stands in for the database');
        } finally {
          fs.rmSync(root, { recursive: true, force: true });
        }
      });
    }
  });

  // Where node:sqlite has setAuthorizer (Node ≥ 24.10): a statement that recurses or goes through a
  // view fails when it is prepared, whatever a reader asks.
  describe('the read authorizer', () => {
    let p: Gsd2Project;
    beforeEach(function () {
      if (!nodeSqlite || typeof new nodeSqlite.DatabaseSync(':memory:').setAuthorizer !== 'function') skipBecause(this, `Node ${process.versions.node} has no node:sqlite authorizer (Node ≥ 24.10)`);
      p = hostileGsd2('CREATE VIEW task_titles AS SELECT title FROM tasks');
    });
    afterEach(() => p?.remove());

    for (const [name, sql] of [
      ['a recursive query', 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT MAX(n) AS n FROM r'],
      ['a query through a view', 'SELECT title FROM task_titles'],
    ]) {
      it(`denies ${name}`, () => {
        const r = readSnapshot(nodeSqlite!, p.dbPath, (db) => db.prepare(sql).all());
        assert.equal(r.ok, false, 'the statement ran');
        assert.ok(!r.ok && /not authorized|prohibited/.test(r.message), !r.ok ? r.message : '');
      });
    }

    it('lets the plain reads through', () => {
      const r = readGsd2Database(p.gsdDir);
      assert.ok('state' in r, 'unavailable' in r ? r.unavailable : '');
      assert.equal(r.state.activeTask?.id, 'T01');
    });
  });
});
