// The long-lived, incremental form of deriveState: parsed files and per-milestone / per-slice parts
// are kept, and a changed path drops only what depended on it. The extension keeps one per project;
// the CLI uses the lazy path instead.
import * as path from 'node:path';
import { deriveMilestonePart, type MilestonePart } from './derive-milestone';
import { deriveSlicePart, type SlicePart } from './derive-slice';
import { deriveState, readingSteps, type PartSource, type ProjectLocation } from './derive-state';
import { NodeGsdStore, type GsdStore } from '../files/gsd-store';
import { ProjectFiles } from './project-files';
import type { GSDState } from '../model/types';

export class StateIndex {
  readonly files: ProjectFiles;
  private readonly milestoneParts = new Map<string, MilestonePart>();
  private readonly sliceParts = new Map<string, SlicePart>();
  private current: GSDState | null = null;
  /** The state from the milestones and the active slice alone, until the full one is made. */
  private look: GSDState | null = null;
  private steps: Generator<void, void, void> | null = null;
  private readonly source: PartSource;

  constructor(
    readonly project: ProjectLocation,
    store: GsdStore = new NodeGsdStore(),
  ) {
    // The index reads the whole project (the panel): every summary's frontmatter is checked whole.
    this.files = new ProjectFiles(store, true);
    this.source = {
      files: this.files,
      milestone: (id, dir) => {
        let part = this.milestoneParts.get(dir);
        if (!part || part.id !== id) {
          part = deriveMilestonePart(this.files, id, dir, 'all');
          this.milestoneParts.set(dir, part);
        }
        return part;
      },
      slice: (milestoneId, sliceId, dir) => {
        let part = this.sliceParts.get(dir);
        if (!part || part.sliceId !== sliceId) {
          part = deriveSlicePart(this.files, milestoneId, sliceId, dir);
          this.sliceParts.set(dir, part);
        }
        return part;
      },
      forget: (dir) => this.dropPartsAt(dir),
    };
  }

  /** The derived state; re-derived only after a change. */
  state(): GSDState {
    if (!this.current) this.current = deriveState(this.project, this.source);
    return this.current;
  }

  /**
   * The state as far as it can be made without reading every slice: the milestones (their roadmaps,
   * summaries, contexts), GSD's decision and the active slice whole, by the lazy path's rules (the
   * CLI's `next` decides on exactly this). Slices other than the active one have no plan loaded
   * (`planLoaded` false) and pending actions come from the active slice alone. The full state once made.
   */
  firstLook(): { state: GSDState; complete: boolean } {
    if (this.current) return { state: this.current, complete: true };
    this.look ??= deriveState(this.project, this.source, { lazy: true });
    return { state: this.look, complete: false };
  }

  /**
   * Reads one more slice's parts for the full state (see readingSteps); false when all are read,
   * after which `state()` only assembles them. Each step reads its folders as one batch, like a derive.
   */
  readStep(): boolean {
    if (this.current) return false;
    this.steps ??= readingSteps(this.project, this.source);
    const { value, movedFolders } = this.files.readingInFolderBatches(() => this.steps!.next());
    // What came from a folder that moved meanwhile is dropped: the full derive reads it again by name.
    for (const dir of movedFolders) this.dropPartsAt(dir);
    if (!value.done) return true;
    this.steps = null;
    return false;
  }

  /**
   * Tell the index that something at `absPath` changed (created, edited, deleted; file or folder).
   * Returns false when the path is outside `.gsd` and nothing was dropped.
   */
  changed(absPath: string): boolean {
    const rel = path.relative(this.project.gsdDir, absPath);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return false;
    // A folder (new, deleted or renamed) drops all below it; a file only itself and its listing.
    if (this.files.knowsDir(absPath)) this.files.invalidateTree(absPath);
    this.files.invalidate(absPath);
    this.current = null;
    this.look = null;
    this.dropPartsAt(absPath);
    return true;
  }

  /** Drops the milestone and slice parts made from files at or under `absPath`, or holding it. */
  private dropPartsAt(absPath: string): void {
    const within = (dir: string) => absPath === dir || absPath.startsWith(dir + path.sep) || dir.startsWith(absPath + path.sep);
    for (const dir of this.sliceParts.keys()) if (within(dir)) this.sliceParts.delete(dir);
    for (const dir of this.milestoneParts.keys()) if (within(dir)) this.milestoneParts.delete(dir);
  }

  /** Forget everything (e.g. the `.gsd` symlink now points elsewhere). */
  reset(): void {
    this.files.clear();
    this.milestoneParts.clear();
    this.sliceParts.clear();
    this.current = null;
    this.look = null;
    this.steps = null;
  }
}
