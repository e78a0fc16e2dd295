// `GSD: Next Unit` and `GSD: Complete Unit`: the core decides (hooks included), the hook state is
// committed and the dispatch recorded, and only then does the recorded unit go to the configured
// target (recordThenSend): a record that fails sends nothing.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { registerGuardedCommand } from '../lifecycle/guarded-command';
import { NothingDispatchedError, type AfterDispatchOutcome, type DispatchOutcome } from '../../core/dispatch/dispatch';
import type { DispatchDecision } from '../../core/hooks/engine/middleware-types';
import { recordThenSend } from '../../core/dispatch/record-then-send';
import { sendToTarget, TargetRefused, targetRefusal, type TargetName, type TargetResult } from './dispatch-targets';
import { runOptions } from './dispatch-options';
import { dirtyDocumentsUnder, UnsavedChangesError } from '../workspace/editor-aware-store';
import type { GsdWorkspace, ProjectHandle } from '../workspace/gsd-workspace';
import { handOffToGsd, type HandOffShown } from '../successor/successor-hand-off';
import { COMMANDS } from '../contributions/contribution-ids';
import { isWithin } from '../../core/files/confine';
import { UnreadableHookStateError } from '../../core/hooks/engine/hook-sidecar';
import type { UnreadableHookState } from '../../core/model/types';
import { readDispatchLog, type DispatchRecord } from '../../core/dispatch/dispatch-record';
import { promptDocuments } from './prompt-documents';
import { signalFile, signalled } from './completion-signal-rules';
import { dispatchedAgo, unitName, type UnitsInFlight } from './units-in-flight';

export interface NextUnitResult {
  phase: string;
  nextAction: string;
  outcome: DispatchOutcome | null;
  target: TargetResult | null;
  /** Set when a unit was already in flight: nothing was dispatched. */
  inFlight?: DispatchRecord;
  /** Set on a successor project: Next Unit was handed to GSD (nothing dispatched or written by us). */
  handOff?: HandOffShown;
}

/** The unit the status bar named when it was clicked: the click dispatches that unit or nothing. */
export interface ShownUnit {
  unitType: string;
  unitId: string;
}

function isShownUnit(value: unknown): value is ShownUnit {
  return typeof value === 'object' && value !== null && typeof (value as ShownUnit).unitType === 'string' && typeof (value as ShownUnit).unitId === 'string';
}

/** The project of the active editor's file, when it belongs to one. */
export function projectOfActiveEditor(workspace: GsdWorkspace): ProjectHandle | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri;
  return uri?.scheme === 'file' ? ownerOf(workspace, uri) : undefined;
}

/** The innermost project holding the file (a nested project, or `.gsd` a link elsewhere); a bare prefix would let /w/proj claim the files of /w/proj-b. */
function ownerOf(workspace: GsdWorkspace, uri: vscode.Uri): ProjectHandle | undefined {
  const owners = workspace.list().filter((p) => isWithin(p.project.gsdDir, uri.fsPath) || isWithin(p.project.root, uri.fsPath));
  return owners.sort((a, b) => b.project.root.length - a.project.root.length)[0];
}

/**
 * The project a command acts on: the file it was run on, else the active editor's project, else the
 * only one; with several and no editor in any, a pick naming each project's next unit (or the unit
 * it has in flight).
 */
export async function pickProject(workspace: GsdWorkspace, hint?: vscode.Uri, placeHolder?: string): Promise<ProjectHandle | undefined> {
  const projects = workspace.list();
  const owner = (hint && ownerOf(workspace, hint)) ?? projectOfActiveEditor(workspace);
  if (owner) return owner;
  if (projects.length <= 1) return projects[0];
  const picked = await vscode.window.showQuickPick(
    projects.map((p) => ({ label: p.folder.name, description: projectLine(workspace, p), detail: p.project.root, handle: p })),
    { placeHolder: placeHolder ?? vscode.l10n.t('Dispatch the next unit of which GSD project?') },
  );
  return picked?.handle;
}

