// The unit each project has in flight (dispatched, neither completed nor cancelled), as the status
// bar and the panel show it. Read from the dispatch record after every change of the project and
// after our own dispatch, complete and cancel; a tick when the shown age's words change keeps it current.
import * as vscode from 'vscode';
import type { DispatchRecord } from '../../core/dispatch/dispatch-record';
import type { GsdWorkspace, ProjectHandle } from '../workspace/gsd-workspace';
import { Owner } from '../lifecycle/owner';
import { msUntilAgeChanges, timeAgo } from './unit-age';
import { CONTEXT_KEYS } from '../contributions/contribution-ids';

export interface InFlightChange {
  handle: ProjectHandle;
  before: DispatchRecord | null;
  after: DispatchRecord | null;
}

/** The longest wait between two ticks while a unit is in flight. */
const MAX_TICK_MS = 60 * 60_000;

export class UnitsInFlight extends Owner {
  private readonly known = new Map<string, DispatchRecord | null>();
  private readonly changed = this.own(new vscode.EventEmitter<InFlightChange>());
  /** A project's unit in flight changed (dispatched, completed, cancelled). */
  readonly onDidChange = this.changed.event;
  private readonly ticked = this.own(new vscode.EventEmitter<void>());
  /** Time passed: ages shown should be said again. */
  readonly onDidTick = this.ticked.event;

  constructor(private readonly workspace: GsdWorkspace) {
    super();
    this.own(workspace.onDidChangeState(({ handle }) => this.check(handle)));
    this.own(workspace.onDidChangeProjects(() => this.checkAll()));
    this.checkAll();
  }

  /** Cancels the next tick. */
  private cancelTick: (() => void) | undefined;

  /** The next tick: when the first shown age changes its words (unit-age.ts), none while nothing is in flight. */
  private scheduleTick(): void {
    this.cancelTick?.();
    this.cancelTick = undefined;
    const now = Date.now();
    const waits = [...this.known.values()].flatMap((r) => (r ? [msUntilAgeChanges(r.dispatchedAt, now)] : []));
    if (waits.length === 0) return;
    // A little after the change, so the age read then is the new one; bounded, for a clock set back.
    this.cancelTick = this.after(Math.min(Math.min(...waits) + 50, MAX_TICK_MS), () => {
      this.ticked.fire();
      this.scheduleTick();
    });
  }

  /** The unit in flight in `handle`'s project (none in a read-only project). */
  of(handle: ProjectHandle): DispatchRecord | null {
    if (this.workspace.isReadOnly(handle)) return null;
    try {
      return handle.engine.currentUnit();
    } catch {
      return null;
    }
  }

  /** Reads the project's record again and tells when its unit in flight changed. */
  check(handle: ProjectHandle): void {
    const key = handle.project.gsdDir;
    const before = this.known.get(key) ?? null;
    const after = this.of(handle);
    this.known.set(key, after);
    const same = before?.dispatchedAt === after?.dispatchedAt && before?.unitId === after?.unitId;
    if (!same) {
      void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.unitInFlight, [...this.known.values()].some((r) => r));
      this.changed.fire({ handle, before, after });
      this.scheduleTick();
    }
  }

  checkAll(): void {
    for (const h of this.workspace.list()) this.check(h);
  }
}

/** "execute-task M001/S01/T02". */
export function unitName(r: { unitType: string; unitId: string }): string {
  return `${r.unitType} ${r.unitId}`;
}

/** "3 minutes ago", in the editor's language. */
export function dispatchedAgo(r: Pick<DispatchRecord, 'dispatchedAt'>, now = Date.now()): string {
  return timeAgo(r.dispatchedAt, now, vscode.env.language);
}
