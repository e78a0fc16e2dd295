// The GSD-2 database reader in runtimes with and without node:sqlite. These run under every Node:
// under Node 20 (the system Node, and older VS Code runtimes) the reader must say in one line that it
// cannot read the database, so the caller can fall back to the markdown, marked as such.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { readGsd2Database } from '../../src/core/gsd2-database';
import { loadNodeSqlite } from '../../src/core/sqlite/node-sqlite';
import { skipBecause } from '../shared/skip-because';

const [major, minor] = process.versions.node.split('.').map(Number);
/** Node ≥ 22.13 (and 23.4+) has node:sqlite without a flag; 22.5–22.12 only with --experimental-sqlite. */
const runtimeHasSqlite = major > 22 || (major === 22 && minor >= 13);

function gsdDirWithDatabaseFile(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd2-rt-'));
  fs.mkdirSync(path.join(root, '.gsd'));
  // Any bytes will do: without node:sqlite the file is never opened.
  fs.writeFileSync(path.join(root, '.gsd', 'gsd.db'), 'SQLite format 3\0');
  return path.join(root, '.gsd');
}

describe('GSD-2 database: runtimes', () => {
  it('a project without gsd.db is a markdown project: no diagnostic, node:sqlite never loaded', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd2-rt-'));
    fs.mkdirSync(path.join(root, '.gsd'));
    let loads = 0;
    const r = readGsd2Database(path.join(root, '.gsd'), { loadSqlite: () => (loads++, { unavailable: 'not expected' }) });
    assert.ok('unavailable' in r);
    assert.equal(r.cause, 'no-database');
    assert.deepEqual(r.diagnostics, []);
    assert.equal(loads, 0);
  });

  it('a runtime without node:sqlite gives one line, as one warning on gsd.db', () => {
    const gsdDir = gsdDirWithDatabaseFile();
    const r = readGsd2Database(gsdDir, { loadSqlite: () => ({ unavailable: 'Node 20.0.0 has no node:sqlite (needs Node ≥ 22.5)' }) });
    assert.ok('unavailable' in r);
    assert.equal(r.cause, 'no-node-sqlite');
    assert.equal(r.unavailable, 'Node 20.0.0 has no node:sqlite (needs Node ≥ 22.5)');
    // The line the user reads, written out (not read back from the result under test).
    assert.deepEqual(r.diagnostics, [{ file: path.join(gsdDir, 'gsd.db'), severity: 'warning', message: 'Node 20.0.0 has no node:sqlite (needs Node ≥ 22.5)' }]);
  });

  it('this runtime without node:sqlite (Node 20): the real reason names the Node version and what is needed', function () {
    if (runtimeHasSqlite) {
      skipBecause(this, `Node ${process.versions.node} has node:sqlite; run under Node 20 to see the reason`);
    }
    const loaded = loadNodeSqlite();
    assert.ok('unavailable' in loaded);
    assert.match(loaded.unavailable, new RegExp(`Node ${process.versions.node.replace(/\./g, '\\.')} `));
    assert.match(loaded.unavailable, /node:sqlite/);
    assert.match(loaded.unavailable, /22\.5/);
    const r = readGsd2Database(gsdDirWithDatabaseFile());
    assert.ok('unavailable' in r && r.cause === 'no-node-sqlite');
    assert.equal(r.unavailable, loaded.unavailable);
    assert.equal(r.diagnostics.length, 1);
  });

  it('this runtime with node:sqlite (Node ≥ 22.13) loads it', function () {
    if (!runtimeHasSqlite) {
      skipBecause(this, `Node ${process.versions.node} has no node:sqlite`);
    }
    assert.ok('sqlite' in loadNodeSqlite());
  });

  it('esbuild leaves node:sqlite external, and the bundle loads in a runtime without it', async () => {
    // The options of the repo's esbuild.mjs builds (bundle, platform node, target node20, cjs).
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gsd2-bundle-')), 'gsd2.js');
    await esbuild.build({
      entryPoints: [path.join(__dirname, '../../src/core/gsd2-database/index.ts')],
      outfile: out,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      logLevel: 'silent',
    });
    const text = fs.readFileSync(out, 'utf8');
    assert.match(text, /require\("node:sqlite"\)/);
    assert.doesNotMatch(text, /class DatabaseSync/);
    // Loading the bundle and reading a project without gsd.db must not touch node:sqlite.
    const answer = execFileSync(process.execPath, ['-e', `const m = require(${JSON.stringify(out)}); console.log(m.readGsd2Database(${JSON.stringify(path.join(os.tmpdir(), 'no-such-project', '.gsd'))}).cause)`], { encoding: 'utf8' });
    assert.equal(answer.trim(), 'no-database');
  });
});
