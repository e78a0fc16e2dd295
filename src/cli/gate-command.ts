// `gsd-review gate <M/S/T> [--done] [--json]`: our review loop inside GSD's successor, run by the
// reviewer in GSD's hook session (the prompt our `install-hooks --host gsd` entry gives it). Without
// --done: this cycle's instructions; with --done: the written review recorded and the verdict GSD
// reads set. Reads only the files of that one task (gate-session.ts): GSD waits for it at every review.
import * as path from 'node:path';
import { NodeGsdStore } from '../core/files/gsd-store';
import { userHome } from '../core/files/user-home';
import { locateProject } from '../core/state/locate-project';
import { recordGateReview } from '../core/successor-gate/gate-done';
import { gateInstructions, gateInstructionsJson } from '../core/successor-gate/gate-instructions';
import { GateRefused, openGateSession } from '../core/successor-gate/gate-session';
import { ReviewFormatError } from '../core/successor-gate/gate-verdict';
import { parseGateUnit } from '../core/successor-gate/hook-artifact-path';
import { writeAnswer } from './process-exit';

export interface GateCommandOptions {
  root: string;
  unit: string | undefined;
  done: boolean;
  json: boolean;
}

/** A gate that cannot go on: said in one line, exit 1 (the reviewer reads it and acts). */
export class GateCommandError extends Error {
  override name = 'GateCommandError';
}

export function runGateCommand(o: GateCommandOptions): number {
  const unit = o.unit === undefined ? null : parseGateUnit(o.unit);
  if (!unit) throw new GateUsageError(o.unit === undefined ? 'gate needs the task, as GSD names it: gsd-review gate M001/S01/T01' : `gate: "${o.unit}" is not a task id like M001/S01/T01`);
  const project = locateProject(path.resolve(o.root));
  if (!project) throw new GateCommandError(`no .gsd folder at or above ${path.resolve(o.root)}; run the gate in the project GSD runs (or pass --root)`);
  try {
    const session = openGateSession(project.root, project.gsdDir, unit, { home: userHome(), ...(process.env.GSD_HOME ? { gsdHome: process.env.GSD_HOME } : {}) });
    if (!o.done) {
      writeAnswer(o.json ? JSON.stringify(gateInstructionsJson(session), null, 2) + '\n' : gateInstructions(session));
      return 0;
    }
    const done = recordGateReview(session, new NodeGsdStore());
    if (o.json) writeAnswer(JSON.stringify(done, null, 2) + '\n');
    else {
      const counts = `${done.openIssues} open, ${done.resolvedIssues} resolved`;
      writeAnswer(`Recorded review cycle ${done.cycle} of ${done.maxCycles} for ${done.unitId} (${counts}): verdict ${done.verdict}.\n${done.next}\n`);
    }
    return 0;
  } catch (error) {
    if (error instanceof GateRefused || error instanceof ReviewFormatError) throw new GateCommandError(error.message);
    throw error;
  }
}

/** A gate called the wrong way (exit 2, as every usage error). */
export class GateUsageError extends Error {
  override name = 'GateUsageError';
}
