// Each test file of a suite starts from its own fresh copy of the sample: the window has one folder
// for the whole run (changing it would restart the extension host), so the folder is put back to
// the copy taken when the run began, file by file, and the extension re-reads it. No file depends on
// what another left behind, whatever the order.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GsdExtensionApi } from '../../../src/extension';
import { activateExtension } from './extension';

/** Shared by every bundled test file of this host through the environment. */
const PRISTINE = 'GSD_TEST_PRISTINE_SAMPLE';

function files(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const rel of fs.readdirSync(dir, { recursive: true }).map(String)) {
    const file = path.join(dir, rel);
    if (fs.lstatSync(file).isFile()) out.set(rel, fs.readFileSync(file));
  }
  return out;
}

/** Called by the suite's entry point before any test: the folder as the window opened it. */
export function rememberSample(): void {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!root || vscode.workspace.workspaceFolders!.length !== 1) return;
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-pristine-sample-'));
  fs.cpSync(root, copy, { recursive: true });
  process.env[PRISTINE] = copy;
}

/** Writes a marker file under `.gsd` and resolves when VS Code's file watcher reports it (then removes it). */
async function markerSeen(root: string): Promise<void> {
  const name = `sync-${process.pid}-${Date.now()}.tmp`;
  const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(path.join(root, '.gsd')), name));
  try {
    const seen = new Promise<void>((resolve) => watcher.onDidCreate(() => resolve()));
    fs.writeFileSync(path.join(root, '.gsd', name), '');
    const timedOut = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 10_000));
    assert.notEqual(await Promise.race([seen, timedOut]), 'timeout', 'the file watcher never reported the marker');
  } finally {
    watcher.dispose();
    fs.rmSync(path.join(root, '.gsd', name), { force: true });
  }
}

/** Puts the workspace folder back to the copy taken at the start and has the extension re-read it. */
export async function freshSample(): Promise<GsdExtensionApi> {
  const pristine = process.env[PRISTINE];
  assert.ok(pristine, 'the suite did not keep a copy of the sample (rememberSample)');
  const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const want = files(pristine);
  const have = files(root);
  for (const rel of have.keys()) if (!want.has(rel)) fs.rmSync(path.join(root, rel));
  for (const [rel, bytes] of want) {
    const old = have.get(rel);
    if (old && old.equals(bytes)) continue;
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), bytes);
  }
  // Folders the earlier file made, deepest first.
  const dirs = fs.readdirSync(root, { recursive: true }).map(String).filter((rel) => fs.lstatSync(path.join(root, rel)).isDirectory());
  for (const rel of dirs.sort((a, b) => b.length - a.length)) {
    if (!fs.existsSync(path.join(pristine, rel)) && fs.readdirSync(path.join(root, rel)).length === 0) fs.rmdirSync(path.join(root, rel));
  }
  const api = await activateExtension();
  // The file watcher reports in order: once it reports a marker written after the writes above,
  // their events have been delivered too. Then the pending ones are applied and everything re-read.
  await markerSeen(root);
  api.workspace.flushAll();
  api.workspace.refresh();
  await api.workspace.updateNextUnits();
  return api;
}
