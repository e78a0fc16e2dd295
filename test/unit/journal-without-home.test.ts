// Issue 24 #3: with no usable secret in the home folder, an interrupted commit's journal was written
// unsigned, and the next command (even `state`) deleted it without applying it and without a word:
// the task's T02-HOOKS.md had advanced, the dispatch record never did. Now the key lives in this
// user's own folder in the temp folder when the home folder cannot hold it; a commit that could not
// be signed at all is refused before anything is written; and a journal that does not check out is
// set aside and said, never deleted.
//
// The crash after the commit point is made by failing the rename of the last file into place (the
// journal is in place, the first file replaced): what a kill at that moment leaves.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { appendDispatch } from '../../src/core/dispatch/dispatch-record';
import { journalFile } from '../../src/core/files/commit-journal';
import { NodeGsdStore } from '../../src/core/files/gsd-store';
import { HookStateTransaction } from '../../src/core/hooks/engine/hook-state';
import { ProjectFiles } from '../../src/core/state/project-files';
import { buildCli, cli } from './helpers/cli';
import { roadmap, slicePlan, writeTree } from './helpers/gsd-tree';
import { skipBecause } from '../shared/skip-because';

const M = '.gsd/milestones/M001';
const TASKS = `${M}/slices/S01/tasks`;
const SIDECAR = `${TASKS}/T02-HOOKS.md`;
const RECORD = '.gsd/gsd-review-loop/dispatch.json';

function project(): string {
  return writeTree({
    [`${M}/M001-ROADMAP.md`]: roadmap('M001', 'Invoicing', [{ id: 'S01', title: 'Invoice PDFs' }]),
    [`${M}/slices/S01/S01-PLAN.md`]: slicePlan('S01', 'Invoice PDFs', [{ id: 'T01', title: 'Render invoice' }, { id: 'T02', title: 'Attach logo' }]),
    [`${TASKS}/T01-PLAN.md`]: '# T01: Render invoice\n',
    [`${TASKS}/T02-PLAN.md`]: '# T02: Attach logo\n',
  });
}

/** A home folder that cannot hold anything: its path runs through a regular file. */
function unusableHome(): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-nohome-')), 'not-a-folder');
  fs.writeFileSync(file, '');
  return path.join(file, 'home');
}

