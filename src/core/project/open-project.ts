// One long-lived engine per GSD project, shared by the extension, the CLI and the agent-hook bridge:
// the current state (from the source the project's kind calls for), what changed on disk, the hooks
// (loaded once), and every decision made on that state: preview, dispatch, complete. The extension
// keeps one per workspace project and tells it what the watcher saw; the CLI and the hook bridge open
// one per process, which reads lazily and only once.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  cancelDispatchedUnit,
  completeDispatchedUnit,
  currentDispatchIn,
  decideNextUnit,
  dispatchContext,
  recordChosenUnit,
  type AfterDispatchOutcome,
  type DispatchContext,
  type DispatchOutcome,
  type DecisionOptions,
} from '../dispatch/dispatch';
import type { DispatchRecord } from '../dispatch/dispatch-record';
import { journalFile } from '../files/commit-journal';
import { NodeGsdStore, type GsdStore } from '../files/gsd-store';
import type { NodeSqliteLoad } from '../sqlite/node-sqlite';
import type { BuiltinHook } from '../hooks/loading/hook-loader';
import type { DispatchDecision, HookLog } from '../hooks/engine/middleware-types';
import { HookRegistry } from '../hooks/engine/hook-registry';
import { NoProjectError } from '../state/derive-state';
import { locateProject, type GsdProject } from '../state/locate-project';
import type { ProjectFiles } from '../state/project-files';
import type { GSDState } from '../model/types';
import { COMPAT_MARKER, DATABASE_FILE, detectProjectKind, PHASES_DIR, type ProjectKindReport } from '../state/project-kind';
import { Gsd2DatabaseSource } from './gsd2-database-source';
import { HookCache, type ProjectHooks } from './hook-cache';
import { MarkdownSource, type MarkdownReading } from './markdown-source';
import type { ProjectState, StateSource, StateSourceInfo } from './state-source';
import { SuccessorSource } from './successor-source';

export interface OpenProjectOptions {
  /** The door to `.gsd` (the extension's refuses to write under an unsaved editor). */
  store?: GsdStore;
  builtins?: readonly BuiltinHook[];
  /** May hook code from the workspace run? A function when it can change (VS Code's workspace trust). */
  trusted?: boolean | (() => boolean);
  userHooksDir?: string;
  /** Where the hooks' loading and chatter goes (per call, `DecisionOptions.log` overrides it). */
  log?: HookLog;
  /** Called before each hook module from a hook folder is loaded (the CLI's process deadline). */
  beforeHookCode?: () => void;
  now?: () => Date;
  /**
   * How the markdown is read: `incremental` (a StateIndex: the extension), `lazy` (only what the
   * active unit needs: the CLI's default) or `full` (`state --full`). Default `lazy`.
   */
  reading?: MarkdownReading;
  /** Where `node:sqlite` comes from (tests stand in a runtime without it). */
  loadSqlite?: () => NodeSqliteLoad;
}

export class ReadOnlyProjectError extends Error {}

export interface Project {
  readonly location: GsdProject;
  readonly root: string;
  readonly gsdDir: string;
  readonly store: GsdStore;
  /** The `.gsd` file cache the state source and the hooks share. */
  readonly files: ProjectFiles;
  /** The project's kind and why (re-detected when gsd.db, `phases/` or `.compat.json` come or go). */
  kind(): ProjectKindReport;
  /** Where the current state comes from (reads the state if it was not read yet: a fallback is known only then). */
  source(): StateSourceInfo;
  /** True for a successor project: nothing of it is written, no hook runs, no unit is dispatched. */
  readonly readOnly: boolean;
  /** The current state; the same object until something it depends on changed. */
  state(): ProjectState;
  /**
   * The state as far as it is read: the full one when it is, else a first look that reads only the
   * milestones and the active slice (GSD's decision on it is the full state's; other slices have no
   * plan loaded, pending actions are the active slice's). For showing early, never for deciding.
   */
  firstLook(): { state: ProjectState; complete: boolean };
  /** Reads one more step of the full state (a slice); false once state() has nothing left to read. */
  readStep(): boolean;
  /** Tell the engine what changed on disk (absolute paths); true when the state will be read again. */
  changed(paths: readonly string[]): boolean;
  /** Forget everything read and loaded (the Refresh command). */
  reset(): void;
  /** The hook registry, lifecycle providers and their options; loaded once (see hook-cache.ts). */
  hooks(): Promise<ProjectHooks>;
  /** What Next Unit would dispatch now, on the current state, writing nothing. */
  preview(options?: DecisionOptions): Promise<DispatchOutcome>;
  /** Decides and records the next unit, committing the hooks' state. */
  dispatch(options?: DecisionOptions): Promise<DispatchOutcome>;
  /** Records a unit the user chose (e.g. "Replan slice" on a Known Issues CodeLens). */
  dispatchUnit(unit: DispatchDecision, options?: DecisionOptions): Promise<DispatchOutcome>;
  /** Processes the recorded unit's result (afterDispatch). Throws NothingDispatchedError when none waits. */
  complete(options?: DecisionOptions): Promise<AfterDispatchOutcome>;
  /** The unit recorded as dispatched and not yet completed. */
  currentUnit(): DispatchRecord | null;
  /** Cancels the unit in flight (no hook runs); returns it, or null when none was in flight. */
  cancel(options?: DecisionOptions): DispatchRecord | null;
}

