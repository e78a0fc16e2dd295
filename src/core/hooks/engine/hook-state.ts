// Hook state: each hook reads and writes only its own `extensions.<hook>` block of a unit's file,
// through a handle the host creates for it. Writes are staged during a dispatch and committed
// together by the host, only after the chain finished without error.
import { isDeepStrictEqual } from 'node:util';
import { parseFrontmatter, fmRecord } from '../../parse/frontmatter';
import { assertPlainData, setExtensionBlock } from '../../parse/frontmatter-block';
import type { GsdStore, PlannedWrite } from '../../files/gsd-store';
import type { ProjectFiles } from '../../state/project-files';
import { unitStateFile } from './unit-files';

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

function blockIn(text: string | null, hook: string): unknown {
  if (text === null) return undefined;
  const fm = parseFrontmatter(text, '');
  return fmRecord(fm.data, 'extensions')[hook];
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

  private read(hook: string, unitId: string): unknown {
    const file = unitStateFile(this.files, this.gsdDir, unitId);
    const key = this.key(hook, file);
    const staged = this.staged.get(key);
    if (staged) return structuredClone(staged.value);
    if (!this.seen.has(key)) this.seen.set(key, blockIn(readState(this.store, file), hook));
    return structuredClone(this.seen.get(key));
  }

  private stage(hook: string, unitId: string, value: unknown): void {
    if (this.committed) throw new Error('this dispatch has already been committed');
    if (value !== undefined) assertPlainData(value, `extensions.${hook}`);
    const file = unitStateFile(this.files, this.gsdDir, unitId);
    const key = this.key(hook, file);
    if (!this.seen.has(key)) this.seen.set(key, blockIn(readState(this.store, file), hook));
    this.staged.set(key, { hook, file, value: value === undefined ? undefined : structuredClone(value), seen: this.seen.get(key) });
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
   * Writes every staged edit, plus `also` (e.g. the dispatch record), as one all-or-nothing commit
   * under the project's write lock. Each file is re-read under the lock and our blocks re-applied to
   * its current text, so an edit someone else saved meanwhile is kept; a change to one of *our*
   * blocks since we read it is a StateConflictError, thrown before anything is written (we never drop
   * the other writer's change). Once this returns, everything is committed.
   */
  commit(also: readonly AlsoWrite[] = []): CommitReport {
    if (this.committed) throw new Error('this dispatch has already been committed');
    this.committed = true;
    const byFile = new Map<string, StagedEdit[]>();
    for (const e of this.staged.values()) byFile.set(e.file, [...(byFile.get(e.file) ?? []), e]);
    const result = this.store.commit(this.gsdDir, () => {
      const writes: PlannedWrite[] = [];
      for (const f of this.stagedFiles.values()) {
        if (this.store.readText(f.file) !== f.expected) throw new StateConflictError(`${f.file} changed after it was staged; not overwriting it`);
        writes.push({ file: f.file, text: f.text, expected: f.expected });
      }
      for (const [file, edits] of byFile) {
        const current = this.store.readText(file);
        let next = current ?? '';
        for (const e of edits) {
          const now = blockIn(current, e.hook);
          if (!isDeepStrictEqual(now, e.seen)) {
            throw new StateConflictError(`extensions.${e.hook} in ${file} was changed by someone else since this dispatch read it; not overwriting it`);
          }
          next = setExtensionBlock(next, e.hook, e.value);
        }
        if (current !== null || next !== '') writes.push({ file, text: next, expected: current });
      }
      for (const a of also) {
        const current = this.store.readText(a.file);
        writes.push({ file: a.file, text: a.update(current), expected: current });
      }
      return writes;
    });
    for (const file of result.files) this.files.invalidate(file);
    return { files: result.files, retries: 0, notes: result.notes };
  }
}
