// The status bar item: the project's phase and the unit GSD: Next Unit would dispatch (hooks
// included, computed without writing anything). Click: GSD: Next Unit.
import * as vscode from 'vscode';
import type { GsdWorkspace, ProjectHandle } from './gsd-workspace';

export class GsdStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('gsd.status', vscode.StatusBarAlignment.Left, 50);
  private version = 0;

  constructor(
    private readonly workspace: GsdWorkspace,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.item.name = 'GSD';
    this.item.command = 'gsd.nextUnit';
  }

  /** Text shown now, for tests. */
  get text(): string {
    return this.item.text;
  }

  async update(): Promise<void> {
    const handle: ProjectHandle | undefined = this.workspace.list()[0];
    if (!handle) {
      this.item.hide();
      return;
    }
    const v = ++this.version;
    const state = this.workspace.state(handle);
    try {
      const preview = await this.workspace.preview(handle);
      if (v !== this.version) return;
      const d = preview.decision;
      this.item.text = d ? `$(checklist) GSD: ${d.unitType} ${d.unitId.split('/').pop()}` : `$(checklist) GSD: ${state.phase}`;
      this.item.tooltip = new vscode.MarkdownString(
        d
          ? `**Next unit:** \`${d.unitType}\` ${d.unitId} (decided by ${d.source})\n\nPhase \`${state.phase}\`. Click to dispatch it.`
          : `Phase \`${state.phase}\`. ${preview.blocker ?? state.nextAction}`,
      );
    } catch (error) {
      this.item.text = `$(warning) GSD: ${state.phase}`;
      this.item.tooltip = `Could not work out the next unit: ${(error as Error).message}`;
      this.log.warn(`status bar: ${(error as Error).message}`);
    }
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
