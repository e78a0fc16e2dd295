// Review findings where the code is (docs/review-findings.md): comment threads, Problems entries and
// their quick fixes, and the thread actions, built over the workspace and updated on every state change.
import * as vscode from 'vscode';
import { FindingThreads } from './finding-threads';
import { FindingProblems } from './finding-problems';
import { onDidChangeSetting, setting } from '../contributions/settings';
import { registerFindingCommands } from './finding-commands';
import { taskInFlight } from '../../core/reviews/unit-in-flight';
import type { GsdWorkspace } from '../workspace/gsd-workspace';


export class ReviewFindingsView implements vscode.Disposable {
  readonly threads: FindingThreads;
  readonly problems = new FindingProblems();
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly workspace: GsdWorkspace,
    log: vscode.LogOutputChannel,
  ) {
    this.threads = new FindingThreads(workspace);
    this.subscriptions = [
      this.threads,
      this.problems,
      vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, this.problems, FindingProblems.metadata),
      onDidChangeSetting('reviewFindings.problems', () => this.showProblems()),
      ...registerFindingCommands(workspace, this.threads, log),
    ];
  }

  /** After a state change: threads of the visible editors, then Problems. */
  update(): void {
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

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
