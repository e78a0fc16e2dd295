import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SHOW_VIEW_CONTAINER } from '../../../src/vscode/contributions/contribution-ids';
import { captureWorkbench, checkSeen, workbenchBridgeAvailable } from '../helpers/workbench';
import { freshSample } from '../helpers/sample';
import { SCHEMA_29 } from '../../unit/helpers/gsd2-schema';
import { sqliteHeaderOnly } from '../../unit/helpers/successor-project';
import { skipBecause } from '../../shared/skip-because';

/** The words the user must see in the real workbench's panel (where the host lets us look). */
async function seenInWorkbench(name: string, text: string): Promise<void> {
  const view = await captureWorkbench(name, [text]);
  // Where the runner drives the page, a missing view is a failure; elsewhere the test says what it did not check.
  if (workbenchBridgeAvailable()) assert.ok(view, `no view of the workbench for ${name}`);
  checkSeen(view, (v) => assert.deepEqual(v.seen, { [text]: true }, `"${text}" is not on screen (${name})`));
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
    const api = await freshSample();
    const handle = api.workspace.list()[0];
    assert.equal(api.treeView.description, 'markdown');
    assert.equal(api.treeView.message, undefined);
    const db = path.join(handle.project.gsdDir, 'gsd.db');
    // An SQLite header, unstamped (GSD-2, not the successor): detected, not readable, so on any runtime
    // the state falls back to the markdown.
    fs.writeFileSync(db, sqliteHeaderOnly(0, 0));
    try {
      // The watcher (debounced) tells the engine, which detects a GSD-2 database project.
      await until(() => /^markdown — fallback: /.test(api.treeView.description ?? ''), 'the fallback label');
      assert.equal(api.workspace.state(handle).source.projectKind, 'gsd2-database');
      assert.match(api.treeView.message ?? '', /^State from markdown — fallback: .+\. .+/);
      await vscode.commands.executeCommand(SHOW_VIEW_CONTAINER);
      await seenInWorkbench('panel-database-fallback', 'State from markdown');
    } finally {
      fs.rmSync(db, { force: true });
    }
    await until(() => api.treeView.description === 'markdown', 'markdown again');
    assert.equal(api.treeView.message, undefined);
  });

  it('a GSD-2 database: its state, named with its schema (where the extension host has node:sqlite)', async function () {
    let sqlite: { DatabaseSync: new (file: string) => { exec(sql: string): void; close(): void } };
    try {
      sqlite = require('node:sqlite');
    } catch {
      return skipBecause(this, `this host's Node ${process.versions.node} has no node:sqlite: the markdown fallback above is what such a project gets`);
    }
    const api = await freshSample();
    const handle = api.workspace.list()[0];
    const db = path.join(handle.project.gsdDir, 'gsd.db');
    // The database GSD-2 would hold for part of the sample: M002-k7q2xz active, S02 with T03 open.
    const writer = new sqlite.DatabaseSync(db);
    writer.exec('PRAGMA journal_mode=WAL');
    writer.exec(SCHEMA_29);
    writer.exec(`INSERT INTO schema_version (version, applied_at) VALUES (29, '2026-11-20T10:00:00Z');
      INSERT INTO milestones (id, title, status, sequence) VALUES ('M001', 'M001: CSV import core', 'complete', 1), ('M002-k7q2xz', 'M002-k7q2xz: Categorisation rules', 'active', 2);
      INSERT INTO slices (milestone_id, id, title, status, sequence) VALUES ('M002-k7q2xz', 'S01', 'Rule engine', 'complete', 1), ('M002-k7q2xz', 'S02', 'Rule editor commands', 'active', 2);
      INSERT INTO tasks (milestone_id, slice_id, id, title, status, sequence) VALUES ('M002-k7q2xz', 'S02', 'T01', 'Parse and validate rule patterns', 'complete', 1),
        ('M002-k7q2xz', 'S02', 'T02', 'rule add / remove commands', 'complete', 2), ('M002-k7q2xz', 'S02', 'T03', 'rule list with match counts', 'pending', 3);`);
    writer.close(); // GSD's clean close: gsd.db alone
    try {
      await until(() => api.treeView.description === 'GSD-2 database (schema 29)', 'the database label');
      assert.equal(api.treeView.message, 'State from GSD-2 database (schema 29).');
      const s = api.workspace.state(handle);
      assert.deepEqual([s.source.kind, s.activeTask?.id], ['gsd2-database', 'T03']);
      await vscode.commands.executeCommand(SHOW_VIEW_CONTAINER);
      await seenInWorkbench('panel-gsd2-database', 'State from GSD-2 database (schema 29)');
      // Reading left nothing beside GSD's database.
      assert.deepEqual(fs.readdirSync(handle.project.gsdDir).filter((n) => n.startsWith('gsd.db')), ['gsd.db']);
    } finally {
      for (const f of ['gsd.db', 'gsd.db-wal', 'gsd.db-shm']) fs.rmSync(path.join(handle.project.gsdDir, f), { force: true });
    }
    await until(() => api.treeView.description === 'markdown', 'markdown again');
  });
});
