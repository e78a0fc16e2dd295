// What the CodeLens on GSD files run: Replan slice, Show in review panel, Compare with previous cycle.
import * as vscode from 'vscode';
import { registerGuardedCommand } from '../lifecycle/guarded-command';
import { readCodeReview } from '../../core/parse/code-review';
import { replanDecision } from '../../core/dispatch/default-dispatch';
import { findUnit } from '../../core/model/find-unit';
import { detectProjectKind } from '../../core/successor/project-kind';
import type { GsdWorkspace } from '../workspace/gsd-workspace';
import { unitOfFile } from './unit-of-file';
import { runChosenUnit } from '../dispatch/next-unit-command';
import { promptDocuments } from '../dispatch/prompt-documents';
import { dispatchedAgo, unitName } from '../dispatch/units-in-flight';
import type { PanelNode } from '../panel/panel-node';
import { compareCycles } from '../reviews/review-diff';
import type { ReviewPanelProvider } from '../panel/review-panel-provider';
import { readGsdText } from '../../core/files/gsd-store';
import { COMMANDS, SHOW_VIEW_CONTAINER } from '../contributions/contribution-ids';

export function registerCodeLensCommands(
  workspace: GsdWorkspace,
  panel: ReviewPanelProvider,
  treeView: vscode.TreeView<PanelNode>,
  log: vscode.LogOutputChannel,
): vscode.Disposable[] {
  const unitOrWarn = (uri: vscode.Uri | undefined) => {
    const unit = uri ? unitOfFile(workspace.list(), uri.fsPath) : null;
    if (!unit) void vscode.window.showWarningMessage(vscode.l10n.t('GSD: this file is not a task summary or review of a GSD project in this workspace.'));
    return unit;
  };
  return [
    registerGuardedCommand(log, COMMANDS.replanSlice, async (uri?: vscode.Uri) => {
      if (!vscode.workspace.isTrusted) {
        void vscode.window.showWarningMessage(vscode.l10n.t('GSD: dispatching a replan is refused in an untrusted workspace.'));
        return undefined;
      }
      const unit = unitOrWarn(uri);
      if (!unit) return undefined;
      if (unit.readOnly) {
        void vscode.window.showInformationMessage(vscode.l10n.t("GSD: this is a project of GSD's successor (@opengsd/gsd-pi); GSD replans its own slices."));
        return undefined;
      }
      const state = workspace.state(unit.handle);
      const { milestone, slice, task } = findUnit(state, unit.milestoneId, unit.sliceId, unit.taskId);
      if (!milestone || !slice) {
        void vscode.window.showWarningMessage(vscode.l10n.t("GSD: {0}/{1} is not in the project's roadmap.", unit.milestoneId, unit.sliceId));
        return undefined;
      }
      const actions = (task?.pendingActions ?? []).map((a) => `- ${a.text}`).join('\n');
      const reason = `Requested from ${unit.taskId}'s Known Issues.${actions ? ` Its pending actions:\n${actions}` : ''}`;
      // A database project's replan goes through GSD's gsd_replan_slice, with this task as the blocker.
      const context = { projectKind: state.projectKind ?? detectProjectKind(state.gsdDir).kind, root: state.root };
      const decision = { ...replanDecision(state, milestone, slice, unit.taskId, reason, context), source: 'user' };
      // A replan rewrites the slice's plan: never dispatched in one click from a lens.
      const dispatch = vscode.l10n.t('Dispatch');
      const show = vscode.l10n.t('Show Prompt');
      const why = vscode.l10n.t("The agent replans the slice because of {0}'s {1} pending actions, and rewrites its plan.", unit.taskId, task?.pendingActions.length ?? 0);
      // One unit at a time: with one in flight, said here, and only the prompt is offered.
      const flying = unit.handle.engine.currentUnit();
      const busy = flying ? vscode.l10n.t('{0} is in flight (dispatched {1}): complete or cancel it before this can be dispatched.', unitName(flying), dispatchedAgo(flying)) : null;
      const answer = await vscode.window.showInformationMessage(
        vscode.l10n.t('Dispatch replan-slice {0}/{1}?', unit.milestoneId, unit.sliceId),
        { modal: true, detail: busy ? `${why}\n\n${busy}` : why },
        ...(busy ? [show] : [dispatch, show]),
      );
      if (answer === show) {
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(promptDocuments.add(decision)), { preview: true });
        return undefined;
      }
      if (answer !== dispatch) return undefined;
      return runChosenUnit(workspace, log, unit.handle, decision);
    }),
    registerGuardedCommand(log, COMMANDS.showInPanel, async (uri?: vscode.Uri) => {
      const unit = unitOrWarn(uri);
      if (!unit) return;
      const node = panel.unitNode(unit.handle, unit.milestoneId, unit.sliceId, unit.taskId);
      await vscode.commands.executeCommand(SHOW_VIEW_CONTAINER);
      if (node) await treeView.reveal(node, { select: true, focus: true, expand: true });
    }),
    registerGuardedCommand(log, COMMANDS.compareReviewFile, async (uri?: vscode.Uri) => {
      const unit = unitOrWarn(uri);
      if (!unit || !uri) return;
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      const cycle = readCodeReview(doc?.getText() ?? readGsdText(uri.fsPath) ?? '', uri.fsPath).cycle;
      const { task } = findUnit(workspace.state(unit.handle), unit.milestoneId, unit.sliceId, unit.taskId);
      const reviews = task?.reviews ?? [];
      const current = reviews.find((r) => r.cycle === cycle);
      const previous = [...reviews].reverse().find((r) => cycle !== null && r.cycle < cycle);
      if (!current || !previous) {
        void vscode.window.showInformationMessage(vscode.l10n.t('GSD: no earlier review cycle of {0} to compare with.', unit.taskId));
        return;
      }
      await compareCycles(unit.taskId, previous, current);
    }),
  ];
}
