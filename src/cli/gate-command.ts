// `gsd-review gate <M/S/T> [--done] [--json]`: our review loop inside GSD's successor, run by the
// reviewer in GSD's hook session (the prompt our `install-hooks --host gsd` entry gives it). Without
// --done: this cycle's instructions; with --done: the written review recorded and the verdict GSD
// reads set. Reads only the files of that one task (gate-session.ts): GSD waits for it at every review.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeGsdStore } from '../core/files/gsd-store';
import { userHome } from '../core/files/user-home';
import { locateProject } from '../core/state/locate-project';
import { recordGateReview, type GateDone } from '../core/successor-gate/gate-done';
import { briefFor, MCP_SERVER_BIN, saveReworkBrief, type BriefResult } from '../core/successor-gate/rework-brief';
import { findOnPath } from '../core/successor/hand-off';
import { gateInstructions, gateInstructionsJson } from '../core/successor-gate/gate-instructions';
import { GateRefused, openGateSession, projectPath } from '../core/successor-gate/gate-session';
import { ReviewFormatError } from '../core/successor-gate/gate-verdict';
import { parseGateUnit, resolveTaskArtifact, type GateUnit } from '../core/successor-gate/hook-artifact-path';
import { readGateConfig } from '../core/successor-gate/gate-config';
import { GATE_ARTIFACT, GATE_HOOK_NAME, GATE_TRIGGER } from '../core/successor-gate/gate-hook';
import { gateUnitDir, snapshotName } from '../core/successor-gate/gate-records';
import { gateCycle, readHookState } from '../core/successor-gate/hook-state-file';
import { judgeGateToolCall, type GateGuardAnswer } from '../core/successor-gate/gate-guard';
import { writeAnswer } from './process-exit';
import { readStdinBounded } from './read-stdin';

export interface GateCommandOptions {
  root: string;
  unit: string | undefined;
  done: boolean;
  json: boolean;
  /** A tool call of the gate's session on stdin, judged (the guard extension asks). */
  guard?: boolean;
}

/** A gate that cannot go on: said in one line, exit 1 (the reviewer reads it and acts). */
export class GateCommandError extends Error {
  override name = 'GateCommandError';
}

export async function runGateCommand(o: GateCommandOptions): Promise<number> {
  const unit = o.unit === undefined ? null : parseGateUnit(o.unit);
  if (!unit) throw new GateUsageError(o.unit === undefined ? 'gate needs the task, as GSD names it: gsd-review gate M001/S01/T01' : `gate: "${o.unit}" is not a task id like M001/S01/T01`);
  const project = locateProject(path.resolve(o.root));
  if (!project) throw new GateCommandError(`no .gsd folder at or above ${path.resolve(o.root)}; run the gate in the project GSD runs (or pass --root)`);
  if (o.guard) {
    writeAnswer(JSON.stringify(await guardAnswer(project.root, project.gsdDir, project.gsdLink, unit)) + '\n');
    return 0;
  }
  try {
    const session = openGateSession(project.root, project.gsdDir, unit, { home: userHome(), ...(process.env.GSD_HOME ? { gsdHome: process.env.GSD_HOME } : {}) }, project.gsdLink);
    if (!o.done) {
      writeAnswer(o.json ? JSON.stringify(gateInstructionsJson(session), null, 2) + '\n' : gateInstructions(session));
      return 0;
    }
    const done = recordGateReview(session, new NodeGsdStore());
    const reworkBrief = await tellGsd(session.root, done);
    if (o.json) writeAnswer(JSON.stringify({ ...done, reworkBrief }, null, 2) + '\n');
    else {
      const counts = `${done.openIssues} open, ${done.resolvedIssues} resolved`;
      writeAnswer(`Recorded review cycle ${done.cycle} of ${done.maxCycles} for ${done.unitId} (${counts}): verdict ${done.verdict}.\n${done.next}\nGSD's rework brief: ${reworkBrief.detail}.\n`);
    }
    return 0;
  } catch (error) {
    if (error instanceof GateRefused || error instanceof ReviewFormatError) throw new GateCommandError(error.message);
    throw error;
  }
}

const MAX_TOOL_CALL = 4 * 1024 * 1024;

/** The issues as GSD's own rework brief, where its MCP server is on PATH; otherwise says what the re-run relies on. */
async function tellGsd(root: string, done: GateDone): Promise<BriefResult> {
  const unit = parseGateUnit(done.unitId)!;
  const brief = briefFor({ projectDir: root, unit, cycle: done.cycle, verdict: done.verdict, open: done.issues.open, resolved: done.issues.resolved, snapshot: done.snapshot });
  if (!brief) return { saved: false, detail: 'not needed (the review has no issues)' };
  const bin = findOnPath(MCP_SERVER_BIN);
  if (!bin) return { saved: false, detail: `not saved: ${MCP_SERVER_BIN} (npm package @opengsd/mcp-server) is not on PATH, so the re-run task learns the open issues only from ${done.openIssuesFile}, which our pre-dispatch hook points it at` };
  return saveReworkBrief(bin, brief);
}

/** The guard's answer for the tool call on stdin; one it cannot read is refused (the review is running). */
async function guardAnswer(root: string, gsdDir: string, gsdLink: string, unit: GateUnit): Promise<GateGuardAnswer> {
  let call: { toolName?: unknown; input?: unknown };
  try {
    const text = await readStdinBounded(MAX_TOOL_CALL);
    if (text === null) throw new Error('no tool call on stdin, or one over 4 MB');
    call = JSON.parse(text) as typeof call;
  } catch (error) {
    return { block: true, reason: `GSD Review Loop: the tool call could not be read (${(error as Error).message.split('\n')[0]}); during the review the reviewer only reads and writes its review file` };
  }
  const places = { gsdDir, home: userHome(), ...(process.env.GSD_HOME ? { gsdHome: process.env.GSD_HOME } : {}) };
  const config = readGateConfig(places).config;
  const artifact = resolveTaskArtifact(gsdDir, unit, config?.artifact ?? GATE_ARTIFACT);
  // A file GSD reads for several tasks is never the review file: the task's own one is (the gate asks a person to move the other).
  const reviewFile = artifact.shared ? (artifact.taskFile ?? artifact.file) : artifact.file;
  const cycle = gateCycle(readHookState(gsdDir).state, config?.name ?? GATE_HOOK_NAME, GATE_TRIGGER, unit.unitId);
  const recorded = cycle !== null && fs.existsSync(path.join(gateUnitDir(gsdDir, unit), snapshotName(config?.artifact ?? GATE_ARTIFACT, cycle)));
  const input = call.input && typeof call.input === 'object' && !Array.isArray(call.input) ? (call.input as Record<string, unknown>) : {};
  return judgeGateToolCall({ toolName: typeof call.toolName === 'string' ? call.toolName : '', input }, { root, unitId: unit.unitId, reviewFile, reviewShown: projectPath(root, gsdLink, gsdDir, reviewFile), gsdDir, recorded });
}

/** A gate called the wrong way (exit 2, as every usage error). */
export class GateUsageError extends Error {
  override name = 'GateUsageError';
}
