// Composition root: builds the workspace model and the views, commands and signals over it, and
// wires their updates together. Nothing else lives here.
import * as vscode from 'vscode';
import { registerGuardedCommand } from './vscode/lifecycle/guarded-command';
import { registerCodeLensCommands } from './vscode/codelens/codelens-commands';
import { CompletionSignals } from './vscode/dispatch/completion-signals';
import { GsdWorkspace, type ProjectHandle } from './vscode/workspace/gsd-workspace';
import { GSD_FILES, GsdCodeLensProvider } from './vscode/codelens/known-issues-codelens';
import { installAgentHooks, refreshInstalledHooks, registerInstallAgentHooksCommand, registerInstallPreview } from './vscode/agent-hooks/install-agent-hooks';
import { UnitsInFlight } from './vscode/dispatch/units-in-flight';
import { LegacyCommandAliases } from './vscode/contributions/legacy-command-aliases';
import { registerDispatchCommands, UnitCompleter } from './vscode/dispatch/next-unit-command';
import { registerPanelCommands } from './vscode/panel/panel-commands';
import type { PanelNode } from './vscode/panel/panel-node';
import { GsdProblems } from './vscode/workspace/problems';
import { promptDocuments, PROMPT_SCHEME } from './vscode/dispatch/prompt-documents';
import { ReviewContentProvider, REVIEW_SCHEME } from './vscode/reviews/review-diff';
import { ReviewPanelProvider } from './vscode/panel/review-panel-provider';
import { markActivationEnd, markActivationStart, measuringPaint } from './vscode/workspace/paint-timing';
import { reviewMaxCycles } from './vscode/reviews/review-max-cycles';
import { GsdStatusBar } from './vscode/dispatch/status-bar';
import { sourceLabel } from './vscode/workspace/state-source-label';
import { ReviewFindingsView } from './vscode/reviews/review-findings-view';
import { COMMANDS, REVIEW_PANEL_VIEW, SHOW_VIEW_CONTAINER } from './vscode/contributions/contribution-ids';
import { InstallUndo } from './vscode/agent-hooks/install-undo';
import { onDidChangeSetting, setting } from './vscode/contributions/settings';
import type { AgentHost } from './core/agent-hooks/agent-host';

/** What the extension exposes to its integration tests (and to other extensions). */
export interface GsdExtensionApi {
  workspace: GsdWorkspace;
  panel: ReviewPanelProvider;
  problems: GsdProblems;
  statusBar: GsdStatusBar;
  treeView: vscode.TreeView<PanelNode>;
  codeLens: GsdCodeLensProvider;
  completer: UnitCompleter;
  /** Review findings as comment threads and Problems entries. */
  findings: ReviewFindingsView;
  /** GSD: Install Agent Hooks without the confirmation dialog (tests, automation); VS Code's agent unless `hosts` says. */
  installAgentHooks(handle: ProjectHandle, hosts?: AgentHost[]): Promise<string[] | undefined>;
}

export function activate(context: vscode.ExtensionContext): GsdExtensionApi {
  markActivationStart();
  // npm run bench:paint: the view shown from the start, as in a window restored with it open.
  if (measuringPaint) void vscode.commands.executeCommand(SHOW_VIEW_CONTAINER);
  const log = vscode.window.createOutputChannel('GSD', { log: true });
  const cliPath = vscode.Uri.joinPath(context.extensionUri, 'dist', 'cli.js').fsPath;
  const workspace = new GsdWorkspace(log, () => setting('refreshDebounceMs'));
  const problems = new GsdProblems();
  const inFlight = new UnitsInFlight(workspace);
  const panel = new ReviewPanelProvider(workspace, inFlight);
  const statusBar = new GsdStatusBar(workspace, inFlight);
  // Collapse All only over a tree: in a folder without .gsd the view shows its welcome text alone.
  const treeView = vscode.window.createTreeView(REVIEW_PANEL_VIEW, { treeDataProvider: panel, showCollapseAll: workspace.list().length > 0 });
  panel.showIn(treeView);
  const codeLens = new GsdCodeLensProvider(workspace, reviewMaxCycles);
  const completer = new UnitCompleter(log);
  const signals = new CompletionSignals(workspace, completer, log);
  const findings = new ReviewFindingsView(workspace, log);
  const installUndo = new InstallUndo(context.workspaceState);
  const showState = () => {
    // A project still being read says its diagnostics once read (its end announces a state change).
    for (const p of workspace.list()) if (!workspace.isReading(p)) problems.update(p.project.gsdDir, workspace.state(p).diagnostics);
    // Set only when it changed: each assignment re-lays out the view's header in the workbench.
    const label = sourceLabel(workspace);
    if (treeView.description !== label.description) treeView.description = label.description;
    if (treeView.message !== label.message) treeView.message = label.message;
    // The panel's "next" and the status bar follow from this one decision (onDidChangeNextUnit).
    void workspace.updateNextUnits();
    codeLens.refresh();
    findings.update();
  };
  // Owned here, so its emitter ends with the extension (its registration alone would not end it).
  const reviewContent = new ReviewContentProvider(() => workspace.list().map((p) => p.project.gsdDir));
  context.subscriptions.push(
    log,
    workspace,
    inFlight,
    panel,
    problems,
    statusBar,
    treeView,
    codeLens,
    findings,
    vscode.languages.registerCodeLensProvider(GSD_FILES, codeLens),
    vscode.workspace.registerTextDocumentContentProvider(PROMPT_SCHEME, promptDocuments),
    reviewContent,
    vscode.workspace.registerTextDocumentContentProvider(REVIEW_SCHEME, reviewContent),
    vscode.workspace.onDidGrantWorkspaceTrust(showState),
    // The CodeLens says "Cycle N of max": a new default max shows at once.
    onDidChangeSetting('review.maxCycles', () => codeLens.refresh()),
    workspace.onDidChangeProjects(showState),
    workspace.onDidChangeState((change) => {
      log.debug(`changed: ${change.paths.join(', ')}`);
      showState();
      void signals.onStateChange(change);
    }),
    ...registerDispatchCommands(workspace, completer, inFlight, log),
    ...registerPanelCommands(log),
    ...registerCodeLensCommands(workspace, panel, treeView, log),
    ...registerInstallAgentHooksCommand(workspace, cliPath, installUndo, log),
    ...registerInstallPreview(log),
    registerGuardedCommand(log, COMMANDS.refresh, () => workspace.refresh()),
    registerGuardedCommand(log, COMMANDS.showLog, () => log.show()),
  );
  // Keybindings to the pre-rename `gsd.*` ids keep working while no other extension owns them.
  const legacyAliases = new LegacyCommandAliases(context.extension.id, log);
  context.subscriptions.push(legacyAliases);
  showState();
  void vscode.window.withProgress({ location: { viewId: REVIEW_PANEL_VIEW } }, () => workspace.whenRead());
  refreshInstalledHooks(workspace, cliPath, log);
  markActivationEnd();
  log.info(`GSD Review Loop ${context.extension.packageJSON.version} active in VS Code ${vscode.version}${vscode.workspace.isTrusted ? '' : ' (untrusted workspace: read-only)'}`);
  return { workspace, panel, problems, statusBar, treeView, codeLens, completer, findings, installAgentHooks: (handle, hosts) => installAgentHooks(handle, cliPath, installUndo, false, hosts) };
}

export function deactivate(): void {}
