// The unit GSD: Next Unit would dispatch in one project, worked out ahead (hooks included) for the
// panel's "next" mark and the status bar, and never shown once the project moved on from what it
// was worked out from.
import type * as vscode from 'vscode';
import { dispatchLogFile } from '../../core/dispatch/dispatch-record';
import type { DispatchOutcome } from '../../core/dispatch/dispatch';
import type { ProjectState } from '../../core/project/state-source';
import type { Project } from '../../core/project/open-project';

/**
 * What a preview rests on: the engine's state (the same object until something it depends on
 * changed) and the dispatch record (the unit in flight, and the history the loop guard reads), as
 * text. A preview is shown only while both are what they were when it was worked out.
 */
interface NextInputs {
  state: ProjectState;
  record: string | null;
}

/** A preview, with what it was worked out from. */
interface WorkedOut {
  inputs: NextInputs;
  /** Null when it could not be worked out (`error` says why). */
  outcome: DispatchOutcome | null;
  error?: string;
}

/** The unit GSD: Next Unit would dispatch now, as far as it is known. */
export type NextUnitNow =
  /** Worked out from the project as it is now. */
  | { status: 'known'; outcome: DispatchOutcome }
  /** Worked out from the project as it is now, and it failed. */
  | { status: 'failed'; error: string }
  /** The project changed since it was last worked out; it is being worked out again. */
  | { status: 'working' };

export class NextUnitPreview {
  private known: WorkedOut | undefined;
  /** Counts the previews started, so a slow older one never overwrites a newer one. */
  private version = 0;
  /** The inputs of the preview being worked out now (none when none is). */
  private working: NextInputs | undefined;

  constructor(
    private readonly engine: Project,
    private readonly gsdDir: string,
    private readonly preview: () => Promise<DispatchOutcome>,
    private readonly log: vscode.LogOutputChannel,
    /** A preview was worked out: the unit ids before and after (null when none). */
    private readonly changed: (before: string | null, after: string | null) => void,
    /** The project is still one of the workspace's. */
    private readonly current: () => boolean,
  ) {}

  /** From the project as it is now: a preview from other inputs is worked out again, never answered. */
  now(): NextUnitNow {
    const inputs = this.inputs();
    const known = this.known;
    if (known && sameInputs(known.inputs, inputs)) return known.outcome ? { status: 'known', outcome: known.outcome } : { status: 'failed', error: known.error ?? 'unknown' };
    if (!this.working || !sameInputs(this.working, inputs)) void this.update();
    return { status: 'working' };
  }

  /** Works it out again; says so through `changed` unless a newer one started meanwhile. */
  async update(): Promise<void> {
    const version = ++this.version;
    const before = this.unitId();
    // Taken before the preview reads anything: if the project changes while it runs, the preview is
    // kept under the older inputs and so is worked out again when next asked for, never shown as current.
    const inputs = this.inputs();
    this.working = inputs;
    let worked: WorkedOut;
    try {
      worked = { inputs, outcome: await this.preview() };
    } catch (error) {
      this.log.warn(`could not work out the next unit: ${(error as Error).message}`);
      // Shown as unknown (status bar warning, no "next" mark), never as the previous answer.
      worked = { inputs, outcome: null, error: (error as Error).message };
    }
    if (version !== this.version || !this.current()) return;
    this.working = undefined;
    this.known = worked;
    this.changed(before, worked.outcome?.decision?.unitId ?? null);
  }

  /** Drops what is known (and any preview under way); the unit id it named. */
  forget(): string | null {
    this.version++;
    const before = this.unitId();
    this.known = undefined;
    return before;
  }

  private unitId(): string | null {
    return this.known?.outcome?.decision?.unitId ?? null;
  }

  private inputs(): NextInputs {
    let record: string | null;
    try {
      record = this.engine.store.readText(dispatchLogFile(this.gsdDir));
    } catch (error) {
      record = `unreadable: ${(error as Error).message}`;
    }
    return { state: this.engine.state(), record };
  }
}

function sameInputs(a: NextInputs, b: NextInputs): boolean {
  return a.state === b.state && a.record === b.record;
}
