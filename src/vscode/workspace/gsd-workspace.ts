// The GSD projects of the open workspace: one project engine (core/project) per workspace folder that
// has `.gsd`, fed by a file watcher on the real `.gsd` folder (the symlink target when `.gsd` is a
// link). Changes are debounced, applied incrementally, and announced with exactly which units changed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hookLogFile } from '../../core/agent-hooks/hook-log';
import { runtimeDir } from '../../core/files/runtime-folder';
import type { DispatchOutcome } from '../../core/dispatch/dispatch';
import { openLocatedProject, type Project } from '../../core/project/open-project';
import type { ProjectState } from '../../core/project/state-source';
import type { ProjectKind } from '../../core/state/project-kind';
import { locateProject, type GsdProject } from '../../core/state/locate-project';
import { stateChanges, type StateChanges } from '../../core/state/state-changes';
import { BUILTIN_HOOKS } from '../../builtin-hooks';
import { runOptions } from '../dispatch/dispatch-options';
import { EditorAwareStore } from './editor-aware-store';
import { Owner } from '../lifecycle/owner';
import { setContext } from '../contributions/context';
import { StepwiseReads } from './stepwise-reads';
import { NextUnitPreview, type NextUnitNow } from './next-unit-preview';

export type { NextUnitNow } from './next-unit-preview';

export interface ProjectHandle {
  readonly folder: vscode.WorkspaceFolder;
  readonly project: GsdProject;
  /** The project's engine: its state (StateIndex behind it for markdown), hooks and dispatch. */
  readonly engine: Project;
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
  /** Cancels the debounced flush, when one is due (an Owner timer: none runs after dispose). */
  cancelFlush: (() => void) | undefined;
  /** The state last announced (onDidChangeState): what the next flush compares with. */
  last: ProjectState | null;
  /** Stops polling the agent-hook log. */
  unwatchHookLog: () => void;
  /** What GSD: Next Unit would dispatch, worked out ahead. */
  next: NextUnitPreview;
  /** Which GSD generation the project is (detected again after every change: GSD migrates in place). */
  kind: ProjectKind;
  /**
   * Its files are being read a step at a time (readAhead): until then views show the engine's first
   * look, and nothing is decided or announced from it. Paths changed meanwhile are announced after.
   */
  reading: boolean;
  changedWhileReading: Set<string>;
}

/**
 * How long the read of the projects' files waits for a view to say it has shown their first look
 * (startReading): the reading takes the CPU the workbench needs to draw those rows.
 */
const READ_WAIT_MS = 1500;

