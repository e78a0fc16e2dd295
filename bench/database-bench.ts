// Runs database-bench-main.js under a Node that has node:sqlite: this one, or Node 24 from the npm
// registry (installed into the shared cache, as the database readers' tests do).
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadNodeSqlite } from '../src/core/sqlite/node-sqlite';

async function nodeWithSqlite(repoRoot: string): Promise<string> {
  if ('sqlite' in loadNodeSqlite()) return process.execPath;
  const { cacheDir } = (await import(pathToFileURL(path.join(repoRoot, 'scripts', 'vscode-host', 'code-server-install.mjs')).href)) as { cacheDir: string };
  const { installNode } = (await import(pathToFileURL(path.join(repoRoot, 'scripts', 'vscode-host', 'node-runtime.mjs')).href)) as {
    installNode(cacheDir: string, major: string): Promise<{ nodeBin: string }>;
  };
  return (await installNode(cacheDir, '24')).nodeBin;
}

export async function databaseBench(repoRoot: string, benchDir: string, cli: string, tasks: number): Promise<void> {
  const node = await nodeWithSqlite(repoRoot);
  const r = spawnSync(node, [path.join(repoRoot, 'dist', 'bench', 'database-bench-main.js'), benchDir, cli, String(tasks)], { stdio: 'inherit' });
  if (r.status !== 0) console.log(`(database benchmark failed: exit ${r.status})`);
}
