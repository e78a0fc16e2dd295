// Which slice of a milestone runs next, one rule for every state source: the first slice, in order,
// that is neither closed nor deferred and whose dependencies are all closed (GSD-2's
// resolveSliceDependencies, the same on its markdown and database paths). A dependency on a slice the
// milestone does not have is never closed, so that slice waits: GSD-2 reads it so on both paths.
// The successor's reading (successor-phase.ts) takes such a dependency as met instead: it is a
// panel's reading of a project GSD's own state machine drives, and it says so by `unknownDependency`.

export interface SliceOrder<S> {
  id: (slice: S) => string;
  closed: (slice: S) => boolean;
  /** Deferred slices are skipped (GSD-2's database `deferred` status); default none. */
  deferred?: (slice: S) => boolean;
  depends: (slice: S) => readonly string[];
  /** `waits` (GSD-2): a dependency on an unknown slice is never met; `met`: it is ignored. */
  unknownDependency?: 'waits' | 'met';
}

export function firstEligibleSlice<S>(slices: readonly S[], order: SliceOrder<S>): S | undefined {
  const closedIds = new Set<string>();
  const knownIds = new Set<string>();
  for (const s of slices) {
    knownIds.add(order.id(s));
    if (order.closed(s)) closedIds.add(order.id(s));
  }
  const met = (d: string) => closedIds.has(d) || (order.unknownDependency === 'met' && !knownIds.has(d));
  return slices.find((s) => !order.closed(s) && !order.deferred?.(s) && order.depends(s).every(met));
}
