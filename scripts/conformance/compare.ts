// The pure part of the conformance run: what GSD-2 recorded for a tree against what we derived,
// field by field. Blockers are compared by count and by the unit ids each one names, since the
// wording is each tool's own.
export interface RecordedState {
  phase: string;
  milestone: string | null;
  slice: string | null;
  task: string | null;
  blockers: string[];
}

export interface Disagreement {
  field: 'phase' | 'milestone' | 'slice' | 'task' | 'blockers' | 'error';
  ours: string;
  gsd2: string;
}

/** The fields of `state --json` the corpus records. */
export interface DerivedView {
  phase: string;
  activeMilestone: { id: string } | null;
  activeSlice: { id: string } | null;
  activeTask: { id: string } | null;
  blockers: string[];
}

const UNIT_ID = /\b[MST]\d+(?:-[a-z0-9]{6})?\b/g;

/** The milestone, slice and task ids a blocker names, in order (`M002 is waiting on … M001` → M002 M001). */
export function blockerIds(blocker: string): string[] {
  return blocker.match(UNIT_ID) ?? [];
}

function showBlockers(list: string[]): string {
  return list.length === 0 ? '(none)' : list.map((b) => JSON.stringify(b)).join(', ');
}

export function compareState(ours: DerivedView, gsd2: RecordedState): Disagreement[] {
  const out: Disagreement[] = [];
  const show = (v: string | null) => v ?? '(none)';
  if (ours.phase !== gsd2.phase) out.push({ field: 'phase', ours: ours.phase, gsd2: gsd2.phase });
  const pairs: Array<['milestone' | 'slice' | 'task', string | null, string | null]> = [
    ['milestone', ours.activeMilestone?.id ?? null, gsd2.milestone],
    ['slice', ours.activeSlice?.id ?? null, gsd2.slice],
    ['task', ours.activeTask?.id ?? null, gsd2.task],
  ];
  for (const [field, a, b] of pairs) if (a !== b) out.push({ field, ours: show(a), gsd2: show(b) });
  const sameBlockers =
    ours.blockers.length === gsd2.blockers.length &&
    ours.blockers.every((b, i) => blockerIds(b).join(' ') === blockerIds(gsd2.blockers[i]).join(' '));
  if (!sameBlockers) out.push({ field: 'blockers', ours: showBlockers(ours.blockers), gsd2: showBlockers(gsd2.blockers) });
  return out;
}

/** One output line per disagreement: name, field, ours vs GSD-2. */
export function formatDisagreement(name: string, d: Disagreement, mode?: string): string {
  return `✗ ${name}: ${d.field}${mode ? ` (${mode})` : ''}: ours ${d.ours} vs GSD-2 ${d.gsd2}`;
}
