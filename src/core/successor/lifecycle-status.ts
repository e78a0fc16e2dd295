// Which status of a successor item counts. Since the lifecycle foundation (schema 32) each item has
// a canonical `workflow_item_lifecycles.lifecycle_status` beside the old `status` column; once the
// project's authority has been cut over (`project_authority.authority_epoch > 0`) the lifecycle row
// is the truth, before that the old column still is (issue 17's rule). The two vocabularies, from
// gsd-pi db/lifecycle-shadow-comparison.ts and status-guards.ts:
//   lifecycle: pending, ready, in_progress, paused, completed, cancelled, blocker-accepted (V50)
//   column:    pending, queued, planned, active, in_progress, in-progress, blocked, parked,
//              complete, done, closed, skipped, deferred (RAW_CLOSED_STATUSES: complete, done,
//              skipped, closed)

export type StatusFrom = 'lifecycle' | 'column' | 'layout';

/** Our reading of one GSD status, whichever vocabulary it came in. */
export type StatusClass = 'closed' | 'in-progress' | 'paused' | 'blocked' | 'open';

const LIFECYCLE: Record<string, StatusClass> = {
  pending: 'open',
  ready: 'open',
  in_progress: 'in-progress',
  paused: 'paused',
  completed: 'closed',
  cancelled: 'closed',
  'blocker-accepted': 'closed',
};

const COLUMN: Record<string, StatusClass> = {
  pending: 'open',
  queued: 'open',
  planned: 'open',
  active: 'in-progress',
  in_progress: 'in-progress',
  'in-progress': 'in-progress',
  blocked: 'blocked',
  parked: 'paused',
  complete: 'closed',
  done: 'closed',
  closed: 'closed',
  skipped: 'closed',
  // deferred maps to the canonical `cancelled` (lifecycle-shadow-comparison.ts): not work left.
  deferred: 'closed',
};

export function classifyLifecycleStatus(status: string): StatusClass | undefined {
  return LIFECYCLE[status.trim()];
}

export function classifyColumnStatus(status: string): StatusClass | undefined {
  return COLUMN[status.trim().toLowerCase()];
}

export interface EffectiveStatus {
  status: string;
  from: StatusFrom;
  cls: StatusClass;
}

/**
 * The status that counts for one item: the lifecycle row's when the authority epoch is past 0 and
 * the row exists, else the old column's. An unknown value counts as open, so no work is hidden.
 */
export function effectiveStatus(columnStatus: string, lifecycleStatus: string | undefined, authorityEpoch: number | null): EffectiveStatus {
  if (authorityEpoch !== null && authorityEpoch > 0 && lifecycleStatus !== undefined) {
    return { status: lifecycleStatus, from: 'lifecycle', cls: classifyLifecycleStatus(lifecycleStatus) ?? 'open' };
  }
  return { status: columnStatus, from: 'column', cls: classifyColumnStatus(columnStatus) ?? 'open' };
}
