// The unit tests of the database readers (GSD-2's gsd.db, the successor's) need `node:sqlite`, which
// Node 20 lacks: under `npx mocha` they skip with the reason. This runs those files again under Node 24
// from the npm registry (installed once into the same cache as the VS Code hosts), so they really run.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir } from './vscode-host/code-server-install.mjs';
import { installNode } from './vscode-host/node-runtime.mjs';

const NODE_MAJOR = '24';
// workflow-tool-prompts: the dispatch of GSD's workflow-tool prompts on gsd.db trees.
const SPECS = ['test/unit/gsd2-database*.test.ts', 'test/unit/successor*.test.ts', 'test/unit/workflow-tool-prompts.test.ts'];

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { nodeBin } = await installNode(cacheDir, NODE_MAJOR);
const mocha = path.join(repoRoot, 'node_modules', 'mocha', 'bin', 'mocha.js');
// --no-config: .mocharc lists every unit test; only the database readers' files run here.
// The reporter is mocha's spec reporter; with GSD_TEST_OUTCOMES set (npm test) it also writes each test's
// outcome, so run-tests.mjs counts a test of both runs once.
const reporter = path.join(repoRoot, 'test', 'mocha-outcomes-reporter.cjs');
const result = spawnSync(nodeBin, [mocha, '--no-config', '--require', 'tsx/cjs', '--extension', 'ts', '--timeout', '20000', '--reporter', reporter, ...SPECS], {
  cwd: repoRoot,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
