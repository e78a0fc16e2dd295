// Next Unit on a file (a CodeLens, the editor's context) dispatches for the project holding that
// file. A project at /w/proj must not claim the files of its neighbour /w/proj-b.
import './helpers/use-vscode-stand-in';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { pickProject } from '../../src/vscode/dispatch/next-unit-command';
import type { GsdWorkspace, ProjectHandle } from '../../src/vscode/workspace/gsd-workspace';

const handle = (root: string) => ({ folder: { name: path.basename(root) }, project: { root, gsdDir: path.join(root, '.gsd') } }) as unknown as ProjectHandle;

describe('Next Unit: the project a file belongs to', () => {
  const proj = handle(path.resolve('/w/proj'));
  const projB = handle(path.resolve('/w/proj-b'));
  const nested = handle(path.resolve('/w/proj/packages/api'));
  const workspace = { list: () => [proj, projB, nested] } as unknown as GsdWorkspace;
  const file = (p: string) => ({ fsPath: path.resolve(p) }) as never;

  it('a file of /w/proj-b belongs to /w/proj-b, not to /w/proj', async () => {
    assert.equal(await pickProject(workspace, file('/w/proj-b/.gsd/milestones/M001/M001-ROADMAP.md')), projB);
    assert.equal(await pickProject(workspace, file('/w/proj/src/index.ts')), proj);
  });

  it('a file of a project nested in another belongs to the inner one', async () => {
    assert.equal(await pickProject(workspace, file('/w/proj/packages/api/.gsd/STATE.md')), nested);
  });
});
