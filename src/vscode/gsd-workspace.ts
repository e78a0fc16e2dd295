// The GSD projects of the open workspace: one StateIndex per workspace folder that has `.gsd`, fed
// by a file watcher on the real `.gsd` folder (the symlink target when `.gsd` is a link). Changes are
// debounced, applied incrementally, and announced with exactly which units changed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hookLogFile } from '../core/agent-hooks/hook-log';
import { dispatchNextUnit, type DispatchOutcome } from '../core/dispatch/dispatch';
import { locateProject, type GsdProject } from '../core/state/locate-project';
import { StateIndex } from '../core/state/state-index';
import { stateChanges, type StateChanges } from '../core/state/state-changes';
import type { GSDState } from '../core/model/types';
import { dispatchOptions } from './dispatch-options';
import { CONTEXT_KEYS } from './contribution-ids';

export interface ProjectHandle {
  readonly folder: vscode.WorkspaceFolder;
  readonly project: GsdProject;
  readonly index: StateIndex;
}

/** The unit GSD: Next Unit would dispatch changed (or was worked out for the first time). */
export interface NextUnitChange {
  handle: ProjectHandle;
  /** Unit ids (`M001/S01/T01`, `M001/S01`, `M001`) before and after; null when none. */
  before: string | null;
  after: string | null;
}

export interface ProjectChange {
  handle: ProjectHandle;
  changes: StateChanges;
  /** Paths that changed on disk (for logs and tests). */
  paths: string[];
}

interface Watched {
  handle: ProjectHandle;
  watcher: vscode.FileSystemWatcher;
  pending: Set<string>;
  timer: NodeJS.Timeout | undefined;
  last: GSDState | null;
  /** Stops polling the agent-hook log. */
  unwatchHookLog: () => void;
  /** The last preview of GSD: Next Unit, and a counter so a slow older one never overwrites it. */
  next: DispatchOutcome | undefined;
  nextVersion: number;
}

