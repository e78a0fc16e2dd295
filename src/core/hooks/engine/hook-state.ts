// Hook state: each hook reads and writes only its own `extensions.<hook>` block of a unit's sidecar
// (`T01-HOOKS.md`, `S01-HOOKS.md`, `M001-HOOKS.md`: hook-sidecar.ts), through a handle the host
// creates for it. Writes are staged during a dispatch and committed together by the host, only after
// the chain finished without error. Blocks an older version left in the unit's PLAN/ROADMAP are read
// until they are moved, which the commit does (legacy-hook-state.ts).
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { assertPlainData, FrontmatterWriteError, setExtensionBlock } from '../../parse/frontmatter-block';
import type { GsdStore, PlannedWrite } from '../../files/gsd-store';
import { UnreadableFileError } from '../../files/bounded-read';
import type { ProjectFiles } from '../../state/project-files';
import { extensionBlocks, mergedBlocks, newSidecarText, unreadableSidecar, UnreadableHookStateError } from './hook-sidecar';
import { movedMarkerFile, planMove, stateFilesOfProject } from './legacy-hook-state';
import { UnitFileError, unitStateFiles, type UnitStateFiles } from './unit-files';
import { preferencesFile } from './hook-config';
import { parsePreferences } from '../../parse/preferences';
import { settingsFile, settingsText } from './settings-file';

/**
 * Each hook's state on one unit (what `ctx.store` holds), by hook name. Empty here: a hook types its
 * own by declaration merging through the front door (`hooks/api.ts`):
 * `declare module '…/hooks/api' { interface GSDUnitExtensions { 'my-hook': MyUnitState } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface GSDUnitExtensions {}

/** The per-unit state type a hook name declared, or `unknown` for a name that declared none. */
export type UnitStateOf<N extends string> = N extends keyof GSDUnitExtensions ? GSDUnitExtensions[N] : unknown;

/**
 * What a hook may do with its own state: nothing more (no raw writer, no other namespace). Function
 * properties, not methods, so `T` is checked both ways (a method's parameter would be bivariant).
 */
export interface HookStateHandle<T = unknown> {
  readonly hook: string;
  /** The hook's state on a unit (`M001`, `M001/S01`, `M001/S01/T01`), including changes staged in this dispatch. */
  readonly get: (unitId: string) => T | undefined;
  /** Stages new state for a unit; `undefined` removes the hook's block. Written only if the dispatch succeeds. */
  readonly set: (unitId: string, value: T | undefined) => void;
}

export class StateConflictError extends Error {}

interface StagedFile {
  file: string;
  text: string;
  /** The file's text when the hook staged the write (null: did not exist). */
  expected: string | null;
}

interface StagedEdit {
  hook: string;
  file: string;
  unit: UnitStateFiles;
  value: unknown;
  /** The block as it was when the hook first read it: a different value at commit is someone else's edit. */
  seen: unknown;
}

export interface CommitReport {
  files: string[];
  retries: number;
  /** Said after the commit point (the commit stands). */
  notes: string[];
}

/** A file committed with the hook state, computed from its text as it is under the write lock. */
export interface AlsoWrite {
  file: string;
  /** Throwing refuses the whole commit (nothing is written). */
  update: (current: string | null) => string;
}

/** A state file's text; one that cannot be read as a file (a folder in its place) reads as missing. */
function readState(store: GsdStore, file: string): string | null {
  try {
    return store.readText(file);
  } catch {
    return null;
  }
}

/** A hook's block on a unit: the sidecar's, else the one an older version left in the PLAN/ROADMAP. */
function blockIn(sidecar: string | null, legacy: string | null, hook: string): unknown {
  return mergedBlocks(extensionBlocks(sidecar).blocks, extensionBlocks(legacy).blocks)[hook];
}

/** One dispatch's worth of hook state: reads from disk, staged writes, and the commit. */
export class HookStateTransaction {
  private readonly staged = new Map<string, StagedEdit>();
  private readonly stagedFiles = new Map<string, StagedFile>();
  private readonly seen = new Map<string, unknown>();
  private committed = false;

  constructor(
    private readonly files: ProjectFiles,
    private readonly gsdDir: string,
    private readonly store: GsdStore,
  ) {}

  /** The host makes one per hook; the hook name is fixed inside it. */
  handleFor<T = unknown>(hook: string): HookStateHandle<T> {
    // Closures, not methods on `this`: the handle exposes nothing but get and set.
    const get = (unitId: string) => this.read(hook, unitId) as T | undefined;
    const set = (unitId: string, value: T | undefined) => this.stage(hook, unitId, value);
    return Object.freeze({ hook, get, set });
  }

  private key(hook: string, file: string): string {
    return `${hook}\u0000${file}`;
  }

