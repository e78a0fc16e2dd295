// `GSD: Next Unit` and `GSD: Complete Unit`: the core decides (hooks included), the hook state is
// committed and the dispatch recorded, and only then does the recorded unit go to the configured
// target (recordThenSend): a record that fails sends nothing.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { NothingDispatchedError, type AfterDispatchOutcome, type DispatchOutcome } from '../core/dispatch/dispatch';
import type { DispatchDecision } from '../core/hooks/engine/middleware-types';
import { recordThenSend } from '../core/dispatch/record-then-send';
import { sendToTarget, TargetRefused, targetRefusal, type TargetName, type TargetResult } from './dispatch-targets';
import { runOptions } from './dispatch-options';
import { dirtyDocumentsUnder, UnsavedChangesError } from './editor-aware-store';
import type { GsdWorkspace, ProjectHandle } from './gsd-workspace';
import { handOffToGsd, type HandOffShown } from './successor-hand-off';
import { COMMANDS } from './contribution-ids';

export interface NextUnitResult {
  phase: string;
  nextAction: string;
  outcome: DispatchOutcome | null;
  target: TargetResult | null;
  /** Set on a successor project: Next Unit was handed to GSD (nothing dispatched or written by us). */
  handOff?: HandOffShown;
}

export async function pickProject(workspace: GsdWorkspace, hint?: vscode.Uri): Promise<ProjectHandle | undefined> {
  const projects = workspace.list();
  if (hint) {
    const owner = projects.find((p) => hint.fsPath.startsWith(p.project.gsdDir) || hint.fsPath.startsWith(p.project.root));
    if (owner) return owner;
  }
  if (projects.length <= 1) return projects[0];
  const picked = await vscode.window.showQuickPick(
    projects.map((p) => ({ label: p.folder.name, description: p.project.root, handle: p })),
    { placeHolder: vscode.l10n.t('Dispatch the next unit of which GSD project?') },
  );
  return picked?.handle;
}

function settings() {
  const c = vscode.workspace.getConfiguration('gsdReviewLoop');
  return { target: c.get<TargetName>('dispatch.target', 'chat'), terminalCommand: c.get<string>('dispatch.terminalCommand', 'claude -p "$(cat {promptFile})"') };
}

/**
 * The one notification of a dispatch: what went where, why the configured target was not used
 * (when it fell back), and for a prompt in an editor the button that copies it.
 */
function announce(decision: DispatchDecision, target: TargetResult, decidedBy?: string): void {
  const sent = decidedBy
    ? vscode.l10n.t('GSD: {0} {1} dispatched to {2} (decided by {3}).', decision.unitType, decision.unitId, target.target, decidedBy)
    : vscode.l10n.t('GSD: {0} {1} dispatched to {2}.', decision.unitType, decision.unitId, target.target);
  const text = target.note ? `${sent} ${target.note}` : sent;
  if (target.target !== 'editor') {
    void vscode.window.showInformationMessage(text);
    return;
  }
  // The prompt usually goes on to an agent elsewhere: one click puts it on the clipboard.
  const copy = vscode.l10n.t('Copy prompt');
  void vscode.window.showInformationMessage(text, copy).then((choice) => {
    if (choice === copy) void vscode.env.clipboard.writeText(decision.prompt);
  });
}

/** Records a decided unit (committing hook state when `commit` runs the chain), then sends the recorded unit to the target. */
async function deliver(
  handle: ProjectHandle,
  decision: DispatchDecision,
  log: vscode.LogOutputChannel,
  commit: () => Promise<DispatchOutcome>,
): Promise<{ outcome: DispatchOutcome; target: TargetResult }> {
  // Checked before anything is recorded: a dispatch must not half-happen because a write or the target is refused.
  const dirty = dirtyDocumentsUnder(handle.project.gsdDir);
  if (dirty.length) throw new TargetRefused(vscode.l10n.t('GSD: save or revert your unsaved GSD files first ({0}); dispatching writes hook state into them.', dirty.map((f) => path.basename(f)).join(', ')));
  const s = settings();
  const options = { terminalCommand: s.terminalCommand, trusted: vscode.workspace.isTrusted, root: handle.project.root };
  const refused = targetRefusal(s.target, options);
  if (refused) throw new TargetRefused(refused);
  const { outcome, sent } = await recordThenSend(commit, (recorded) => sendToTarget(s.target, recorded, handle.project.gsdDir, options));
  if (!sent) throw new TargetRefused(vscode.l10n.t('GSD: nothing was dispatched: {0}', outcome.blocker ?? outcome.nextAction));
  const recorded = outcome.decision!;
  if (recorded.unitType !== decision.unitType || recorded.unitId !== decision.unitId) {
    log.warn(`the project changed while dispatching: recorded and sent ${recorded.unitType} ${recorded.unitId} instead of ${decision.unitType} ${decision.unitId}`);
  }
  log.info(`dispatched ${recorded.unitType} ${recorded.unitId} (decided by ${recorded.source}) to ${sent.target}${sent.promptFile ? ` (${sent.promptFile})` : ''}${sent.note ? `: ${sent.note}` : ''}`);
  return { outcome, target: sent };
}

