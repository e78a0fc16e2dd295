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
import { BUILTIN_HOOKS } from '../../src/builtin-hooks';
import { roadmap, slicePlan, taskSummary } from './helpers/gsd-tree';
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

  it("a GSD-2 database project's state carries our hook state from the sidecars (the database has none of it)", () => {
    const tasks = '.gsd/milestones/M001/slices/S01/tasks';
    const p = track(disagreeing());
    fs.writeFileSync(path.join(p.root, tasks, 'T01-HOOKS.md'), '---\nextensions:\n  review-loop:\n    outcome: { cycles: 5, passed: false }\n    pendingActions:\n      - "[major] src/pdf.ts:12: not deterministic"\n---\n');
    fs.writeFileSync(path.join(p.root, '.gsd/milestones/M001/slices/S01/S01-HOOKS.md'), '---\nextensions:\n  pending-actions:\n    replannedFor: [T02]\n---\n');
    fs.writeFileSync(path.join(p.root, '.gsd/milestones/M001/M001-HOOKS.md'), '---\nextensions:\n  my-policy:\n    budget: 7\n---\n');
    const s = openProject(p.root).state();
    assert.equal(s.source.kind, 'gsd2-database');
    const slice = s.milestones[0].slices[0];
    assert.deepEqual(slice.extensions, { 'pending-actions': { replannedFor: ['T02'] } });
    assert.deepEqual(slice.tasks[0].extensions['review-loop'], { outcome: { cycles: 5, passed: false }, pendingActions: ['[major] src/pdf.ts:12: not deterministic'] });
    assert.deepEqual(slice.tasks[0].pendingActions.map((a) => [a.text, a.source]), [['[major] src/pdf.ts:12: not deterministic', 'review-loop']]);
    assert.deepEqual(s.milestones[0].extensions['my-policy'], { budget: 7 });
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

  it('pending actions come from the known issues GSD stored (tasks.known_issues), pointing at the rendered summary', () => {
    // GSD-2's gsd_task_complete stores knownIssues in the database and renders it under the summary's
    // `## Known Issues`. Here the rendered T01 summary is older (no pending actions); the database wins.
    const p = track(
      new Gsd2Project({
        files: {
          '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'Checkout', [{ id: 'S01', title: 'Cart' }]),
          '.gsd/milestones/M001/slices/S01/S01-PLAN.md': slicePlan('S01', 'Cart', [{ id: 'T01', title: 'Cart entity', done: true }, { id: 'T02', title: 'Cart totals' }]),
          '.gsd/milestones/M001/slices/S01/tasks/T01-PLAN.md': '# T01: Cart entity\n',
          '.gsd/milestones/M001/slices/S01/tasks/T02-PLAN.md': '# T02: Cart totals\n',
          '.gsd/milestones/M001/slices/S01/tasks/T01-SUMMARY.md': taskSummary('T01', 'S01', 'M001'),
        },
      })
        .milestone({ id: 'M001', title: 'M001: Checkout', status: 'active' })
        .slice({ id: 'S01', title: 'Cart', status: 'active' })
        .task({ id: 'T01', status: 'complete', sequence: 1, knownIssues: 'Totals round per line.\n\nPending actions:\n- Round the cart total once, not per line\n- [x] Rename CartItem (done)\n' })
        .task({ id: 'T02', sequence: 2 }),
    );
    const s = openProject(p.root).state();
    const summary = path.join(p.gsdDir, 'milestones', 'M001', 'slices', 'S01', 'tasks', 'T01-SUMMARY.md');
    assert.deepEqual(
      s.pendingActions.map((a) => [a.taskId, a.text, a.file, a.source]),
      [['T01', 'Round the cart total once, not per line', summary, 'summary']],
    );
    // The markdown derivation of the same tree sees none: the summary GSD rendered earlier has "None.".
    p.close();
    fs.rmSync(p.dbPath);
    assert.deepEqual(openProject(p.root).state().pendingActions, []);
  });

  it('our hook state of a database project is read from the sidecars, and pending actions ask for a replan naming the task', async () => {
    const p = track(
      new Gsd2Project({
        files: {
          // Only the pending-actions hook (the review loop would first review the completed T01).
          '.gsd/gsd-review-loop.yaml': 'enabled:\n  - name: pending-actions\n',
          '.gsd/milestones/M001/slices/S01/tasks/T01-HOOKS.md': '---\nextensions:\n  pending-actions:\n    note: kept\n---\nHook state of GSD Review Loop.\n',
          '.gsd/milestones/M001/slices/S01/tasks/T01-PLAN.md': '# T01: Cart entity\n',
          '.gsd/milestones/M001/slices/S01/tasks/T02-PLAN.md': '# T02: Cart totals\n',
        },
      })
        .milestone({ id: 'M001', title: 'M001: Checkout', status: 'active' })
        .slice({ id: 'S01', title: 'Cart', status: 'active' })
        .task({ id: 'T01', status: 'complete', sequence: 1, knownIssues: 'Pending actions:\n- Round the cart total once\n' })
        .task({ id: 'T02', sequence: 2 }),
    );
    const project = openProject(p.root, { builtins: BUILTIN_HOOKS });
    const t01 = project.state().milestones[0].slices[0].tasks[0];
    assert.deepEqual(t01.extensions['pending-actions'], { note: 'kept' });
    const out = await project.preview();
    assert.equal(out.decision?.unitType, 'replan-slice');
    assert.equal(out.decision?.unitId, 'M001/S01');
    // GSD's gsd_replan_slice guards a replan per blocker task: the prompt names T01 as blockerTaskId.
    assert.match(out.decision?.prompt ?? '', /gsd_replan_slice/);
    assert.match(out.decision?.prompt ?? '', /blockerTaskId: "T01"/);
  });

  it('an unstamped gsd.db whose schema_version is above GSD-2\'s (29) is the successor\'s: read-only, even beside milestones/', () => {
    // docs/project-kinds.md: schema_version > 29 without the application_id stamp is the successor
    // before its schema-46 stamps. The engine detects from the header first, so this needs the second pass.
    const p = track(disagreeing());
    p.run('UPDATE schema_version SET version = 35');
    const project = openProject(p.root);
    const s = project.state();
    assert.equal(s.source.projectKind, 'successor');
    assert.equal(s.readOnly, true);
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
