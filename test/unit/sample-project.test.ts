// The bundled sample is what `npm run demo` opens: its own TypeScript must type-check (with its
// devDependency @types/node, found here in this repository's node_modules as the demo links it), so
// the first entries in the demo's Problems view are the review's findings, not the sample's errors.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const SAMPLE = path.join(__dirname, '..', '..', 'sample-project');

describe('the bundled sample project', () => {
  it('type-checks with the TypeScript and @types/node its package.json names', function () {
    this.timeout(60_000);
    const pkg = JSON.parse(fs.readFileSync(path.join(SAMPLE, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    assert.deepEqual(Object.keys(pkg.devDependencies).sort(), ['@types/node', 'typescript']);
    const tsc = require.resolve('typescript/bin/tsc');
    const r = spawnSync(process.execPath, [tsc, '-p', SAMPLE], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });
});
