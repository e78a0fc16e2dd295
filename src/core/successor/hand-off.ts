// Next Unit on a successor project (@opengsd/gsd-pi 1.x) hands off to GSD: only GSD's own running
// attempts record progress there, so we never dispatch a unit ourselves. The extension runs GSD's
// own step in a terminal when `gsd` is on PATH, the CLI prints the same words; both ask this module.
// Facts (gsd-pi src/help-text.ts, src/cli.ts; package.json `bin`: gsd, gsd-cli): the shell command
// `gsd headless next` runs one unit without the TUI ("Run one unit"; exit codes 0 success, 1 error
// or timeout, 10 blocked, 11 cancelled); inside a GSD session the same step is `/gsd next`
// ("Explicit step mode — run one unit, then pause", commands/catalog.ts). There is no `gsd next`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GSDState } from '../model/types';

/** GSD's own "run one unit" from a shell. */
export const GSD_NEXT_COMMAND = 'gsd headless next';
/** The same step inside a running GSD session. */
export const GSD_SESSION_NEXT = '/gsd next';
/** How GSD is installed (the successor's npm package). */
export const GSD_INSTALL = 'npm install -g @opengsd/gsd-pi';
/**
 * `gsd-review next` and `complete` on a successor project: nothing was dispatched by us, GSD does it.
 * Distinct from 1 (failure) and 2 (usage), so a script can tell "hand over to gsd" apart.
 */
export const HAND_OFF_EXIT_CODE = 3;

export interface SuccessorHandOff {
  root: string;
  /** The `gsd` executable found on PATH, or null. */
  gsdPath: string | null;
  /** What to run in a terminal in `root`. */
  command: string;
  /** The one message shown to the user (the extension's notification, the CLI's text). */
  message: string;
}

export interface HandOffOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

function isExecutableFile(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    // Windows has no execute bit: PATHEXT decides what runs.
    if (platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first `name` on PATH that is an executable file, as a shell would find it; null when none. */
export function findOnPath(name: string, options: HandOffOptions = {}): string | null {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const pathValue = env.PATH ?? env.Path ?? '';
  const sep = platform === 'win32' ? ';' : ':';
  const exts = platform === 'win32' ? (env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean) : [''];
  for (const dir of pathValue.split(sep)) {
    // An empty PATH entry is the current folder to a shell; we do not run what a repository planted there.
    if (!dir || !path.isAbsolute(dir)) continue;
    for (const ext of exts) {
      const file = path.join(dir, name + ext);
      if (isExecutableFile(file, platform)) return file;
    }
  }
  return null;
}

/** Where GSD stands, in one short clause, from the read-only state (when there is one). */
function whereGsdIs(state: Pick<GSDState, 'phase' | 'activeMilestone' | 'activeSlice' | 'activeTask'> | undefined): string {
  if (!state) return '';
  const unit = [state.activeMilestone?.id, state.activeSlice?.id, state.activeTask?.id].filter(Boolean).join('/');
  const title = state.activeTask?.title ?? state.activeSlice?.title ?? state.activeMilestone?.title;
  return ` GSD's phase: ${state.phase}${unit ? `, at ${unit}${title ? ` (${title})` : ''}` : ''}.`;
}

/** What Next Unit does on a successor project in `root`. */
export function successorHandOff(root: string, state?: Pick<GSDState, 'phase' | 'activeMilestone' | 'activeSlice' | 'activeTask'>, options: HandOffOptions = {}): SuccessorHandOff {
  const gsdPath = findOnPath('gsd', options);
  const lead = 'This is a project of GSD (@opengsd/gsd-pi 1.x): GSD dispatches its own units and records their progress, so GSD Review Loop shows it read-only and dispatches nothing.';
  const message = gsdPath
    ? `${lead}${whereGsdIs(state)} Run GSD's next unit with \`${GSD_NEXT_COMMAND}\` in ${root} (or \`${GSD_SESSION_NEXT}\` in a GSD session).`
    : `${lead}${whereGsdIs(state)} \`gsd\` is not on PATH: install GSD (\`${GSD_INSTALL}\`), then run \`${GSD_NEXT_COMMAND}\` in ${root} (or \`${GSD_SESSION_NEXT}\` in a GSD session).`;
  return { root, gsdPath, command: GSD_NEXT_COMMAND, message };
}
