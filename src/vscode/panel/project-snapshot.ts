// What the panel shows of one project, taken once per refresh: the state, the unit Next Unit would
// dispatch and the recent hook events. Rendering reads only this; nothing is read from disk while
// VS Code asks for tree items (after the first time a project is shown).
import type { DispatchRecord } from '../../core/dispatch/dispatch-record';
import { readHookLog, type HookLogEntry } from '../../core/agent-hooks/hook-log';
import type { ProjectState } from '../../core/project/state-source';
import type { GsdWorkspace, ProjectHandle } from '../workspace/gsd-workspace';
import type { NextUnitRef } from './task-presentation';

/** How many hook events the panel lists. */
export const HOOK_EVENTS_SHOWN = 15;

export interface ProjectSnapshot {
  readonly handle: ProjectHandle;
  readonly state: ProjectState;
  /**
   * The project is still being read: `state` is its first look (slices other than the active one
   * without their plan, pending actions not all known yet).
   */
  readonly reading: boolean;
  /** The unit GSD: Next Unit would dispatch (hooks included), as the status bar shows it. */
  readonly next: NextUnitRef | null;
  /** The unit in flight (dispatched, not completed or cancelled); null in a read-only project. */
  readonly inFlight: DispatchRecord | null;
  /** Newest first. */
  readonly hookEvents: readonly HookLogEntry[];
}

/**
 * One snapshot per project, taken when a change is announced (before the view is told to refresh),
 * so rendering finds it ready; `of` takes one only for a project it has not seen yet.
 */
export class ProjectSnapshots {
  private readonly taken = new Map<string, ProjectSnapshot>();

  constructor(private readonly workspace: GsdWorkspace) {}

  of(handle: ProjectHandle): ProjectSnapshot {
    const s = this.taken.get(handle.project.gsdDir);
    return s && s.handle === handle ? s : this.take(handle);
  }

  /** Something changed in a project (or, without argument, in the set of projects): take it again now. */
  retake(handle?: ProjectHandle): void {
    if (handle) {
      this.take(handle);
      return;
    }
    this.taken.clear();
    for (const h of this.workspace.list()) this.take(h);
  }

  private take(handle: ProjectHandle): ProjectSnapshot {
    const s: ProjectSnapshot = {
      handle,
      state: this.workspace.shownState(handle),
      reading: this.workspace.isReading(handle),
      next: this.workspace.nextUnit(handle)?.decision ?? null,
      inFlight: this.workspace.isReadOnly(handle) ? null : safeCurrentUnit(handle),
      hookEvents: readHookLog(handle.project.gsdDir, HOOK_EVENTS_SHOWN),
    };
    this.taken.set(handle.project.gsdDir, s);
    return s;
  }
}

function safeCurrentUnit(handle: ProjectHandle): DispatchRecord | null {
  try {
    return handle.engine.currentUnit();
  } catch {
    return null;
  }
}
