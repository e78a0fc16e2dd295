// `GSD: Install Agent Hooks`: VS Code has no API to register agent hooks, so we write the files the
// hosts read (core/agent-hooks/hook-install.ts), for the hosts the user picks: VS Code's Local agent
// and Copilot CLI (`.github/hooks`), Claude Code (`.claude/settings.json`, merged). Every file is
// shown before anything is written; Undo takes it back. The files name no path of this machine:
// the machine-specific part (VS Code's runtime and this extension's CLI) goes to a pointer in the
// user's home, refreshed on activation so an update of the extension needs no reinstall.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { registerGuardedCommand } from '../lifecycle/guarded-command';
import type { AgentHost } from '../../core/agent-hooks/agent-host';
import { applyFileChanges, readOrNull, revertFileChanges } from '../../core/agent-hooks/file-changes';
import { GITHUB_HOOKS_FILE, planInstall, type FileChange } from '../../core/agent-hooks/hook-install';
import { writeBridgePointer } from '../../core/agent-hooks/launcher';
import { readGateConfig } from '../../core/successor-gate/gate-config';
import { planGateInstall } from '../../core/successor-gate/gate-install';
import { writeGateLauncher } from '../../core/successor-gate/gate-launcher';
import { detectProjectKind } from '../../core/successor/project-kind';
import type { GsdWorkspace, ProjectHandle } from '../workspace/gsd-workspace';
import { COMMANDS } from '../contributions/contribution-ids';
import { DECISION_LINE, installPreview, vscodeRunsCustomAgentHooks, vscodeRunsHooks } from './install-preview';
import { pickProject } from '../dispatch/next-unit-command';

interface HostPick extends vscode.QuickPickItem {
  host: AgentHost;
}

async function pickHosts(root: string): Promise<AgentHost[] | undefined> {
  const items: HostPick[] = [
    { host: 'vscode', label: vscode.l10n.t('VS Code agent and Copilot CLI'), description: '.github/hooks, .github/agents', picked: true },
    { host: 'claude', label: 'Claude Code', description: '.claude/settings.json (merged), .claude/agents', picked: fs.existsSync(path.join(root, '.claude')) },
  ];
  const picked = await vscode.window.showQuickPick(items, { canPickMany: true, title: vscode.l10n.t('GSD: Install Agent Hooks'), placeHolder: vscode.l10n.t('The agents that should run the GSD review loop in this workspace') });
  return picked && picked.length > 0 ? picked.map((p) => p.host) : undefined;
}

/**
 * The preview: one read-only document with every file that would be written, in full, and the
 * decision on it (an Install / Cancel CodeLens under its title, and the same Install in a notification
 * that leaves the document readable). Resolves true for Install; false for Cancel or when the
 * preview is closed.
 */
