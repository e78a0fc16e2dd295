// Next Unit on a successor project hands over to GSD, and our hooks stand aside there. Expectations
// from outside the code: gsd-pi's own CLI (src/help-text.ts: `gsd headless next` "Run one unit",
// `/gsd next` in a session; package.json bin `gsd`), POSIX PATH lookup (absolute entries, execute
// bit), issue 17 (nothing of GSD's is written), and the hosts' hook contract (no answer = go on).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runAgentHook } from '../../src/core/agent-hooks/hook-bridge';
import { BUILTIN_HOOKS } from '../../src/builtin-hooks';
import { findOnPath, successorHandOff } from '../../src/core/successor';
import { buildCli, cli } from './helpers/cli';
import { roadmap, slicePlan, writeTree } from './helpers/gsd-tree';
import { baseSpec, buildSuccessorDatabase, sqliteAvailable, withLifecycles } from './helpers/successor-database';
import { snapshotTree } from './helpers/folder-snapshot';
import { writeSuccessorLayout } from './helpers/successor-project';
import { skipBecause } from '../shared/skip-because';

/** A folder holding an executable `gsd` (a shell script that would only print), and one that cannot run. */
function binDirs(): { withGsd: string; notExecutable: string } {
  const withGsd = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-bin-'));
  fs.writeFileSync(path.join(withGsd, 'gsd'), '#!/bin/sh\necho gsd "$@"\n', { mode: 0o755 });
  const notExecutable = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-bin-'));
  fs.writeFileSync(path.join(notExecutable, 'gsd'), 'not a program\n', { mode: 0o644 });
  return { withGsd, notExecutable };
}

const PRE_TOOL_USE = (root: string) => JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's1', cwd: root, tool_name: 'Write', tool_input: { file_path: path.join(root, '.gsd', 'phases', '01-checkout-flow', '01-02-PLAN.md'), content: 'x' } });
const STOP = (root: string) => JSON.stringify({ hook_event_name: 'Stop', session_id: 's1', cwd: root, stop_hook_active: false });
const SESSION_START = (root: string) => JSON.stringify({ hook_event_name: 'SessionStart', session_id: 's1', cwd: root, source: 'startup' });

