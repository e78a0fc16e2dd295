// State from the markdown under `.gsd` (our own derivation of GSD's rules). Two ways of reading, one
// set of rules: `incremental` keeps a StateIndex (the extension: a change re-derives only what
// depended on it); otherwise each read is one-shot, `lazy` (only what the active unit needs: the
// CLI's `next`, `hook`, `state`) or full (`state --full`), and kept until something changes.
import * as path from 'node:path';
import type { GsdStore } from '../files/gsd-store';
import type { GSDState } from '../model/types';
import { deriveState, freshPartSource, type ProjectLocation } from '../state/derive-state';
import { ProjectFiles } from '../state/project-files';
import { StateIndex } from '../state/state-index';
import type { StateSource, StateSourceInfo } from './state-source';

export type MarkdownReading = 'incremental' | 'lazy' | 'full';

export const MARKDOWN_INFO: StateSourceInfo = { kind: 'markdown', projectKind: 'markdown', label: 'markdown', readOnly: false, fallback: null };

function within(dir: string, p: string): boolean {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

export class MarkdownSource implements StateSource {
  readonly files: ProjectFiles;
  private readonly index: StateIndex | null;
  private current: GSDState | null = null;

  constructor(
    private readonly project: ProjectLocation,
    store: GsdStore,
    private readonly reading: MarkdownReading,
    readonly info: StateSourceInfo = MARKDOWN_INFO,
  ) {
    this.index = reading === 'incremental' ? new StateIndex(project, store) : null;
    this.files = this.index?.files ?? new ProjectFiles(store, reading === 'full');
  }

  state(): GSDState {
    if (this.index) return this.index.state();
    this.current ??= deriveState(this.project, freshPartSource(this.files), { lazy: this.reading === 'lazy' });
    return this.current;
  }

  firstLook(): { state: GSDState; complete: boolean } {
    return this.index ? this.index.firstLook() : { state: this.state(), complete: true };
  }

  readStep(): boolean {
    return this.index ? this.index.readStep() : false;
  }

  changed(paths: readonly string[]): boolean {
    let any = false;
    for (const p of paths) {
      if (this.index) {
        any = this.index.changed(p) || any;
        continue;
      }
      if (!within(this.project.gsdDir, p)) continue;
      if (this.files.knowsDir(p)) this.files.invalidateTree(p);
      this.files.invalidate(p);
      any = true;
    }
    if (any) this.current = null;
    return any;
  }

  reset(): void {
    this.index?.reset();
    this.files.clear();
    this.current = null;
  }
}
