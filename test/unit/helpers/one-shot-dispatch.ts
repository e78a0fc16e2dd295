// One decision in one call, for scripts and tests that have no engine of their own: open the project,
// decide (or record, or complete), done. The same engine as everywhere else, used once.
import type { AfterDispatchOutcome, DispatchOutcome } from '../../../src/core/dispatch/dispatch';
import type { GsdStore } from '../../../src/core/files/gsd-store';
import type { BuiltinHook } from '../../../src/core/hooks/loading/hook-loader';
import type { DispatchDecision, HookLog } from '../../../src/core/hooks/engine/middleware-types';
import { openProject } from '../../../src/core/project/open-project';

export interface DispatchOptions {
  /** Any folder inside the project. */
  root: string;
  /** Commit hook state and record the dispatch (otherwise nothing is written). */
  apply?: boolean;
  store?: GsdStore;
  signal?: AbortSignal;
  /** May hook code from the workspace run (VS Code's workspace trust)? Default false. */
  trusted?: boolean;
  builtins?: readonly BuiltinHook[];
  userHooksDir?: string;
  log?: HookLog;
  now?: () => Date;
}

function open(o: DispatchOptions) {
  return openProject(o.root, {
    ...(o.store ? { store: o.store } : {}),
    trusted: o.trusted ?? false,
    builtins: o.builtins ?? [],
    ...(o.userHooksDir ? { userHooksDir: o.userHooksDir } : {}),
    ...(o.log ? { log: o.log } : {}),
    ...(o.now ? { now: o.now } : {}),
  });
}

const run = (o: DispatchOptions) => (o.signal ? { signal: o.signal } : {});

export function dispatchNextUnit(o: DispatchOptions): Promise<DispatchOutcome> {
  const project = open(o);
  return o.apply ? project.dispatch(run(o)) : project.preview(run(o));
}

export function dispatchUnit(o: DispatchOptions, unit: DispatchDecision): Promise<DispatchOutcome> {
  return open(o).dispatchUnit(unit, run(o));
}

export function afterDispatch(o: DispatchOptions): Promise<AfterDispatchOutcome> {
  return open(o).complete(run(o));
}
