// `state --json` on a GSD-2 database project of N tasks, against `node -e 0`, both whole processes
// of the same Node, in the same run (issue 16: target ≤ 2×); then a GSD write to the WAL until the
// engine has the new state (database-write-bench.ts). Needs node:sqlite, so bench.ts runs this
// under Node 24 from the registry: `node database-bench-main.js <bench dir> <cli.js> <tasks>`.
// The project is shaped as GSD-2's own tools leave one (generate-gsd2-project.ts, issue 38): its rows
// with their plan and summary text, and every file it renders beside the database.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadNodeSqlite } from '../src/core/sqlite/node-sqlite';
import { generateGsd2Project } from './generate-gsd2-project';
import { databaseWriteBench } from './database-write-bench';
import { fmt, processMsInterleaved, ratio } from './measure';

function databaseTree(benchDir: string, tasks: number): string {
  const root = path.join(benchDir, `gsd2-project-${tasks}`);
  const marker = path.join(root, '.generated');
  if (fs.existsSync(marker)) return root;
  const loaded = loadNodeSqlite();
  if (!('sqlite' in loaded)) throw new Error(loaded.unavailable);
  fs.rmSync(root, { recursive: true, force: true });
  const rows = generateGsd2Project(loaded.sqlite, root, tasks);
  fs.writeFileSync(marker, JSON.stringify({ tasks: rows }));
  return root;
}

/**
 * The readlink system calls of one `state --json` (each realpath asks one per component of the path;
 * issue 38: 8,233 on a real GSD-2 project), counted by strace when it is installed; null otherwise.
 */
function readlinkCalls(cli: string, root: string): number | null {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-strace-')), 'calls');
  const r = spawnSync('strace', ['-f', '-e', 'trace=readlink,readlinkat', '-o', out, process.execPath, cli, 'state', '--json', '--root', root], { stdio: 'ignore' });
  if (r.error || r.status !== 0 || !fs.existsSync(out)) return null;
  const calls = fs.readFileSync(out, 'utf8').split('\n').filter((l) => /\breadlink(at)?\(/.test(l)).length;
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
  return calls;
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
  const readlinks = readlinkCalls(cli, root);
  if (readlinks !== null) console.log(`readlink calls in one state --json   ${readlinks.toLocaleString('en')} (strace; node -e 0 makes 1)`);
  const loaded = loadNodeSqlite();
  if (!('sqlite' in loaded)) throw new Error(loaded.unavailable);
  const write = databaseWriteBench(loaded.sqlite, root, 10);
  console.log(`GSD write → new state + stateChanges   ${fmt(write.update)} ms   (target < 100 ms after the debounce; median of 10, engine's full read)`);
  console.log(`  plain SELECT of the same rows        ${fmt(write.plainRead)} ms   update ${ratio(write.update, write.plainRead)} that (same run; watcher latency and debounce not included)`);
}

main();
