// `.gsd/hook-state.json`, the successor's record of its post-unit hooks (gsd-pi 1.16.1
// rule-registry.ts persistState): `cycleCounts` by `<hook>/<trigger unit type>/<unit id>`, the hook
// in flight (`activeHook`: hookName, triggerUnitType, triggerUnitId, cycle), the queue and a pending
// retry. GSD writes it right after deciding to run a hook (auto-post-unit.ts: checkPostUnitHooks,
// then persistHookState), so while the hook's session runs, the count for it is this cycle's
// number. Read only, bounded and confined like every file of GSD's.
import * as path from 'node:path';
import { readBoundedText } from '../files/bounded-read';
import { openConfined } from '../files/confine';

export const HOOK_STATE_FILE = 'hook-state.json';

export interface HookStateRecord {
  cycleCounts: Record<string, number>;
  activeHook: { hookName: string; triggerUnitType: string; triggerUnitId: string; cycle: number } | null;
  retryPending: boolean;
  retryTrigger: { unitType: string; unitId: string } | null;
  savedAt?: string;
}

export interface HookStateRead {
  state: HookStateRecord | null;
  /** Why the file could not be used (absent is not a problem: null state, no problem). */
  problem?: string;
  file: string;
}

const str = (v: unknown): v is string => typeof v === 'string';

/** The hook state as GSD left it; each field checked, anything else ignored. */
export function readHookState(gsdDir: string): HookStateRead {
  const file = path.join(gsdDir, HOOK_STATE_FILE);
  let text: string | null;
  try {
    text = readBoundedText(file, 4 * 1024 * 1024, openConfined);
  } catch (error) {
    return { state: null, problem: `${HOOK_STATE_FILE} could not be read: ${(error as Error).message}`, file };
  }
  if (text === null) return { state: null, file };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { state: null, problem: `${HOOK_STATE_FILE} is not valid JSON`, file };
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { state: null, problem: `${HOOK_STATE_FILE} is not a JSON object`, file };
  const r = raw as Record<string, unknown>;
  const cycleCounts: Record<string, number> = {};
  if (r.cycleCounts && typeof r.cycleCounts === 'object') {
    for (const [k, v] of Object.entries(r.cycleCounts as Record<string, unknown>)) {
      // GSD writes whole counts; anything else is no count of its.
      if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) cycleCounts[k] = v;
    }
  }
  const a = r.activeHook as Record<string, unknown> | null | undefined;
  const activeHook =
    a && typeof a === 'object' && str(a.hookName) && str(a.triggerUnitType) && str(a.triggerUnitId) && typeof a.cycle === 'number' && Number.isSafeInteger(a.cycle)
      ? { hookName: a.hookName, triggerUnitType: a.triggerUnitType, triggerUnitId: a.triggerUnitId, cycle: a.cycle }
      : null;
  const t = r.retryTrigger as Record<string, unknown> | null | undefined;
  const retryTrigger = t && typeof t === 'object' && str(t.unitType) && str(t.unitId) ? { unitType: t.unitType, unitId: t.unitId } : null;
  return { state: { cycleCounts, activeHook, retryPending: r.retryPending === true && retryTrigger !== null, retryTrigger, ...(str(r.savedAt) ? { savedAt: r.savedAt } : {}) }, file };
}

/** GSD's key for a hook's cycles of one trigger unit (rule-registry.ts hookCycleKey). */
export function hookCycleKey(hook: string, triggerUnitType: string, unitId: string): string {
  return `${hook}/${triggerUnitType}/${unitId}`;
}

/**
 * The cycle GSD is on for this hook and unit: the hook in flight's own number when it is this one,
 * else the count GSD keeps; null when GSD has not run the hook for the unit.
 */
export function gateCycle(state: HookStateRecord | null, hook: string, triggerUnitType: string, unitId: string): number | null {
  if (!state) return null;
  const a = state.activeHook;
  if (a && a.hookName === hook && a.triggerUnitType === triggerUnitType && a.triggerUnitId === unitId && a.cycle >= 1) return a.cycle;
  const n = state.cycleCounts[hookCycleKey(hook, triggerUnitType, unitId)];
  return typeof n === 'number' && n >= 1 ? n : null;
}
