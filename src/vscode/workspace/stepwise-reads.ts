// When the projects' files are read after activation, a step (a slice) per turn of the event loop:
// not before a view has shown their first look (or a wait has passed and the extension host is
// quiet), since the reading takes the CPU the workbench draws those rows with; and when every read
// is over, for whoever waits on it.
import type { Owner } from '../lifecycle/owner';
import { QUIET_HOST, whenHostQuiet, type QuietHostOptions } from '../lifecycle/quiet-host';
import { markProjectsRead } from './paint-timing';

export class StepwiseReads {
  private readonly waiters: Array<() => void> = [];
  private openGate: () => void = () => undefined;
  private readonly gate = new Promise<void>((resolve) => (this.openGate = resolve));
  private readonly cancelWait: () => void;
  private cancelQuiet: () => void = () => undefined;

  constructor(
    owner: Owner,
    waitMs: number,
    /** Whether some project is still being read. */
    private readonly reading: () => boolean,
    quiet: QuietHostOptions = QUIET_HOST,
  ) {
    // After the wait, still not while VS Code is busy starting other extensions (quiet-host.ts).
    this.cancelWait = owner.after(waitMs, () => (this.cancelQuiet = whenHostQuiet(owner, () => this.start(), quiet)));
  }

  /** A view has shown the first look: reads may start now. */
  start(): void {
    this.openGate();
  }

  /** A view is drawing the first look and calls start() when done: the wait no longer starts reads. */
  leaveStartToView(): void {
    this.cancelWait();
    this.cancelQuiet();
  }

  /**
   * Once reads may start, runs `step` once per turn of the event loop (the extension host answers the
   * workbench between two) until it returns false; the number of steps, or null when `wanted` said
   * stop first (the project went, or its read was ended otherwise).
   */
  async run(step: () => boolean, wanted: () => boolean): Promise<number | null> {
    await this.gate;
    let steps = 0;
    for (;;) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (!wanted()) return null;
      if (!step()) return steps;
      steps++;
    }
  }

  /** A read ended, or the set of projects changed: when none is read any more, say so. */
  settle(): void {
    if (this.reading()) return;
    markProjectsRead();
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  /** Resolves when no project is being read any more. */
  whenDone(): Promise<void> {
    if (!this.reading()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  dispose(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}
