// node:sqlite is loaded lazily and stays external: importing the successor reader costs nothing
// when no successor project is open, and the bundle runs on a Node without node:sqlite (Node 20).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const ROOT = path.join(__dirname, '..', '..');

describe('successor reader: node:sqlite stays lazy and external', () => {
  it('esbuild (platform node, as esbuild.mjs builds) keeps require("node:sqlite") as a runtime require', () => {
    const out = esbuild.buildSync({
      entryPoints: [path.join(ROOT, 'src/core/successor/index.ts')],
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      write: false,
      logLevel: 'silent',
    });
    const code = out.outputFiles[0].text;
    assert.equal((code.match(/require\("node:sqlite"\)/g) ?? []).length, 1);
  });

  it('importing the module does not load node:sqlite', () => {
    const script = "require('./src/core/successor'); process.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => /sqlite/i.test(m))))";
    const loaded = execFileSync(process.execPath, ['-r', 'tsx/cjs', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    assert.deepEqual(JSON.parse(loaded), []);
  });
});
