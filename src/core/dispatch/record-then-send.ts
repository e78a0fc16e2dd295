// A unit is recorded before it is sent. The record (and the hook state committed with it) is what
// the guard and the review loop go by: a review sent first whose record then failed would run with
// no guard and be forgotten by the loop. So a failed record sends nothing, and what is sent is the
// unit the record holds (the project may have changed since the preview).
import type { DispatchDecision } from '../hooks/engine/middleware-types';
import type { DispatchOutcome } from './dispatch-outcome';

export async function recordThenSend<T>(
  record: () => Promise<DispatchOutcome>,
  send: (recorded: DispatchDecision) => Promise<T>,
): Promise<{ outcome: DispatchOutcome; sent: T | null }> {
  const outcome = await record();
  if (!outcome.applied || !outcome.decision) return { outcome, sent: null };
  return { outcome, sent: await send(outcome.decision) };
}
