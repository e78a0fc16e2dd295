// `npm test` names what it did not prove, right above its last line: every skipped test with its
// reason, every test that passed only on a retry with the failure before, every test that passed
// without a check it could not make here. Shown here on a real mocha
// run with the project's outcomes reporter (test/fixtures/outcomes/not-proven.spec.ts).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

describe('npm test: what the run did not prove', function () {
  this.timeout(60_000);
  it('names each skipped test with its reason, and the test that passed only on a retry with the failure before', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outcomes-'));
    const outcomes = path.join(dir, 'outcomes.json');
    const repo = path.join(__dirname, '..', '..');
    const r = spawnSync(process.execPath, [path.join(repo, 'node_modules', 'mocha', 'bin', 'mocha.js'), '--no-config', '-r', 'tsx/cjs', '--extension', 'ts', '--reporter', path.join(repo, 'test', 'mocha-outcomes-reporter.cjs'), path.join(repo, 'test', 'fixtures', 'outcomes', 'not-proven.spec.ts')], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...process.env, GSD_TEST_OUTCOMES: outcomes, FLAKY_MARK: path.join(dir, 'flaky') },
    });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const written = JSON.parse(fs.readFileSync(outcomes, 'utf8')) as Array<{ title: string; state: string; reason?: string; passedOnRetry?: string }>;
    const by = (t: string) => written.find((o) => o.title.endsWith(t))!;
    assert.deepEqual([by('passes').state, by('is skipped for a reason').state, by('fails once, then passes').state], ['passed', 'skipped', 'passed']);
    assert.equal(by('is skipped for a reason').reason, 'no such tool on this machine');
    assert.equal(by('is declared without a body').reason, 'declared without a body (it.skip or a pending test)');
    assert.equal(by('one of the group').reason, 'the whole group needs node:sqlite');
    assert.equal(by('fails once, then passes').passedOnRetry, 'the first try failed (a port in use)');
    const { notProvenLines } = (await import(pathToFileURL(path.join(repo, 'scripts', 'test-outcomes.mjs')).href)) as { notProvenLines(runs: Array<[string, unknown[]]>): string[] };
    assert.deepEqual(notProvenLines([['unit', written]]), [
      'skipped (3), not proven by this run:',
      '  - unit: outcomes fixture is skipped for a reason — no such tool on this machine',
      '  - unit: outcomes fixture is declared without a body — declared without a body (it.skip or a pending test)',
      '  - unit: outcomes fixture skipped from its before hook one of the group — the whole group needs node:sqlite',
      'passed only on a retry (1):',
      '  - unit: outcomes fixture fails once, then passes — failed first: the first try failed (a port in use)',
      'passed without part of their checks (1):',
      '  - unit: outcomes fixture passes without its page check — without its checks of the page: no workbench here',
    ]);
    // A test one run skipped and another passed (Node 20 without node:sqlite, Node 24 with it) is proven.
    assert.deepEqual(notProvenLines([['unit', [{ file: 'a', title: 't', state: 'skipped', reason: 'no node:sqlite' }]], ['unit', [{ file: 'a', title: 't', state: 'passed' }]]]), []);
  });
});
