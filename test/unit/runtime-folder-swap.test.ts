// Issue 35, 5: the runtime folder (`.gsd/gsd-review-loop/`) swapped for a link to a folder outside
// the project between our check of it and our write into it. The hook log's append and the
// `.gitignore` we put there must refuse and write nothing outside, as reads and atomic writes do
// (issue 24). The moment is made two ways: the runtime folder's real path is kept for a moment
// after a check (confine.ts DIR_CACHE_MS), so a swap right after one append meets the next; and a
// racing process that swaps at the very moment our code looks at `.gitignore`.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { appendHookLog, appendHookLogAsLeft, hookLogFile, type HookLogEntry } from '../../src/core/agent-hooks/hook-log';
import { ensureRuntimeDir, runtimeDir } from '../../src/core/files/runtime-folder';
import { locateProject } from '../../src/core/state/locate-project';
import { writeTree } from './helpers/gsd-tree';

/** The module object itself (an ES namespace of it cannot be patched): the code under test reads its functions from it when called. */
const nodeFs = createRequire(__filename)('node:fs') as { lstatSync: typeof fs.lstatSync };

const entry = (sessionId: string): HookLogEntry => ({ at: '2026-11-28T10:00:00Z', event: 'PreToolUse', sessionId, answer: 'none', ms: 1 });

function listing(dir: string): Record<string, string> {
  return Object.fromEntries(fs.readdirSync(dir).sort().map((name) => [name, fs.readFileSync(path.join(dir, name), 'utf8')]));
}

/** A project whose runtime folder exists (with its `.gitignore` and one logged event), and a folder outside it. */
function setup(): { gsdDir: string; runtime: string; outside: string; away: string } {
  const root = writeTree({ '.gsd/PREFERENCES.md': '---\n---\n' });
  const gsdDir = locateProject(root)!.gsdDir;
  assert.equal(appendHookLog(gsdDir, entry('first')), null);
  const outside = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'gsd-outside-'));
  return { gsdDir, runtime: runtimeDir(gsdDir), outside, away: path.join(root, 'runtime-away') };
}

/** The runtime folder moved away and a link to `outside` put in its place. */
function swap(s: { runtime: string; outside: string; away: string }): void {
  fs.renameSync(s.runtime, s.away);
  fs.symlinkSync(s.outside, s.runtime);
}

describe('the runtime folder swapped for a link while we write into it (issue 35, 5)', () => {
  for (const [name, append] of [
    ['appendHookLog (the bridge)', (gsdDir: string) => appendHookLog(gsdDir, entry('second'))],
    ['appendHookLogAsLeft (the small hook entry)', (gsdDir: string) => appendHookLogAsLeft(gsdDir, entry('second'))],
  ] as const) {
    for (const outsideLog of [false, true]) {
      it(`${name}: nothing is appended or created outside${outsideLog ? ' (a log there already)' : ''}, and it says so`, () => {
        const s = setup();
        // Outside, what our last run left: a .gitignore, and maybe a log of the attacker's.
        fs.writeFileSync(path.join(s.outside, '.gitignore'), '*\n');
        if (outsideLog) fs.writeFileSync(path.join(s.outside, 'hooks.jsonl'), 'not yours\n');
        const before = listing(s.outside);
        swap(s);
        const said = append(s.gsdDir);
        assert.deepEqual(listing(s.outside), before);
        // The bridge says why nothing was logged; the small entry hands the event to the bridge.
        if (typeof said === 'string') assert.match(said, /hook event not logged/);
        else assert.equal(said, false, 'the append reported success');
      });
    }
  }

  it('ensureRuntimeDir: a folder swapped as it looks at .gitignore gets no .gitignore outside', () => {
    const s = setup();
    fs.rmSync(path.join(s.runtime, '.gitignore'));
    const before = listing(s.outside);
    // The racing process, at the moment ensureRuntimeDir has judged the folder and looks for its .gitignore.
    const lstat = nodeFs.lstatSync;
    let swapped = false;
    nodeFs.lstatSync = ((p: fs.PathLike, o?: fs.StatSyncOptions) => {
      if (!swapped && String(p).endsWith(path.join('gsd-review-loop', '.gitignore'))) {
        swapped = true;
        swap(s);
      }
      return lstat(p, o as fs.StatSyncOptions);
    }) as typeof fs.lstatSync;
    try {
      ensureRuntimeDir(s.gsdDir);
    } finally {
      nodeFs.lstatSync = lstat;
    }
    assert.ok(swapped, 'the swap happened');
    assert.deepEqual(listing(s.outside), before);
  });

  it('with the folder in place again, the log and the .gitignore are written as before', () => {
    const s = setup();
    fs.rmSync(path.join(s.runtime, '.gitignore'));
    ensureRuntimeDir(s.gsdDir);
    assert.match(fs.readFileSync(path.join(s.runtime, '.gitignore'), 'utf8'), /^\*$/m);
    assert.equal(appendHookLogAsLeft(s.gsdDir, entry('second')), true);
    fs.rmSync(hookLogFile(s.gsdDir));
    assert.equal(appendHookLog(s.gsdDir, entry('third')), null);
    assert.deepEqual(fs.readFileSync(hookLogFile(s.gsdDir), 'utf8').trim().split('\n').map((l) => JSON.parse(l).sessionId), ['third']);
  });
});
