// The status bar item: for the active editor's project (the first project when no editor is in
// one), the unit in flight with its age, else the unit GSD: Next Unit would dispatch (hooks
// included, computed without writing anything, the same decision the panel marks "next").
// Click: GSD: Next Unit, which for a unit in flight offers Complete / Cancel / Open Prompt.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GsdWorkspace, ProjectHandle } from '../workspace/gsd-workspace';
import { COMMANDS, STATUS_BAR_ITEM } from '../contributions/contribution-ids';
import { Owner } from '../lifecycle/owner';
import { projectOfActiveEditor, type ShownUnit } from './next-unit-command';
import { dispatchedAgo, unitName, type UnitsInFlight } from './units-in-flight';

const IN_FLIGHT_ACTIONS = [COMMANDS.completeUnit, COMMANDS.cancelUnit, COMMANDS.openUnitPrompt];

export class GsdStatusBar extends Owner {
  private readonly item = this.own(vscode.window.createStatusBarItem(STATUS_BAR_ITEM, vscode.StatusBarAlignment.Left, 50));

  constructor(
    private readonly workspace: GsdWorkspace,
    private readonly inFlight: UnitsInFlight,
  ) {
    super();
    this.item.name = 'GSD';
    const render = () => this.render();
    this.own(workspace.onDidChangeNextUnit(render));
    this.own(workspace.onDidChangeProjects(render));
    this.own(inFlight.onDidChange(render));
    this.own(inFlight.onDidTick(render));
    this.own(vscode.window.onDidChangeActiveTextEditor(render));
    // At once: while the projects are read no next-unit event comes, and the bar says they are being read.
    render();
  }

  /** Text shown now, for tests. */
  get text(): string {
    return this.item.text;
  }

  /** What a click runs now (command and arguments), for tests: a click runs exactly this. */
  get command(): vscode.Command | undefined {
    const c = this.item.command;
    return typeof c === 'string' ? { command: c, title: '' } : c;
  }

  /** Tooltip shown now (markdown), for tests. */
  get tooltip(): string {
    const t = this.item.tooltip;
    return typeof t === 'string' ? t : (t?.value ?? '');
  }

  /** The screen reader's label now, for tests. */
  get label(): string {
    return this.item.accessibilityInformation?.label ?? '';
  }

  /** What a screen reader says for the item: plain words (VS Code would otherwise read the text and the tooltip's markdown). */
  private say(label: string): void {
    this.item.accessibilityInformation = { label };
  }

  /** Works the next unit out again and shows it. */
  async update(): Promise<void> {
    await this.workspace.updateNextUnits();
    this.render();
  }

  /** The project the item speaks for: the active editor's, else the first. */
  private project(): ProjectHandle | undefined {
    return projectOfActiveEditor(this.workspace) ?? this.workspace.list()[0];
  }

