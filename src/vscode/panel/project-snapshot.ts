// What the panel shows of one project, taken once per refresh: the state, the unit Next Unit would
// dispatch and the recent hook events. Rendering reads only this; nothing is read from disk while
// VS Code asks for tree items.
import { readHookLog, type HookLogEntry } from '../../core/agent-hooks/hook-log';
import type { GSDState } from '../../core/model/types';
import type { GsdWorkspace, ProjectHandle } from '../gsd-workspace';
import type { NextUnitRef } from './task-presentation';

/** How many hook events the panel lists. */
export const HOOK_EVENTS_SHOWN = 15;

export interface ProjectSnapshot {
  readonly handle: ProjectHandle;
  readonly state: GSDState;
  /** The unit GSD: Next Unit would dispatch (hooks included), as the status bar shows it. */
  readonly next: NextUnitRef | null;
  /** Newest first. */
  readonly hookEvents: readonly HookLogEntry[];
}

/** One snapshot per project, taken on first use after the last change was announced. */
export class ProjectSnapshots {
  private readonly taken = new Map<string, ProjectSnapshot>();

  constructor(private readonly workspace: GsdWorkspace) {}

  of(handle: ProjectHandle): ProjectSnapshot {
    let s = this.taken.get(handle.project.gsdDir);
    if (!s || s.handle !== handle) {
      s = {
        handle,
        state: this.workspace.state(handle),
        next: this.workspace.nextUnit(handle)?.decision ?? null,
        hookEvents: readHookLog(handle.project.gsdDir, HOOK_EVENTS_SHOWN),
      };
      this.taken.set(handle.project.gsdDir, s);
    }
    return s;
  }

  /** Something changed in a project (or, without argument, anywhere): take a new snapshot next time. */
  invalidate(handle?: ProjectHandle): void {
    if (handle) this.taken.delete(handle.project.gsdDir);
    else this.taken.clear();
  }
}
