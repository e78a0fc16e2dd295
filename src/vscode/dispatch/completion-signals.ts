// Automatic completion: when the file a dispatched unit is supposed to produce appears (or changes)
// after the dispatch, the unit is completed (afterDispatch) exactly once. Units without such a file
// (fix-task) complete through the agent hooks or GSD: Complete Unit. The rules are in
// completion-signal-rules.ts; the README lists each signal.
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { completionSignal } from './completion-signal-rules';
import type { GsdWorkspace, ProjectChange } from '../workspace/gsd-workspace';
import type { UnitCompleter } from './next-unit-command';

export class CompletionSignals {
  constructor(
    private readonly workspace: GsdWorkspace,
    private readonly completer: UnitCompleter,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  async onStateChange({ handle, paths }: ProjectChange): Promise<void> {
    // Nothing of ours is dispatched or completed in a successor project.
    if (this.workspace.isReadOnly(handle)) return;
    const record = handle.engine.currentUnit();
    const file = completionSignal(this.workspace.state(handle), record, paths);
    if (!file || !record) return;
    this.log.info(`${path.basename(file)} appeared for ${record.unitType} ${record.unitId}; completing it`);
    try {
      await this.completer.complete(handle, `${path.basename(file)} was written`);
    } catch (error) {
      this.log.error(`could not complete ${record.unitType} ${record.unitId}: ${(error as Error).message}`);
    }
  }
}
