// What a newcomer sees from the CLI when something is wrong, and what lazy `state --json` claims.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildCli, cli } from './helpers/cli';
import { copySample } from './helpers/gsd-tree';

describe('CLI usage messages', function () {
  this.timeout(60_000);
  let gsd: string;
  before(async () => {
    gsd = await buildCli();
  });

  const cases: Array<[string, string[], RegExp]> = [
    ['an unknown option', ['state', '--bogus'], /^gsd-review: unknown option --bogus; see gsd-review --help\n$/],
    ['an option without its value', ['state', '--root'], /^gsd-review: option --root needs a value; see gsd-review --help\n$/],
    ['a value for a switch', ['state', '--json=yes'], /^gsd-review: option --json takes no value; see gsd-review --help\n$/],
    ['an unknown command', ['stat'], /^gsd-review: unknown command "stat" \(commands: state, next, complete, hook, install-hooks, uninstall-hooks, gate\); see gsd-review --help\n$/],
    ['a root that does not exist', ['state', '--root', path.join(os.tmpdir(), 'gsd-no-such-folder-x9')], /^gsd-review: --root \S+gsd-no-such-folder-x9: no such folder; see gsd-review --help\n$/],
  ];
  for (const [name, args, message] of cases) {
    it(`says what is wrong with ${name}, points to --help, and exits 2`, () => {
      const r = cli(gsd, args);
      assert.equal(r.status, 2);
      assert.match(r.stderr, message);
      assert.equal(r.stdout, '');
      // Node's own parser text carries an unbalanced quote and advice about `--`.
      assert.doesNotMatch(r.stderr, /To specify a positional argument/);
    });
  }

  it('a root that is a file is not "no .gsd folder"', () => {
    const file = path.join(copySample(), 'README.md');
    const r = cli(gsd, ['next', '--root', file]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /is a file, not a folder; see gsd-review --help/);
  });

  it('an existing folder without .gsd says so and how to point at a project', () => {
    const r = cli(gsd, ['state', '--root', fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-empty-'))]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^gsd-review: no \.gsd folder at or above \S+: run it inside a GSD project or pass --root <project dir>\n$/);
  });

  it('the hook command still answers nothing and exits 0 for a root that does not exist', () => {
    const r = cli(gsd, ['hook', '--root', path.join(os.tmpdir(), 'gsd-no-such-folder-x9')], JSON.stringify({ hook_event_name: 'Stop', session_id: 's' }));
    assert.equal(r.status, 0);
    // Nothing for the agent to act on: no answer at all, and no trace.
    assert.equal(r.stdout, '');
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  });

  it('a launcher without its CLI bundle says how to build it instead of a stack trace', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-partial-dist-'));
    fs.copyFileSync(gsd, path.join(dir, 'cli.js'));
    const r = cli(path.join(dir, 'cli.js'), ['--help']);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^gsd-review: \S+cli-main\.js is missing: build the CLI with `npm run build` in /);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    // `hook` still exits 0 (a host would otherwise block or warn); the word elsewhere does not count.
    const hook = cli(path.join(dir, 'cli.js'), ['--root', dir, 'hook'], '{}');
    assert.equal(hook.status, 0, hook.stderr);
    assert.match(hook.stderr, /cli-agent-hooks\.js is missing/);
    assert.equal(cli(path.join(dir, 'cli.js'), ['next', '--root', 'hook']).status, 1);
  });
});

describe('lazy state --json marks what it did not read', function () {
  this.timeout(60_000);
  let gsd: string;
  before(async () => {
    gsd = await buildCli();
  });

  it('the sample: the complete milestone, the one after the active one and the slices outside the active one have null progress, not 0/0', () => {
    const root = copySample();
    const lazy = cli(gsd, ['state', '--json', '--root', root]);
    const full = cli(gsd, ['state', '--json', '--full', '--root', root]);
    assert.equal(lazy.status, 0, lazy.stderr);
    assert.equal(lazy.json.read, 'lazy');
    assert.equal(full.json.read, 'full');
    const [m1, m2, m3] = lazy.json.milestones;
    // M001 is complete: its summary says so, its roadmap is not read.
    assert.deepEqual([m1.id, m1.status, m1.roadmapLoaded, m1.slices, m1.progress], ['M001', 'complete', false, null, null]);
    // The full read knows its two slices, both done: the lazy file must not claim 0/0.
    assert.deepEqual(full.json.milestones[0].progress, { done: 2, total: 2 });
    // The active milestone is read: its slices are data; S01 (done) was not opened, S02 (active) was.
    assert.deepEqual(m2.progress, { done: 1, total: 3 });
    assert.deepEqual(m2.slices.map((s: { id: string; planLoaded: boolean; progress: unknown; tasks: unknown[] | null }) => [s.id, s.planLoaded, s.progress, s.tasks && s.tasks.length]),
      [['S01', false, null, null], ['S02', true, { done: 2, total: 3 }, 3], ['S03', false, null, null]]);
    assert.deepEqual(full.json.milestones[1].slices[0].progress, { done: 2, total: 2 });
    // M003 comes after the active milestone and has no validation: pending whatever its roadmap and
    // CONTEXT say, so they are not opened. Its title is its id; the full read has it from CONTEXT.
    assert.deepEqual([m3.id, m3.status, m3.roadmapLoaded, m3.slices, m3.progress, m3.title], ['M003', 'pending', false, null, null, 'M003']);
    assert.deepEqual([full.json.milestones[2].status, full.json.milestones[2].progress, full.json.milestones[2].title], ['pending', { done: 0, total: 0 }, 'Budget alerts']);
    // What both read agrees.
    assert.deepEqual(lazy.json.progress, full.json.progress);
    assert.equal(lazy.json.phase, full.json.phase);
  });
});