const silentLog: HookLog = { info: () => undefined, warn: () => undefined };

/**
 * Which of the files the kind is told by (gsd.db, phases/, .compat.json) exist: while none comes or
 * goes, the kind stands and is not detected again.
 */
function kindMarkersPresent(gsdDir: string): string {
  return [DATABASE_FILE, PHASES_DIR, COMPAT_MARKER].map((n) => (fs.existsSync(path.join(gsdDir, n)) ? '1' : '0')).join('');
}

function noHooks(): ProjectHooks {
  return { registry: new HookRegistry(), providers: [], options: new Map(), loaded: [], skipped: [], diagnostics: [] };
}

class ProjectEngine implements Project {
  readonly root: string;
  readonly gsdDir: string;
  readonly store: GsdStore;
  private readonly reading: MarkdownReading;
  private detection!: ProjectKindReport;
  private kindMarkers = '';
  private recheckKind = false;
  private src!: StateSource;
  private readonly hookCache: HookCache;
  private shown: { from: object; state: ProjectState } | null = null;
  private looked: { from: object; state: ProjectState } | null = null;
  private context: { state: object; hooks: ProjectHooks; ctx: DispatchContext } | null = null;

  constructor(
    readonly location: GsdProject,
    private readonly options: OpenProjectOptions,
  ) {
    this.root = location.root;
    this.gsdDir = location.gsdDir;
    this.store = options.store ?? new NodeGsdStore();
    this.reading = options.reading ?? 'lazy';
    this.detect();
    this.hookCache = new HookCache(this.gsdDir, () => this.src.files, {
      builtins: options.builtins ?? [],
      trusted: options.trusted ?? false,
      log: options.log ?? silentLog,
      ...(options.userHooksDir ? { userHooksDir: options.userHooksDir } : {}),
      ...(options.beforeHookCode ? { beforeHookCode: options.beforeHookCode } : {}),
    });
  }

  /**
   * The kind from the folders and the database header alone (no second open of gsd.db before the
   * reader's own): an unstamped gsd.db beside `milestones/` is taken as GSD-2's. Only a schema_version
   * above GSD-2's, which the reader then reports, makes the full detection (node:sqlite) run again;
   * `full` is that second pass.
   */
  private detect(full = false): void {
    const sqliteMissing = this.options.loadSqlite && 'unavailable' in this.options.loadSqlite();
    this.kindMarkers = kindMarkersPresent(this.gsdDir);
    this.detection = detectProjectKind(this.gsdDir, sqliteMissing || !full ? { sqlite: 'off' } : {});
    const at = { root: this.root, gsdDir: this.gsdDir };
    switch (this.detection.kind) {
      case 'gsd2-database':
        this.src = new Gsd2DatabaseSource(at, this.store, this.reading, this.options.loadSqlite ? { loadSqlite: this.options.loadSqlite } : {});
        break;
      case 'successor':
        this.src = new SuccessorSource(at, this.store, sqliteMissing ? { sqlite: 'off' } : {});
        break;
      default:
        this.src = new MarkdownSource(at, this.store, this.reading);
    }
    this.shown = null;
    this.looked = null;
    this.context = null;
  }

  get files(): ProjectFiles {
    return this.src.files;
  }

  get readOnly(): boolean {
    return this.src.info.readOnly;
  }

  kind(): ProjectKindReport {
    this.checkKind();
    return this.detection;
  }

  source(): StateSourceInfo {
    return this.state().source;
  }

  private checkKind(): void {
    if (!this.recheckKind) return;
    this.recheckKind = false;
    if (kindMarkersPresent(this.gsdDir) !== this.kindMarkers) this.detect();
  }

  state(): ProjectState {
    this.checkKind();
    let raw = this.src.state();
    if (this.src instanceof Gsd2DatabaseSource && this.src.fallbackCause === 'schema-too-new') {
      // An unstamped database newer than GSD-2's schema: the successor before its stamps (or newer still).
      this.detect(true);
      raw = this.src.state();
    }
    return this.present(raw, 'shown');
  }

  firstLook(): { state: ProjectState; complete: boolean } {
    this.checkKind();
    // Only a markdown index reads in steps; every other source's state is read whole, and at once.
    const look = this.src.firstLook?.();
    if (!look || look.complete) return { state: this.state(), complete: true };
    return { state: this.present(look.state, 'looked'), complete: false };
  }

  readStep(): boolean {
    this.checkKind();
    return this.src.readStep?.() ?? false;
  }

