// What the review panel shows of a successor project (@opengsd/gsd-pi 1.x) beyond the ordinary
// milestone/slice/task nodes: the header saying what it is and where its state came from, and the
// words for GSD's own review verdicts and known issues. Pure functions of the read-only state; the
// node classes in panel/ call them.
import * as vscode from 'vscode';
import type { GSDState, PendingAction, ReviewCycle } from '../../core/model/types';
import { SUCCESSOR_PROJECT_CONTEXT } from '../panel/context-values';
import { KNOWN_ISSUES_SOURCE, type SuccessorReviewCycle, type SuccessorState } from '../../core/successor';
import { GATE_HOOK_NAME } from '../../core/successor-gate/gate-hook';

// The engine replaces the reader's `source: 'successor'` with its source info; the reader's own
// fields (detection, readFrom, …) stay.
function isSuccessorState(state: GSDState): state is SuccessorState {
  return (state as Partial<SuccessorState>).detection?.kind === 'successor';
}

/** The header row: "GSD (@opengsd/gsd-pi) · read-only", where the state was read from, and why. */
export function successorHeaderItem(id: string, state: GSDState): vscode.TreeItem {
  const item = new vscode.TreeItem(vscode.l10n.t('GSD project (@opengsd/gsd-pi) · read-only'), vscode.TreeItemCollapsibleState.None);
  item.id = id;
  item.iconPath = new vscode.ThemeIcon('lock');
  item.contextValue = SUCCESSOR_PROJECT_CONTEXT;
  if (!isSuccessorState(state)) return item;
  const read = state.refused
    ? vscode.l10n.t('not read')
    : state.readFrom === 'database'
      ? vscode.l10n.t('gsd.db schema {0} · status from {1}', state.schemaVersion ?? '?', state.statusFrom === 'lifecycle' ? vscode.l10n.t('lifecycle rows') : vscode.l10n.t('status columns'))
      : vscode.l10n.t('.gsd/phases markdown only');
  item.description = read;
  const lines = [
    vscode.l10n.t("**A project of GSD's successor (@opengsd/gsd-pi 1.x).** GSD dispatches its own units, runs its own reviews (blocking post-unit hooks) and records progress; this panel shows it and writes nothing. GSD: Next Unit hands over to GSD."),
    state.refused ?? '',
    `${vscode.l10n.t('Detected by')}: ${state.detection.reasons.join('; ')}`,
    state.readFrom === 'database' && state.authorityEpoch !== null ? vscode.l10n.t('Authority epoch {0}, project revision {1}.', state.authorityEpoch, state.projectRevision ?? '?') : '',
    state.reviewHooks.length ? vscode.l10n.t("GSD's blocking review hooks: {0}", state.reviewHooks.join(', ')) : '',
    state.reviewHooks.includes(GATE_HOOK_NAME)
      ? vscode.l10n.t("GSD Review Loop runs here as GSD's review gate ({0}): each task's review cycles show under it, written by the reviewer in GSD's auto mode.", GATE_HOOK_NAME)
      : vscode.l10n.t("GSD: Install Agent Hooks adds GSD Review Loop here as GSD's blocking review gate."),
    ...state.diagnostics.filter((d) => d.severity === 'info').slice(0, 3).map((d) => `- ${d.message}`),
  ].filter(Boolean);
  const md = new vscode.MarkdownString(lines.join('\n\n'));
  md.supportThemeIcons = true;
  item.tooltip = md;
  return item;
}

/** One of GSD's review cycles: the hook's name and GSD's own verdict, or the rework brief's id. */
export function gsdReviewLabel(r: ReviewCycle): string | null {
  const s = r as Partial<SuccessorReviewCycle>;
  if (!s.kind) return null;
  return s.kind === 'hook-gate' ? `${s.name}: ${s.gsdVerdict}` : vscode.l10n.t('rework brief {0}', s.name ?? '');
}

/** GSD's review read from gsd.db has no file of its own to open (the database is not opened in an editor). */
export function gsdReviewInDatabase(r: ReviewCycle): boolean {
  return (r as Partial<SuccessorReviewCycle>).from === 'database';
}

export function pendingSourceLabel(a: PendingAction): string {
  if (a.source === KNOWN_ISSUES_SOURCE) return vscode.l10n.t('GSD known issues');
  return a.source === 'summary' ? vscode.l10n.t('task summary') : a.source;
}
