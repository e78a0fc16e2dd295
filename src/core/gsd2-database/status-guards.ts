// GSD-2's status guards (gsd-build/gsd-2 at 76568edc, src/resources/extensions/gsd/status-guards.ts),
// shared by the derivation and by the SQL that counts closed tasks without reading their rows.

/** The statuses `isClosedStatus` accepts. */
export const CLOSED_STATUSES = ['complete', 'done', 'skipped', 'closed'] as const;

/** `isClosedStatus` of status-guards.ts. */
export function isClosedStatus(status: string): boolean {
  return (CLOSED_STATUSES as readonly string[]).includes(status);
}

/** `isDeferredStatus` of status-guards.ts. */
export function isDeferredStatus(status: string): boolean {
  return status === 'deferred';
}
