// Which task a file is (for CodeLens and its commands), from GSD's layout: task summaries and reviews
// under .gsd/milestones/<M>/slices/<S>/tasks/, through the real folder or the `.gsd` link to it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { locateProject } from '../../src/core/state/locate-project';
import { unitOfFile } from '../../src/vscode/codelens/unit-of-file';
import { copySample } from './helpers/gsd-tree';

describe('unit of a file', () => {
  const M2 = 'M002-k7q2xz';

  it('names the task of a summary or review of a project, and nothing for other files', () => {
    const root = copySample();
    const project = locateProject(root)!;
    const projects = [{ project, name: 'sample' }];
    const tasks = path.join(project.gsdDir, 'milestones', M2, 'slices', 'S02', 'tasks');
    const summary = unitOfFile(projects, path.join(tasks, 'T02-SUMMARY.md'));
    assert.deepEqual(summary && { ...summary, handle: summary.handle.name }, { handle: 'sample', kind: 'task-summary', milestoneId: M2, sliceId: 'S02', taskId: 'T02' });
    assert.equal(unitOfFile(projects, path.join(tasks, 'T01-CODE-REVIEW-C2.md'))?.kind, 'code-review');
    assert.equal(unitOfFile(projects, path.join(tasks, 'T03-PLAN.md')), null, 'a task plan');
    assert.equal(unitOfFile(projects, path.join(project.gsdDir, 'milestones', M2, `${M2}-ROADMAP.md`)), null, 'a roadmap');
    assert.equal(unitOfFile(projects, path.join(root, 'src', 'rules.ts')), null, 'outside .gsd');
    assert.equal(unitOfFile([], path.join(tasks, 'T02-SUMMARY.md')), null, 'no project open');
  });

  it('follows a .gsd that is a link to the real folder elsewhere', () => {
    const real = copySample();
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-linked-'));
    fs.symlinkSync(path.join(real, '.gsd'), path.join(root, '.gsd'));
    const project = locateProject(root)!;
    assert.notEqual(project.gsdDir, project.gsdLink);
    const viaLink = path.join(root, '.gsd', 'milestones', 'M001', 'slices', 'S01', 'tasks', 'T01-SUMMARY.md');
    const viaReal = path.join(project.gsdDir, 'milestones', 'M001', 'slices', 'S01', 'tasks', 'T01-SUMMARY.md');
    for (const file of [viaLink, viaReal]) assert.deepEqual(unitOfFile([{ project }], file)?.taskId, 'T01', file);
  });
});
