// An example user hook: a task whose execute-task unit finished `max_attempts` times without the
// task being done is sent back to its slice plan (replan-slice) instead of being dispatched again.
//
// Put this folder in `.gsd/extensions/` (trusted workspaces only) or `~/.gsd/agent/extensions/`,
// compile this file to `gsd-hooks.js` beside it (`npx tsc` or `npx esbuild gsd-hooks.ts
// --format=cjs --outfile=gsd-hooks.js`), and enable it in `.gsd/PREFERENCES.md`:
//   gsd_hooks:
//     enabled:
//       - name: attempt-limit
//         source: attempt-limit
//         options: { max_attempts: 2 }
// Only types come from GSD Review Loop (its `dist/gsd-hooks.d.ts`; map the module name to it with
// tsconfig `paths`), so the compiled file needs nothing at run time.
import type { GSDMiddleware, HookApi } from 'gsd-review-loop/hooks';

/** What this hook keeps on each task (its `extensions.attempt-limit` block). */
export interface AttemptState {
  finished: number;
}

/** Its project-wide view: `state.extensions['attempt-limit']`, unit id → attempts. */
export type AttemptView = Record<string, number>;

declare module 'gsd-review-loop/hooks' {
  interface GSDUnitExtensions {
    'attempt-limit': AttemptState;
  }
  interface GSDStateExtensions {
    'attempt-limit': AttemptView;
  }
}

const NAME = 'attempt-limit';

function maxAttempts(options: Readonly<Record<string, unknown>>): number {
  const n = Number(options.max_attempts ?? 3);
  return Number.isInteger(n) && n >= 1 ? n : 3;
}

const attemptLimit: GSDMiddleware<AttemptState> = async (ctx, next) => {
  if (ctx.phase === 'after') {
    // Count every finished execute-task of a task, done or not: the next dispatch decides.
    const r = ctx.result;
    if (r?.unitType === 'execute-task') {
      const finished = (ctx.store.get(r.unitId)?.finished ?? 0) + 1;
      ctx.store.set(r.unitId, { finished });
    }
    // Our replan finished: the task starts counting again.
    const replanned = r?.unitType === 'replan-slice' && r.source === NAME ? r.data?.taskUnitId : undefined;
    if (typeof replanned === 'string') ctx.store.set(replanned, undefined);
    return next();
  }
  const { activeMilestone: m, activeSlice: s, activeTask: t } = ctx.state;
  if (ctx.state.phase === 'executing' && m && s && t) {
    const unitId = `${m.id}/${s.id}/${t.id}`;
    const finished = ctx.store.get(unitId)?.finished ?? 0;
    const max = maxAttempts(ctx.options);
    if (finished >= max) {
      ctx.decision = {
        unitType: 'replan-slice',
        unitId: `${m.id}/${s.id}`,
        prompt: `Task ${t.id} ("${t.title}") was executed ${finished} times without being finished. Replan slice ${s.id}: split ${t.id} or change its approach.`,
        reason: `${t.id} reached ${max} attempts`,
        data: { taskUnitId: unitId },
      };
      return;
    }
  }
  return next();
};

export default function register(api: HookApi): void {
  api.registerHook(NAME, attemptLimit, {
    priority: 30,
    summarize: (state) => {
      const view: AttemptView = {};
      for (const m of state.milestones) {
        for (const s of m.slices) {
          for (const t of s.tasks) {
            const own = t.extensions[NAME] as AttemptState | undefined;
            if (typeof own?.finished === 'number') view[`${m.id}/${s.id}/${t.id}`] = own.finished;
          }
        }
      }
      return view;
    },
  });
}
