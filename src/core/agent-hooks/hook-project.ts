// Which project an agent-hook event belongs to. Not simply the payload's `cwd`: an agent at work in a
// nested repository (`vendor/lib` with its own `.git`) sends that folder, and the project walk stops
// at the first `.git` (find-gsd-folder.ts), so the guard was off exactly there. The hook files that
// run belong to one project, which the host names: the launcher's installed location
// (`<project>/.claude/hooks/`, `<project>/.github/hooks/`, passed on as GSD_REVIEW_HOOK_PROJECT),
// then the host's own variables (Claude Code's CLAUDE_PROJECT_DIR, Copilot CLI's COPILOT_PROJECT_DIR),
// then the folder the host ran the hook in, and last the payload's `cwd`. The launcher's shell fast
// path looks in the same order by the same rule (launcher.ts), so both find the same project.
// Small on purpose: the small hook entry (src/hook-entry.ts) uses it.

/** Set by the launcher: the project its own location names (a user-level launcher names none). */
export const HOOK_PROJECT_ENV = 'GSD_REVIEW_HOOK_PROJECT';

/** The host's variables naming the project, in the order they are asked. */
export const HOST_PROJECT_ENV = ['CLAUDE_PROJECT_DIR', 'COPILOT_PROJECT_DIR'] as const;

export interface HookProjectPlaces {
  /** `--root`: when given, the only place. */
  root?: string | null;
  env: NodeJS.ProcessEnv;
  /** The folder the hook process runs in. */
  cwd: string;
  payloadCwd?: string | null;
}

/** The folders to look for the project from, first one first. */
export function hookProjectStarts(o: HookProjectPlaces): string[] {
  if (o.root) return [o.root];
  const places = [o.env[HOOK_PROJECT_ENV], ...HOST_PROJECT_ENV.map((name) => o.env[name]), o.cwd, o.payloadCwd];
  return [...new Set(places.filter((p): p is string => typeof p === 'string' && p !== ''))];
}

/** The first project found from those places (`find` answers null where there is none, and never throws). */
export function firstHookProject<T>(o: HookProjectPlaces, find: (start: string) => T | null): T | null {
  for (const start of hookProjectStarts(o)) {
    const found = find(start);
    if (found !== null) return found;
  }
  return null;
}
