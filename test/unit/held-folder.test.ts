// The folder held open by descriptor (src/core/files/held-folder.ts): its files open through the
// folder itself, a link in its place is never held, and the descriptor does not outlive its time.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { holdFolder, releaseFolder, stillHeld } from '../../src/core/files/held-folder';

/** What the held folder's descriptor names now (null when it is closed). */
function descriptorTarget(prefix: string): string | null {
  try {
    return fs.readlinkSync(prefix.replace(/\/$/, ''));
  } catch {
    return null;
  }
}

describe('held folder (files opened through /proc/self/fd/<folder>/<name>)', function () {
  before(function () {
    if (process.platform !== 'linux') this.skip(); // only where /proc names descriptors
  });
  afterEach(() => releaseFolder());

  function folderWith(text: string): string {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-held-')));
    fs.mkdirSync(path.join(dir, 'tasks'));
    fs.writeFileSync(path.join(dir, 'tasks', 'T01-PLAN.md'), text);
    return dir;
  }

  it('opens a file of the held folder, and keeps to that folder when a link takes its name', () => {
    const dir = folderWith('# T01: inside\n');
    const outside = folderWith('# T01: outside\n');
    const tasks = path.join(dir, 'tasks');
    const held = holdFolder(tasks, (where) => where.startsWith(dir + path.sep), 5_000);
    assert.ok(held);
    assert.equal(fs.readFileSync(held.prefix + 'T01-PLAN.md', 'utf8'), '# T01: inside\n');
    // The folder renamed away and a link to elsewhere put in its place: the held folder is still the one read.
    fs.renameSync(tasks, path.join(dir, 'tasks-away'));
    fs.symlinkSync(path.join(outside, 'tasks'), tasks);
    assert.equal(fs.readFileSync(path.join(tasks, 'T01-PLAN.md'), 'utf8'), '# T01: outside\n');
    assert.equal(fs.readFileSync(held.prefix + 'T01-PLAN.md', 'utf8'), '# T01: inside\n');
  });

  it('holds no folder whose name is a link, nor one the caller does not find inside', () => {
    const dir = folderWith('x\n');
    const outside = folderWith('y\n');
    fs.symlinkSync(path.join(outside, 'tasks'), path.join(dir, 'linked'));
    assert.equal(holdFolder(path.join(dir, 'linked'), () => true, 5_000), null);
    assert.equal(holdFolder(path.join(dir, 'tasks'), () => false, 5_000), null);
  });

  it('lets the descriptor go when its time is up, and a released folder is no longer held', async () => {
    const dir = folderWith('x\n');
    const held = holdFolder(path.join(dir, 'tasks'), () => true, 50);
    assert.ok(held);
    assert.equal(descriptorTarget(held.prefix), path.join(dir, 'tasks'));
    assert.equal(stillHeld(held), true);
    await new Promise((resolve) => setTimeout(resolve, 120));
    assert.equal(stillHeld(held), false);
    assert.notEqual(descriptorTarget(held.prefix), path.join(dir, 'tasks'));
  });

  it('holds one folder at a time: holding another lets the first go', () => {
    const a = folderWith('a\n');
    const b = folderWith('b\n');
    const first = holdFolder(path.join(a, 'tasks'), () => true, 5_000)!;
    const firstTarget = descriptorTarget(first.prefix);
    const second = holdFolder(path.join(b, 'tasks'), () => true, 5_000)!;
    assert.equal(firstTarget, path.join(a, 'tasks'));
    assert.equal(stillHeld(first), false);
    assert.equal(stillHeld(second), true);
    // The first descriptor was closed (its number may since name the second folder, nothing of a's).
    assert.notEqual(first.prefix === second.prefix ? null : descriptorTarget(first.prefix), path.join(a, 'tasks'));
    assert.equal(descriptorTarget(second.prefix), path.join(b, 'tasks'));
  });
});