  /** Throws UnreadableHookStateError when the unit's sidecar cannot be read: its state is unknown, not empty. */
  private readBlock(unit: UnitStateFiles, hook: string): unknown {
    let text: string | null;
    try {
      text = this.store.readText(unit.sidecar);
    } catch (error) {
      // Too large to read is unknown state; anything else in its place (a folder) reads as missing, as in readState.
      if (error instanceof UnreadableFileError && error.reason === 'too-large') throw new UnreadableHookStateError(unit.unitId, { file: unit.sidecar, reason: error.message });
      text = null;
    }
    const own = extensionBlocks(text, unit.sidecar);
    const unreadable = unreadableSidecar(unit.sidecar, own.diagnostics);
    if (unreadable) throw new UnreadableHookStateError(unit.unitId, unreadable);
    return mergedBlocks(own.blocks, extensionBlocks(unit.legacy === null ? null : readState(this.store, unit.legacy)).blocks)[hook];
  }

  private read(hook: string, unitId: string): unknown {
    const unit = unitStateFiles(this.files, this.gsdDir, unitId);
    const key = this.key(hook, unit.sidecar);
    const staged = this.staged.get(key);
    if (staged) return structuredClone(staged.value);
    if (!this.seen.has(key)) this.seen.set(key, this.readBlock(unit, hook));
    return structuredClone(this.seen.get(key));
  }

  private stage(hook: string, unitId: string, value: unknown): void {
    if (this.committed) throw new Error('this dispatch has already been committed');
    if (value !== undefined) assertPlainData(value, `extensions.${hook}`);
    const unit = unitStateFiles(this.files, this.gsdDir, unitId);
    if (value !== undefined && unit.folderBare && readState(this.store, unit.sidecar) === null) {
      throw new UnitFileError(`${unitId} has no files in ${path.dirname(unit.sidecar)} yet; its hook state is not written there (GSD would take a lone file in a tasks folder for written task plans)`);
    }
    const key = this.key(hook, unit.sidecar);
    if (!this.seen.has(key)) this.seen.set(key, this.readBlock(unit, hook));
    this.staged.set(key, { hook, file: unit.sidecar, unit, value: value === undefined ? undefined : structuredClone(value), seen: this.seen.get(key) });
  }

  /**
   * Stages a whole file the hook owns (e.g. a per-cycle review snapshot). Committed with the rest;
   * refused at commit if the file changed after staging.
   */
  stageFile(file: string, text: string): void {
    if (this.committed) throw new Error('this dispatch has already been committed');
    this.stagedFiles.set(file, { file, text, expected: this.store.readText(file) });
  }

  /** Files the commit would change. */
  pendingFiles(): string[] {
    return [...new Set([...[...this.staged.values()].map((e) => e.file), ...this.stagedFiles.keys()])];
  }

  /**
   * Our settings file made from `gsd_hooks` in PREFERENCES.md when there is none yet, so the hook
   * settings survive GSD's next preferences save (settings-file.ts). Read under the lock; a
   * PREFERENCES.md that does not read cleanly is not copied.
   */
  private settingsCopy(): PlannedWrite | null {
    const target = settingsFile(this.gsdDir);
    try {
      if (this.store.readText(target) !== null) return null;
      const prefs = preferencesFile(this.files, this.gsdDir);
      const text = prefs ? this.store.readText(prefs) : null;
      if (text === null || !text.includes('gsd_hooks')) return null;
      const parsed = parsePreferences(text, prefs!);
      const block = parsed.data.gsd_hooks;
      if (parsed.diagnostics.length > 0 || !block || typeof block !== 'object' || Array.isArray(block)) return null;
      return { file: target, text: settingsText(block as Record<string, unknown>), expected: null };
    } catch {
      // a link or a folder in its place: the settings are read from PREFERENCES.md as before
      return null;
    }
  }

