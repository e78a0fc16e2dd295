// `GSD: Next Unit` and `GSD: Complete Unit`: the core decides (hooks included), the unit goes to the
// configured target, and only then is the hook state committed and the dispatch recorded.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { BUILTIN_HOOKS } from '../builtin-hooks';
import { afterDispatch, dispatchNextUnit, dispatchUnit, NothingDispatchedError, type AfterDispatchOutcome, type DispatchOutcome } from '../core/dispatch';
import type { DispatchDecision } from '../core/middleware';
import { sendToTarget, TargetRefused, type TargetName, type TargetResult } from './dispatch-targets';
import { dirtyDocumentsUnder, EditorAwareStore, UnsavedChangesError } from './editor-aware-store';
import type { GsdWorkspace, ProjectHandle } from './gsd-workspace';

export interface NextUnitResult {
  phase: string;
  nextAction: string;
  outcome: DispatchOutcome | null;
  target: TargetResult | null;
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
    { placeHolder: 'Dispatch the next unit of which GSD project?' },
  );
  return picked?.handle;
}

function settings() {
  const c = vscode.workspace.getConfiguration('gsdReviewLoop');
  return { target: c.get<TargetName>('dispatch.target', 'chat'), terminalCommand: c.get<string>('dispatch.terminalCommand', 'claude -p "$(cat {promptFile})"') };
}

function coreOptions(handle: ProjectHandle, log: vscode.LogOutputChannel) {
  return {
    root: handle.project.root,
    store: new EditorAwareStore(),
    builtins: BUILTIN_HOOKS,
    trusted: vscode.workspace.isTrusted,
    log: { info: (m: string) => log.info(m), warn: (m: string) => log.warn(m) },
  };
}

/** Sends a decided unit to the target, then records it (committing hook state when `commit` runs the chain). */
async function deliver(
  handle: ProjectHandle,
  decision: DispatchDecision,
  log: vscode.LogOutputChannel,
  commit: () => Promise<DispatchOutcome>,
): Promise<{ outcome: DispatchOutcome; target: TargetResult }> {
  // Checked before anything is sent: a dispatch must not half-happen because a write is refused.
  const dirty = dirtyDocumentsUnder(handle.project.gsdDir);
  if (dirty.length) throw new TargetRefused(`GSD: save or revert your unsaved GSD files first (${dirty.map((f) => path.basename(f)).join(', ')}); dispatching writes hook state into them.`);
  const s = settings();
  const target = await sendToTarget(s.target, decision, handle.project.gsdDir, { terminalCommand: s.terminalCommand, trusted: vscode.workspace.isTrusted, root: handle.project.root });
  const outcome = await commit();
  if (outcome.decision && (outcome.decision.unitType !== decision.unitType || outcome.decision.unitId !== decision.unitId)) {
    log.warn(`the project changed while dispatching: recorded ${outcome.decision.unitType} ${outcome.decision.unitId} instead of ${decision.unitType} ${decision.unitId}`);
  }
  log.info(`dispatched ${decision.unitType} ${decision.unitId} (decided by ${decision.source}) to ${target.target}${target.promptFile ? ` (${target.promptFile})` : ''}`);
  if (target.note) void vscode.window.showInformationMessage(`GSD: ${target.note}`);
  return { outcome, target };
}

export async function runNextUnit(workspace: GsdWorkspace, log: vscode.LogOutputChannel, hint?: vscode.Uri): Promise<NextUnitResult | undefined> {
  const handle = await pickProject(workspace, hint);
  if (!handle) {
    void vscode.window.showWarningMessage('GSD: no .gsd folder in this workspace.');
    return undefined;
  }
  workspace.flushAll();
  const state = workspace.state(handle);
  const preview = await dispatchNextUnit(coreOptions(handle, log));
  for (const s of preview.hooks.skipped) log.warn(`hook ${s.name} skipped: ${s.reason}`);
  const d = preview.decision;
  if (!d) {
    const why = preview.blocker ?? state.nextAction;
    void vscode.window.showInformationMessage(`GSD (${preview.phase}): nothing to dispatch. ${why}`);
    return { phase: preview.phase, nextAction: why, outcome: preview, target: null };
  }
  try {
    const { outcome, target } = await deliver(handle, d, log, () => dispatchNextUnit({ ...coreOptions(handle, log), apply: true }));
    void vscode.window.showInformationMessage(`GSD: ${d.unitType} ${d.unitId} dispatched to ${target.target} (decided by ${d.source}).`);
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
    const { outcome, target } = await deliver(handle, unit, log, () => dispatchUnit(coreOptions(handle, log), unit));
    void vscode.window.showInformationMessage(`GSD: ${unit.unitType} ${unit.unitId} dispatched to ${target.target}.`);
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
        const out = await afterDispatch(coreOptions(handle, this.log));
        this.log.info(`completed ${out.result.unitType} ${out.result.unitId} (${why})`);
        for (const d of out.diagnostics) if (d.message.includes(':')) this.log.warn(`${d.file}${d.line ? `:${d.line}` : ''}: ${d.message}`);
        return out;
      } catch (error) {
        if (error instanceof NothingDispatchedError) {
          this.log.info(`nothing to complete (${why}): ${error.message}`);
          return null;
        }
        if (error instanceof UnsavedChangesError) {
          void vscode.window.showWarningMessage(`GSD: could not complete the unit: ${error.message}`);
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
    vscode.commands.registerCommand('gsd.nextUnit', (uri?: vscode.Uri) => runNextUnit(workspace, log, uri instanceof vscode.Uri ? uri : undefined)),
    vscode.commands.registerCommand('gsd.completeUnit', async () => {
      const handle = await pickProject(workspace);
      if (!handle) return null;
      const out = await completer.complete(handle, 'GSD: Complete Unit');
      void vscode.window.showInformationMessage(out ? `GSD: ${out.result.unitType} ${out.result.unitId} completed.` : 'GSD: no dispatched unit is waiting to be completed.');
      return out;
    }),
  ];
}
