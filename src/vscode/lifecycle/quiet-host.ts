// Background work that waits for a quiet extension host. The host is one thread shared by every
// extension: while VS Code starts the others, each of our steps queues in front of the workbench's
// requests, the panel's first fetch among them (npm run bench:paint on VS Code 1.100.3: the read
// the 1.5 s wait started took 300–370 ms of the host while that fetch waited to be taken up).
// A timer that fires on time, several times in a row, is a quiet host.
// No `vscode` import: unit-tested with the event loop kept busy.
import type { Owner } from './owner';

export interface QuietHostOptions {
  /** How often the host is looked at. */
  probeMs: number;
  /** How late a probe may fire and the host still count as quiet. */
  slackMs: number;
  /** Probes on time in a row that make the host quiet. */
  probes: number;
  /** The work runs after this long anyway, quiet or not. */
  capMs: number;
}

export const QUIET_HOST: QuietHostOptions = { probeMs: 50, slackMs: 15, probes: 3, capMs: 5000 };

/** Runs `run` once the host has been quiet for `probes` probes, or after `capMs`; the returned function cancels it. */
export function whenHostQuiet(owner: Owner, run: () => void, options: QuietHostOptions = QUIET_HOST): () => void {
  let done = false;
  let cancelProbe: () => void = () => undefined;
  const finish = () => {
    if (done) return;
    done = true;
    cancelProbe();
    cancelCap();
    run();
  };
  const cancelCap = owner.after(options.capMs, finish);
  let onTime = 0;
  const probe = () => {
    const asked = Date.now();
    cancelProbe = owner.after(options.probeMs, () => {
      onTime = Date.now() - asked <= options.probeMs + options.slackMs ? onTime + 1 : 0;
      if (onTime >= options.probes) finish();
      else probe();
    });
  };
  probe();
  return () => {
    done = true;
    cancelProbe();
    cancelCap();
  };
}
