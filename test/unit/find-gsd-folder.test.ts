// One rule for where a folder's project is, shared by the CLI, the extension (locateProject) and the
// hook fast path (dist/hook.js): the nearest `.gsd` up to the repository root, never the user's
// `~/.gsd` (GSD's folder for the user's own settings).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findGsdFolder } from '../../src/core/state/find-gsd-folder';
import { locateProject } from '../../src/core/state/locate-project';

describe('finding the .gsd of a folder', () => {
  let home: string;
  beforeEach(() => {
    home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-home-')));
    fs.mkdirSync(path.join(home, '.gsd'));
    fs.writeFileSync(path.join(home, '.gsd', 'PREFERENCES.md'), '---\nversion: 1\n---\n');
  });
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  it('a folder under the home folder without a project of its own has none: ~/.gsd is not a project', () => {
    const scratch = path.join(home, 'scratch', 'notes');
    fs.mkdirSync(scratch, { recursive: true });
    assert.equal(findGsdFolder(scratch, home), null);
  });

  it('the nearest .gsd below the home folder is found, from the project or any folder inside it', () => {
    const proj = path.join(home, 'work', 'billing');
    fs.mkdirSync(path.join(proj, '.gsd'), { recursive: true });
    fs.mkdirSync(path.join(proj, 'src', 'lib'), { recursive: true });
    assert.deepEqual(findGsdFolder(path.join(proj, 'src', 'lib'), home), { root: proj, gsdLink: path.join(proj, '.gsd') });
  });

  it('the walk stops at the repository root', () => {
    const outer = path.join(home, 'outer');
    const repo = path.join(outer, 'repo');
    fs.mkdirSync(path.join(outer, '.gsd'), { recursive: true });
    fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
    assert.equal(findGsdFolder(repo, home), null);
    // Without the repository the outer project holds the folder.
    fs.rmSync(path.join(repo, '.git'), { recursive: true });
    assert.equal(findGsdFolder(repo, home)?.root, outer);
  });

  it('locateProject follows the same rule, with the home folder of $HOME (as os.homedir() reads it)', () => {
    const proj = path.join(home, 'work', 'billing');
    fs.mkdirSync(path.join(proj, '.gsd'), { recursive: true });
    fs.mkdirSync(path.join(home, 'scratch'));
    const saved = process.env.HOME;
    process.env.HOME = home;
    try {
      assert.equal(locateProject(proj)?.root, proj);
      assert.equal(locateProject(path.join(home, 'scratch')), null);
    } finally {
      process.env.HOME = saved;
    }
  });
});
