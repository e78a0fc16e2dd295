// On a project of GSD's successor (@opengsd/gsd-pi 1.x) our review-loop and pending-actions hooks
// do not run: GSD reviews with its own blocking post-unit hooks, and nothing of ours may be written
// under its `.gsd` (not even the hook log). The bridge and the small hook entry answer nothing, which
// every host reads as "go on" (allow), and say why in one line on stderr.
// Detection reads the folders and the database header only (no node:sqlite): this runs on every
// agent event. A successor database from before the schema-46 stamps with neither `phases/` nor
// `.compat.json` beside it needs node:sqlite to tell apart; the full reader sees it, this does not.
import { detectProjectKind } from '../state/project-kind';

/** Why our hooks stand aside in this `.gsd` (one line), or null when they run. Never throws. */
export function successorStandsAside(gsdDir: string): string | null {
  try {
    return detectProjectKind(gsdDir, { sqlite: 'off' }).kind === 'successor'
      ? 'a project of GSD (@opengsd/gsd-pi 1.x): GSD runs its own reviews there, so our hooks stand aside (answered nothing; nothing written)'
      : null;
  } catch {
    return null;
  }
}