export class GsdWorkspace implements vscode.Disposable {
  private watched: Watched[] = [];
  private readonly projectsChanged = new vscode.EventEmitter<void>();
  private readonly stateChanged = new vscode.EventEmitter<ProjectChange>();
  private readonly hookLogged = new vscode.EventEmitter<ProjectHandle>();
  private readonly nextUnitChanged = new vscode.EventEmitter<NextUnitChange>();
  /** The unit GSD: Next Unit would dispatch was worked out again (after a change). */
  readonly onDidChangeNextUnit = this.nextUnitChanged.event;
  /** An agent hook ran in a project (its log under `.gsd/runtime/` grew). */
  readonly onDidLogHookEvent = this.hookLogged.event;
  /** The set of projects changed (folders added or removed, `.gsd` created or deleted). */
  readonly onDidChangeProjects = this.projectsChanged.event;
  /** A project's derived state changed, with which units. */
  readonly onDidChangeState = this.stateChanged.event;
  private readonly subscriptions: vscode.Disposable[] = [this.projectsChanged, this.stateChanged, this.hookLogged, this.nextUnitChanged];
  private folderWatchers: vscode.FileSystemWatcher[] = [];

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly debounceMs: () => number,
  ) {
    this.subscriptions.push(vscode.workspace.onDidChangeWorkspaceFolders(() => this.discover()));
    this.discover();
  }

  /** Finds `.gsd` for each workspace folder (walking up to the git root), keeping known indexes. */
  discover(): void {
    this.log.debug(`looking for .gsd in ${vscode.workspace.workspaceFolders?.length ?? 0} workspace folder(s)`);
    const previous = new Map(this.watched.map((w) => [w.handle.project.gsdDir, w]));
    const next: Watched[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== 'file') continue;
      let project: GsdProject | null = null;
      try {
        project = locateProject(folder.uri.fsPath);
      } catch (error) {
        this.log.warn(`could not look for .gsd in ${folder.uri.fsPath}: ${(error as Error).message}`);
      }
      if (!project || next.some((w) => w.handle.project.gsdDir === project!.gsdDir)) continue;
      const known = previous.get(project.gsdDir);
      if (known) {
        previous.delete(project.gsdDir);
        next.push(known);
        continue;
      }
      next.push(this.watch({ folder, project, index: new StateIndex(project) }));
      this.log.info(`GSD project at ${project.root}${project.symlinked ? ` (.gsd → ${project.gsdDir})` : ''}`);
    }
    for (const gone of previous.values()) this.unwatch(gone);
    this.watched = next;
    this.watchFolders();
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.projectFound, next.length > 0);
    this.projectsChanged.fire();
  }

  /** `.gsd` appearing or disappearing in a workspace folder changes the set of projects. */
  private watchFolders(): void {
    for (const w of this.folderWatchers) w.dispose();
    this.folderWatchers = (vscode.workspace.workspaceFolders ?? []).map((folder) => {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '.gsd'));
      const rediscover = () => this.discover();
      w.onDidCreate(rediscover);
      w.onDidDelete(rediscover);
      return w;
    });
  }

  private watch(handle: ProjectHandle): Watched {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(handle.project.gsdDir), '**/*'));
    // The hook log is appended by another process and may not exist yet; the workspace watcher did
    // not report its creation reliably, so its size and time are polled (one stat a second).
    const logFile = hookLogFile(handle.project.gsdDir);
    const onLog = (now: fs.Stats, before: fs.Stats) => {
      if (now.mtimeMs !== before.mtimeMs || now.size !== before.size) this.hookLogged.fire(handle);
    };
    fs.watchFile(logFile, { interval: 1000, persistent: false }, onLog);
    const w: Watched = { handle, watcher, pending: new Set(), timer: undefined, last: null, unwatchHookLog: () => fs.unwatchFile(logFile, onLog), next: undefined, nextVersion: 0 };
    const onPath = (uri: vscode.Uri) => this.queue(w, uri.fsPath);
    watcher.onDidCreate(onPath);
    watcher.onDidChange(onPath);
    watcher.onDidDelete(onPath);
    return w;
  }

  private unwatch(w: Watched): void {
    w.watcher.dispose();
    w.unwatchHookLog();
    if (w.timer) clearTimeout(w.timer);
  }

  private queue(w: Watched, fsPath: string): void {
    // Our own runtime records change on every dispatch; they are not part of the state.
    if (fsPath.startsWith(path.join(w.handle.project.gsdDir, 'runtime') + path.sep)) return;
    w.pending.add(fsPath);
    if (w.timer) clearTimeout(w.timer);
    w.timer = setTimeout(() => this.flush(w), this.debounceMs());
  }

  /** Applies queued paths to the index and announces what changed. Also used by tests and commands. */
  flush(w: Watched): void {
    w.timer = undefined;
    const paths = [...w.pending];
    w.pending.clear();
    for (const p of paths) w.handle.index.changed(p);
    const before = w.last;
    const after = this.state(w.handle);
    const changes = stateChanges(before, after);
    if (changes.project || changes.structure || changes.milestones.size || changes.slices.size) {
      this.stateChanged.fire({ handle: w.handle, changes, paths });
    }
  }

  list(): readonly ProjectHandle[] {
    return this.watched.map((w) => w.handle);
  }

  /** The derived state (incremental; broken input is in its diagnostics, never an exception). */
  state(handle: ProjectHandle): GSDState {
    const state = handle.index.state();
    const w = this.watched.find((x) => x.handle === handle);
    if (w) w.last = state;
    return state;
  }

  /** What GSD: Next Unit would dispatch now, hooks included, without writing anything. */
  preview(handle: ProjectHandle): Promise<DispatchOutcome> {
    return dispatchNextUnit(dispatchOptions(handle, this.log, true));
  }

  /**
   * The unit GSD: Next Unit would dispatch, as last worked out (undefined before the first time).
   * The panel's "next" and the status bar show this, never the default dispatch alone: a hook (the
   * review loop) may decide another unit than the active task.
   */
  nextUnit(handle: ProjectHandle): DispatchOutcome | undefined {
    return this.watched.find((x) => x.handle === handle)?.next;
  }

  /** Works out the next unit again for every project; announces the ones that changed. */
  async updateNextUnits(): Promise<void> {
    await Promise.all(this.watched.map((w) => this.updateNextUnit(w)));
  }

  private async updateNextUnit(w: Watched): Promise<void> {
    const version = ++w.nextVersion;
    let next: DispatchOutcome;
    try {
      next = await this.preview(w.handle);
    } catch (error) {
      this.log.warn(`could not work out the next unit: ${(error as Error).message}`);
      if (version !== w.nextVersion) return;
      // Shown as unknown (status bar warning, no "next" mark), never as the previous answer.
      const stale = w.next;
      w.next = undefined;
      this.nextUnitChanged.fire({ handle: w.handle, before: stale?.decision?.unitId ?? null, after: null });
      return;
    }
    if (version !== w.nextVersion || !this.watched.includes(w)) return;
    const before = w.next;
    w.next = next;
    this.nextUnitChanged.fire({ handle: w.handle, before: before?.decision?.unitId ?? null, after: next.decision?.unitId ?? null });
  }

  /** Re-reads everything (the Refresh command). */
  refresh(): void {
    for (const w of this.watched) {
      w.handle.index.reset();
      w.last = null;
    }
    this.discover();
    for (const w of this.watched) this.flush(w);
  }

  /** Applies pending file events at once (tests, and before a dispatch). */
  flushAll(): void {
    for (const w of this.watched) if (w.pending.size) this.flush(w);
  }

  dispose(): void {
    for (const w of this.watched) this.unwatch(w);
    for (const w of this.folderWatchers) w.dispose();
    for (const d of this.subscriptions) d.dispose();
  }
}
