// Entry point of the integration suite, loaded by the extension host (extensionTestsPath).
// The same run() serves @vscode/test-electron and the offline code-server host.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as util from 'node:util';
import Mocha from 'mocha';
import * as vscode from 'vscode';

/** The suite set follows the opened workspace: one with `.gsd`, one without, a multi-root one. */
function workspaceKind(): 'with-gsd' | 'without-gsd' | 'multi-root' {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length > 1) return 'multi-root';
  return folders.some((f) => fs.existsSync(path.join(f.uri.fsPath, '.gsd'))) ? 'with-gsd' : 'without-gsd';
}

/**
 * In code-server the extension host's stdout goes to the server's log, not to the person running
 * the tests, so the reporter also writes to GSD_TEST_LOG_DIR/<suite>.log when the runner sets it.
 */
function reporterOutput(kind: string): (line: string) => void {
  const logDir = process.env.GSD_TEST_LOG_DIR;
  const logFile = logDir ? path.join(logDir, `${kind}.log`) : undefined;
  const original = console.log.bind(console);
  return (line: string) => {
    original(line);
    if (logFile) fs.appendFileSync(logFile, line + '\n');
  };
}

export async function run(): Promise<void> {
  const kind = workspaceKind();
  const write = reporterOutput(kind);
  const host = vscode.env.uiKind === vscode.UIKind.Web ? 'web workbench (code-server)' : 'desktop';
  write(`[gsd-integration] inside VS Code ${vscode.version} (${vscode.env.appName}, ${host}), suite ${kind}`);

  Mocha.reporters.Base.consoleLog = (...args: unknown[]) => write(util.format(...args));
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30_000, reporter: 'spec' });
  const dir = path.join(__dirname, kind);
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.test.js')).sort()) {
    mocha.addFile(path.join(dir, file));
  }
  await new Promise<void>((resolve, reject) => {
    mocha.run((failures) => {
      write(`[gsd-integration] finished: ${failures} failed`);
      if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
      else resolve();
    });
  });
}
