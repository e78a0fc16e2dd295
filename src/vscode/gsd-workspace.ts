// The GSD projects of the open workspace: one StateIndex per workspace folder that has `.gsd`.
// It owns discovery and the `gsd.projectFound` context key; views and commands read from it.
import * as vscode from 'vscode';
import { locateProject, type GsdProject } from '../core/locate-project';
import { StateIndex } from '../core/state-index';
import type { GSDState } from '../core/types';

export interface ProjectHandle {
  folder: vscode.WorkspaceFolder;
  project: GsdProject;
  index: StateIndex;
}

export class GsdWorkspace implements vscode.Disposable {
  private projects: ProjectHandle[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after the set of projects or any project's state changed. */
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [this.changed];

  constructor(private readonly log: vscode.LogOutputChannel) {
    this.subscriptions.push(vscode.workspace.onDidChangeWorkspaceFolders(() => this.discover()));
    this.discover();
  }

  /** Finds `.gsd` in each workspace folder (walking up to the git root), keeping known indexes. */
  discover(): void {
    const previous = new Map(this.projects.map((p) => [p.project.gsdDir, p]));
    const found: ProjectHandle[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== 'file') continue;
      const project = locateProject(folder.uri.fsPath);
      if (!project || found.some((p) => p.project.gsdDir === project.gsdDir)) continue;
      const known = previous.get(project.gsdDir);
      found.push(known ? { ...known, folder } : { folder, project, index: new StateIndex(project) });
      if (!known) this.log.info(`GSD project at ${project.root}${project.symlinked ? ` (.gsd → ${project.gsdDir})` : ''}`);
    }
    this.projects = found;
    void vscode.commands.executeCommand('setContext', 'gsd.projectFound', found.length > 0);
    this.changed.fire();
  }

  list(): readonly ProjectHandle[] {
    return this.projects;
  }

  /** Derived state of a project (broken input is in its diagnostics; deriving never throws on it). */
  state(handle: ProjectHandle): GSDState {
    return handle.index.state();
  }

  /** Re-reads everything (the Refresh command). */
  refresh(): void {
    for (const p of this.projects) p.index.reset();
    this.discover();
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
  }
}
