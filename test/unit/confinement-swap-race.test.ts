// Issue 24: a folder swapped for a link between our check of a path and our open of it. A child
// process flips `tasks/` between the real folder and a link to a folder outside the project, as
// fast as it can, while this process reads and writes a task file through the store. No read may
// ever return the outside file's text and no write may ever land outside; ordinary reads and writes
// must still succeed while the folder is in place.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { appendHookLog, appendHookLogAsLeft } from '../../src/core/agent-hooks/hook-log';
import { listConfinedFolder, OutsideGsdError } from '../../src/core/files/confine';
import { runtimeDir } from '../../src/core/files/runtime-folder';
import { NodeGsdStore } from '../../src/core/files/gsd-store';
import { locateProject } from '../../src/core/state/locate-project';
import { deriveState, freshPartSource } from '../../src/core/state/derive-state';
import { ProjectFiles } from '../../src/core/state/project-files';
import { writeTree } from './helpers/gsd-tree';
import { skipBecause } from '../shared/skip-because';

const OUTSIDE_TEXT = '# T01: the outside file, never to be read or replaced\n';
const RACE_MS = 4000;

// The swapper: rename the real folder away, put a link to the outside folder in its place, then put
// the real folder back; over and over until its time is up, and always leaves the real folder back.
// (Written to a file and run by node, so it is a separate process racing this one.)
const SWAPPER = `
const fs = require('node:fs');
const [dir, saved, outside, ms] = process.argv.slice(2);
const end = Date.now() + Number(ms);
const pause = new Int32Array(new SharedArrayBuffer(4));
let flips = 0;
const restore = () => {
  try { if (fs.lstatSync(dir).isSymbolicLink()) fs.unlinkSync(dir); } catch {}
  // A folder the racing side made anew while the real one was away goes, so the real one comes back
  // (left there, every later rename fails and the race stops flipping).
  try { if (fs.existsSync(saved) && fs.lstatSync(dir).isDirectory()) fs.rmSync(dir, { recursive: true }); } catch {}
  try { if (!fs.existsSync(dir)) fs.renameSync(saved, dir); } catch {}
};
while (Date.now() < end) {
  try {
    fs.renameSync(dir, saved);
    fs.symlinkSync(outside, dir);
    fs.unlinkSync(dir);
    fs.renameSync(saved, dir);
    // Now and then the real folder stays a moment, so ordinary work has a chance too.
    if (++flips === 1) process.stdout.write('started\\n');
    if (flips % 20 === 0) Atomics.wait(pause, 0, 0, 1);
  } catch {
    restore();
  }
}
restore();
process.stdout.write('flips ' + flips + '\\n');
`;

/**
 * Runs SWAPPER on `folder` (flipping it with `away` and a link to `outside`) for RACE_MS: `started`
 * once it has flipped (or ended), `running()` until it exits, and `finish()` for its output.
 */
