// The project engine on database projects built by the tests from the schema facts: a GSD-2 database
// project reads gsd.db (not the markdown GSD renders from it), follows GSD's commits when told the WAL
// changed, falls back to the markdown (marked as such) where node:sqlite is missing, and a successor
// database is read read-only. Needs node:sqlite: run under Node 24 by scripts/node-sqlite-tests.mjs;
// skipped under Node 20 (project.test.ts covers the fallback there).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openProject } from '../../src/core/project/open-project';
import { buildCli, cli } from './helpers/cli';
import { roadmap, slicePlan } from './helpers/gsd-tree';
import { Gsd2Project, skipWithoutSqlite } from './helpers/gsd2-database';
import { buildSuccessorDatabase } from './helpers/successor-database';
import { writeSuccessorLayout } from './helpers/successor-project';

/**
 * GSD's database says T01 is complete; the markdown (rendered before that, or edited by hand) still
 * shows T01 open. GSD-2 takes the database.
 */
function disagreeing(): Gsd2Project {
  return new Gsd2Project({
    files: {
      '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'Checkout', [{ id: 'S01', title: 'Cart' }]),
      '.gsd/milestones/M001/slices/S01/S01-PLAN.md': slicePlan('S01', 'Cart', [
        { id: 'T01', title: 'Cart entity' },
        { id: 'T02', title: 'Cart totals' },
        { id: 'T03', title: 'Cart page' },
      ]),
      '.gsd/milestones/M001/slices/S01/tasks/T01-PLAN.md': '# T01: Cart entity\n',
      '.gsd/milestones/M001/slices/S01/tasks/T02-PLAN.md': '# T02: Cart totals\n',
      '.gsd/milestones/M001/slices/S01/tasks/T03-PLAN.md': '# T03: Cart page\n',
    },
  })
    .milestone({ id: 'M001', title: 'M001: Checkout', status: 'active' })
    .slice({ id: 'S01', title: 'Cart', status: 'active' })
    .task({ id: 'T01', title: 'Cart entity', status: 'complete', sequence: 1 })
    .task({ id: 'T02', title: 'Cart totals', sequence: 2 })
    .task({ id: 'T03', title: 'Cart page', sequence: 3 });
}

describe('openProject on database projects (node:sqlite)', function () {
  let projects: Gsd2Project[] = [];
  const track = (p: Gsd2Project) => (projects.push(p), p);
  before(skipWithoutSqlite);
  afterEach(() => {
    for (const p of projects) p.remove();
    projects = [];
  });

  it('a GSD-2 database project: the state comes from gsd.db, named with its schema', async () => {
    const p = track(disagreeing());
    const project = openProject(p.root);
    const s = project.state();
    assert.deepEqual(s.source, { kind: 'gsd2-database', projectKind: 'gsd2-database', label: 'GSD-2 database (schema 29)', readOnly: false, fallback: null });
    assert.equal(s.activeTask?.id, 'T02');
    assert.equal((await project.preview()).decision?.unitId, 'M001/S01/T02');
  });

  it('follows what GSD commits to its WAL once told the WAL changed, and keeps its state until then', () => {
    const p = track(disagreeing());
    p.writer.exec('PRAGMA wal_autocheckpoint = 0');
    const project = openProject(p.root, { reading: 'incremental' });
    assert.equal(project.state().activeTask?.id, 'T02');
    p.run("UPDATE tasks SET status = 'complete' WHERE id = 'T02'");
    assert.equal(project.state().activeTask?.id, 'T02', 'not read again without a change told');
    assert.equal(project.changed([`${p.dbPath}-wal`]), true);
    assert.equal(project.state().activeTask?.id, 'T03');
    // GSD's event log is a change too.
    p.run("UPDATE tasks SET status = 'complete' WHERE id = 'T03'");
    project.changed([path.join(p.gsdDir, 'event-log.jsonl')]);
    assert.equal(project.state().phase, 'summarizing');
  });

  it('where node:sqlite is missing: the markdown, marked as the fallback, with one line saying why', () => {
    const p = track(disagreeing());
    const project = openProject(p.root, { loadSqlite: () => ({ unavailable: 'Node 20.19.0 has no node:sqlite (needs Node ≥ 22.5); GSD-2\'s database (.gsd/gsd.db) cannot be read' }) });
    const s = project.state();
    assert.deepEqual([s.source.kind, s.source.projectKind, s.source.label], ['markdown', 'gsd2-database', 'markdown — fallback: this runtime has no node:sqlite']);
    // The markdown's answer, not the database's.
    assert.equal(s.activeTask?.id, 'T01');
    assert.equal(s.diagnostics.filter((d) => /node:sqlite/.test(d.message)).length, 1);
  });

  it('`gsd-review state --json` prints the source, and reading a closed database leaves no file beside it', async () => {
    const p = track(disagreeing());
    p.close();
    const script = await buildCli();
    const r = cli(script, ['state', '--json', '--root', p.root]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.json.source.kind, 'gsd2-database');
    assert.equal(r.json.source.label, 'GSD-2 database (schema 29)');
    assert.equal(r.json.activeTask.id, 'T02');
    assert.deepEqual(fs.readdirSync(p.gsdDir).filter((n) => n.startsWith('gsd.db')), ['gsd.db']);
  });

  it('a successor database at schema 51: read-only, named as such', async () => {
    const { root, gsdDir } = writeSuccessorLayout();
    buildSuccessorDatabase(path.join(gsdDir, 'gsd.db'), {
      schema: 51,
      authorityEpoch: null,
      milestones: [{ id: 'M001', title: 'Checkout flow', status: 'active', sequence: 1 }],
      slices: [{ milestoneId: 'M001', id: 'S01', title: 'Cart model', status: 'active', sequence: 1 }],
      tasks: [
        { milestoneId: 'M001', sliceId: 'S01', id: 'T01', title: 'Cart entity', status: 'complete', sequence: 1 },
        { milestoneId: 'M001', sliceId: 'S01', id: 'T02', title: 'Cart totals', status: 'pending', sequence: 2 },
      ],
    });
    const project = openProject(root);
    const s = project.state();
    assert.deepEqual(s.source, { kind: 'successor', projectKind: 'successor', label: 'successor database (schema 51) — read-only', readOnly: true, fallback: null });
    assert.equal(project.readOnly, true);
    assert.equal((await project.preview()).decision, null);
    const script = await buildCli();
    const r = cli(script, ['state', '--json', '--root', root]);
    assert.equal(r.json.source.kind, 'successor');
    assert.equal(r.json.readOnly, true);
  });
});
