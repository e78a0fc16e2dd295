// A repository's gsd.db whose schema_version is a recursive view that never ends. node:sqlite runs
// a query synchronously on the extension host's only thread: before the fix the first derive after
// the file appeared spun there for ever, and the whole window froze (no command, no panel, and this
// suite never finished). Now the view is refused before it is read: the panel says why, the state
// comes from the markdown, and the window answers commands. Where the host's Node has no
// node:sqlite (VS Code 1.100's Node 20), such a database is never opened at all: skipped.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS, SHOW_VIEW_CONTAINER } from '../../../src/vscode/contributions/contribution-ids';
import { activateExtension } from '../helpers/extension';
import { captureWorkbench, checkSeen } from '../helpers/workbench';
import { SCHEMA_29 } from '../../unit/helpers/gsd2-schema';
import { skipBecause } from '../../shared/skip-because';

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('a gsd.db with an endless view in place of schema_version', () => {
  it('the window stays responsive: the panel says why the database is not read, commands run', async function () {
    let sqlite: { DatabaseSync: new (file: string) => { exec(sql: string): void; close(): void } };
    try {
      sqlite = require('node:sqlite');
    } catch {
      return skipBecause(this, `this host's Node ${process.versions.node} has no node:sqlite to write the hostile gsd.db`);
    }
    const api = await activateExtension();
    const handle = api.workspace.list()[0];
    const db = path.join(handle.project.gsdDir, 'gsd.db');
    const writer = new sqlite.DatabaseSync(db);
    writer.exec(SCHEMA_29);
    writer.exec(`INSERT INTO milestones (id, title, status, sequence) VALUES ('M001', 'M001: CSV import core', 'active', 1);
      DROP TABLE schema_version;
      CREATE VIEW schema_version AS WITH RECURSIVE r(version) AS (SELECT 1 UNION ALL SELECT version + 1 FROM r) SELECT version, '' AS applied_at FROM r;`);
    writer.close();
    try {
      await until(() => /^markdown — fallback: gsd\.db holds a view/.test(api.treeView.description ?? ''), 'the fallback label');
      assert.match(api.treeView.message ?? '', /schema_version is a view, not a table/);
      // The extension host still runs our commands and the workbench's.
      await vscode.commands.executeCommand(COMMANDS.refresh);
      await vscode.commands.executeCommand(SHOW_VIEW_CONTAINER);
      await until(() => /^markdown — fallback: gsd\.db holds a view/.test(api.treeView.description ?? ''), 'the fallback label after a refresh');
      // The markdown stands in: the sample's milestones are in the panel.
      assert.ok(api.workspace.state(handle).milestones.length > 1);
      const view = await captureWorkbench('hostile-database-endless-view', ['schema_version is a view']);
      checkSeen(view, (v) => assert.equal(v.seen['schema_version is a view'], true, 'the workbench does not show why'));
    } finally {
      for (const f of ['gsd.db', 'gsd.db-wal', 'gsd.db-shm']) fs.rmSync(path.join(handle.project.gsdDir, f), { force: true });
    }
    await until(() => api.treeView.description === 'markdown', 'markdown again');
  });
});