  /**
   * Writes every staged edit, plus `also` (e.g. the dispatch record), as one all-or-nothing commit
   * under the project's write lock. Each file is re-read under the lock and our blocks re-applied to
   * its current text, so an edit someone else saved meanwhile is kept; a change to one of *our*
   * blocks since we read it is a StateConflictError, thrown before anything is written (we never drop
   * the other writer's change). Hook state an older version left in PLAN/ROADMAP frontmatter is
   * moved into the sidecars in the same commit: the touched units' always, the whole project's
   * the first time (legacy-hook-state.ts). Once this returns, everything is committed.
   */
  commit(also: readonly AlsoWrite[] = []): CommitReport {
    if (this.committed) throw new Error('this dispatch has already been committed');
    this.committed = true;
    const byFile = new Map<string, StagedEdit[]>();
    for (const e of this.staged.values()) byFile.set(e.file, [...(byFile.get(e.file) ?? []), e]);
    const marker = movedMarkerFile(this.gsdDir);
    // Decided before the lock: a project swept once is not listed again on every commit.
    const sweep = readState(this.store, marker) === null ? stateFilesOfProject(this.files, this.gsdDir) : [];
    let moveNotes: string[] = [];
    const result = this.store.commit(this.gsdDir, () => {
      const notes: string[] = [];
      const writes: PlannedWrite[] = [];
      for (const f of this.stagedFiles.values()) {
        if (this.store.readText(f.file) !== f.expected) throw new StateConflictError(`${f.file} changed after it was staged; not overwriting it`);
        writes.push({ file: f.file, text: f.text, expected: f.expected });
      }
      let moved = 0;
      for (const [file, edits] of byFile) {
        const unit = edits[0].unit;
        const current = this.store.readText(file);
        let legacyText: string | null = null;
        try {
          legacyText = unit.legacy === null ? null : this.store.readText(unit.legacy);
        } catch (error) {
          // Read as missing, as when the hook read it: refused (a link out of .gsd) or not a file.
          notes.push(`hook state in ${unit.legacy} not moved: ${(error as Error).message}`);
        }
        for (const e of edits) {
          const now = blockIn(current, legacyText, e.hook);
          if (!isDeepStrictEqual(now, e.seen)) {
            throw new StateConflictError(`extensions.${e.hook} of ${e.unit.unitId} (${path.basename(file)}) was changed by someone else since this dispatch read it; not overwriting it`);
          }
        }
        // The unit's old blocks move with this write, so a block the hook removes cannot come back from the PLAN.
        const move = planMove(this.store, unit, current, legacyText);
        if (move.skipped) notes.push(move.skipped);
        if (move.legacy !== null && legacyText !== null) {
          writes.push({ file: unit.legacy!, text: move.legacy, expected: legacyText });
          moved++;
        }
        let next = move.sidecar ?? current;
        if (next === null) {
          // A new sidecar: written whole by gray-matter with every block it holds.
          const blocks: Record<string, unknown> = {};
          for (const e of edits) if (e.value !== undefined) blocks[e.hook] = e.value;
          if (Object.keys(blocks).length > 0) writes.push({ file, text: newSidecarText(unit.level, unit.unitId, unit.ownFile, blocks), expected: null });
          continue;
        }
        try {
          for (const e of edits) next = setExtensionBlock(next, e.hook, e.value);
        } catch (error) {
          // Said with the file: a sidecar someone broke is refused, never overwritten.
          if (error instanceof FrontmatterWriteError) throw new FrontmatterWriteError(`${error.message} (${path.relative(path.dirname(this.gsdDir), file)})`);
          throw error;
        }
        writes.push({ file, text: next, expected: current });
      }
      for (const unit of sweep) {
        if (byFile.has(unit.sidecar) || unit.legacy === null) continue;
        let legacyText: string | null;
        let sidecarText: string | null;
        try {
          legacyText = this.store.readText(unit.legacy);
          sidecarText = legacyText === null || !legacyText.includes('extensions') ? null : this.store.readText(unit.sidecar);
        } catch (error) {
          notes.push(`hook state in ${unit.legacy} not moved: ${(error as Error).message}`);
          continue;
        }
        const move = planMove(this.store, unit, sidecarText, legacyText);
        if (move.skipped) notes.push(move.skipped);
        if (move.legacy === null || move.sidecar === null) continue;
        writes.push({ file: unit.sidecar, text: move.sidecar, expected: sidecarText }, { file: unit.legacy, text: move.legacy, expected: legacyText });
        moved++;
      }
      if (sweep.length > 0) {
        const before = this.store.readText(marker);
        writes.push({ file: marker, text: `${JSON.stringify({ version: 1, sweptAt: new Date().toISOString() })}\n`, expected: before });
      }
      const copy = this.settingsCopy();
      if (copy) {
        writes.push(copy);
        notes.push(`copied gsd_hooks from PREFERENCES.md into ${path.basename(copy.file)}, which is read first from now on (GSD drops gsd_hooks when it saves its preferences)`);
      }
      if (moved > 0) notes.unshift(`moved hook state of ${moved} unit${moved === 1 ? '' : 's'} out of PLAN/ROADMAP frontmatter into *-HOOKS.md sidecars`);
      for (const a of also) {
        const current = this.store.readText(a.file);
        writes.push({ file: a.file, text: a.update(current), expected: current });
      }
      // The plan may run again (another writer saved meanwhile): the last run's notes are the ones that hold.
      moveNotes = notes;
      return writes;
    });
    for (const file of result.files) this.files.invalidate(file);
    return { files: result.files, retries: 0, notes: [...moveNotes, ...result.notes] };
  }
}
