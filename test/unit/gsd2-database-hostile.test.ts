// A `gsd.db` a repository links out of `.gsd` (to another project's database, or any SQLite file of
// the user's). SQLite opens the link's target and, even read-only, creates its `-wal` and `-shm`
// beside that target: both readers (GSD-2's and the successor's) read a database outside `.gsd` and
// wrote two files outside it. The link is refused with a diagnostic; a real file is read as before.
// Needs node:sqlite (Node ≥ 22.5): run with Node 24 from the registry; skipped under Node 20.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readGsd2Database } from '../../src/core/gsd2-database';
import { detectProjectKind } from '../../src/core/state/project-kind';
import { Gsd2Project, skipWithoutSqlite } from './helpers/gsd2-database';

/** A repository whose `.gsd/gsd.db` is a link to `target`. */
function linkedRepo(target: string): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-hostile-db-')));
  fs.mkdirSync(path.join(root, '.gsd', 'milestones'), { recursive: true });
  fs.symlinkSync(target, path.join(root, '.gsd', 'gsd.db'));
  return path.join(root, '.gsd');
}

const besideTarget = (dbPath: string): string[] => fs.readdirSync(path.dirname(dbPath)).filter((n) => n.startsWith(`${path.basename(dbPath)}-`));

describe('GSD databases linked out of .gsd', function () {
  let victim: Gsd2Project;
  before(skipWithoutSqlite);
  beforeEach(() => {
    // Another project's live database: GSD closed it cleanly, so no -wal or -shm beside it.
    victim = new Gsd2Project().milestone({ id: 'M001', title: 'M001: Secret plans' }).slice({ id: 'S01' }).task({ id: 'T01', title: 'Private' });
    victim.close();
    assert.deepEqual(besideTarget(victim.dbPath), []);
  });
  afterEach(() => victim.remove());

  it('GSD-2 reader: refused with a diagnostic, nothing read or created beside the target', () => {
    const r = readGsd2Database(linkedRepo(victim.dbPath));
    assert.ok('unavailable' in r, 'the outside database was read');
    assert.equal(r.cause, 'unreadable');
    assert.match(r.diagnostics[0].message, /gsd\.db leads outside \.gsd/);
    assert.deepEqual(besideTarget(victim.dbPath), []);
  });

  it('successor detection: read as markdown with a diagnostic, nothing created beside the target', () => {
    const report = detectProjectKind(linkedRepo(victim.dbPath));
    assert.equal(report.databaseFile, undefined);
    assert.match(report.diagnostics.map((d) => d.message).join('\n'), /gsd\.db leads outside \.gsd.*read as markdown/);
    assert.deepEqual(besideTarget(victim.dbPath), []);
  });

  it('a link that stays inside .gsd is read', () => {
    const p = new Gsd2Project().milestone({ id: 'M001' }).slice({ id: 'S01' }).task({ id: 'T01', title: 'Panel' });
    try {
      p.close();
      fs.renameSync(p.dbPath, path.join(p.gsdDir, 'real.db'));
      fs.symlinkSync('real.db', p.dbPath);
      const r = readGsd2Database(p.gsdDir);
      assert.ok('state' in r, 'unavailable' in r ? r.unavailable : '');
      assert.equal(r.state.activeTask?.id, 'T01');
    } finally {
      p.remove();
    }
  });

  // A task row's escalation_artifact_path is the database's to choose: an absolute path to any
  // file of the user's was read (only its validity showed, but a read outside .gsd all the same).
  it('an escalation artifact path out of .gsd is not read', () => {
    const outside = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-victim-')), 'T01-ESCALATION.json');
    fs.writeFileSync(
      outside,
      JSON.stringify({ version: 1, taskId: 'T01', sliceId: 'S01', milestoneId: 'M001', question: 'Which?', options: [{ id: 'a', label: 'A', tradeoffs: '' }, { id: 'b', label: 'B', tradeoffs: '' }], recommendation: 'a', continueWithDefault: false, createdAt: '2026-11-20T09:00:00Z' }),
    );
    const p = new Gsd2Project().milestone({ id: 'M001' }).slice({ id: 'S01' }).task({ id: 'T01', escalationPending: true, escalationArtifactPath: outside }).task({ id: 'T02' });
    try {
      const r = readGsd2Database(p.gsdDir);
      assert.ok('state' in r, 'unavailable' in r ? r.unavailable : '');
      assert.equal(r.state.phase, 'executing', 'the artifact outside .gsd was read');
      assert.ok(r.diagnostics.some((d) => /leads outside \.gsd/.test(d.message)));
    } finally {
      p.remove();
    }
  });

  // A `slices` folder linked out of .gsd (to another project's slices): the task summary there was
  // read to place the pending action, and the action pointed at that outside file, which the panel
  // and CodeLens open. Now nothing under the link is read; the action points at a path inside .gsd.
  describe('a slices folder (or a summary) linked out of .gsd', () => {
    const ISSUES = 'Pending actions:\n- Round the cart total once\n';
    let outsideDir: string;
    let p: Gsd2Project;
    beforeEach(() => {
      outsideDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-victim-slices-')));
      fs.mkdirSync(path.join(outsideDir, 'S01', 'tasks'), { recursive: true });
      // Another project's summary: its Known Issues heading on line 3, the bullet on line 6.
      fs.writeFileSync(path.join(outsideDir, 'S01', 'tasks', 'T01-SUMMARY.md'), '# T01: Secret\n\n## Known Issues\n\nPending actions:\n- Round the cart total once\n');
      p = new Gsd2Project().milestone({ id: 'M001' }).slice({ id: 'S01' }).task({ id: 'T01', status: 'complete', sequence: 1, knownIssues: ISSUES }).task({ id: 'T02', sequence: 2 });
      fs.mkdirSync(path.join(p.gsdDir, 'milestones', 'M001'), { recursive: true });
    });
    afterEach(() => {
      p.remove();
      fs.rmSync(outsideDir, { recursive: true, force: true });
    });

    const actionFiles = (r: ReturnType<typeof readGsd2Database>): string[] => ('state' in r ? r.state.pendingActions.map((a) => a.file) : []);

    it('a linked slices folder: the action points inside .gsd, and the link is said', () => {
      fs.symlinkSync(outsideDir, path.join(p.gsdDir, 'milestones', 'M001', 'slices'));
      const r = readGsd2Database(p.gsdDir);
      assert.ok('state' in r, 'unavailable' in r ? r.unavailable : '');
      assert.deepEqual(r.state.pendingActions.map((a) => a.text), ['Round the cart total once']);
      for (const file of actionFiles(r)) {
        assert.ok(!fs.realpathSync(path.dirname(file)).startsWith(outsideDir), `the action points at ${file}, outside .gsd`);
        assert.ok(file.startsWith(p.gsdDir + path.sep), file);
      }
      assert.ok(![3, 6].includes(r.state.pendingActions[0].line), 'the outside summary was read to place the action');
      assert.ok(r.diagnostics.some((d) => /slices.*leads outside \.gsd/.test(d.message)), r.diagnostics.map((d) => d.message).join('\n'));
    });

    it('a summary file linked out of .gsd: not read, not pointed at', () => {
      fs.mkdirSync(path.join(p.gsdDir, 'milestones', 'M001', 'slices', 'S01', 'tasks'), { recursive: true });
      const summary = path.join(p.gsdDir, 'milestones', 'M001', 'slices', 'S01', 'tasks', 'T01-SUMMARY.md');
      fs.symlinkSync(path.join(outsideDir, 'S01', 'tasks', 'T01-SUMMARY.md'), summary);
      const r = readGsd2Database(p.gsdDir);
      assert.ok('state' in r, 'unavailable' in r ? r.unavailable : '');
      assert.equal(r.state.pendingActions.length, 1);
      assert.ok(![3, 6].includes(r.state.pendingActions[0].line), 'the outside summary was read to place the action');
      assert.notEqual(r.state.pendingActions[0].file, summary, 'the action points at the link out of .gsd');
    });

    it('a plain slices folder still places the action on its rendered bullet', () => {
      fs.mkdirSync(path.join(p.gsdDir, 'milestones', 'M001', 'slices', 'S01', 'tasks'), { recursive: true });
      const summary = path.join(p.gsdDir, 'milestones', 'M001', 'slices', 'S01', 'tasks', 'T01-SUMMARY.md');
      fs.copyFileSync(path.join(outsideDir, 'S01', 'tasks', 'T01-SUMMARY.md'), summary);
      const r = readGsd2Database(p.gsdDir);
      assert.ok('state' in r, 'unavailable' in r ? r.unavailable : '');
      assert.deepEqual(r.state.pendingActions.map((a) => [a.file, a.line]), [[summary, 6]]);
    });
  });
});