function startSwapper(tag: string, folder: string, away: string, outside: string) {
  const file = path.join(fs.realpathSync(os.tmpdir()), `gsd-swapper-${process.pid}-${tag}.cjs`);
  fs.writeFileSync(file, SWAPPER);
  const child = spawn(process.execPath, [file, folder, away, outside, String(RACE_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  let running = true;
  // 'close', not 'exit': the child's last output may still be in its pipe when it exits.
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  child.on('exit', () => (running = false));
  const started = new Promise<void>((resolve) => {
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      if (output.includes('started\n')) resolve();
    });
    void closed.then(() => resolve());
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), RACE_MS + 20_000);
  return {
    started,
    running: () => running,
    /** Waits for the swapper to end, removes its script, and gives what it printed. */
    async finish(): Promise<string> {
      await closed;
      clearTimeout(killer);
      fs.rmSync(file, { force: true });
      return output;
    },
  };
}

describe('confinement while a folder is swapped for a link (issue 24)', function () {
  this.timeout(60_000);

  it('never reads the outside file nor writes outside while tasks/ flips to a link and back', async function () {
    if (process.platform === 'win32') skipBecause(this, 'symlinks need privileges on Windows');
    const base = fs.realpathSync(os.tmpdir());
    const outsideDir = fs.mkdtempSync(path.join(base, 'gsd-swap-outside-'));
    fs.writeFileSync(path.join(outsideDir, 'T01-HOOKS.md'), OUTSIDE_TEXT);
    const root = writeTree({ '.gsd/PREFERENCES.md': '---\n---\n', '.gsd/tasks/T01-HOOKS.md': 'INSIDE 0\n' });
    const tasks = path.join(root, '.gsd', 'tasks');
    const file = path.join(tasks, 'T01-HOOKS.md');
    locateProject(root);
    const store = new NodeGsdStore();
    // Warm up (the runtime folder and lock exist before the race).
    assert.equal(store.writeIfUnchanged(file, 'INSIDE 1\n', 'INSIDE 0\n'), 'written');

    let output: string;
    const swapper = startSwapper('read-write', tasks, path.join(root, '.gsd', 'tasks-away'), outsideDir);
    // The race starts when the swapper has flipped once (a loaded machine starts it late), and
    // lasts as long as the swapper runs.
    await swapper.started;

    const counts = { reads: 0, readInside: 0, readOutside: 0, readRefused: 0, readMissing: 0, readOther: 0, writes: 0, written: 0, conflict: 0, writeRefused: 0 };
    const otherErrors = new Set<string>();
    let last = 'INSIDE 1\n';
    let n = 1;
    try {
      while (swapper.running()) {
        counts.reads++;
        try {
          const text = store.readText(file);
          if (text === null) counts.readMissing++;
          else if (text === OUTSIDE_TEXT) counts.readOutside++;
          else if (text.startsWith('INSIDE')) {
            counts.readInside++;
            last = text;
          } else counts.readOther++;
        } catch (error) {
          if (error instanceof OutsideGsdError) counts.readRefused++;
          else otherErrors.add(`read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
        }
        counts.writes++;
        try {
          const result = store.writeIfUnchanged(file, `INSIDE ${++n}\n`, last);
          if (result === 'written') {
            counts.written++;
            last = `INSIDE ${n}\n`;
          } else counts.conflict++;
        } catch (error) {
          counts.writeRefused++;
          if (!(error instanceof OutsideGsdError)) otherErrors.add(`write: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
        }
        // Let the child's output be taken in.
        if (counts.reads % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      output = await swapper.finish();
    }
    const flips = /flips (\d+)/.exec(output)?.[1] ?? '0';
    console.log(`      swapper flips: ${flips}; counts: ${JSON.stringify(counts)}; other errors: ${[...otherErrors].join(', ') || 'none'}`);

    assert.ok(Number(flips) > 0, 'the swapper flipped the folder');
    // What the user would be harmed by: a read of the outside file, a write landing outside (all
    // four told at once, so a failure shows each).
    assert.deepEqual(
      {
        readsOfTheOutsideFile: counts.readOutside,
        readsOfAnythingElse: counts.readOther,
        outsideFolder: fs.readdirSync(outsideDir),
        outsideFile: fs.readFileSync(path.join(outsideDir, 'T01-HOOKS.md'), 'utf8'),
      },
      { readsOfTheOutsideFile: 0, readsOfAnythingElse: 0, outsideFolder: ['T01-HOOKS.md'], outsideFile: OUTSIDE_TEXT },
    );
    // Ordinary work still gets done while the folder is in place.
    assert.ok(counts.readInside > 0, 'some reads succeeded');
    assert.ok(counts.written > 0, 'some writes succeeded');
    assert.match(fs.readFileSync(file, 'utf8'), /^INSIDE \d+\n$/);
    fs.rmSync(outsideDir, { recursive: true, force: true });
  });

  it('never lists the outside folder while slices/ flips to a link and back (a GSD-2 database project\'s listing, judged at the open)', async function () {
    if (process.platform === 'win32') skipBecause(this, 'symlinks need privileges on Windows');
    const base = fs.realpathSync(os.tmpdir());
    const outsideDir = fs.mkdtempSync(path.join(base, 'gsd-swap-outside-'));
    fs.mkdirSync(path.join(outsideDir, 'S99-OUTSIDE'));
    const root = writeTree({ '.gsd/PREFERENCES.md': '---\n---\n', '.gsd/milestones/M001/slices/S01/S01-PLAN.md': '# S01\n' });
    const slices = path.join(root, '.gsd', 'milestones', 'M001', 'slices');
    locateProject(root);
    let output: string;
    const swapper = startSwapper('list', slices, path.join(root, '.gsd', 'milestones', 'M001', 'slices-away'), outsideDir);
    await swapper.started;
    const counts = { lists: 0, inside: 0, outside: 0, refused: 0, missing: 0, other: 0 };
    try {
      while (swapper.running()) {
        counts.lists++;
        try {
          const names = listConfinedFolder(slices).entries.map((e) => e.name);
          if (names.includes('S99-OUTSIDE')) counts.outside++;
          else if (names.includes('S01')) counts.inside++;
          else counts.other++;
        } catch (error) {
          if (error instanceof OutsideGsdError) counts.refused++;
          else if ((error as NodeJS.ErrnoException).code === 'ENOENT') counts.missing++;
          else counts.other++;
        }
        if (counts.lists % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      output = await swapper.finish();
    }
    const flips = /flips (\d+)/.exec(output)?.[1] ?? '0';
    console.log(`      swapper flips: ${flips}; counts: ${JSON.stringify(counts)}`);
    assert.ok(Number(flips) > 0, 'the swapper flipped the folder');
    assert.deepEqual({ listingsOfTheOutsideFolder: counts.outside, other: counts.other }, { listingsOfTheOutsideFolder: 0, other: 0 });
    assert.ok(counts.inside > 0, 'some listings succeeded');
    fs.rmSync(outsideDir, { recursive: true, force: true });
  });

  it('never appends the hook log outside while the runtime folder flips to a link and back (issue 35, 5)', async function () {
    if (process.platform === 'win32') skipBecause(this, 'symlinks need privileges on Windows');
    const base = fs.realpathSync(os.tmpdir());
    const outsideDir = fs.mkdtempSync(path.join(base, 'gsd-swap-outside-'));
    // What a run of ours leaves in the runtime folder, so the small entry's append goes straight in.
    fs.writeFileSync(path.join(outsideDir, '.gitignore'), '*\n');
    fs.writeFileSync(path.join(outsideDir, 'hooks.jsonl'), 'OUTSIDE\n');
    const root = writeTree({ '.gsd/PREFERENCES.md': '---\n---\n' });
    const gsdDir = locateProject(root)!.gsdDir;
    const entry = { at: '2026-11-28T10:00:00Z', event: 'PreToolUse', sessionId: 'race', answer: 'none', ms: 1 };
    assert.equal(appendHookLog(gsdDir, entry), null);
    let output: string;
    const swapper = startSwapper('log', runtimeDir(gsdDir), path.join(gsdDir, 'runtime-away'), outsideDir);
    await swapper.started;
    let appended = 0;
    let refused = 0;
    try {
      for (let i = 0; swapper.running(); i++) {
        const ok = i % 2 === 0 ? appendHookLogAsLeft(gsdDir, entry) : appendHookLog(gsdDir, entry) === null;
        if (ok) appended++;
        else refused++;
        // Often enough that the swapper, on a busy machine, gets to flip between appends.
        if (i % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      output = await swapper.finish();
    }
    console.log(`      swapper: ${output.trim().split('\n').pop()}; appended ${appended}, refused ${refused}`);
    assert.ok(Number(/flips (\d+)/.exec(output)?.[1] ?? '0') > 0, 'the swapper flipped the folder');
    const outsideLog = fs.readFileSync(path.join(outsideDir, 'hooks.jsonl'), 'utf8');
    assert.deepEqual({ outside: fs.readdirSync(outsideDir).sort(), linesAppendedOutside: outsideLog.split('\n').filter((l) => l.includes('"race"')).length, firstLine: outsideLog.split('\n')[0] }, { outside: ['.gitignore', 'hooks.jsonl'], linesAppendedOutside: 0, firstLine: 'OUTSIDE' });
    assert.ok(appended > 0, 'some appends went in while the folder was in place');
    fs.rmSync(outsideDir, { recursive: true, force: true });
  });

  // A folder just read, then moved out of .gsd, replaced, or replaced by a link: each later read goes
  // by the name as it is now (a design that kept reading the folder it had opened returned the moved
  // folder's files, outside .gsd, and stale ones after a replacement).
  it('reads by the name as it is now after the folder just read is moved out, replaced, or replaced by a link', () => {
    const root = writeTree({ '.gsd/PREFERENCES.md': '---\n---\n', '.gsd/tasks/T01-PLAN.md': 'INSIDE T01\n', '.gsd/tasks/T02-PLAN.md': 'INSIDE T02\n' });
    const tasks = path.join(root, '.gsd', 'tasks');
    const away = path.join(root, 'NOT-GSD-tasks');
    locateProject(root);
    const store = new NodeGsdStore();
    const read = (name: string) => {
      try {
        return store.readText(path.join(tasks, name));
      } catch (error) {
        return error instanceof OutsideGsdError ? 'refused' : `error: ${(error as Error).message}`;
      }
    };
    assert.equal(read('T01-PLAN.md'), 'INSIDE T01\n');
    fs.renameSync(tasks, away);
    fs.writeFileSync(path.join(away, 'SECRET.md'), 'OUTSIDE\n');
    const movedOut = read('SECRET.md');
    fs.mkdirSync(tasks);
    fs.writeFileSync(path.join(tasks, 'T02-PLAN.md'), 'NEW T02\n');
    const replaced = read('T02-PLAN.md');
    fs.rmSync(tasks, { recursive: true });
    fs.symlinkSync(away, tasks);
    const linked = read('T02-PLAN.md');
    assert.deepEqual({ movedOut, replaced, linked }, { movedOut: null, replaced: 'NEW T02\n', linked: 'refused' });
  });

  // A full derive reads each folder's files as one batch, through the folder held open
  // (folder-batch.ts): the same two promises must hold for it.
  const roadmapText = '# M001: Invoicing\n\n**Vision:** Invoices.\n\n## Slices\n\n- [ ] **S01: PDFs** `risk:low` `depends:[]`\n  > After this: PDFs.\n';
  const planText = '# S01: PDFs\n\n**Goal:** PDFs.\n\n## Tasks\n\n- [ ] **T01: Render** `est:30m`\n- [ ] **T02: Attach logo** `est:30m`\n';
  const summaryText = (id: string, oneLiner: string) => `---\nid: ${id}\nparent: S01\nmilestone: M001\nverification_result: passed\ncompleted_at: 2026-11-20T10:00:00Z\nblocker_discovered: false\n---\n\n# ${id}: Task\n\n**${oneLiner}**\n\n## Known Issues\n\nNone.\n`;
  const sliceTree = (tasks: Record<string, string>) => {
    const tree: Record<string, string> = {
      '.gsd/PREFERENCES.md': '---\n---\n',
      '.gsd/milestones/M001/M001-ROADMAP.md': roadmapText,
      '.gsd/milestones/M001/slices/S01/S01-PLAN.md': planText,
    };
    for (const [name, text] of Object.entries(tasks)) tree[`.gsd/milestones/M001/slices/S01/tasks/${name}`] = text;
    return writeTree(tree);
  };
  const tasksOf = (state: ReturnType<typeof deriveState>) => state.milestones[0]?.slices[0]?.tasks.map((t) => `${t.id} ${t.status} ${t.oneLiner ?? '-'}`);

  it('never derives from the outside folder while tasks/ flips to a link and back during full derives', async function () {
    if (process.platform === 'win32') skipBecause(this, 'symlinks need privileges on Windows');
    const base = fs.realpathSync(os.tmpdir());
    const outsideDir = fs.mkdtempSync(path.join(base, 'gsd-swap-outside-'));
    fs.writeFileSync(path.join(outsideDir, 'T01-PLAN.md'), '# T01: Render\n');
    fs.writeFileSync(path.join(outsideDir, 'T01-SUMMARY.md'), summaryText('T01', 'OUTSIDE secret one-liner'));
    fs.writeFileSync(path.join(outsideDir, 'T02-SUMMARY.md'), summaryText('T02', 'OUTSIDE secret one-liner'));
    const root = sliceTree({ 'T01-PLAN.md': '# T01: Render\n', 'T01-SUMMARY.md': summaryText('T01', 'Rendered inside.') });
    const project = locateProject(root)!;
    const tasks = path.join(project.gsdDir, 'milestones', 'M001', 'slices', 'S01', 'tasks');
    let output: string;
    const swapper = startSwapper('derive', tasks, path.join(project.gsdDir, 'milestones', 'M001', 'slices', 'S01', 'tasks-away'), outsideDir);
    await swapper.started;
    const counts = { derives: 0, outside: 0, inside: 0, other: 0 };
    try {
      while (swapper.running()) {
        counts.derives++;
        const shown = JSON.stringify(deriveState(project, freshPartSource(new ProjectFiles(new NodeGsdStore()))));
        if (shown.includes('OUTSIDE')) counts.outside++;
        else if (shown.includes('Rendered inside.')) counts.inside++;
        else counts.other++;
        if (counts.derives % 20 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      output = await swapper.finish();
    }
    console.log(`      swapper: ${output.trim().split('\n').pop()}; counts: ${JSON.stringify(counts)}`);
    assert.ok(Number(/flips (\d+)/.exec(output)?.[1] ?? '0') > 0, 'the swapper flipped the folder');
    assert.equal(counts.outside, 0, 'derives that showed the outside folder\'s text');
    assert.ok(counts.inside > 0, 'some derives read the real folder');
    fs.rmSync(outsideDir, { recursive: true, force: true });
  });

  it('derives from the folder as it is now when tasks/ is moved out of .gsd and replaced in the middle of a derive', () => {
    const root = sliceTree({
      'T01-PLAN.md': '# T01: Render\n',
      'T01-SUMMARY.md': summaryText('T01', 'Moved out with its folder.'),
      'T02-SUMMARY.md': summaryText('T02', 'Moved out with its folder.'),
    });
    const project = locateProject(root)!;
    const tasks = path.join(project.gsdDir, 'milestones', 'M001', 'slices', 'S01', 'tasks');
    const away = path.join(root, 'NOT-GSD-tasks');
    // Another program moves the folder out of .gsd and makes a new one in its place just after the
    // derive has read T01's plan from it, before its summaries are read.
    let moved = false;
    class MovesTasksAway extends NodeGsdStore {
      override readText(file: string, listedRegular?: boolean): string | null {
        const text = super.readText(file, listedRegular);
        if (!moved && file === path.join(tasks, 'T01-PLAN.md')) {
          moved = true;
          fs.renameSync(tasks, away);
          fs.mkdirSync(tasks);
          fs.writeFileSync(path.join(tasks, 'T01-PLAN.md'), '# T01: Render\n');
          fs.writeFileSync(path.join(tasks, 'T01-SUMMARY.md'), summaryText('T01', 'Written in the new folder.'));
        }
        return text;
      }
    }
    const state = deriveState(project, freshPartSource(new ProjectFiles(new MovesTasksAway())));
    assert.ok(moved, 'the folder was moved during the derive');
    // What .gsd holds now: T01 done with the new folder's summary, T02 without one.
    assert.deepEqual(tasksOf(state), ['T01 done Written in the new folder.', 'T02 active -']);
  });
});
