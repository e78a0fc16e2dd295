// Successor projects (@opengsd/gsd-pi 1.x): detection and a read-only state, behind the project
// engine's state-source seam (core/project/successor-source.ts);
// Next Unit on such a project hands over to GSD (hand-off.ts).
export { detectProjectKind, type DetectOptions, type ProjectKind, type ProjectKindReport } from '../state/project-kind';
export { readSuccessorProject, type ReadSuccessorOptions, type SuccessorState } from './read-successor-project';
export { KNOWN_ISSUES_SOURCE } from './successor-units';
export { nodeSqliteAvailability } from '../sqlite/read-only-database';
export { HOOK_VERDICTS, type HookVerdict, type SuccessorReviewCycle } from './review-verdicts';
export { GSD_APPLICATION_ID, LATEST_KNOWN_SCHEMA, OLDEST_CURRENT_SCHEMA, schemaTooNewMessage } from '../state/schema-versions';
export { findOnPath, GSD_INSTALL, GSD_NEXT_COMMAND, GSD_SESSION_NEXT, HAND_OFF_EXIT_CODE, successorHandOff, type SuccessorHandOff } from './hand-off';
