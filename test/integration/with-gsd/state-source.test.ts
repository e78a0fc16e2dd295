import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activateExtension } from '../helpers/extension';
import { captureWorkbench } from '../helpers/workbench';

/**
 * The first 100 bytes of an SQLite file in WAL mode as the documented format lays them out
 * (https://www.sqlite.org/fileformat.html), unstamped (GSD-2, not the successor): enough for
 * detection, not a readable database, so on any runtime the state falls back to the markdown.
 */
function sqliteHeaderOnly(): Buffer {
  const b = Buffer.alloc(4096);
  b.write('SQLite format 3\0', 0, 'latin1');
  b.writeUInt16BE(4096, 16);
  b[18] = 2;
  b[19] = 2;
  b[21] = 64;
  b[22] = 32;
  b[23] = 32;
  b.writeUInt32BE(1, 28);
  b.writeUInt32BE(3051000, 96);
  return b;
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('the panel names where the state comes from', () => {
  it('markdown; a gsd.db that cannot be read is said as the fallback, and gone again is markdown again', async function () {
    const api = await activateExtension();
    const handle = api.workspace.list()[0];
    assert.equal(api.treeView.description, 'markdown');
    assert.equal(api.treeView.message, undefined);
    const db = path.join(handle.project.gsdDir, 'gsd.db');
    fs.writeFileSync(db, sqliteHeaderOnly());
    try {
      // The watcher (debounced) tells the engine, which detects a GSD-2 database project.
      await until(() => /^markdown — fallback: /.test(api.treeView.description ?? ''), 'the fallback label');
      assert.equal(api.workspace.state(handle).source.projectKind, 'gsd2-database');
      assert.match(api.treeView.message ?? '', /^State from markdown — fallback: .+\. .+/);
      await vscode.commands.executeCommand('workbench.view.extension.gsd');
      await captureWorkbench('panel-database-fallback', ['State from markdown']);
    } finally {
      fs.rmSync(db, { force: true });
    }
    await until(() => api.treeView.description === 'markdown', 'markdown again');
    assert.equal(api.treeView.message, undefined);
  });
});
