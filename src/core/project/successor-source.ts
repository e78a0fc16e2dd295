// State of a successor project (@opengsd/gsd-pi 1.x: `.gsd/phases/`, schema 48–51), read-only: only
// GSD's own running attempts record progress there, so the engine writes nothing and runs no hooks.
import * as path from 'node:path';
import type { GsdStore } from '../files/gsd-store';
import type { ProjectLocation } from '../state/derive-state';
import { ProjectFiles } from '../state/project-files';
import { readSuccessorProject, type ReadSuccessorOptions, type SuccessorState } from '../successor/read-successor-project';
import type { StateSource, StateSourceInfo } from './state-source';

export function successorInfo(state: SuccessorState): StateSourceInfo {
  const base = { kind: 'successor' as const, projectKind: 'successor' as const, readOnly: true };
  if (state.refused) return { ...base, label: `successor database (schema ${state.schemaVersion ?? '?'}), not read — read-only`, fallback: state.refused };
  if (state.readFrom === 'database') return { ...base, label: `successor database (schema ${state.schemaVersion ?? '?'}) — read-only`, fallback: null };
  // Read from `.gsd/phases` only: the diagnostic says why (no gsd.db in a clone, no node:sqlite, busy).
  const why = state.diagnostics.find((d) => d.message.startsWith('read from the .gsd/phases markdown only: '));
  return { ...base, label: 'successor layout (.gsd/phases) — read-only', fallback: why ? why.message.replace('read from the .gsd/phases markdown only: ', '') : null };
}

export class SuccessorSource implements StateSource {
  readonly files: ProjectFiles;
  private current: SuccessorState | null = null;
  info: StateSourceInfo = { kind: 'successor', projectKind: 'successor', label: 'successor — read-only', readOnly: true, fallback: null };

  constructor(
    private readonly project: ProjectLocation,
    store: GsdStore,
    private readonly options: ReadSuccessorOptions = {},
  ) {
    this.files = new ProjectFiles(store);
  }

  state(): SuccessorState {
    if (!this.current) {
      // The link as seen from the root: the reader resolves it, and takes the root from beside it.
      this.current = readSuccessorProject(path.join(this.project.root, '.gsd'), this.options);
      this.info = successorInfo(this.current);
    }
    return this.current;
  }

  changed(paths: readonly string[]): boolean {
    const inside = paths.some((p) => {
      const rel = path.relative(this.project.gsdDir, p);
      return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
    });
    for (const p of paths) {
      if (this.files.knowsDir(p)) this.files.invalidateTree(p);
      this.files.invalidate(p);
    }
    if (inside) this.current = null;
    return inside;
  }

  reset(): void {
    this.files.clear();
    this.current = null;
  }
}
