// What a state of a GSD-2 database project asks the disk (issue 38): GSD's gsd_task_complete stores
// "None." as the known issues of every task finished without any, so a path found for each of them
// (the task folder listed, the summary's path resolved through every link on the way) cost a
// 2,000-task project 500 realpaths, some 5,500 readlink calls, for pending actions it never had.
// Needs node:sqlite: run under Node 24 by scripts/node-sqlite-tests.mjs; skipped under Node 20.
import * as assert from 'node:assert/strict';
import type * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { openProject } from '../../src/core/project/open-project';
import { Gsd2Project, skipWithoutSqlite } from './helpers/gsd2-database';

/** The module object itself: the namespace an `import * as` gives has getters only. */
const nodeFs = createRequire(__filename)('node:fs') as { realpathSync: typeof fs.realpathSync; readdirSync: unknown };

/** Calls of `fs.realpathSync.native` and `fs.readdirSync` made while `run` runs, by path. */
function diskTouches(run: () => void): { realpaths: string[]; listings: string[] } {
  const realpaths: string[] = [];
  const listings: string[] = [];
  const realpath = nodeFs.realpathSync.native;
  const readdir = nodeFs.readdirSync;
  nodeFs.realpathSync.native = ((p: fs.PathLike, ...rest: unknown[]) => {
    realpaths.push(String(p));
    return (realpath as (...a: unknown[]) => string)(p, ...rest);
  }) as typeof fs.realpathSync.native;
  nodeFs.readdirSync = (p: fs.PathLike, ...rest: unknown[]) => {
    listings.push(String(p));
    return (readdir as (...a: unknown[]) => unknown)(p, ...rest);
  };
  try {
    run();
  } finally {
    nodeFs.realpathSync.native = realpath;
    nodeFs.readdirSync = readdir;
  }
  return { realpaths, listings };
}

describe('a GSD-2 database project: what a state asks the disk', function () {
  before(skipWithoutSqlite);
  const projects: Gsd2Project[] = [];
  afterEach(() => {
    for (const p of projects.splice(0)) p.remove();
  });

  /** Two finished slices whose tasks GSD completed with its "None.", rendered as GSD renders them, and an open one. */
  function finishedWithNone(): Gsd2Project {
    const files: Record<string, string> = {};
    const p = new Gsd2Project().milestone({ id: 'M001', title: 'M001: Checkout', status: 'active' });
    for (const [si, sid] of ['S01', 'S02', 'S03'].entries()) {
      const done = si < 2;
      p.slice({ id: sid, status: done ? 'complete' : 'pending', sequence: si + 1 });
      for (const tid of ['T01', 'T02', 'T03']) {
        files[`.gsd/milestones/M001/slices/${sid}/tasks/${tid}-PLAN.md`] = `# ${tid}: Work\n`;
        if (done) files[`.gsd/milestones/M001/slices/${sid}/tasks/${tid}-SUMMARY.md`] = `# ${tid}: Work\n\n## Known Issues\n\nNone.\n`;
        p.task({ sliceId: sid, id: tid, status: done ? 'complete' : 'pending', knownIssues: done ? 'None.' : '' });
      }
    }
    p.write(files);
    projects.push(p);
    return p;
  }

  // The finished slices' task folders (the active slice's is read for our hooks' sidecars).
  const underFinishedTasks = (f: string) => f.split(path.sep).includes('tasks') && !f.split(path.sep).includes('S03');

  it('"None." as known issues, the CLI\'s lazy read: no finished slice\'s task folder is listed, no path under one resolved', () => {
    const p = finishedWithNone();
    const { realpaths, listings } = diskTouches(() => {
      const s = openProject(p.root, { reading: 'lazy' }).state();
      assert.deepEqual(s.pendingActions, []);
      assert.equal(s.phase, 'executing');
    });
    assert.deepEqual(realpaths.filter(underFinishedTasks), []);
    assert.deepEqual(listings.filter(underFinishedTasks), []);
  });

  it('"None." as known issues, the panel\'s full read: no summary path is resolved (the folders are listed for our sidecars)', () => {
    const p = finishedWithNone();
    const { realpaths } = diskTouches(() => {
      const s = openProject(p.root, { reading: 'incremental' }).state();
      assert.deepEqual(s.pendingActions, []);
    });
    assert.deepEqual(realpaths.filter((f) => underFinishedTasks(f) && f.endsWith('.md')), []);
  });

  it('a task whose known issues hold a pending action still points at its rendered summary', () => {
    const p = finishedWithNone();
    p.run("UPDATE tasks SET known_issues = 'Pending actions:\n- Round the total once\n' WHERE slice_id = 'S02' AND id = 'T02'");
    p.write({ '.gsd/milestones/M001/slices/S02/tasks/T02-SUMMARY.md': '# T02: Work\n\n## Known Issues\n\nPending actions:\n- Round the total once\n' });
    const s = openProject(p.root).state();
    assert.deepEqual(
      s.pendingActions.map((a) => [a.taskId, a.text, a.file, a.line]),
      [['T02', 'Round the total once', path.join(p.gsdDir, 'milestones', 'M001', 'slices', 'S02', 'tasks', 'T02-SUMMARY.md'), 6]],
    );
  });
});
