// Composition root: builds the workspace model, the review panel, the problems, the status bar and
// the commands, and wires their updates together. Nothing else lives here.
import * as vscode from 'vscode';
import { GsdWorkspace } from './vscode/gsd-workspace';
import { registerNextUnitCommand } from './vscode/next-unit-command';
import { registerPanelCommands } from './vscode/panel-commands';
import type { PanelNode } from './vscode/panel-nodes';
import { GsdProblems } from './vscode/problems';
import { ReviewContentProvider, REVIEW_SCHEME } from './vscode/review-diff';
import { ReviewPanelProvider } from './vscode/review-panel';
import { GsdStatusBar } from './vscode/status-bar';

/** What the extension exposes to its integration tests (and to other extensions). */
export interface GsdExtensionApi {
  workspace: GsdWorkspace;
  panel: ReviewPanelProvider;
  problems: GsdProblems;
  statusBar: GsdStatusBar;
  treeView: vscode.TreeView<PanelNode>;
}

export function activate(context: vscode.ExtensionContext): GsdExtensionApi {
  const log = vscode.window.createOutputChannel('GSD', { log: true });
  const config = () => vscode.workspace.getConfiguration('gsdReviewLoop');
  const workspace = new GsdWorkspace(log, () => config().get<number>('refreshDebounceMs', 200));
  const panel = new ReviewPanelProvider(workspace);
  const problems = new GsdProblems();
  const statusBar = new GsdStatusBar(workspace, log);
  const treeView = vscode.window.createTreeView('gsd.reviewPanel', { treeDataProvider: panel, showCollapseAll: true });
  const showState = () => {
    for (const p of workspace.list()) problems.update(p.project.gsdDir, workspace.state(p).diagnostics);
    void statusBar.update();
  };
  context.subscriptions.push(
    log,
    workspace,
    panel,
    problems,
    statusBar,
    treeView,
    vscode.workspace.registerTextDocumentContentProvider(REVIEW_SCHEME, new ReviewContentProvider(() => workspace.list().map((p) => p.project.gsdDir))),
    workspace.onDidChangeProjects(showState),
    workspace.onDidChangeState(({ paths }) => {
      log.debug(`changed: ${paths.join(', ')}`);
      showState();
    }),
    registerNextUnitCommand(workspace, log),
    ...registerPanelCommands(),
    vscode.commands.registerCommand('gsd.refresh', () => workspace.refresh()),
    vscode.commands.registerCommand('gsd.showLog', () => log.show()),
  );
  showState();
  log.info(`GSD Review Loop ${context.extension.packageJSON.version} active in VS Code ${vscode.version}`);
  return { workspace, panel, problems, statusBar, treeView };
}

export function deactivate(): void {}
