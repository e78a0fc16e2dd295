// Issue 24 #8: when the first write of our runtime folder's `.gitignore` failed midway (a full disk),
// an empty file stayed for good (it existed, so it was never written again), and git offered every
// runtime record for commit. Now the file is put in place whole or not at all, and one an earlier
// failure left empty or cut short is replaced by the next write of ours.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { dispatchUnit } from './helpers/one-shot-dispatch';
import { roadmap, slicePlan, writeTree } from './helpers/gsd-tree';
import { git, untracked } from './helpers/git';
import { skipBecause } from '../shared/skip-because';

const RUNTIME = '.gsd/gsd-review-loop';

function project(extra: Record<string, string> = {}): string {
  const root = writeTree({
    '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'Invoicing', [{ id: 'S01', title: 'Invoice PDFs' }]),
    '.gsd/milestones/M001/slices/S01/S01-PLAN.md': slicePlan('S01', 'Invoice PDFs', [{ id: 'T01', title: 'Render invoice' }]),
    '.gsd/milestones/M001/slices/S01/tasks/T01-PLAN.md': '# T01: Render invoice\n',
    ...extra,
  });
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'project');
  return root;
}

const dispatch = (root: string) => dispatchUnit({ root }, { unitType: 'execute-task', unitId: 'M001/S01/T01', prompt: 'Render the invoice.', source: 'user' });

/** Runs `fn` with every write of `.gitignore` text failing as a full disk fails it: the file made, nothing in it. */
async function withFullDisk<T>(fn: () => Promise<T>): Promise<T> {
  const nodeFs = require('node:fs') as typeof fs;
  const write = nodeFs.writeFileSync;
  const full = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  nodeFs.writeFileSync = ((file: fs.PathOrFileDescriptor, data: string | NodeJS.ArrayBufferView, options?: fs.WriteFileOptions) => {
    if (!String(data).includes('GSD Review Loop')) return write(file, data, options);
    // By name: the open (O_CREAT) happens, the write does not.
    if (typeof file !== 'number') fs.closeSync(fs.openSync(file, (options as { flag?: string } | undefined)?.flag ?? 'w'));
    throw full();
  }) as typeof fs.writeFileSync;
  try {
    return await fn();
  } finally {
    nodeFs.writeFileSync = write;
  }
}

describe("our runtime folder's .gitignore after a failed write", function () {
  this.timeout(60_000);
  before(function () {
    if (spawnSync('git', ['--version']).status !== 0) skipBecause(this, 'git is not on PATH');
  });

  it('a full disk at its first write: the next write puts it in place, and git offers none of our records', async () => {
    const root = project();
    await withFullDisk(() => dispatch(root).catch(() => undefined));
    const ignore = path.join(root, RUNTIME, '.gitignore');
    assert.ok(!fs.existsSync(ignore) || fs.readFileSync(ignore, 'utf8') !== '', 'the failed write left an empty .gitignore');
    await dispatch(root);
    assert.ok(fs.existsSync(path.join(root, RUNTIME, 'dispatch.json')));
    assert.deepEqual(untracked(root), []);
  });

  for (const [name, text] of [
    ['empty', ''],
    ['cut short', '# Written by GSD Review Loop: runtime files of this'],
  ] as const) {
    it(`one an older version left ${name} is replaced by our next write`, async () => {
      const root = project();
      fs.mkdirSync(path.join(root, RUNTIME), { recursive: true });
      fs.writeFileSync(path.join(root, RUNTIME, '.gitignore'), text);
      await dispatch(root);
      assert.deepEqual(untracked(root), []);
    });
  }

  it('one the user changed is left as they wrote it', async () => {
    const root = project();
    fs.mkdirSync(path.join(root, RUNTIME), { recursive: true });
    fs.writeFileSync(path.join(root, RUNTIME, '.gitignore'), '*\n!dispatch.json\n');
    await dispatch(root);
    assert.equal(fs.readFileSync(path.join(root, RUNTIME, '.gitignore'), 'utf8'), '*\n!dispatch.json\n');
    assert.deepEqual(untracked(root), [`${RUNTIME}/dispatch.json`]);
  });
});
