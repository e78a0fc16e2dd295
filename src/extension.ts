// Composition root: builds the workspace model, the review panel and the commands, nothing more.
import * as vscode from 'vscode';
import { GsdWorkspace } from './vscode/gsd-workspace';
import { registerNextUnitCommand } from './vscode/next-unit-command';
import { ReviewPanelProvider } from './vscode/review-panel';

/** What the extension exposes to its integration tests (and to other extensions). */
export interface GsdExtensionApi {
  workspace: GsdWorkspace;
  panel: ReviewPanelProvider;
}

export function activate(context: vscode.ExtensionContext): GsdExtensionApi {
  const log = vscode.window.createOutputChannel('GSD', { log: true });
  const workspace = new GsdWorkspace(log);
  const panel = new ReviewPanelProvider(workspace);
  context.subscriptions.push(
    log,
    workspace,
    panel,
    vscode.window.createTreeView('gsd.reviewPanel', { treeDataProvider: panel, showCollapseAll: true }),
    registerNextUnitCommand(workspace, log),
    vscode.commands.registerCommand('gsd.refresh', () => workspace.refresh()),
    vscode.commands.registerCommand('gsd.showLog', () => log.show()),
  );
  log.info(`GSD Review Loop ${context.extension.packageJSON.version} active in VS Code ${vscode.version}`);
  return { workspace, panel };
}

export function deactivate(): void {}
