// What is at a path, as the project locator and the kind detection ask it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { entryAt, isFileAt, isFolderAt } from '../../src/core/files/path-kind';

describe('path kinds', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-path-kind-'));
  const file = path.join(dir, 'gsd.db');
  const folder = path.join(dir, 'phases');
  const dangling = path.join(dir, '.git');
  fs.writeFileSync(file, '');
  fs.mkdirSync(folder);
  fs.symlinkSync(path.join(dir, 'gone'), dangling);

  it('tells a folder, a file, a dangling link, nothing, and a path through a file apart', () => {
    const through = path.join(file, 'x');
    const rows = [folder, file, dangling, path.join(dir, 'none'), through].map((p) => [isFolderAt(p), isFileAt(p), entryAt(p)]);
    assert.deepEqual(rows, [
      [true, false, true],
      [false, true, true],
      // A dangling link is an entry (a `.git` link still marks a repository root) but resolves to nothing.
      [false, false, true],
      [false, false, false],
      // ENOTDIR, not ENOENT: still false, not thrown.
      [false, false, false],
    ]);
  });
});
