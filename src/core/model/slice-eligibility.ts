// Which slice of a milestone runs next, one rule for every state source: the first slice, in order,
// that is neither closed nor deferred and whose dependencies are all closed. A dependency on a slice
// the milestone does not have is never closed, so that slice waits. GSD-2 reads it so on its markdown
// and database paths (resolveSliceDependencies), and so does the successor: @opengsd/gsd-pi 1.16.1,
// state/derive/from-db.ts resolveSliceDependencies, `s.depends.every(dep => doneSliceIds.has(dep))`.

export interface SliceOrder<S> {
  id: (slice: S) => string;
  closed: (slice: S) => boolean;
  /** Deferred slices are skipped (GSD-2's database `deferred` status); default none. */
  deferred?: (slice: S) => boolean;
  depends: (slice: S) => readonly string[];
}

export function firstEligibleSlice<S>(slices: readonly S[], order: SliceOrder<S>): S | undefined {
  const closedIds = new Set<string>();
  for (const s of slices) if (order.closed(s)) closedIds.add(order.id(s));
  return slices.find((s) => !order.closed(s) && !order.deferred?.(s) && order.depends(s).every((d) => closedIds.has(d)));
}
