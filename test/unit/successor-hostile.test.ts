// The successor reader in a hostile repository. It read PREFERENCES.md (and phase files and hook
// artifacts, by stat then readFileSync) with plain fs calls: a link out of `.gsd` was read (its
// hooks became the project's review hooks), a FIFO blocked the reader forever, and a link to
// /dev/zero (size 0 to stat) was read until memory ran out. Reads now go through confine.ts and
// bounded-read.ts like the rest. (Phase files are found by listing regular files, so a link there is
// not picked up at all.)
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readSuccessorProject } from '../../src/core/successor';
import { writeSuccessorLayout } from './helpers/successor-project';

describe('successor reader in a hostile repository', function () {
  this.timeout(60_000);

  it('PREFERENCES.md linked out of .gsd is not read', () => {
    const { root, gsdDir } = writeSuccessorLayout();
    const victim = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-victim-'));
    fs.writeFileSync(path.join(victim, 'prefs.md'), fs.readFileSync(path.join(root, '.gsd/PREFERENCES.md'), 'utf8').replace(/code-review/g, 'OUTSIDE-HOOK'));
    fs.rmSync(path.join(root, '.gsd/PREFERENCES.md'));
    fs.symlinkSync(path.join(victim, 'prefs.md'), path.join(root, '.gsd/PREFERENCES.md'));
    const state = readSuccessorProject(gsdDir, { sqlite: 'off' });
    assert.doesNotMatch(JSON.stringify(state.reviewHooks), /OUTSIDE-HOOK/);
    assert.ok(state.diagnostics.some((d) => /PREFERENCES\.md.*leads outside \.gsd/.test(`${d.file} ${d.message}`)), JSON.stringify(state.diagnostics));
  });

  it('a FIFO as PREFERENCES.md and preferences.md linked to /dev/zero end in diagnostics, not a hang or a heap full', () => {
    const { root, gsdDir } = writeSuccessorLayout();
    fs.rmSync(path.join(root, '.gsd/PREFERENCES.md'));
    spawnSync('mkfifo', [path.join(root, '.gsd/PREFERENCES.md')]);
    fs.symlinkSync('/dev/zero', path.join(root, '.gsd/preferences.md'));
    // In a child process with a memory cap and a time limit: in this process a hang could not be stopped.
    const script = `const { readSuccessorProject } = require(${JSON.stringify(path.join(__dirname, '../../src/core/successor'))});
      const s = readSuccessorProject(${JSON.stringify(gsdDir)}, { sqlite: 'off' });
      process.stdout.write(JSON.stringify(s.diagnostics.map((d) => d.file + ': ' + d.message)));`;
    const r = spawnSync(process.execPath, ['--max-old-space-size=256', '--require', 'tsx/cjs', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.error, undefined, 'the reader hung');
    assert.equal(r.status, 0, r.stderr.slice(0, 500));
    const diagnostics = JSON.parse(r.stdout) as string[];
    assert.ok(diagnostics.some((d) => /PREFERENCES\.md.*FIFO/.test(d)), r.stdout);
    assert.ok(diagnostics.some((d) => /preferences\.md.*leads outside/.test(d)), r.stdout);
  });
});