  private render(): void {
    if (this.disposed) return;
    const handle = this.project();
    if (!handle) {
      this.item.hide();
      return;
    }
    // The phase is the same in the first look: GSD decides it from the milestones and the active slice.
    const state = this.workspace.shownState(handle);
    const several = this.workspace.list().length > 1;
    const where = several ? `${handle.folder.name}: ` : '';
    const heading = several ? `**${handle.folder.name}**\n\n` : '';
    if (this.workspace.isReadOnly(handle)) {
      // GSD's successor decides its own next unit; the click hands Next Unit over to it.
      // The lock says read-only; the panel's header row says it in words (once).
      this.item.text = `$(lock) GSD: ${where}${state.phase}`;
      this.item.command = COMMANDS.nextUnit;
      this.say(vscode.l10n.t("GSD: {0}phase {1} of a project of GSD's successor, read-only. Activate to run GSD's next unit.", where, state.phase));
      this.item.tooltip = new vscode.MarkdownString(heading + vscode.l10n.t("Phase `{0}` of a project of GSD's successor (@opengsd/gsd-pi), shown read-only. Click: GSD runs its next unit.", state.phase));
      this.item.show();
      return;
    }
    const flying = this.inFlight.of(handle);
    if (flying) {
      const ago = dispatchedAgo(flying);
      this.item.text = `$(watch) GSD: ${where}${flying.unitType} ${flying.unitId.split('/').pop()} · ${ago}`;
      this.item.command = COMMANDS.nextUnit;
      const tip = new vscode.MarkdownString(
        heading +
          vscode.l10n.t('**In flight:** `{0}` {1}, dispatched {2}.', flying.unitType, flying.unitId, ago) +
          '\n\n' +
          `[${vscode.l10n.t('Complete')}](command:${COMMANDS.completeUnit}) · [${vscode.l10n.t('Cancel')}](command:${COMMANDS.cancelUnit}) · [${vscode.l10n.t('Open Prompt')}](command:${COMMANDS.openUnitPrompt})`,
      );
      tip.isTrusted = { enabledCommands: IN_FLIGHT_ACTIONS };
      tip.supportThemeIcons = true;
      this.item.tooltip = tip;
      this.say(vscode.l10n.t('GSD: {0}{1} in flight, dispatched {2}', where, unitName(flying), ago));
      this.item.show();
      return;
    }
    // The unit named here and the one a click dispatches come from the same decision, worked out
    // from the project as it is now: a click carries the unit it was shown, and Next Unit
    // dispatches nothing else (next-unit-command.ts).
    const next = this.workspace.nextUnitNow(handle);
    if (this.workspace.isReading(handle)) {
      this.item.text = `$(sync~spin) GSD: ${where}${vscode.l10n.t('reading the project…')}`;
      this.item.tooltip = vscode.l10n.t("Reading the project's files: the unit GSD: Next Unit would dispatch is worked out once they are read.");
      this.say(vscode.l10n.t('GSD: {0}reading the project', where));
      this.item.command = COMMANDS.nextUnit;
      this.item.show();
      return;
    }
    if (next.status === 'working') {
      this.item.text = `$(sync~spin) GSD: ${where}${vscode.l10n.t('working out the next unit…')}`;
      this.item.tooltip = vscode.l10n.t('The project changed: working out the unit GSD: Next Unit would dispatch.');
      this.say(vscode.l10n.t('GSD: {0}working out the next unit', where));
      this.item.command = COMMANDS.nextUnit;
      this.item.show();
      return;
    }
    if (next.status === 'failed') {
      this.item.text = `$(warning) GSD: ${where}${state.phase}`;
      this.item.tooltip = vscode.l10n.t('Could not work out the next unit: see GSD: Show Log.');
      this.say(vscode.l10n.t('GSD: {0}could not work out the next unit; see GSD: Show Log', where));
      this.item.command = COMMANDS.nextUnit;
      this.item.show();
      return;
    }
    const preview = next.outcome;
    const d = preview.decision;
    const blocked = preview.blockedBy;
    if (blocked) {
      // A unit whose hook state cannot be read: said as such, never as the unit a fresh state would give.
      const file = path.basename(blocked.file);
      this.item.text = `$(error) GSD: ${where}${vscode.l10n.t('{0} blocked by {1}', blocked.unitId.split('/').pop()!, file)}`;
      this.item.command = COMMANDS.nextUnit;
      this.item.tooltip = new vscode.MarkdownString(
        heading +
          vscode.l10n.t('**{0} is blocked:** its hook-state file `{1}` cannot be read ({2}).', blocked.unitId, file, blocked.line ? vscode.l10n.t('line {0}: {1}', blocked.line, blocked.reason) : blocked.reason) +
          '\n\n' +
          vscode.l10n.t('Nothing is dispatched until the file is fixed. Click: GSD: Next Unit says so, with the file to open.'),
      );
      this.say(vscode.l10n.t('GSD: {0}{1} is blocked: its hook-state file {2} cannot be read', where, blocked.unitId, file));
      this.item.show();
      return;
    }
    this.item.text = d ? `$(play-circle) GSD: ${where}${d.unitType} ${d.unitId.split('/').pop()}` : `$(checklist) GSD: ${where}${state.phase}`;
    this.item.command = d ? { command: COMMANDS.nextUnit, title: vscode.l10n.t('GSD: Next Unit'), arguments: [{ unitType: d.unitType, unitId: d.unitId } satisfies ShownUnit] } : COMMANDS.nextUnit;
    // Read out in words, never the tooltip's markdown.
    this.say(
      d
        ? vscode.l10n.t('GSD: {0}next unit {1}, decided by {2}. Activate to dispatch it.', where, unitName(d), d.source)
        : vscode.l10n.t('GSD: {0}phase {1}, nothing to dispatch: {2}', where, state.phase, preview.blocker ?? state.nextAction),
    );
    this.item.tooltip = new vscode.MarkdownString(
      heading +
        (d
          ? vscode.l10n.t('**Next unit:** `{0}` {1} (decided by {2})\n\nPhase `{3}`. Click to dispatch it.', d.unitType, d.unitId, d.source, state.phase)
          : vscode.l10n.t('Phase `{0}`. {1}', state.phase, preview.blocker ?? state.nextAction)),
    );
    this.item.show();
  }
}
