// The seam behind the project engine for where state comes from: the markdown (our own derivation),
// GSD-2's database, or the successor's layout. One implementation per file beside this one; the
// engine picks one by the project's kind (state/project-kind.ts) and asks it for the state.
import type { ProjectKind } from '../state/project-kind';
import type { GSDState } from '../model/types';
import type { ProjectFiles } from '../state/project-files';

export type { ProjectKind } from '../state/project-kind';

/** What the state was read from, said to the user in the panel and in `state --json` (`source`). */
export interface StateSourceInfo {
  /** What was read: `markdown` also for a database project read through the markdown fallback. */
  kind: ProjectKind;
  /** What the project is, by detection (differs from `kind` only on a fallback). */
  projectKind: ProjectKind;
  /** For people: "GSD-2 database (schema 29)", "markdown", "markdown — fallback: …". */
  label: string;
  /** Nothing of the project may be written by us (successor projects: GSD alone records progress). */
  readOnly: boolean;
  /** Why the project's own source could not be read, when the state comes from a fallback. */
  fallback: string | null;
}

/** The state as the engine hands it out: GSD's state plus where it came from. */
export type ProjectState = GSDState & { source: StateSourceInfo; readOnly: boolean };

export interface StateSource {
  readonly info: StateSourceInfo;
  /**
   * The file cache this source reads `.gsd` through (the hooks' config and unit files use the same
   * one, so a change told to the source is seen by both).
   */
  readonly files: ProjectFiles;
  /** The current state; read again only after `changed` said something it depends on changed. */
  state(): GSDState;
  /**
   * A reader that keeps its parts (the panel's) may offer the state before every file is read: the
   * first look (see StateIndex.firstLook), and the full read one step at a time (false when done).
   */
  firstLook?(): { state: GSDState; complete: boolean };
  readStep?(): boolean;
  /** Paths (absolute) created, edited or deleted; true when the next `state()` reads again. */
  changed(paths: readonly string[]): boolean;
  /** Forget everything read (the Refresh command, a `.gsd` link that now points elsewhere). */
  reset(): void;
}
