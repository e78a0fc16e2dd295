// Successor projects (@opengsd/gsd-pi 1.x): a read-only state, behind the project engine's
// state-source seam (core/project/successor-source.ts); Next Unit on such a project hands over to GSD
// (hand-off.ts). Which kind a project is: state/project-kind.ts. Only what the faces and tests use.
export { readSuccessorProject, type SuccessorState } from './read-successor-project';
export { KNOWN_ISSUES_SOURCE } from './successor-units';
export { type SuccessorReviewCycle } from './review-verdicts';
export { findOnPath, GSD_INSTALL, HAND_OFF_EXIT_CODE, successorHandOff, type SuccessorHandOff } from './hand-off';