/** Runs `fn` with HOME and TMPDIR as given (what every process of the user sees), then restores them. */
function withEnv<T>(env: { HOME: string; TMPDIR: string }, fn: () => T): T {
  const saved = { HOME: process.env.HOME, TMPDIR: process.env.TMPDIR };
  Object.assign(process.env, env);
  try {
    return fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** One dispatch's commit: T02's hook state and the dispatch record. */
function dispatchCommit(root: string): void {
  const gsdDir = fs.realpathSync(path.join(root, '.gsd'));
  const store = new NodeGsdStore();
  const tx = new HookStateTransaction(new ProjectFiles(store), gsdDir, store);
  tx.handleFor('review-loop').set('M001/S01/T02', { cycle: 1, status: 'reviewing' });
  tx.commit([appendDispatch(gsdDir, { unitType: 'execute-task', unitId: 'M001/S01/T02', prompt: 'Attach the logo.', source: 'user', reason: 'crash test', dispatchedAt: '2026-11-25T10:00:00.000Z', fingerprint: 'f1' })]);
}

/** The same, killed after its commit point: the rename of the dispatch record into place never happens. */
function interruptedDispatchCommit(root: string): void {
  // The module object itself (an `import * as` namespace only reads through to it).
  const nodeFs = require('node:fs') as typeof fs;
  const rename = nodeFs.renameSync;
  nodeFs.renameSync = ((from: fs.PathLike, to: fs.PathLike) => {
    if (path.basename(String(to)) === 'dispatch.json') throw Object.assign(new Error('killed'), { code: 'EIO' });
    rename(from, to);
  }) as typeof fs.renameSync;
  try {
    dispatchCommit(root);
  } finally {
    nodeFs.renameSync = rename;
  }
}

describe('commit journals without a usable home folder', function () {
  this.timeout(60_000);
  let script: string;

  before(async () => {
    script = await buildCli();
  });

  it('an interrupted commit is finished by the next `state`, which says so', () => {
    const root = project();
    const env = { HOME: unusableHome(), TMPDIR: fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-tmp-')) };
    withEnv(env, () => interruptedDispatchCommit(root));
    // The crash left the sidecar advanced and the record behind, with the journal to finish it.
    assert.match(fs.readFileSync(path.join(root, SIDECAR), 'utf8'), /status: reviewing/);
    assert.ok(!fs.existsSync(path.join(root, RECORD)));
    assert.ok(fs.existsSync(journalFile(path.join(root, '.gsd'))));

    const state = cli(script, ['state', '--root', root], undefined, env);
    assert.equal(state.status, 0, state.stderr);
    const record = JSON.parse(fs.readFileSync(path.join(root, RECORD), 'utf8')) as { current: { unitId: string; reason: string } };
    assert.deepEqual([record.current.unitId, record.current.reason], ['M001/S01/T02', 'crash test']);
    assert.ok(!fs.existsSync(journalFile(path.join(root, '.gsd'))), 'the journal was finished and removed');
    assert.match(state.stdout, /warning: .*commit-journal\.json: finished an interrupted commit/);
  });

  it('with no place at all for the key, a commit of several files is refused and nothing is written', () => {
    const root = project();
    const env = { HOME: unusableHome(), TMPDIR: unusableHome() };
    const before = fs.readdirSync(path.join(root, TASKS)).sort();
    assert.throws(() => withEnv(env, () => dispatchCommit(root)), /no key to sign the commit journal with.*nothing was written/);
    assert.deepEqual(fs.readdirSync(path.join(root, TASKS)).sort(), before);
    assert.ok(!fs.existsSync(path.join(root, RECORD)));
  });

  it("a key folder in the temp folder that is not this user's alone is not used", function () {
    if (typeof process.getuid !== 'function') skipBecause(this, 'no user ids on this platform');
    const root = project();
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-tmp-'));
    // Made before us by someone else, open to all: a key there could be read or planted by them.
    const planted = path.join(tmp, `gsd-review-loop-${process.getuid!()}`);
    fs.mkdirSync(planted, { mode: 0o777 });
    fs.chmodSync(planted, 0o777);
    fs.writeFileSync(path.join(planted, 'answer-cache.key'), `${'ab'.repeat(16)}\n`);
    assert.throws(() => withEnv({ HOME: unusableHome(), TMPDIR: tmp }, () => dispatchCommit(root)), /no key to sign the commit journal with/);
    assert.ok(!fs.existsSync(path.join(root, RECORD)));
  });

  it('a journal that does not check out is set aside and said, never silently deleted', () => {
    const root = project();
    const env = { HOME: unusableHome(), TMPDIR: fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-tmp-')) };
    withEnv(env, () => interruptedDispatchCommit(root));
    const journal = fs.readFileSync(journalFile(path.join(root, '.gsd')), 'utf8');
    // The next command runs with another temp folder: it has not the key the journal was signed with.
    const state = cli(script, ['state', '--root', root], undefined, { HOME: env.HOME, TMPDIR: fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-tmp-')) });
    assert.equal(state.status, 0, state.stderr);
    assert.match(state.stdout, /warning: .*commit-journal\.json is not signed with a key of this user.*not applied, kept as commit-journal\.set-aside-/);
    const runtime = path.join(root, '.gsd', 'gsd-review-loop');
    const aside = fs.readdirSync(runtime).filter((n) => n.startsWith('commit-journal.set-aside-'));
    assert.equal(aside.length, 1);
    assert.equal(fs.readFileSync(path.join(runtime, aside[0]), 'utf8'), journal, 'the journal is kept as it was');
    assert.ok(!fs.existsSync(path.join(root, RECORD)), 'nothing of it was applied');
  });
});
