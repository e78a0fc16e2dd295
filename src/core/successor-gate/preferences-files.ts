// Which PREFERENCES.md the successor reads (gsd-pi 1.16.1 preferences.ts, gsd-home.ts): the
// project's `.gsd/PREFERENCES.md`, else `.gsd/preferences.md`; the user's `$GSD_HOME/PREFERENCES.md`
// (GSD_HOME defaults to `~/.gsd`), else `$GSD_HOME/preferences.md`, else
// `~/.pi/agent/gsd-preferences.md`. The first file that exists is the one read; a project hook
// replaces a user hook of the same name.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface PreferencesPlaces {
  /** The project's real `.gsd`. */
  gsdDir: string;
  home: string;
  /** GSD_HOME as GSD sees it (the environment's), if set. */
  gsdHome?: string;
}

export function userGsdHome(o: Pick<PreferencesPlaces, 'home' | 'gsdHome'>): string {
  return o.gsdHome ? path.resolve(o.gsdHome) : path.join(o.home, '.gsd');
}

/** The PREFERENCES files GSD tries for a scope, in its order. */
export function preferencesCandidates(o: PreferencesPlaces, user: boolean): string[] {
  if (!user) return [path.join(o.gsdDir, 'PREFERENCES.md'), path.join(o.gsdDir, 'preferences.md')];
  const home = userGsdHome(o);
  return [path.join(home, 'PREFERENCES.md'), path.join(home, 'preferences.md'), path.join(o.home, '.pi', 'agent', 'gsd-preferences.md')];
}

/** The file GSD reads for a scope: the first that exists, else where GSD looks first. */
export function preferencesFileFor(o: PreferencesPlaces, user: boolean): string {
  const candidates = preferencesCandidates(o, user);
  return candidates.find((f) => fs.existsSync(f)) ?? candidates[0];
}