describe('successor projects: Next Unit hands off to GSD', function () {
  this.timeout(120_000);
  let script: string;
  before(async () => {
    script = await buildCli();
  });

  describe('finding gsd on PATH', () => {
    if (process.platform === 'win32') return;
    it('finds an executable gsd, skips a non-executable one and relative PATH entries', () => {
      const { withGsd, notExecutable } = binDirs();
      assert.equal(findOnPath('gsd', { env: { PATH: `${notExecutable}:${withGsd}` } }), path.join(withGsd, 'gsd'));
      assert.equal(findOnPath('gsd', { env: { PATH: notExecutable } }), null);
      // An empty or relative entry means the current folder to a shell: a planted ./gsd is not run.
      assert.equal(findOnPath('gsd', { env: { PATH: `:.:${path.relative(process.cwd(), withGsd)}` } }), null);
      assert.equal(findOnPath('gsd', { env: {} }), null);
    });

    it('on Windows, PATHEXT names the programs', () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-win-'));
      fs.writeFileSync(path.join(dir, 'gsd.cmd'), '@echo off\n');
      assert.equal(findOnPath('gsd', { env: { Path: dir, PATHEXT: '.exe;.cmd' }, platform: 'win32' }), path.join(dir, 'gsd.cmd'));
    });
  });

  describe('the words', () => {
    it("with gsd on PATH: GSD's own one-unit step, `gsd headless next`, in the project", () => {
      const { withGsd } = binDirs();
      const h = successorHandOff('/work/shop', { phase: 'executing', activeMilestone: { id: 'M001', title: 'Checkout flow' }, activeSlice: { id: 'S02', title: 'Payment' }, activeTask: { id: 'T02', title: 'Capture payment' } }, { env: { PATH: withGsd } });
      assert.equal(h.command, 'gsd headless next');
      assert.equal(h.gsdPath, path.join(withGsd, 'gsd'));
      assert.match(h.message, /`gsd headless next` in \/work\/shop/);
      assert.match(h.message, /`\/gsd next` in a GSD session/);
      assert.match(h.message, /phase: executing, at M001\/S02\/T02 \(Capture payment\)/);
      assert.doesNotMatch(h.message, /not on PATH/);
    });

    it('without gsd: says it is not on PATH, how to install it (@opengsd/gsd-pi) and what to run then', () => {
      const h = successorHandOff('/work/shop', undefined, { env: { PATH: '' } });
      assert.equal(h.gsdPath, null);
      assert.match(h.message, /`gsd` is not on PATH/);
      assert.match(h.message, /npm install -g @opengsd\/gsd-pi/);
      assert.match(h.message, /`gsd headless next` in \/work\/shop/);
    });
  });

  describe('gsd-review next / complete', () => {
    it('next: the same message, exit 3, nothing written under .gsd', () => {
      const { root, gsdDir } = writeSuccessorLayout();
      const before = snapshotTree(gsdDir);
      const { withGsd } = binDirs();
      const r = cli(script, ['next', '--root', root], undefined, { PATH: `${withGsd}:${process.env.PATH}` });
      assert.equal(r.status, 3, r.stderr);
      assert.match(r.stdout, /This is a project of GSD \(@opengsd\/gsd-pi 1\.x\)/);
      assert.match(r.stdout, /Run GSD's next unit with `gsd headless next` in /);
      // The phase of the layout (S02/T02 is the first open task: issue 17's plan checkboxes).
      assert.match(r.stdout, /at M001\/S02\/T02 \(Capture payment\)/);
      assert.deepEqual(snapshotTree(gsdDir), before);
    });

    it('next --json and --apply: a hand-off object, nothing applied or written', () => {
      const { root, gsdDir } = writeSuccessorLayout();
      const before = snapshotTree(gsdDir);
      const r = cli(script, ['next', '--apply', '--json', '--root', root], undefined, { PATH: '/nonexistent' });
      assert.equal(r.status, 3, r.stderr);
      assert.equal(r.json.unitType, null);
      assert.equal(r.json.source, 'successor');
      assert.equal(r.json.applied, false);
      assert.deepEqual(r.json.written, []);
      assert.deepEqual(r.json.handOff, { tool: 'gsd', command: 'gsd headless next', gsdOnPath: false, root: fs.realpathSync(root) === root ? root : r.json.handOff.root });
      assert.match(r.json.message, /`gsd` is not on PATH/);
      assert.deepEqual(snapshotTree(gsdDir), before);
    });

    it('complete: GSD completes its own units (exit 3, nothing written)', () => {
      const { root, gsdDir } = writeSuccessorLayout();
      const before = snapshotTree(gsdDir);
      const r = cli(script, ['complete', '--root', root]);
      assert.equal(r.status, 3, r.stderr);
      assert.match(r.stdout, /GSD dispatches its own units and records their progress/);
      assert.deepEqual(snapshotTree(gsdDir), before);
    });

    it('a markdown project is not handed off', () => {
      const root = writeTree({
        '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'Invoicing', [{ id: 'S01', title: 'PDFs' }]),
        '.gsd/milestones/M001/slices/S01/S01-PLAN.md': slicePlan('S01', 'PDFs', [{ id: 'T01', title: 'Render' }]),
      });
      const r = cli(script, ['next', '--json', '--root', root]);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.json.unitType, 'execute-task');
      assert.equal(r.json.unitId, 'M001/S01/T01');
    });
  });

  describe('our hooks stand aside', () => {
    const projects: Array<[string, () => { root: string; gsdDir: string }]> = [
      ['the .gsd/phases layout (no gsd.db: a fresh clone)', () => writeSuccessorLayout()],
      ['gsd.db at schema 48, authority epoch 0', () => withDb(48, 0)],
      ['gsd.db at schema 51, authority epoch 3 (lifecycle rows)', () => withDb(51, 3)],
    ];
    function withDb(schema: number, epoch: number) {
      const p = writeSuccessorLayout();
      buildSuccessorDatabase(path.join(p.gsdDir, 'gsd.db'), epoch > 0 ? withLifecycles(baseSpec(schema, epoch), {}) : baseSpec(schema, epoch));
      return p;
    }

    for (const [name, make] of projects) {
      it(`${name}: no answer (the host goes on), one line on stderr, nothing written, through dist/hook.js and the CLI`, function () {
        if (name.startsWith('gsd.db') && !sqliteAvailable()) skipBecause(this, `Node ${process.versions.node} has no node:sqlite to make gsd.db`);
        const { root, gsdDir } = make();
        const before = snapshotTree(gsdDir);
        const hookJs = path.join(path.dirname(script), 'hook.js');
        for (const payload of [PRE_TOOL_USE(root), STOP(root), SESSION_START(root)]) {
          for (const entry of [[hookJs], [script, 'hook']]) {
            const r = cli(entry[0], entry.slice(1), payload);
            assert.equal(r.status, 0);
            assert.equal(r.stdout, '', `${entry.join(' ')} answered ${r.stdout}`);
            const lines = r.stderr.trim().split('\n');
            assert.equal(lines.length, 1, r.stderr);
            assert.match(lines[0], /^gsd-review hook: (PreToolUse|Stop|SessionStart): a project of GSD \(@opengsd\/gsd-pi 1\.x\): GSD runs its own reviews there/);
          }
        }
        assert.deepEqual(snapshotTree(gsdDir), before);
      });
    }

    it('the bridge itself: no output, skipped with the reason, no hook log in .gsd', async () => {
      const { root, gsdDir } = writeSuccessorLayout();
      const before = snapshotTree(gsdDir);
      const r = await runAgentHook(STOP(root), { builtins: BUILTIN_HOOKS, trusted: true });
      assert.equal(r.output, null);
      assert.match(r.skipped ?? '', /GSD runs its own reviews there/);
      assert.deepEqual(snapshotTree(gsdDir), before);
    });
  });
});
