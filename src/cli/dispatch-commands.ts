// `gsd-review next [--apply]` and `gsd-review complete`: the dispatch contract of DESIGN.md section 8.
import { afterDispatch, dispatchNextUnit, type DispatchOptions } from '../core/dispatch/dispatch';
import type { BuiltinHook } from '../core/hooks/engine/hook-loader';
import { locateProject } from '../core/state/locate-project';
import { detectProjectKind, HAND_OFF_EXIT_CODE, readSuccessorProject, successorHandOff, type SuccessorHandOff } from '../core/successor';

export interface DispatchCliOptions {
  root: string;
  json: boolean;
  apply: boolean;
  trusted: boolean;
  builtins: readonly BuiltinHook[];
}

function coreOptions(o: DispatchCliOptions): DispatchOptions {
  return {
    root: o.root,
    apply: o.apply,
    trusted: o.trusted,
    builtins: o.builtins,
    log: { info: () => undefined, warn: (m) => process.stderr.write(`gsd-review: ${m}\n`) },
  };
}

/** The hand-off to GSD when `root` is in a successor project (GSD dispatches there, not us); else null. */
function successorProjectHandOff(root: string): SuccessorHandOff | null {
  const project = locateProject(root);
  if (!project || detectProjectKind(project.gsdDir).kind !== 'successor') return null;
  return successorHandOff(project.root, readSuccessorProject(project.gsdLink));
}

/** Says what the extension's Next Unit says there, and exits with HAND_OFF_EXIT_CODE; nothing is written. */
function printHandOff(h: SuccessorHandOff, json: boolean): number {
  if (json) {
    const out = { unitType: null, unitId: null, source: 'successor', handOff: { tool: 'gsd', command: h.command, gsdOnPath: h.gsdPath !== null, root: h.root }, message: h.message, applied: false, written: [] };
    process.stdout.write(JSON.stringify(out, null, 2) + '\n');
  } else {
    process.stdout.write(`${h.message}\n`);
  }
  return HAND_OFF_EXIT_CODE;
}

export async function runNextCommand(o: DispatchCliOptions): Promise<number> {
  const handOff = successorProjectHandOff(o.root);
  if (handOff) return printHandOff(handOff, o.json);
  const out = await dispatchNextUnit(coreOptions(o));
  const d = out.decision;
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
      applied: out.applied,
      written: out.written,
      hooks: out.hooks,
      diagnostics: out.diagnostics,
    };
    process.stdout.write(JSON.stringify(json, null, 2) + '\n');
  } else if (d) {
    process.stdout.write(`${d.unitType} ${d.unitId}  (decided by ${d.source}${out.applied ? ', recorded' : ''})\n\n${d.prompt}\n`);
  } else {
    process.stdout.write(`nothing to dispatch (${out.phase})${out.blocker ? `: ${out.blocker}` : ''}\n`);
  }
  for (const s of out.hooks.skipped) process.stderr.write(`gsd-review: hook ${s.name} skipped: ${s.reason}\n`);
  return 0;
}

export async function runCompleteCommand(o: DispatchCliOptions): Promise<number> {
  // Completion there happens only inside GSD's own running attempts.
  const handOff = successorProjectHandOff(o.root);
  if (handOff) return printHandOff(handOff, o.json);
  const out = await afterDispatch(coreOptions(o));
  if (o.json) {
    process.stdout.write(JSON.stringify({ ...out.result, written: out.written, hooks: out.hooks, diagnostics: out.diagnostics }, null, 2) + '\n');
  } else {
    process.stdout.write(`completed ${out.result.unitType} ${out.result.unitId}\n`);
  }
  return 0;
}
