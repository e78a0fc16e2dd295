import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { classifyGsdPath, DirIndex, milestoneIdFromDir } from '../../src/core/files/gsd-layout';
import { locateProject } from '../../src/core/state/locate-project';

const entries = (names: string[], dirs: string[] = []) => [
  ...names.map((name) => ({ name, isDirectory: false, isFile: true })),
  ...dirs.map((name) => ({ name, isDirectory: true, isFile: false })),
];

describe('GSD layout', () => {
  it('reads milestone ids from folder names: plain, suffixed, legacy descriptive', () => {
    assert.equal(milestoneIdFromDir('M001'), 'M001');
    assert.equal(milestoneIdFromDir('M001-abc123'), 'M001-abc123');
    assert.equal(milestoneIdFromDir('M001-FLIGHT-SIM'), 'M001');
    assert.equal(milestoneIdFromDir('M012-BIGTHING'), 'M012');
    assert.equal(milestoneIdFromDir('notes'), null);
    assert.equal(milestoneIdFromDir('m002'), 'M002');
  });

  it('finds files case-insensitively, then by legacy descriptive name', () => {
    const d = new DirIndex('/x', entries(['s01-plan.md', 'S01-REPLAN.md', 'T03-INSTALL-PACKAGES-PLAN.md', 'T01-SUMMARY.md']));
    assert.equal(d.file('S01', 'PLAN'), path.join('/x', 's01-plan.md'));
    assert.equal(d.file('S01', 'REPLAN'), path.join('/x', 'S01-REPLAN.md'));
    assert.equal(d.file('T03', 'PLAN'), path.join('/x', 'T03-INSTALL-PACKAGES-PLAN.md'));
    assert.equal(d.file('T02', 'SUMMARY'), null);
    // REPLAN must never be taken for PLAN.
    assert.equal(new DirIndex('/x', entries(['S01-REPLAN.md'])).file('S01', 'PLAN'), null);
  });

  it('finds unit folders exactly first, then legacy ID-DESCRIPTION folders', () => {
    const d = new DirIndex('/m', entries([], ['S01-PHYSICS', 'S02', 'S02-OLD']));
    assert.equal(d.subdir('S01'), path.join('/m', 'S01-PHYSICS'));
    assert.equal(d.subdir('S02'), path.join('/m', 'S02'));
    assert.equal(d.subdir('S03'), null);
  });

  it('classifies changed paths so the index drops only what depends on them', () => {
    assert.equal(classifyGsdPath('PREFERENCES.md').kind, 'preferences');
    assert.deepEqual(classifyGsdPath('milestones/M001/M001-ROADMAP.md'), { kind: 'roadmap', milestoneDir: 'M001' });
    assert.deepEqual(classifyGsdPath('milestones/M001/slices/S01/S01-REPLAN.md'), { kind: 'slice-replan', milestoneDir: 'M001', sliceDir: 'S01' });
    assert.deepEqual(classifyGsdPath('milestones\\M001\\slices\\S01\\tasks\\T02-CODE-REVIEW-C3.md'), { kind: 'code-review', milestoneDir: 'M001', sliceDir: 'S01', taskId: 'T02' });
    assert.equal(classifyGsdPath('milestones/M001/slices/S01/tasks/t01-summary.md').kind, 'task-summary');
    assert.equal(classifyGsdPath('runtime/log.jsonl').kind, 'other');
  });
});

describe('locating the project', () => {
  it('walks up from a nested folder to the folder with .gsd', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-loc-'));
    fs.mkdirSync(path.join(root, '.gsd'));
    fs.mkdirSync(path.join(root, 'src', 'deep'), { recursive: true });
    assert.equal(locateProject(path.join(root, 'src', 'deep'))?.root, root);
  });

  it('does not walk past the git root', () => {
    const outer = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-loc-'));
    fs.mkdirSync(path.join(outer, '.gsd'));
    const repo = path.join(outer, 'repo');
    fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
    assert.equal(locateProject(repo), null);
  });
});
