// The project engine (core/project): one per project, its state from the source its kind calls for,
// hooks loaded once, and decisions made on the state it has instead of a fresh read of the disk.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BUILTIN_HOOKS } from '../../src/builtin-hooks';
import { runtimeDir } from '../../src/core/dispatch/dispatch-record';
import { NodeGsdStore, type DirEntry } from '../../src/core/files/gsd-store';
import type { BuiltinHook } from '../../src/core/hooks/engine/hook-loader';
import { openProject, ReadOnlyProjectError } from '../../src/core/project/open-project';
import { loadNodeSqlite } from '../../src/core/sqlite/node-sqlite';
import { buildCli, cli } from './helpers/cli';
import { copySample, slicePlan, roadmap, taskSummary, writeTree } from './helpers/gsd-tree';
import { sqliteHeaderOnly, writeSuccessorLayout } from './helpers/successor-project';
import { skipBecause } from '../shared/skip-because';

/** A store that counts what it reads, to show what a preview reads (and what it no longer does). */
class CountingStore extends NodeGsdStore {
  reads: string[] = [];
  lists: string[] = [];
  override readText(file: string): string | null {
    this.reads.push(file);
    return super.readText(file);
  }
  override list(dir: string): DirEntry[] | null {
    this.lists.push(dir);
    return super.list(dir);
  }
  reset(): void {
    this.reads = [];
    this.lists = [];
  }
}

/** A built-in hook that counts how often it is registered (loaded) and decides nothing. */
function countingHook(name: string, counter: { n: number }): BuiltinHook {
  return {
    name,
    register: (api) => {
      counter.n++;
      api.registerHook(name, async (_ctx, next) => next());
    },
  };
}

/** Hook settings in GSD's PREFERENCES.md (`gsd_hooks`); the sample's own settings file, which wins over it, goes. */
function prefs(root: string, yaml: string): string {
  fs.rmSync(path.join(root, '.gsd', 'gsd-review-loop.yaml'), { force: true });
  const file = path.join(root, '.gsd', 'PREFERENCES.md');
  fs.writeFileSync(file, `---\n${yaml}---\n`);
  return file;
}

const T = (root: string, ...parts: string[]) => path.join(root, '.gsd', 'milestones', 'M002-k7q2xz', 'slices', 'S02', ...parts);

