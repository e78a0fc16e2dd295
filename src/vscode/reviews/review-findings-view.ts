// Review findings where the code is (docs/review-findings.md): comment threads, Problems entries and
// their quick fixes, and the thread actions, built over the workspace and updated on every state change.
import * as vscode from 'vscode';
import { FindingThreads } from './finding-threads';
import { FindingProblems } from './finding-problems';
import { onDidChangeSetting, setting } from '../contributions/settings';
import { registerFindingCommands } from './finding-commands';
import { taskInFlight } from '../../core/reviews/unit-in-flight';
import type { GsdWorkspace } from '../workspace/gsd-workspace';
import { Owner } from '../lifecycle/owner';


export class ReviewFindingsView extends Owner implements vscode.Disposable {
  readonly threads: FindingThreads;
  readonly problems = this.own(new FindingProblems());

  constructor(
    private readonly workspace: GsdWorkspace,
    log: vscode.LogOutputChannel,
  ) {
    super();
    this.threads = this.own(new FindingThreads(workspace));
    this.own(vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, this.problems, FindingProblems.metadata));
    this.own(onDidChangeSetting('reviewFindings.problems', () => this.showProblems()));
    for (const command of registerFindingCommands(workspace, this.threads, log)) this.own(command);
  }

  /** After a state change: threads of the visible editors, then Problems. */
  update(): void {
    if (this.disposed) return;
    this.threads.update();
    this.showProblems();
  }

  private showProblems(): void {
    const scope = setting('reviewFindings.problems');
    this.problems.update(
      this.threads.projects().map(({ handle, index }) => ({ inFlight: taskInFlight(this.workspace.state(handle), handle.engine.currentUnit()?.unitId ?? null), index })),
      scope,
    );
  }
}