async function previewAndDecide(root: string, changes: FileChange[], skipped: string[], notes: string[], intro?: string): Promise<boolean> {
  const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/GSD Install Agent Hooks preview ${++previewCount}.md` });
  previews.set(uri.toString(), installPreview(root, changes, skipped, vscode.l10n.t, notes, intro));
  // Markdown by its `.md` name: setting the language closes and reopens the document, and that close
  // could come after the preview is pending, cancelling it.
  const doc = await vscode.workspace.openTextDocument(uri);
  const decided = new Promise<boolean>((resolve) => pending.set(uri.toString(), resolve));
  lensesChanged.fire();
  await vscode.window.showTextDocument(doc, { preview: false });
  // Asked again a moment later: VS Code 1.100, after an earlier prompt editor in the window, drew
  // the preview without its lens until told once more (seen in CI; a request on show was not enough).
  setTimeout(() => {
    if (pending.has(uri.toString())) lensesChanged.fire();
  }, 1000);
  const install = vscode.l10n.t('Install');
  void vscode.window
    .showInformationMessage(vscode.l10n.t('GSD: read the preview of the {0} files, then install them.', changes.length), install)
    .then((choice) => {
      if (choice !== install) return;
      // From the bell, after the preview was answered (its lens) or closed: said, not silently ignored.
      if (!pending.has(uri.toString())) void vscode.window.showInformationMessage(vscode.l10n.t('GSD: that preview was already answered or closed, so this button does nothing now. Run GSD: Install Agent Hooks to see a new one.'));
      else decide(uri.toString(), true);
    });
  return decided;
}

function decide(key: string, install: boolean): void {
  const resolve = pending.get(key);
  if (!resolve) return;
  pending.delete(key);
  lensesChanged.fire();
  resolve(install);
}

const PREVIEW_SCHEME = 'gsd-hooks-preview';
const previews = new Map<string, string>();
/** Previews waiting for Install or Cancel, by URI. */
const pending = new Map<string, (install: boolean) => void>();
const lensesChanged = new vscode.EventEmitter<void>();
let previewCount = 0;

/** The preview's text provider, its Install / Cancel CodeLens and the command they run. */
export function registerInstallPreview(log: vscode.LogOutputChannel): vscode.Disposable[] {
  const top = new vscode.Range(DECISION_LINE, 0, DECISION_LINE, 0);
  return [
    lensesChanged,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, { provideTextDocumentContent: (u) => previews.get(u.toString()) ?? '' }),
    vscode.languages.registerCodeLensProvider(
      { scheme: PREVIEW_SCHEME },
      {
        onDidChangeCodeLenses: lensesChanged.event,
        provideCodeLenses: (doc) =>
          pending.has(doc.uri.toString())
            ? [
                new vscode.CodeLens(top, { title: `$(check) ${vscode.l10n.t('Install these files')}`, command: COMMANDS.installFromPreview, arguments: [doc.uri, true] }),
                new vscode.CodeLens(top, { title: vscode.l10n.t('Cancel'), command: COMMANDS.installFromPreview, arguments: [doc.uri, false] }),
              ]
            : [],
      },
    ),
    registerGuardedCommand(log, COMMANDS.installFromPreview, (uri?: vscode.Uri, install?: boolean) => {
      const key = (uri ?? vscode.window.activeTextEditor?.document.uri)?.toString();
      if (key) decide(key, install !== false);
    }),
    // Closing the preview unanswered is a Cancel.
    vscode.workspace.onDidCloseTextDocument((doc) => decide(doc.uri.toString(), false)),
  ];
}

/**
 * Installs the hooks for `hosts` (asked when not given). With `confirm`, every file is previewed and
 * the user confirms; returns the files written (relative), [] when all was up to date, undefined
 * when refused or cancelled.
 */
export async function installAgentHooks(handle: ProjectHandle, cliPath: string, confirm = true, hosts?: AgentHost[]): Promise<string[] | undefined> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage(vscode.l10n.t('GSD: installing agent hooks makes the agent run a command; that is refused in an untrusted workspace.'));
    return undefined;
  }
  const root = handle.project.root;
  const chosen = hosts ?? (confirm ? await pickHosts(root) : ['vscode' as const]);
  if (!chosen) return undefined;
  const home = os.homedir();
  const changes: FileChange[] = [];
  const skipped: string[] = [];
  const notes: string[] = [];
  // A GSD-2 database project's prompts name GSD's workflow tools: VS Code's agent gets that server too.
  const projectKind = detectProjectKind(handle.project.gsdDir).kind;
  for (const host of chosen) {
    const plan = planInstall({ root, host, user: false, home, projectKind }, readOrNull);
    changes.push(...plan.changes);
    skipped.push(...plan.skipped);
    notes.push(...(plan.notes ?? []));
  }
  writeBridgePointer(home, process.execPath, cliPath);
  if (changes.length === 0) {
    const said = [...skipped, ...notes].join('; ');
    void vscode.window.showInformationMessage(said ? vscode.l10n.t('GSD: nothing written. {0}', said) : vscode.l10n.t('GSD: the agent hooks are already installed and up to date.'));
    return [];
  }
  if (confirm && !(await previewAndDecide(root, changes, skipped, notes))) return undefined;
  const { applied, conflicts } = applyFileChanges(changes);
  const files = applied.map((c) => path.relative(root, c.file));
  if (conflicts.length) {
    // All or nothing: what was written before the failing file was taken back (conflicts say if not all).
    for (const c of conflicts) void vscode.window.showWarningMessage(`GSD: ${c}`);
    return files;
  }
  // One short message: what was installed; a word about this VS Code only when it matters here.
  const hostNames = chosen.map((h) => (h === 'vscode' ? vscode.l10n.t('VS Code agent and Copilot CLI') : h === 'claude' ? 'Claude Code' : 'Copilot CLI')).join(', ');
  const caveat = !chosen.includes('vscode')
    ? ''
    : !vscodeRunsHooks(vscode.version)
      ? ' ' + vscode.l10n.t('This VS Code ({0}) runs no agent hooks (they came in 1.109.3).', vscode.version)
      : !vscodeRunsCustomAgentHooks(vscode.version)
        ? ' ' + vscode.l10n.t("The reviewer's guard needs chat.useCustomAgentHooks on in this VS Code.")
        : '';
  const open = vscode.l10n.t('Open');
  const undo = vscode.l10n.t('Undo');
  void vscode.window.showInformationMessage(vscode.l10n.t('GSD: agent hooks installed for {0} ({1} files).', hostNames, files.length) + caveat, open, undo).then(async (choice) => {
    if (choice === undo) {
      const undone = revertFileChanges(applied);
      // All or nothing (applyFileChanges): a file changed since leaves the hooks installed, whole.
      if (undone.conflicts.length) void vscode.window.showWarningMessage(vscode.l10n.t('GSD: the agent hooks were not removed: {0}', undone.conflicts.join('; ')));
      else void vscode.window.showInformationMessage(vscode.l10n.t('GSD: agent hooks removed again.'));
    } else if (choice === open && applied[0]) {
      await vscode.window.showTextDocument(vscode.Uri.file(applied.find((c) => c.file.endsWith('.json'))?.file ?? applied[0].file));
    }
  });
  return files;
}

/**
 * On activation: keep the user-level pointer to this extension's CLI current (an update moves it),
 * and replace a hook file of ours in the old shape (an absolute path of one machine) by the new one.
 */
/** The palette command: pick the project, then install; on a successor project, our review gate in GSD's preferences. */
export function registerInstallAgentHooksCommand(workspace: GsdWorkspace, cliPath: string, log: vscode.LogOutputChannel): vscode.Disposable {
  return registerGuardedCommand(log, COMMANDS.installAgentHooks, async () => {
    const handle = await pickProject(workspace);
    if (!handle) return undefined;
    // GSD's successor dispatches its own units; our loop runs there as its blocking post-unit gate.
    return workspace.isReadOnly(handle) ? installGate(handle, cliPath) : installAgentHooks(handle, cliPath);
  });
}

interface GateScopePick extends vscode.QuickPickItem {
  user: boolean;
}

/**
 * On a successor project: our review gate in the PREFERENCES.md GSD reads (the project's, or the
 * user's for every project), the reviewer's guard where GSD loads extensions, and the launcher the
 * gate's prompt runs; previewed in full, and Undo takes it back. Returns the files written.
 */
export async function installGate(handle: ProjectHandle, cliPath: string, scope?: 'project' | 'user'): Promise<string[] | undefined> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage(vscode.l10n.t('GSD: installing the review gate makes GSD run a command; that is refused in an untrusted workspace.'));
    return undefined;
  }
  const root = handle.project.root;
  let user = scope === 'user';
  if (!scope) {
    const picked = await vscode.window.showQuickPick<GateScopePick>(
      [
        { user: false, label: vscode.l10n.t("GSD's review gate for this project"), description: '.gsd/PREFERENCES.md, .gsd/extensions', detail: vscode.l10n.t('After each task in GSD auto mode, the reviewer runs gsd-review gate: up to 5 review cycles, blocking.') },
        { user: true, label: vscode.l10n.t("GSD's review gate for all my projects"), description: '~/.gsd/PREFERENCES.md, ~/.gsd/agent/extensions' },
      ],
      { title: vscode.l10n.t('GSD: Install Agent Hooks'), placeHolder: vscode.l10n.t("GSD (@opengsd/gsd-pi) runs this project: our review loop runs there as GSD's review gate") },
    );
    if (!picked) return undefined;
    user = picked.user;
  }
  const home = os.homedir();
  const options = { gsdDir: handle.project.gsdLink, user, home, ...(process.env.GSD_HOME ? { gsdHome: process.env.GSD_HOME } : {}) };
  const plan = planGateInstall(options, readOrNull);
  if (plan.changes.length === 0 || plan.skipped.length > 0) {
    // A refused PREFERENCES.md leaves the guard and the launcher unwritten too: the gate is one thing.
    if (plan.skipped.length > 0) {
      void vscode.window.showWarningMessage(vscode.l10n.t('GSD: the review gate was not installed. {0}', plan.skipped.join('; ')));
      return undefined;
    }
    writeBridgePointer(home, process.execPath, cliPath);
    const said = plan.notes.join('; ');
    void vscode.window.showInformationMessage(said ? vscode.l10n.t('GSD: nothing written. {0}', said) : vscode.l10n.t('GSD: the review gate is already installed and up to date.'));
    return [];
  }
  const intro = vscode.l10n.t("GSD's review gate: after each execute-task in auto mode, GSD runs a review session whose reviewer runs gsd-review gate (blocking, up to 5 cycles); the verdict decides whether GSD re-runs the task. Only GSD's auto mode runs post-unit hooks, not /gsd next.");
  if (!(await previewAndDecide(root, plan.changes, plan.skipped, plan.notes, intro))) return undefined;
  // All or nothing: the gate is its entries, its guard and its launcher together.
  const { applied, conflicts } = applyFileChanges(plan.changes, home);
  if (conflicts.length > 0) {
    void vscode.window.showWarningMessage(vscode.l10n.t('GSD: the review gate was not installed: {0}', conflicts.join('; ')));
    return undefined;
  }
  writeBridgePointer(home, process.execPath, cliPath);
  const undo = vscode.l10n.t('Undo');
  void vscode.window.showInformationMessage(vscode.l10n.t("GSD: the review gate is installed ({0} files). GSD runs it in auto mode (/gsd auto) after each task.", applied.length), undo).then((choice) => {
    if (choice !== undo) return;
    const undone = revertFileChanges(applied, home);
    void vscode.window.showInformationMessage(undone.conflicts.length ? vscode.l10n.t('GSD: review gate removed, except: {0}', undone.conflicts.join('; ')) : vscode.l10n.t('GSD: the review gate was removed again.'));
  });
  return applied.map((c) => (c.file.startsWith(root + path.sep) ? path.relative(root, c.file) : c.file));
}

export function refreshInstalledHooks(workspace: GsdWorkspace, cliPath: string, log: vscode.LogOutputChannel): void {
  if (!vscode.workspace.isTrusted) return;
  const home = os.homedir();
  for (const handle of workspace.list()) {
    const root = handle.project.root;
    if (workspace.isReadOnly(handle)) {
      // Our review gate on a successor project: the prompt's launcher and its pointer stay current on this machine.
      if (readGateConfig({ gsdDir: handle.project.gsdDir, home, ...(process.env.GSD_HOME ? { gsdHome: process.env.GSD_HOME } : {}) }).config) {
        if (writeBridgePointer(home, process.execPath, cliPath)) log.info(`review gate: ~/.gsd-review-loop/bridge now points at ${cliPath}`);
        if (writeGateLauncher(home)) log.info('review gate: wrote ~/.gsd-review-loop/gsd-review, which the gate\'s prompt runs');
      }
      continue;
    }
    const hooksFile = path.join(root, GITHUB_HOOKS_FILE);
    const installed = fs.existsSync(hooksFile) || fs.existsSync(path.join(root, '.claude', 'hooks', 'gsd-review-loop.sh'));
    if (!installed) continue;
    if (writeBridgePointer(home, process.execPath, cliPath)) log.info(`agent hooks: ~/.gsd-review-loop/bridge now points at ${cliPath}`);
    try {
      const current = JSON.parse(readOrNull(hooksFile) ?? '{}') as Record<string, unknown>;
      if (!current['gsd-review-loop']) continue;
      const { applied, conflicts } = applyFileChanges(planInstall({ root, host: 'vscode', user: false, home }, readOrNull).changes);
      log.info(`agent hooks: replaced the old ${GITHUB_HOOKS_FILE} (absolute paths of one machine) by the launcher: ${applied.map((c) => path.relative(root, c.file)).join(', ')}`);
      for (const c of conflicts) log.warn(`agent hooks: ${c}`);
    } catch (error) {
      log.warn(`agent hooks: could not read ${hooksFile}: ${(error as Error).message}`);
    }
  }
}
