// `state --json` on a GSD-2 database project of N tasks, against `node -e 0`, both whole processes
// of the same Node, in the same run (issue 16: target ≤ 2×); then a GSD write to the WAL until the
// engine has the new state (database-write-bench.ts). Needs node:sqlite, so bench.ts runs this
// under Node 24 from the registry: `node database-bench-main.js <bench dir> <cli.js> <tasks>`.
// The project is the benchmark's markdown tree of that size (generate-tree.ts) with the gsd.db GSD-2
// would hold for it: every milestone, slice and task of the shape, statuses as the markdown shows
// them, slices not planned yet with their tasks pending, `sequence` in order.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeGsdStore } from '../src/core/files/gsd-store';
import { loadNodeSqlite } from '../src/core/sqlite/node-sqlite';
import { deriveState, freshPartSource } from '../src/core/state/derive-state';
import { locateProject } from '../src/core/state/locate-project';
import { ProjectFiles } from '../src/core/state/project-files';
import { SCHEMA_29 } from '../test/unit/helpers/gsd2-schema';
import { generateTree, shapeFor } from './generate-tree';
import { databaseWriteBench } from './database-write-bench';
import { fmt, processMsInterleaved, ratio } from './measure';

const NOW = '2026-11-20T10:00:00.000Z';

function databaseTree(benchDir: string, tasks: number): string {
  const root = path.join(benchDir, `db-tree-${tasks}`);
  const marker = path.join(root, '.generated');
  if (fs.existsSync(marker)) return root;
  const loaded = loadNodeSqlite();
  if (!('sqlite' in loaded)) throw new Error(loaded.unavailable);
  fs.rmSync(root, { recursive: true, force: true });
  const shape = shapeFor(tasks);
  generateTree(root, shape);
  const project = locateProject(root)!;
  const md = deriveState(project, freshPartSource(new ProjectFiles(new NodeGsdStore())));
  const db = new loaded.sqlite.DatabaseSync(path.join(project.gsdDir, 'gsd.db'));
  db.exec('PRAGMA journal_mode=WAL');
  db.exec(SCHEMA_29);
  db.prepare('INSERT INTO schema_version (version, applied_at) VALUES (?, ?)').run(29, NOW);
  const milestone = db.prepare('INSERT INTO milestones (id, title, status, depends_on, created_at, sequence) VALUES (?, ?, ?, ?, ?, ?)');
  const slice = db.prepare('INSERT INTO slices (milestone_id, id, title, status, risk, depends, created_at, sequence) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const task = db.prepare('INSERT INTO tasks (milestone_id, slice_id, id, title, status, completed_at, estimate, files, verify, sequence) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  let rows = 0;
  db.exec('BEGIN');
  md.milestones.forEach((m, mi) => {
    milestone.run(m.id, `${m.id}: ${m.title}`, m.status === 'complete' ? 'complete' : 'active', JSON.stringify(m.dependsOn), NOW, mi + 1);
    m.slices.forEach((s, si) => {
      slice.run(m.id, s.id, s.title, s.done ? 'complete' : 'pending', s.risk ?? 'medium', JSON.stringify(s.depends), NOW, si + 1);
      const count = s.tasks.length || shape.tasksPerSlice;
      for (let t = 0; t < count; t++) {
        const entry = s.tasks[t];
        const id = entry?.id ?? `T${String(t + 1).padStart(2, '0')}`;
        const done = entry ? entry.done : s.done;
        task.run(m.id, s.id, id, entry?.title ?? `Task ${t + 1}`, done ? 'complete' : 'pending', done ? NOW : null, '30m', '[]', 'npm test', t + 1);
        rows++;
      }
    });
  });
  db.exec('COMMIT');
  db.close(); // as GSD leaves it after a clean close: gsd.db alone
  fs.writeFileSync(marker, JSON.stringify({ tasks: rows }));
  return root;
}

function main(): void {
  const [benchDir, cli, tasksArg] = process.argv.slice(2);
  const tasks = Number(tasksArg);
  const root = databaseTree(benchDir, tasks);
  const rows = (JSON.parse(fs.readFileSync(path.join(root, '.generated'), 'utf8')) as { tasks: number }).tasks;
  const [bare, state] = processMsInterleaved(11, [
    [process.execPath, ['-e', '0']],
    [process.execPath, [cli, 'state', '--json', '--root', root]],
  ]);
  console.log(`\n## GSD-2 database project, ${rows.toLocaleString('en')} tasks in gsd.db (node ${process.version})`);
  console.log(`whole process: node -e 0          ${fmt(bare)} ms`);
  console.log(`whole process: cli state --json   ${fmt(state)} ms   ${ratio(state, bare)} node -e 0 (target ≤ 2×; medians of 11, interleaved)`);
  const loaded = loadNodeSqlite();
  if (!('sqlite' in loaded)) throw new Error(loaded.unavailable);
  const write = databaseWriteBench(loaded.sqlite, root, 10);
  console.log(`GSD write → new state + stateChanges   ${fmt(write.update)} ms   (target < 100 ms after the debounce; median of 10, engine's full read)`);
  console.log(`  plain SELECT of the same rows        ${fmt(write.plainRead)} ms   update ${ratio(write.update, write.plainRead)} that (same run; watcher latency and debounce not included)`);
}

main();
