// The milestone registry of a GSD-2 database project and its active milestone and slice, from the
// milestone and slice rows alone (gsd-build/gsd-2 at 76568edc, state.ts: buildCompletenessSet,
// buildRegistryAndFindActive, resolveSliceDependencies, stripMilestonePrefix).
import { firstEligibleSlice, type SliceOrder } from '../model/slice-eligibility';
import type { MilestoneStatus, Progress } from '../model/types';
import type { Gsd2Snapshot, MilestoneRow, SliceRow } from './snapshot';
import { isClosedStatus, isDeferredStatus } from './status-guards';

// `M`, a digit, anything up to the first colon (the id and its team suffix among it), the colon and
// the blanks after it: what `^M\d+(?:-[a-z0-9]{6})?[^:]*:\s*` matches, without its `\d+`, team
// suffix and `[^:]*` competing for the same characters (quadratic on a long title without a colon).
const MILESTONE_PREFIX = /^M\d[^:]*:\s*/;

/** GSD shows `M001: Title` as `Title` (state.ts `stripMilestonePrefix`). */
export function milestoneTitle(m: Pick<MilestoneRow, 'id' | 'title'>): string {
  const stripped = m.title.replace(MILESTONE_PREFIX, '') || m.title;
  return stripped || m.id;
}

export interface RegistryItem {
  row: MilestoneRow;
  title: string;
  status: MilestoneStatus;
}

export const progressOf = <T>(items: T[], done: (t: T) => boolean): Progress => ({ done: items.filter(done).length, total: items.length });

/** The registry and the active milestone (buildCompletenessSet, buildRegistryAndFindActive): milestone and slice rows only. */
export function buildRegistry(snap: Gsd2Snapshot): { registry: RegistryItem[]; active: RegistryItem | null } {
  const slicesOf = (mid: string): SliceRow[] => snap.slices.get(mid) ?? [];

  // Completeness and parking come from the milestone's own status only (buildCompletenessSet).
  const completeIds = new Set<string>();
  const parkedIds = new Set<string>();
  for (const m of snap.milestones) {
    if (m.status === 'parked') parkedIds.add(m.id);
    else if (isClosedStatus(m.status)) completeIds.add(m.id);
  }

  // Registry and the active milestone (buildRegistryAndFindActive): the first milestone, in queue
  // order, that is neither parked nor closed and whose dependencies are all closed. A queued shell
  // (status `queued`, no slices yet) is taken only when nothing else is eligible; a milestone whose
  // slices are all closed and whose latest validation says needs-attention is parked on the way.
  const registry: RegistryItem[] = [];
  let active: RegistryItem | null = null;
  let firstQueuedShell: RegistryItem | null = null;
  for (const m of snap.milestones) {
    const title = milestoneTitle(m);
    if (parkedIds.has(m.id)) {
      registry.push({ row: m, title, status: 'parked' });
      continue;
    }
    if (completeIds.has(m.id)) {
      registry.push({ row: m, title, status: 'complete' });
      continue;
    }
    const item: RegistryItem = { row: m, title, status: 'pending' };
    registry.push(item);
    if (active) continue;
    const slices = slicesOf(m.id);
    if (m.dependsOn.some((d) => !completeIds.has(d))) continue;
    if (m.status === 'queued' && slices.length === 0) {
      firstQueuedShell ??= item;
      continue;
    }
    const allSlicesDone = slices.length > 0 && slices.every((s) => isClosedStatus(s.status));
    if (allSlicesDone && snap.validationVerdicts.get(m.id) === 'needs-attention') {
      item.status = 'parked';
      continue;
    }
    item.status = 'active';
    active = item;
  }
  if (!active && firstQueuedShell) {
    firstQueuedShell.status = 'active';
    active = firstQueuedShell;
  }
  return { registry, active };
}

/** resolveSliceDependencies: the first slice, by sequence, neither closed nor deferred, whose dependencies are all closed. */
export function eligibleSlice(slices: SliceRow[]): SliceRow | undefined {
  return firstEligibleSlice(slices, DATABASE_SLICE_ORDER);
}

const DATABASE_SLICE_ORDER: SliceOrder<SliceRow> = {
  id: (s) => s.id,
  closed: (s) => isClosedStatus(s.status),
  deferred: (s) => isDeferredStatus(s.status),
  depends: (s) => s.depends,
};

/**
 * The slices whose task rows the derivation reads, from milestone and slice rows alone: the active
 * slice (decide() looks at no other slice's tasks). Every other slice's tasks serve only the registry,
 * which a lazy read counts in SQL instead.
 */
export function slicesNeedingTasks(snap: Gsd2Snapshot): Array<{ milestoneId: string; sliceId: string }> {
  const { active } = buildRegistry(snap);
  if (!active) return [];
  const slices = snap.slices.get(active.row.id) ?? [];
  if (slices.length === 0 || slices.every((s) => isClosedStatus(s.status))) return [];
  const slice = eligibleSlice(slices);
  return slice ? [{ milestoneId: active.row.id, sliceId: slice.id }] : [];
}
