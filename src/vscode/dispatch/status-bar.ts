// The status bar item: the project's phase and the unit GSD: Next Unit would dispatch (hooks
// included, computed without writing anything, the same decision the panel marks "next").
// Click: GSD: Next Unit.
import * as vscode from 'vscode';
import type { GsdWorkspace, ProjectHandle } from '../workspace/gsd-workspace';
import { COMMANDS, STATUS_BAR_ITEM } from '../contributions/contribution-ids';

export class GsdStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(STATUS_BAR_ITEM, vscode.StatusBarAlignment.Left, 50);
  private readonly subscription: vscode.Disposable;

  constructor(private readonly workspace: GsdWorkspace) {
    this.item.name = 'GSD';
    this.item.command = COMMANDS.nextUnit;
    this.subscription = workspace.onDidChangeNextUnit(() => this.render());
  }

  /** Text shown now, for tests. */
  get text(): string {
    return this.item.text;
  }

  /** Works the next unit out again and shows it. */
  async update(): Promise<void> {
    await this.workspace.updateNextUnits();
    this.render();
  }

  private render(): void {
    const handle: ProjectHandle | undefined = this.workspace.list()[0];
    if (!handle) {
      this.item.hide();
      return;
    }
    const state = this.workspace.state(handle);
    if (this.workspace.isReadOnly(handle)) {
      // GSD's successor decides its own next unit; the click hands Next Unit over to it.
      this.item.text = `$(eye) GSD: ${state.phase} · ${vscode.l10n.t('read-only')}`;
      this.item.tooltip = vscode.l10n.t("Phase `{0}` of a project of GSD's successor (@opengsd/gsd-pi), shown read-only. Click: GSD runs its next unit.", state.phase);
      this.item.show();
      return;
    }
    const preview = this.workspace.nextUnit(handle);
    if (!preview) {
      this.item.text = `$(warning) GSD: ${state.phase}`;
      this.item.tooltip = vscode.l10n.t('Could not work out the next unit: see GSD: Show Log.');
      this.item.show();
      return;
    }
    const d = preview.decision;
    this.item.text = d ? `$(checklist) GSD: ${d.unitType} ${d.unitId.split('/').pop()}` : `$(checklist) GSD: ${state.phase}`;
    this.item.tooltip = new vscode.MarkdownString(
      d
        ? vscode.l10n.t('**Next unit:** `{0}` {1} (decided by {2})\n\nPhase `{3}`. Click to dispatch it.', d.unitType, d.unitId, d.source, state.phase)
        : vscode.l10n.t('Phase `{0}`. {1}', state.phase, preview.blocker ?? state.nextAction),
    );
    this.item.show();
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
