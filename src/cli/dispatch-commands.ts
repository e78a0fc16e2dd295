// `gsd-review next [--apply]` and `gsd-review complete`: the dispatch contract of docs/cli.md.
import { copilotGuardWarning, trustFilesOnDisk, withGuardWarning } from '../core/agent-hooks/host-trust';
import type { BuiltinHook } from '../core/hooks/engine/hook-loader';
import { openProject, type Project } from '../core/project/open-project';
import { HAND_OFF_EXIT_CODE, successorHandOff, type SuccessorHandOff } from '../core/successor';
import { armDeadline, writeAnswer } from './process-exit';
import { userHome } from '../core/files/user-home';

export interface DispatchCliOptions {
  root: string;
  json: boolean;
  apply: boolean;
  trusted: boolean;
  builtins: readonly BuiltinHook[];
}

function open(o: DispatchCliOptions): Project {
  return openProject(o.root, {
    trusted: o.trusted,
    builtins: o.builtins,
    log: { info: () => undefined, warn: (m) => process.stderr.write(`gsd-review: ${m}\n`) },
    beforeHookCode: armDeadline,
  });
}

/** Says what the extension's Next Unit says there, and exits with HAND_OFF_EXIT_CODE; nothing is written. */
function printHandOff(h: SuccessorHandOff, json: boolean): number {
  if (json) {
    const out = { unitType: null, unitId: null, source: 'successor', handOff: { tool: 'gsd', command: h.command, gsdOnPath: h.gsdPath !== null, root: h.root }, message: h.message, applied: false, written: [] };
    writeAnswer(JSON.stringify(out, null, 2) + '\n');
  } else {
    writeAnswer(`${h.message}\n`);
  }
  return HAND_OFF_EXIT_CODE;
}

export async function runNextCommand(o: DispatchCliOptions): Promise<number> {
  const project = open(o);
  if (project.readOnly) return printHandOff(successorHandOff(project.root, project.state()), o.json);
  const out = o.apply ? await project.dispatch() : await project.preview();
  const d0 = out.decision;
  // A review about to be run where Copilot CLI will not run the guard: said before it starts.
  const warning = d0?.unitType === 'review-task' ? copilotGuardWarning(trustFilesOnDisk(project.root, userHome())) : null;
  if (warning) process.stderr.write(`gsd-review: warning: ${warning}\n`);
  const d = d0 && warning ? { ...d0, prompt: withGuardWarning(d0.prompt, warning) } : d0;
  if (o.json) {
    const json = {
      unitType: d?.unitType ?? null,
      unitId: d?.unitId ?? null,
      source: d?.source ?? null,
      prompt: d?.prompt ?? null,
      reason: d?.reason ?? null,
      data: d?.data ?? null,
      phase: out.phase,
      blocker: out.blocker,
      blockedBy: out.blockedBy ?? null,
      applied: out.applied,
      written: out.written,
      hooks: out.hooks,
      diagnostics: out.diagnostics,
      warnings: warning ? [warning] : [],
    };
    writeAnswer(JSON.stringify(json, null, 2) + '\n');
  } else if (d) {
    writeAnswer(`${d.unitType} ${d.unitId}  (decided by ${d.source}${out.applied ? ', recorded' : ''})\n\n${d.prompt}\n`);
  } else {
    writeAnswer(`nothing to dispatch (${out.phase})${out.blocker ? `: ${out.blocker}` : ''}\n`);
  }
  for (const s of out.hooks.skipped) process.stderr.write(`gsd-review: hook ${s.name} skipped: ${s.reason}\n`);
  // Blocked by a unit's unreadable hook state: not "nothing to do", something to fix first.
  return out.blockedBy ? BLOCKED_EXIT_CODE : 0;
}

/** `next` when a unit's hook-state file cannot be read (the answer says which and why). */
export const BLOCKED_EXIT_CODE = 1;

export async function runCompleteCommand(o: DispatchCliOptions): Promise<number> {
  // Completion there happens only inside GSD's own running attempts.
  const project = open(o);
  if (project.readOnly) return printHandOff(successorHandOff(project.root, project.state()), o.json);
  const out = await project.complete();
  if (o.json) {
    writeAnswer(JSON.stringify({ ...out.result, written: out.written, hooks: out.hooks, diagnostics: out.diagnostics }, null, 2) + '\n');
  } else {
    writeAnswer(`completed ${out.result.unitType} ${out.result.unitId}\n`);
  }
  return 0;
}