describe('openProject', () => {
  describe('hooks', () => {
    it('are loaded once for any number of previews and states', async () => {
      const root = copySample();
      prefs(root, 'version: 1\n'); // no gsd_hooks: every built-in hook runs
      const counter = { n: 0 };
      const project = openProject(root, { builtins: [countingHook('counter', counter)], reading: 'incremental' });
      for (let i = 0; i < 5; i++) {
        await project.preview();
        project.state();
      }
      assert.equal(counter.n, 1);
    });

    it('are loaded again after PREFERENCES.md changed, and not after a change that is not theirs', async () => {
      const root = copySample();
      prefs(root, 'version: 1\n');
      const counter = { n: 0 };
      const hook = countingHook('counter', counter);
      const project = openProject(root, { builtins: [hook], reading: 'incremental' });
      const out1 = await project.preview();
      assert.deepEqual(out1.hooks.loaded.map((h) => h.name), ['counter']);
      // A task summary changed: the state is read again, the hooks are not.
      const summary = T(root, 'tasks', 'T03-SUMMARY.md');
      fs.writeFileSync(summary, taskSummary('T03', 'S02', 'M002-k7q2xz', { completedAt: '2026-05-12T10:00:00Z' }));
      project.changed([summary]);
      await project.preview();
      assert.equal(counter.n, 1);
      // The user turns the hook off in PREFERENCES.md (GSD's `gsd_hooks`): loaded again, now without it.
      const file = prefs(root, 'gsd_hooks:\n  disabled:\n    - counter\n');
      project.changed([file]);
      const out2 = await project.preview();
      assert.deepEqual(out2.hooks.loaded.map((h) => h.name), []);
      // And on again.
      prefs(root, 'version: 1\n');
      project.changed([file]);
      const out3 = await project.preview();
      assert.deepEqual(out3.hooks.loaded.map((h) => h.name), ['counter']);
      assert.equal(counter.n, 2);
    });

    it('are loaded again when their files changed before the file watcher said so (a click right after an edit)', async () => {
      const root = copySample();
      prefs(root, 'version: 1\n');
      const counter = { n: 0 };
      const project = openProject(root, { builtins: [countingHook('counter', counter)], reading: 'incremental' });
      assert.deepEqual((await project.preview()).hooks.loaded.map((h) => h.name), ['counter']);
      // Nothing told the project (no changed()): the edit is found by its time and size.
      prefs(root, 'gsd_hooks:\n  disabled:\n    - counter\n');
      assert.deepEqual((await project.preview()).hooks.loaded.map((h) => h.name), []);
      // So is our settings file, appearing and going.
      prefs(root, 'version: 1\n');
      fs.writeFileSync(path.join(root, '.gsd', 'gsd-review-loop.yaml'), 'disabled:\n  - counter\n');
      assert.deepEqual((await project.preview()).hooks.loaded.map((h) => h.name), []);
      fs.rmSync(path.join(root, '.gsd', 'gsd-review-loop.yaml'));
      assert.deepEqual((await project.preview()).hooks.loaded.map((h) => h.name), ['counter']);
      const before = counter.n;
      await project.preview();
      assert.equal(counter.n, before, 'unchanged files load nothing again');
    });

    it('are loaded again after our settings file (.gsd/gsd-review-loop.yaml) changed', async () => {
      const root = copySample();
      prefs(root, 'version: 1\n');
      const settings = path.join(root, '.gsd', 'gsd-review-loop.yaml');
      const counter = { n: 0 };
      const project = openProject(root, { builtins: [countingHook('counter', counter)], reading: 'incremental' });
      assert.deepEqual((await project.preview()).hooks.loaded.map((h) => h.name), ['counter']);
      fs.writeFileSync(settings, 'disabled:\n  - counter\n');
      project.changed([settings]);
      assert.deepEqual((await project.preview()).hooks.loaded.map((h) => h.name), []);
      assert.equal(counter.n, 1);
    });

    it('a user hook in .gsd/extensions is loaded again after its file changed', async () => {
      const root = copySample();
      const dir = path.join(root, '.gsd', 'extensions', 'my-policy');
      fs.mkdirSync(dir, { recursive: true });
      const entry = path.join(dir, 'gsd-hooks.js');
      const write = (unitId: string) =>
        fs.writeFileSync(entry, `module.exports = (api) => api.registerHook('my-policy', async (ctx, next) => { ctx.decision = { unitType: 'plan-slice', unitId: '${unitId}', prompt: 'p' }; });\n`);
      write('M002-k7q2xz/S02');
      prefs(root, 'gsd_hooks:\n  enabled:\n    - name: my-policy\n      source: my-policy\n');
      const project = openProject(root, { trusted: true, reading: 'incremental' });
      assert.equal((await project.preview()).decision?.unitId, 'M002-k7q2xz/S02');
      assert.equal((await project.preview()).decision?.unitId, 'M002-k7q2xz/S02');
      write('M002-k7q2xz/S03');
      project.changed([entry]);
      assert.equal((await project.preview()).decision?.unitId, 'M002-k7q2xz/S03');
    });

    it('a read-only (successor) project loads and runs no hook', async () => {
      const { root } = writeSuccessorLayout();
      const counter = { n: 0 };
      const project = openProject(root, { builtins: [countingHook('counter', counter)] });
      const out = await project.preview();
      assert.equal(out.decision, null);
      assert.match(out.blocker ?? '', /read-only/);
      assert.equal(counter.n, 0);
    });
  });

  describe('preview on the state the engine has', () => {
    it('a second preview reads no GSD file (only our dispatch record, which other processes append)', async () => {
      const root = copySample();
      prefs(root, 'gsd_hooks:\n  enabled: []\n');
      const store = new CountingStore();
      const project = openProject(root, { store, reading: 'incremental' });
      const first = await project.preview();
      assert.equal(first.decision?.unitId, 'M002-k7q2xz/S02/T03');
      assert.ok(store.reads.length > 10, `the first preview reads the project (${store.reads.length} reads)`);
      store.reset();
      const second = await project.preview();
      assert.deepEqual(second.decision, first.decision);
      assert.deepEqual(store.lists, []);
      const runtime = runtimeDir(project.gsdDir) + path.sep;
      assert.deepEqual(store.reads.filter((f) => !f.startsWith(runtime)), []);
    });

    it('with the built-in hooks, a second preview derives nothing again: only the hooks read their own state and review files', async () => {
      const root = copySample();
      const store = new CountingStore();
      const project = openProject(root, { store, builtins: BUILTIN_HOOKS, reading: 'incremental' });
      const first = await project.preview();
      assert.equal(first.decision?.source, 'review-loop');
      const firstReads = store.reads.length;
      store.reset();
      const parsed = project.files.reads;
      const second = await project.preview();
      assert.deepEqual(second.decision, first.decision);
      assert.equal(project.files.reads, parsed, 'no markdown parsed again');
      assert.deepEqual(store.lists, []);
      const runtime = runtimeDir(project.gsdDir) + path.sep;
      const gsdReads = store.reads.filter((f) => !f.startsWith(runtime));
      // The review loop reads its block of the task's sidecar (and of the plan, for blocks not yet moved
    // out of it; compare-and-swap needs the current text) and
      // the review file it decides on; no roadmap, slice plan, summary or listing.
      assert.ok(gsdReads.every((f) => /[/\\]tasks[/\\]T\d+-(PLAN|HOOKS|CODE-REVIEW(-C\d+)?)\.md$/.test(f)), gsdReads.join('\n'));
      assert.ok(gsdReads.length < firstReads / 3, `${gsdReads.length} reads vs ${firstReads} the first time`);
    });

    it('after changed() the preview follows the disk; without it, it keeps the state it has', async () => {
      // One slice, T01 done, T02 open: GSD's default dispatch executes T02.
      const root = writeTree({
        '.gsd/PREFERENCES.md': '---\nversion: 1\n---\n',
        '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'First', [{ id: 'S01', title: 'Only slice' }]),
        '.gsd/milestones/M001/slices/S01/S01-PLAN.md': slicePlan('S01', 'Only slice', [
          { id: 'T01', title: 'One', done: true },
          { id: 'T02', title: 'Two' },
        ]),
        '.gsd/milestones/M001/slices/S01/tasks/T01-PLAN.md': '# T01: One\n',
        '.gsd/milestones/M001/slices/S01/tasks/T02-PLAN.md': '# T02: Two\n',
        '.gsd/milestones/M001/slices/S01/tasks/T01-SUMMARY.md': taskSummary('T01', 'S01', 'M001'),
      });
      const project = openProject(root, { reading: 'incremental' });
      assert.equal((await project.preview()).decision?.unitId, 'M001/S01/T02');
      const summary = path.join(root, '.gsd/milestones/M001/slices/S01/tasks/T02-SUMMARY.md');
      fs.writeFileSync(summary, taskSummary('T02', 'S01', 'M001'));
      // Not told yet: the engine's state stands (the watcher tells it, debounced).
      assert.equal((await project.preview()).decision?.unitId, 'M001/S01/T02');
      assert.equal(project.changed([summary]), true);
      const out = await project.preview();
      assert.deepEqual([out.decision?.unitType, out.decision?.unitId], ['complete-slice', 'M001/S01']);
    });

    it('dispatch records the unit the preview showed, on the same state', async () => {
      const root = copySample();
      const project = openProject(root, { builtins: BUILTIN_HOOKS, reading: 'incremental' });
      const preview = await project.preview();
      const done = await project.dispatch();
      assert.equal(done.applied, true);
      assert.deepEqual([done.decision?.unitType, done.decision?.unitId], [preview.decision?.unitType, preview.decision?.unitId]);
      assert.equal(project.currentUnit()?.unitId, preview.decision?.unitId);
    });
  });

  describe('state source by project kind', () => {
    it('a markdown project: source markdown, writable', () => {
      const project = openProject(copySample());
      const s = project.state();
      assert.deepEqual(s.source, { kind: 'markdown', projectKind: 'markdown', label: 'markdown', readOnly: false, fallback: null });
      assert.equal(s.readOnly, false);
      assert.equal(project.readOnly, false);
    });

    it('a successor layout (no gsd.db, as in a clone): read-only, and dispatching is refused without a write', async () => {
      const { root, gsdDir } = writeSuccessorLayout();
      const project = openProject(root);
      const s = project.state();
      assert.equal(s.source.kind, 'successor');
      assert.equal(s.readOnly, true);
      assert.equal(s.source.label, 'successor layout (.gsd/phases) — read-only');
      assert.match(s.source.fallback ?? '', /no gsd\.db/);
      const before = fs.readdirSync(gsdDir, { recursive: true }).map(String).sort();
      await assert.rejects(project.dispatch(), ReadOnlyProjectError);
      await assert.rejects(project.complete(), ReadOnlyProjectError);
      assert.deepEqual(fs.readdirSync(gsdDir, { recursive: true }).map(String).sort(), before);
    });

    it('gsd.db appearing in a markdown project makes the engine detect it again', () => {
      const root = copySample();
      const project = openProject(root, { loadSqlite: () => ({ unavailable: 'stand-in runtime without node:sqlite' }) });
      assert.equal(project.state().source.projectKind, 'markdown');
      const db = path.join(root, '.gsd', 'gsd.db');
      fs.writeFileSync(db, sqliteHeaderOnly(0, 0));
      project.changed([db]);
      assert.equal(project.state().source.projectKind, 'gsd2-database');
    });
  });

  describe('a GSD-2 database project where this runtime has no node:sqlite', () => {
    // Under Node 20 (`npx mocha`) the runtime itself lacks node:sqlite; elsewhere it is stood in for.
    const runtimeHasSqlite = 'sqlite' in loadNodeSqlite();
    const loadSqlite = runtimeHasSqlite ? () => ({ unavailable: `Node ${process.versions.node} has no node:sqlite (needs Node ≥ 22.5); GSD-2's database (.gsd/gsd.db) cannot be read` }) : undefined;
    const tree = () => {
      const root = copySample();
      // An unstamped SQLite file in WAL mode beside the `milestones/` tree: what GSD-2 leaves.
      fs.writeFileSync(path.join(root, '.gsd', 'gsd.db'), sqliteHeaderOnly(0, 0));
      return root;
    };

    it('falls back to the markdown, says so in one line, and marks the state as the fallback', () => {
      const root = tree();
      const s = openProject(root, loadSqlite ? { loadSqlite } : {}).state();
      assert.deepEqual([s.source.kind, s.source.projectKind, s.source.label], ['markdown', 'gsd2-database', 'markdown — fallback: this runtime has no node:sqlite']);
      const lines = s.diagnostics.filter((d) => /node:sqlite/.test(d.message));
      assert.equal(lines.length, 1);
      assert.equal(lines[0].file, path.join(fs.realpathSync(root), '.gsd', 'gsd.db'));
      assert.match(lines[0].message, /has no node:sqlite.*; the state is read from the markdown instead$/);
      // The markdown's own state, unchanged: the sample's active task.
      assert.equal(s.activeTask?.id, 'T03');
    });

    it('`gsd-review state --json` prints the same source (CLI under this Node)', async function () {
      if (runtimeHasSqlite) skipBecause(this, `the CLI child runs this Node ${process.versions.node}, which has node:sqlite: the markdown fallback is not what it prints`);
      const script = await buildCli();
      const r = cli(script, ['state', '--json', '--root', tree()]);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.json.source.label, 'markdown — fallback: this runtime has no node:sqlite');
      assert.equal(r.json.source.projectKind, 'gsd2-database');
    });
  });

  describe('`gsd-review state`', () => {
    it('--json names the source of a markdown tree', async () => {
      const script = await buildCli();
      const r = cli(script, ['state', '--json', '--root', copySample()]);
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual(r.json.source, { kind: 'markdown', projectKind: 'markdown', label: 'markdown', readOnly: false, fallback: null });
      assert.equal(r.json.readOnly, false);
    });

    it('names the source in its text output too', async () => {
      const script = await buildCli();
      const r = cli(script, ['state', '--root', writeSuccessorLayout().root]);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /^source: {4}successor layout \(\.gsd\/phases\) — read-only$/m);
    });
  });
});