/** What a project's pick row says: its unit in flight, else its next unit, else its phase. */
function projectLine(workspace: GsdWorkspace, handle: ProjectHandle): string {
  const state = workspace.state(handle);
  if (workspace.isReadOnly(handle)) return vscode.l10n.t('{0} · read-only', state.phase);
  const flying = handle.engine.currentUnit();
  if (flying) return vscode.l10n.t('$(watch) in flight: {0}, {1}', unitName(flying), dispatchedAgo(flying));
  const d = workspace.nextUnit(handle)?.decision;
  return d ? vscode.l10n.t('$(play-circle) next: {0}', unitName(d)) : state.phase;
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

/**
 * `shown`: the unit the status bar named when it was clicked. When the project has moved on since
 * (the decision now is another unit), nothing is dispatched: the bar is shown again with the new
 * unit, and a notification says so.
 */
export async function runNextUnit(workspace: GsdWorkspace, log: vscode.LogOutputChannel, hint?: vscode.Uri, shown?: ShownUnit): Promise<NextUnitResult | undefined> {
  const handle = await pickProject(workspace, hint);
  if (!handle) {
    // No project to pick from; with several, the pick was cancelled (Esc), which says nothing.
    if (workspace.list().length === 0) void vscode.window.showWarningMessage(vscode.l10n.t('GSD: no .gsd folder in this workspace.'));
    return undefined;
  }
  workspace.flushAll();
  const state = workspace.state(handle);
  if (workspace.isReadOnly(handle)) return { phase: state.phase, nextAction: state.nextAction, outcome: null, target: null, handOff: handOffToGsd(handle, state, log) };
  const flying = handle.engine.currentUnit();
  if (flying) {
    // One unit at a time: a second click says what is in flight and what can be done with it,
    // rather than opening the same prompt again.
    offerInFlight(handle, flying);
    return { phase: state.phase, nextAction: state.nextAction, outcome: null, target: null, inFlight: flying };
  }
  const preview = await handle.engine.preview(runOptions(log));
  for (const s of preview.hooks.skipped) log.warn(`hook ${s.name} skipped: ${s.reason}`);
  const d = preview.decision;
  if (shown && (d?.unitType !== shown.unitType || d?.unitId !== shown.unitId)) {
    const now = d ? unitName(d) : vscode.l10n.t('nothing to dispatch ({0})', preview.blocker ?? state.nextAction);
    log.info(`the status bar showed ${unitName(shown)}, the next unit is now ${d ? unitName(d) : 'none'}: nothing dispatched`);
    void vscode.window.showInformationMessage(vscode.l10n.t('GSD: nothing dispatched: the project changed since the status bar showed {0}. The next unit is now {1}.', unitName(shown), now));
    return { phase: preview.phase, nextAction: preview.blocker ?? state.nextAction, outcome: preview, target: null };
  }
  if (!d) {
    const why = preview.blocker ?? state.nextAction;
    if (preview.blockedBy) offerBlockingFile(preview.blockedBy, vscode.l10n.t('GSD: nothing dispatched. {0}', why));
    else void vscode.window.showInformationMessage(vscode.l10n.t('GSD ({0}): nothing to dispatch. {1}', preview.phase, why));
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
  const flying = handle.engine.currentUnit();
  if (flying) {
    offerInFlight(handle, flying);
    const state = workspace.state(handle);
    return { phase: state.phase, nextAction: state.nextAction, outcome: null, target: null, inFlight: flying };
  }
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

/** Nothing dispatched because a unit's hook-state file cannot be read: the reason first, and the file to open. */
function offerBlockingFile(blocked: UnreadableHookState, message: string): void {
  const open = vscode.l10n.t('Open {0}', path.basename(blocked.file));
  void vscode.window.showWarningMessage(message, open).then((choice) => {
    if (choice !== open) return;
    const line = Math.max(0, (blocked.line ?? 1) - 1);
    void vscode.window.showTextDocument(vscode.Uri.file(blocked.file), { selection: new vscode.Range(line, 0, line, 0) });
  });
}

/**
 * A unit in flight as a notification's button names it: its project and its dispatch. Such a button
 * acts on that unit only; clicked after the unit was completed or cancelled (the notification stays
 * in the bell), it says so and does nothing to the unit in flight then.
 */
export interface FlightRef {
  gsdDir: string;
  unitType: string;
  unitId: string;
  dispatchedAt: string;
}

function isFlightRef(value: unknown): value is FlightRef {
  const r = value as FlightRef;
  return typeof value === 'object' && value !== null && typeof r.gsdDir === 'string' && typeof r.unitId === 'string' && typeof r.dispatchedAt === 'string';
}

function flightRef(handle: ProjectHandle, r: DispatchRecord): FlightRef {
  return { gsdDir: handle.project.gsdDir, unitType: r.unitType, unitId: r.unitId, dispatchedAt: r.dispatchedAt };
}

/** What became of a unit a notification named that is no longer in flight, in words. */
function noLongerInFlight(handle: ProjectHandle, ref: FlightRef): string {
  const { log } = readDispatchLog(handle.engine.store, handle.project.gsdDir);
  const r = [...log.history, ...(log.current ? [log.current] : [])].find((x) => x.dispatchedAt === ref.dispatchedAt && x.unitId === ref.unitId);
  const fate = r?.completedAt
    ? vscode.l10n.t('it was completed {0}', dispatchedAgo({ dispatchedAt: r.completedAt }))
    : r?.cancelledAt
      ? vscode.l10n.t('it was cancelled {0}', dispatchedAgo({ dispatchedAt: r.cancelledAt }))
      : vscode.l10n.t('another unit was dispatched since');
  return vscode.l10n.t('GSD: {0} is no longer in flight ({1}); nothing was done.', unitName(ref), fate);
}

/** The one notification about a unit in flight, with what can be done with it (that unit only). */
export function offerInFlight(handle: ProjectHandle, flying: DispatchRecord): void {
  const complete = vscode.l10n.t('Complete');
  const cancel = vscode.l10n.t('Cancel Unit');
  const open = vscode.l10n.t('Open Prompt');
  void vscode.window
    .showInformationMessage(vscode.l10n.t('GSD: {0} is in flight (dispatched {1}). Complete or cancel it before the next unit.', unitName(flying), dispatchedAgo(flying)), complete, cancel, open)
    .then((choice) => {
      const command = choice === complete ? COMMANDS.completeUnit : choice === cancel ? COMMANDS.cancelUnit : choice === open ? COMMANDS.openUnitPrompt : undefined;
      if (command) void vscode.commands.executeCommand(command, flightRef(handle, flying));
    });
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
        if (error instanceof UnreadableHookStateError) {
          offerBlockingFile(error.unreadable, vscode.l10n.t('GSD: could not complete the unit: {0}', error.message));
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

/**
 * Before ✓ Complete Unit: the unit is named, and when the file it should produce (its completion
 * signal) has not been written since it was dispatched, the user confirms in a pick whose first,
 * default row is Cancel: Enter (or Esc) keeps the unit in flight. (A modal dialog's default button
 * is always its first action, so there Enter would complete.) True to go on.
 */
async function confirmCompletion(workspace: GsdWorkspace, handle: ProjectHandle, flying: DispatchRecord): Promise<boolean> {
  const file = signalFile(workspace.state(handle), flying);
  if (!file || signalled(file, flying)) return true;
  const missing = path.relative(handle.project.root, file);
  const cancel = { label: `$(close) ${vscode.l10n.t('Cancel')}`, description: vscode.l10n.t('keep it in flight'), go: false };
  const go = {
    label: `$(warning) ${vscode.l10n.t('Complete Anyway')}`,
    description: vscode.l10n.t('record it as finished without {0}', path.basename(file)),
    detail: vscode.l10n.t('{0} has not been written since the unit was dispatched ({1}).', missing, dispatchedAgo(flying)),
    go: true,
  };
  const picked = await vscode.window.showQuickPick([cancel, go], {
    title: vscode.l10n.t('Complete {0}?', unitName(flying)),
    placeHolder: vscode.l10n.t('{0} is missing: Enter keeps the unit in flight', path.basename(file)),
  });
  return picked?.go === true;
}

export function registerDispatchCommands(workspace: GsdWorkspace, completer: UnitCompleter, inFlight: UnitsInFlight, log: vscode.LogOutputChannel): vscode.Disposable[] {
  const flyingProject = async (placeHolder: string): Promise<ProjectHandle | undefined> => {
    // With one unit in flight in the whole workspace, that is the one meant.
    const flying = workspace.list().filter((h) => inFlight.of(h));
    return flying.length === 1 && !projectOfActiveEditor(workspace) ? flying[0] : pickProject(workspace, undefined, placeHolder);
  };
  /**
   * The project and unit a Complete / Cancel / Open Prompt acts on: the one a notification's button
   * names (and only while it is still in flight), else the one in flight. Undefined: nothing to do
   * (said when it is a button's unit that is gone).
   */
  const target = async (arg: unknown, placeHolder: string): Promise<{ handle: ProjectHandle; flying: DispatchRecord | null } | undefined> => {
    if (!isFlightRef(arg)) {
      const handle = await flyingProject(placeHolder);
      return handle ? { handle, flying: inFlight.of(handle) } : undefined;
    }
    const handle = workspace.list().find((h) => h.project.gsdDir === arg.gsdDir);
    const flying = handle ? inFlight.of(handle) : null;
    if (handle && flying && flying.dispatchedAt === arg.dispatchedAt && flying.unitId === arg.unitId) return { handle, flying };
    void vscode.window.showInformationMessage(handle ? noLongerInFlight(handle, arg) : vscode.l10n.t('GSD: {0} is no longer in flight (its project is not open); nothing was done.', unitName(arg)));
    return undefined;
  };
  // From the explorer or an editor: the file's URI; from the status bar: the unit it showed.
  const next = async (arg?: unknown) => {
    const result = await runNextUnit(workspace, log, arg instanceof vscode.Uri ? arg : undefined, isShownUnit(arg) ? arg : undefined);
    inFlight.checkAll();
    return result;
  };
  return [
    registerGuardedCommand(log, COMMANDS.nextUnit, next),
    // The view's button on a successor project: the same command, which hands over to GSD there.
    registerGuardedCommand(log, COMMANDS.handOffToGsd, () => next()),
    registerGuardedCommand(log, COMMANDS.completeUnit, async (arg?: unknown) => {
      const chosen = await target(arg, vscode.l10n.t('Complete the unit in flight of which GSD project?'));
      if (!chosen) return null;
      const { handle, flying } = chosen;
      if (workspace.isReadOnly(handle)) {
        void vscode.window.showInformationMessage(vscode.l10n.t("GSD: this project is GSD's own (@opengsd/gsd-pi): only GSD's running attempts complete its units."));
        return null;
      }
      if (!flying) {
        void vscode.window.showInformationMessage(vscode.l10n.t('GSD: no dispatched unit is waiting to be completed.'));
        return null;
      }
      if (!(await confirmCompletion(workspace, handle, flying))) return null;
      const out = await completer.complete(handle, 'GSD: Complete Unit');
      inFlight.check(handle);
      if (out) void vscode.window.showInformationMessage(vscode.l10n.t('GSD: {0} completed.', unitName(out.result)));
      return out;
    }),
    registerGuardedCommand(log, COMMANDS.cancelUnit, async (arg?: unknown) => {
      const chosen = await target(arg, vscode.l10n.t('Cancel the unit in flight of which GSD project?'));
      if (!chosen || workspace.isReadOnly(chosen.handle)) return null;
      const { handle } = chosen;
      const cancelled = chosen.flying ? handle.engine.cancel(runOptions(log)) : null;
      inFlight.check(handle);
      if (cancelled) log.info(`cancelled ${unitName(cancelled)} (dispatched ${cancelled.dispatchedAt})`);
      void vscode.window.showInformationMessage(
        cancelled ? vscode.l10n.t('GSD: {0} cancelled. GSD: Next Unit dispatches again.', unitName(cancelled)) : vscode.l10n.t('GSD: no dispatched unit is waiting to be completed.'),
      );
      return cancelled;
    }),
    registerGuardedCommand(log, COMMANDS.openUnitPrompt, async (arg?: unknown) => {
      const chosen = await target(arg, vscode.l10n.t('Open the prompt of which GSD project\'s unit in flight?'));
      if (!chosen) return undefined;
      if (!chosen.flying) {
        void vscode.window.showInformationMessage(vscode.l10n.t('GSD: no dispatched unit is waiting to be completed.'));
        return undefined;
      }
      const document = await vscode.workspace.openTextDocument(promptDocuments.add(chosen.flying));
      return vscode.window.showTextDocument(document, { preview: true });
    }),
  ];
}