  /** GSD's state as handed out: with its source, and what detection and our records have to say. */
  private present(raw: GSDState, slot: 'shown' | 'looked'): ProjectState {
    const kept = this[slot];
    if (kept?.from === raw) return kept.state;
    // A gsd.db that detection could not take (random bytes, a link out of .gsd) leaves the project to
    // its markdown: said, in Problems and as the source's fallback, never ignored in silence.
    const unread = this.src instanceof MarkdownSource ? this.detection.diagnostics.filter((d) => !raw.diagnostics.some((x) => x.file === d.file && x.message === d.message)) : [];
    const info = unread.length && !this.src.info.fallback ? { ...this.src.info, fallback: unread[0].message } : this.src.info;
    const state: ProjectState = { ...raw, source: info, readOnly: info.readOnly, projectKind: info.projectKind };
    if (unread.length) state.diagnostics = [...unread, ...raw.diagnostics];
    // What finding the project did to our records (a journal finished or set aside) is said with every state.
    const notes = this.location.notes;
    if (notes) state.diagnostics = [...notes.map((message) => ({ file: journalFile(this.gsdDir), severity: 'warning' as const, message })), ...state.diagnostics];
    this[slot] = { from: raw, state };
    return state;
  }

  changed(paths: readonly string[]): boolean {
    if (paths.length === 0) return false;
    const top = new Set([DATABASE_FILE, PHASES_DIR, COMPAT_MARKER]);
    if (paths.some((p) => path.dirname(p) === this.gsdDir && top.has(path.basename(p)))) this.recheckKind = true;
    this.hookCache.changed(paths);
    return this.src.changed(paths);
  }

  reset(): void {
    this.src.reset();
    this.hookCache.reset();
    this.detect();
  }

  hooks(): Promise<ProjectHooks> {
    // Nothing of a read-only project's runs: our hooks would decide and write there.
    return this.readOnly ? Promise.resolve(noHooks()) : this.hookCache.get();
  }

  /** The state and hooks a decision runs on: built once per state and hook set, not per call. */
  private async dispatchContext(): Promise<DispatchContext> {
    const hooks = await this.hooks();
    const state = this.state();
    if (this.context && this.context.state === state && this.context.hooks === hooks) return this.context.ctx;
    const ctx = dispatchContext({ gsdDir: this.gsdDir, store: this.store, files: this.src.files }, state, hooks);
    this.context = { state, hooks, ctx };
    return ctx;
  }

  private run(options: DecisionOptions): DecisionOptions {
    return { log: this.options.log ?? silentLog, ...(this.options.now ? { now: this.options.now } : {}), ...options };
  }

  private refuseWrite(what: string): void {
    if (this.readOnly) throw new ReadOnlyProjectError(`${what}: this is a ${this.src.info.label} project; only GSD itself records progress there`);
  }

  async preview(options: DecisionOptions = {}): Promise<DispatchOutcome> {
    if (this.readOnly) {
      const s = this.state();
      return {
        decision: null,
        phase: s.phase,
        blocker: `read-only project (${s.source.label}): GSD itself decides and records its units`,
        nextAction: s.nextAction,
        hooks: { loaded: [], skipped: [], trace: [], ignoredDecisions: [] },
        written: [],
        applied: false,
        diagnostics: s.diagnostics,
      };
    }
    return decideNextUnit(await this.dispatchContext(), this.run({ ...options, apply: false }));
  }

  async dispatch(options: DecisionOptions = {}): Promise<DispatchOutcome> {
    this.refuseWrite('nothing is dispatched');
    const out = await decideNextUnit(await this.dispatchContext(), this.run({ ...options, apply: true }));
    this.changed(out.written);
    return out;
  }

  async dispatchUnit(unit: DispatchDecision, options: DecisionOptions = {}): Promise<DispatchOutcome> {
    this.refuseWrite('nothing is dispatched');
    const out = recordChosenUnit(await this.dispatchContext(), unit, this.run(options));
    this.changed(out.written);
    return out;
  }

  async complete(options: DecisionOptions = {}): Promise<AfterDispatchOutcome> {
    this.refuseWrite('nothing is completed');
    const out = await completeDispatchedUnit(await this.dispatchContext(), this.run(options));
    this.changed(out.written);
    return out;
  }

  cancel(options: DecisionOptions = {}): DispatchRecord | null {
    this.refuseWrite('nothing is cancelled');
    const out = cancelDispatchedUnit({ gsdDir: this.gsdDir, store: this.store, files: this.src.files }, this.run(options));
    this.changed(out.written);
    return out.cancelled;
  }

  currentUnit(): DispatchRecord | null {
    return this.readOnly ? null : currentDispatchIn(this.gsdDir, this.store);
  }
}

/** Opens the project `root` belongs to (the nearest `.gsd` at or above it). Throws NoProjectError. */
export function openProject(root: string, options: OpenProjectOptions = {}): Project {
  const location = locateProject(root);
  if (!location) throw new NoProjectError(root);
  return new ProjectEngine(location, options);
}

/** The same, for a project already located (the extension locates its workspace folders itself). */
export function openLocatedProject(location: GsdProject, options: OpenProjectOptions = {}): Project {
  return new ProjectEngine(location, options);
}
