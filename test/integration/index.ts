// Entry point of the integration suite, loaded by the extension host (extensionTestsPath).
// The same run() serves @vscode/test-electron and the offline code-server host.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as util from 'node:util';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { setReporter } from './helpers/report';
import { rememberSample } from './helpers/sample';
import { setCurrentTest } from '../shared/current-test';
// The shared outcomes reporter is CommonJS (mocha loads it by path in the other runs).
const { collectOutcomes } = require('../mocha-outcomes-reporter.cjs') as { collectOutcomes(runner: Mocha.Runner, label: string): void };

/** The suite set follows the opened workspace: one with `.gsd`, one without, a multi-root one, an untrusted one, a successor one. */
function workspaceKind(): 'with-gsd' | 'without-gsd' | 'multi-root' | 'untrusted' | 'successor' {
  if (!vscode.workspace.isTrusted) return 'untrusted';
  // A .code-workspace file is known at once; its folders may still be resolving.
  if (vscode.workspace.workspaceFile?.path.endsWith('.code-workspace')) return 'multi-root';
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length > 1) return 'multi-root';
  // GSD's successor (@opengsd/gsd-pi 1.x) lays its project out under `.gsd/phases/`.
  if (folders.some((f) => fs.existsSync(path.join(f.uri.fsPath, '.gsd', 'phases')))) return 'successor';
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

/**
 * The web workbench now and then opens a .code-workspace without resolving its folders (seen about
 * one run in four under code-server 4.100.3). Such a window is reloaded, which runs the suite again
 * from the start; the runner's time limit still applies.
 */
async function foldersReady(): Promise<boolean> {
  if (!vscode.workspace.workspaceFile) return true;
  for (let i = 0; i < 50 && (vscode.workspace.workspaceFolders?.length ?? 0) === 0; i++) await new Promise((r) => setTimeout(r, 200));
  if ((vscode.workspace.workspaceFolders?.length ?? 0) > 0) return true;
  await vscode.commands.executeCommand('workbench.action.reloadWindow');
  return false;
}

export async function run(): Promise<void> {
  // A window about to reload never finishes this run; the reloaded one reports.
  if (!(await foldersReady())) return new Promise<void>(() => undefined);
  const kind = workspaceKind();
  if (kind === 'with-gsd') rememberSample();
  const write = reporterOutput(kind);
  const host = vscode.env.uiKind === vscode.UIKind.Web ? 'web workbench (code-server)' : 'desktop';
  write(`[gsd-integration] inside VS Code ${vscode.version} (${vscode.env.appName}, ${host}), suite ${kind}, ${vscode.workspace.workspaceFolders?.length ?? 0} folder(s)`);

  Mocha.reporters.Base.consoleLog = (...args: unknown[]) => write(util.format(...args));
  setReporter(write);
  // GSD_TEST_GREP: run only the tests whose full title matches (a test must pass alone, not only after the ones before it).
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30_000, reporter: 'spec', ...(process.env.GSD_TEST_GREP ? { grep: process.env.GSD_TEST_GREP } : {}) });
  // Helpers called from arrow functions note on the running test what they could not check.
  mocha.rootHooks({ beforeEach(this: Mocha.Context) { setCurrentTest(this.currentTest); } });
  const dir = path.join(__dirname, kind);
  // GSD_TEST_ONLY: run only the test files whose names start with one of these (comma list), to iterate on one.
  const only = process.env.GSD_TEST_ONLY?.split(',').filter(Boolean);
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.test.js') && (!only || only.some((o) => f.startsWith(o)))).sort()) {
    mocha.addFile(path.join(dir, file));
  }
  // The runner prints which test is running when the host has been quiet for a while.
  const current = process.env.GSD_TEST_LOG_DIR ? path.join(process.env.GSD_TEST_LOG_DIR, `${kind}.current`) : undefined;
  await new Promise<void>((resolve, reject) => {
    const runner = mocha.run((failures) => {
      write(`[gsd-integration] finished: ${failures} failed`);
      if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
      else resolve();
    });
    if (current) runner.on('test', (test) => fs.writeFileSync(current, test.fullTitle()));
    // Each test's outcome, for `npm test`'s list of what was skipped (and why) or passed only on a retry.
    collectOutcomes(runner, `integration ${kind}, VS Code ${vscode.version}`);
  });
}
