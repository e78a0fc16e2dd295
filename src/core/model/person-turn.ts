// The phases where GSD stops for a person: an escalation to answer, a draft to discuss, a blocker to
// resolve, a pause to lift. No hook of ours dispatches there (dispatch.ts skips the chain), so the
// review loop never takes the person's turn; it resumes once GSD goes on.
import type { Phase } from './types';

export const PERSON_TURN_PHASES: readonly Phase[] = ['escalating-task', 'needs-discussion', 'blocked', 'paused'];

/** Why GSD is waiting for a person, in one sentence; null when it is not. */
export function personTurn(state: { readonly phase: Phase; readonly blockers: readonly string[]; readonly nextAction: string }): string | null {
  if (!PERSON_TURN_PHASES.includes(state.phase)) return null;
  const why = state.blockers[0] ?? state.nextAction;
  return `GSD is waiting for you (${state.phase})${why ? `: ${why}` : ''}`;
}