export class GsdWorkspace extends Owner implements vscode.Disposable {
  private watched: Watched[] = [];
  private readonly projectsChanged = this.own(new vscode.EventEmitter<void>());
  private readonly stateChanged = this.own(new vscode.EventEmitter<ProjectChange>());
  private readonly hookLogged = this.own(new vscode.EventEmitter<ProjectHandle>());
  private readonly nextUnitChanged = this.own(new vscode.EventEmitter<NextUnitChange>());
  /** The unit GSD: Next Unit would dispatch was worked out again (after a change). */
  readonly onDidChangeNextUnit = this.nextUnitChanged.event;
  /** An agent hook ran in a project (its log in our runtime folder grew). */
  readonly onDidLogHookEvent = this.hookLogged.event;
  /** The set of projects changed (folders added or removed, `.gsd` created or deleted). */
  readonly onDidChangeProjects = this.projectsChanged.event;
  /** A project's derived state changed, with which units. */
  readonly onDidChangeState = this.stateChanged.event;
  private folderWatchers: vscode.FileSystemWatcher[] = [];
  private readonly reads = this.own(new StepwiseReads(this, READ_WAIT_MS, () => this.watched.some((w) => w.reading)));

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly debounceMs: () => number,
  ) {
    super();
    this.own(vscode.workspace.onDidChangeWorkspaceFolders(() => this.discover()));
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
      const engine = openLocatedProject(project, {
        reading: 'incremental',
        // Reads from disk; a write under an editor with unsaved changes is refused.
        store: new EditorAwareStore(),
        builtins: BUILTIN_HOOKS,
        trusted: () => vscode.workspace.isTrusted,
        log: { info: (m) => this.log.info(m), warn: (m) => this.log.warn(m) },
      });
      const w = this.watch({ folder, project, engine });
      next.push(w);
      this.log.info(`GSD project at ${project.root}${project.symlinked ? ` (.gsd → ${project.gsdDir})` : ''}: ${engine.firstLook().state.source.label}`);
    }
    for (const gone of previous.values()) this.unwatch(gone);
    this.watched = next;
    for (const w of next) if (w.reading && !previous.has(w.handle.project.gsdDir)) void this.readAhead(w);
    this.reads.settle();
    this.watchFolders();
    this.updateContext();
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
    // The first look (milestones and the active slice) is cheap; the rest is read after activation.
    const reading = !handle.engine.firstLook().complete;
    const next = new NextUnitPreview(handle.engine, handle.project.gsdDir, () => this.preview(handle), this.log, (before, after) => this.nextUnitChanged.fire({ handle, before, after }), () => this.watched.includes(w));
    const w: Watched = { handle, watcher, pending: new Set(), cancelFlush: undefined, last: null, unwatchHookLog: () => fs.unwatchFile(logFile, onLog), next, kind: this.detect(handle), reading, changedWhileReading: new Set() };
    if (w.kind === 'successor') this.log.info(`${handle.project.root} is a project of GSD's successor (@opengsd/gsd-pi 1.x): shown read-only, Next Unit hands off to GSD`);
    const onPath = (uri: vscode.Uri) => this.queue(w, uri.fsPath);
    watcher.onDidCreate(onPath);
    watcher.onDidChange(onPath);
    watcher.onDidDelete(onPath);
    return w;
  }

  /** The engine detects the kind again as it reads (GSD migrates projects in place). */
  private detect(handle: ProjectHandle): ProjectKind {
    return handle.engine.firstLook().state.source.projectKind;
  }

  /**
   * Reads a project's files one slice per turn of the event loop, so activation returns at once
   * and the extension host answers the workbench (the panel's first rows) between steps; then
   * announces the full state like any change.
   */
  private async readAhead(w: Watched): Promise<void> {
    const steps = await this.reads.run(
      () => this.readStep(w),
      () => !this.disposed && w.reading && this.watched.includes(w),
    );
    if (steps === null) return;
    this.endReading(w);
    this.log.debug(`read ${w.handle.project.root} in ${steps} steps`);
  }

  private readStep(w: Watched): boolean {
    try {
      return w.handle.engine.readStep();
    } catch (error) {
      // The full derive reads it again and reports what is wrong in its diagnostics.
      this.log.warn(`reading ${w.handle.project.root} step by step stopped: ${(error as Error).message}`);
      return false;
    }
  }

  /** The read is over (done, or cut short by Refresh): announce the full state, with what changed meanwhile. */
  private endReading(w: Watched): void {
    if (!w.reading) return;
    w.reading = false;
    for (const p of w.changedWhileReading) w.pending.add(p);
    w.changedWhileReading.clear();
    this.flush(w);
    this.reads.settle();
  }

  /** A view has shown the projects' first look: their files may be read now (else after READ_WAIT_MS). */
  startReading(): void {
    this.reads.start();
  }

  /**
   * A view is drawing the projects' first look and calls startReading() once drawn: a read started
   * by the wait meanwhile would take the CPU the workbench draws with.
   */
  leaveReadingToView(): void {
    this.reads.leaveStartToView();
  }

  /** Whether the project's files are still being read (views show its first look meanwhile). */
  isReading(handle: ProjectHandle): boolean {
    return this.watched.find((x) => x.handle === handle)?.reading ?? false;
  }

  /** Resolves when no project is being read any more. */
  whenRead(): Promise<void> {
    return this.reads.whenDone();
  }

  /**
   * What a view shows of the project now: the full state, or while it is being read the engine's
   * first look (see Project.firstLook). Never for deciding anything: `state()` is.
   */
  shownState(handle: ProjectHandle): ProjectState {
    return this.isReading(handle) ? handle.engine.firstLook().state : this.state(handle);
  }

  /** The project's GSD generation; `successor` projects are read-only (nothing of ours runs or writes there). */
  kind(handle: ProjectHandle): ProjectKind {
    return this.watched.find((x) => x.handle === handle)?.kind ?? this.detect(handle);
  }

  isReadOnly(handle: ProjectHandle): boolean {
    return handle.engine.readOnly;
  }

  /**
   * The context keys the menus read, from the projects as they are now, in one place. A workspace
   * without a project is not a read-only one (an empty `every` would say it is, as flush() once did).
   */
  private updateContext(): void {
    const handles = this.list();
    setContext('projectFound', handles.length > 0);
    setContext('readOnlyProject', handles.length > 0 && handles.every((h) => this.isReadOnly(h)));
  }

  private unwatch(w: Watched): void {
    w.watcher.dispose();
    w.unwatchHookLog();
    w.cancelFlush?.();
  }

  private queue(w: Watched, fsPath: string): void {
    // Our own runtime records change on every dispatch; they are not part of the state.
    // Our own runtime records (and GSD's own `runtime/` folder) are not part of the state.
    const gsdDir = w.handle.project.gsdDir;
    if (fsPath.startsWith(runtimeDir(gsdDir) + path.sep) || fsPath.startsWith(path.join(gsdDir, 'runtime') + path.sep)) return;
    // Every reader of a WAL database, ours included, marks its read in gsd.db-shm: following it would
    // re-read after each read. What GSD commits shows in gsd.db-wal, gsd.db and event-log.jsonl, which
    // this watcher (`**/*` under `.gsd`) reports like any file.
    if (fsPath === path.join(w.handle.project.gsdDir, 'gsd.db-shm')) return;
    w.pending.add(fsPath);
    w.cancelFlush?.();
    w.cancelFlush = this.after(this.debounceMs(), () => this.flush(w));
  }

  /** Applies queued paths to the index and announces what changed. Also used by tests and commands. */
  flush(w: Watched): void {
    w.cancelFlush?.();
    w.cancelFlush = undefined;
    const paths = [...w.pending];
    w.pending.clear();
    w.handle.engine.changed(paths);
    if (w.reading) {
      for (const p of paths) w.changedWhileReading.add(p);
      return;
    }
    const before = w.last;
    const after = this.state(w.handle);
    // Only here: a view reading the state after our own write (which the engine applies at once)
    // must not make the watcher's later report of that write look like no change.
    w.last = after;
    const changes = stateChanges(before, after);
    // A database appearing (or becoming readable) changes where the state comes from, even when the
    // state itself reads the same: a project-level change, so the panel names the new source.
    if (before && before.source.label !== after.source.label) changes.project = true;
    if (after.source.projectKind !== w.kind) {
      this.log.info(`${w.handle.project.root} is now a ${after.source.projectKind} project`);
      w.kind = after.source.projectKind;
      this.updateContext();
    }
    if (changes.project || changes.structure || changes.milestones.size || changes.slices.size) {
      this.stateChanged.fire({ handle: w.handle, changes, paths });
    }
  }

  list(): readonly ProjectHandle[] {
    return this.watched.map((w) => w.handle);
  }

  /** The derived state (incremental; broken input is in its diagnostics, never an exception). */
  state(handle: ProjectHandle): ProjectState {
    return handle.engine.state();
  }

  /** What GSD: Next Unit would dispatch now, hooks included, on the engine's state, writing nothing. */
  preview(handle: ProjectHandle): Promise<DispatchOutcome> {
    return handle.engine.preview(runOptions(this.log, true));
  }

  /**
   * The unit GSD: Next Unit would dispatch now, hooks included; undefined while it is being worked
   * out (or could not be). The panel's "next" and the status bar show this, never the default
   * dispatch alone: a hook (the review loop) may decide another unit than the active task.
   */
  nextUnit(handle: ProjectHandle): DispatchOutcome | undefined {
    const now = this.nextUnitNow(handle);
    return now.status === 'known' ? now.outcome : undefined;
  }

  /**
   * The unit GSD: Next Unit would dispatch, from the project as it is at this moment: a preview worked
   * out from other inputs (a unit completed, dispatched or cancelled since, a file changed) is never
   * answered; it is worked out again, and onDidChangeNextUnit says when it is known.
   */
  nextUnitNow(handle: ProjectHandle): NextUnitNow {
    const w = this.watched.find((x) => x.handle === handle);
    if (!w || w.kind === 'successor') return { status: 'failed', error: 'not a project whose units we dispatch' };
    // Worked out once the project is read (the read's end announces it).
    if (w.reading) return { status: 'working' };
    return w.next.now();
  }

  /** Works out the next unit again for every project; announces each one. */
  async updateNextUnits(): Promise<void> {
    await Promise.all(this.watched.map((w) => this.updateNextUnit(w)));
  }

  private async updateNextUnit(w: Watched): Promise<void> {
    if (w.reading) return;
    // GSD picks the next unit of a successor project itself; our dispatch (and its hooks) never runs there.
    if (w.kind === 'successor') {
      // Announced every time: the status bar shows the (read-only) phase from this event.
      this.nextUnitChanged.fire({ handle: w.handle, before: w.next.forget(), after: null });
      return;
    }
    await w.next.update();
  }

  /** Re-reads everything (the Refresh command). */
  refresh(): void {
    for (const w of this.watched) {
      w.handle.engine.reset();
      w.last = null;
    }
    this.discover();
    // Read whole, now: a project still being read step by step ends its read here.
    for (const w of this.watched) {
      if (w.reading) this.endReading(w);
      else this.flush(w);
    }
  }

  /** Applies a write of ours at once, without waiting for the watcher (a thread action). */
  wrote(handle: ProjectHandle, files: readonly string[]): void {
    const w = this.watched.find((x) => x.handle === handle);
    if (!w) return;
    for (const f of files) w.pending.add(f);
    this.flush(w);
  }

  /** Applies pending file events at once (tests, and before a dispatch). */
  flushAll(): void {
    for (const w of this.watched) if (w.pending.size) this.flush(w);
  }

  override dispose(): void {
    // The watchers change with the projects, so they are not owned: they end here, with the rest.
    for (const w of this.watched) this.unwatch(w);
    for (const w of this.folderWatchers) w.dispose();
    super.dispose();
  }
}