export async function runNextUnit(workspace: GsdWorkspace, log: vscode.LogOutputChannel, hint?: vscode.Uri): Promise<NextUnitResult | undefined> {
  const handle = await pickProject(workspace, hint);
  if (!handle) {
    void vscode.window.showWarningMessage(vscode.l10n.t('GSD: no .gsd folder in this workspace.'));
    return undefined;
  }
  workspace.flushAll();
  const state = workspace.state(handle);
  if (workspace.isReadOnly(handle)) return { phase: state.phase, nextAction: state.nextAction, outcome: null, target: null, handOff: handOffToGsd(handle, state, log) };
  const preview = await handle.engine.preview(runOptions(log));
  for (const s of preview.hooks.skipped) log.warn(`hook ${s.name} skipped: ${s.reason}`);
  const d = preview.decision;
  if (!d) {
    const why = preview.blocker ?? state.nextAction;
    void vscode.window.showInformationMessage(vscode.l10n.t('GSD ({0}): nothing to dispatch. {1}', preview.phase, why));
    return { phase: preview.phase, nextAction: why, outcome: preview, target: null };
  }
  try {
    const { outcome, target } = await deliver(handle, d, log, () => handle.engine.dispatch(runOptions(log)));
    announce(d, target, d.source);
    return { phase: preview.phase, nextAction: state.nextAction, outcome, target };
  } catch (error) {
    if (error instanceof TargetRefused) {
      void vscode.window.showWarningMessage(error.message);
      return { phase: preview.phase, nextAction: state.nextAction, outcome: preview, target: null };
    }
    throw error;
  }
}

/** Dispatches a unit the user chose (e.g. "Replan slice" on a Known Issues CodeLens). */
export async function runChosenUnit(workspace: GsdWorkspace, log: vscode.LogOutputChannel, handle: ProjectHandle, unit: DispatchDecision): Promise<NextUnitResult | undefined> {
  try {
    const { outcome, target } = await deliver(handle, unit, log, () => handle.engine.dispatchUnit(unit, runOptions(log)));
    announce(unit, target);
    const state = workspace.state(handle);
    return { phase: state.phase, nextAction: state.nextAction, outcome, target };
  } catch (error) {
    if (error instanceof TargetRefused) {
      void vscode.window.showWarningMessage(error.message);
      return undefined;
    }
    throw error;
  }
}

/** Runs afterDispatch for the recorded unit; one run at a time per project, so a unit completes once. */
export class UnitCompleter {
  private readonly running = new Map<string, Promise<AfterDispatchOutcome | null>>();

  constructor(private readonly log: vscode.LogOutputChannel) {}

  complete(handle: ProjectHandle, why: string): Promise<AfterDispatchOutcome | null> {
    const key = handle.project.gsdDir;
    const inFlight = this.running.get(key);
    if (inFlight) return inFlight;
    const run = (async () => {
      try {
        const out = await handle.engine.complete(runOptions(this.log));
        this.log.info(`completed ${out.result.unitType} ${out.result.unitId} (${why})`);
        for (const d of out.diagnostics) if (d.message.includes(':')) this.log.warn(`${d.file}${d.line ? `:${d.line}` : ''}: ${d.message}`);
        return out;
      } catch (error) {
        if (error instanceof NothingDispatchedError) {
          this.log.info(`nothing to complete (${why}): ${error.message}`);
          return null;
        }
        if (error instanceof UnsavedChangesError) {
          void vscode.window.showWarningMessage(vscode.l10n.t('GSD: could not complete the unit: {0}', error.message));
          return null;
        }
        throw error;
      } finally {
        this.running.delete(key);
      }
    })();
    this.running.set(key, run);
    return run;
  }
}

export function registerDispatchCommands(workspace: GsdWorkspace, completer: UnitCompleter, log: vscode.LogOutputChannel): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(COMMANDS.nextUnit, (uri?: vscode.Uri) => runNextUnit(workspace, log, uri instanceof vscode.Uri ? uri : undefined)),
    // The view's button on a successor project: the same command, which hands over to GSD there.
    vscode.commands.registerCommand(COMMANDS.handOffToGsd, () => runNextUnit(workspace, log)),
    vscode.commands.registerCommand(COMMANDS.completeUnit, async () => {
      const handle = await pickProject(workspace);
      if (!handle) return null;
      if (workspace.isReadOnly(handle)) {
        void vscode.window.showInformationMessage(vscode.l10n.t('GSD: this project is GSD\'s own (@opengsd/gsd-pi): only GSD\'s running attempts complete its units.'));
        return null;
      }
      const out = await completer.complete(handle, 'GSD: Complete Unit');
      void vscode.window.showInformationMessage(out ? vscode.l10n.t('GSD: {0} {1} completed.', out.result.unitType, out.result.unitId) : vscode.l10n.t('GSD: no dispatched unit is waiting to be completed.'));
      return out;
    }),
  ];
}
