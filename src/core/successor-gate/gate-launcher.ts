// `~/.gsd-review-loop/gsd-review`: what the gate's prompt runs (gate-hook.ts GATE_COMMAND). GSD's
// hook session runs it with its bash tool; PREFERENCES.md may be committed, so the prompt names
// this file in the home folder, and the file finds this machine's CLI as the agent-hook launcher
// does (launcher.ts). Written beside the bridge pointer, whenever that is written.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { replaceAtomically } from '../files/atomic-write';
import { readBoundedText } from '../files/bounded-read';
import { realPathOf } from '../files/confine';
import { FIND_CLI_SH, POINTER_DIR } from '../shell/find-cli';

export const GATE_LAUNCHER_FILE = 'gsd-review';

export function gateLauncherFile(home: string): string {
  return path.join(home, POINTER_DIR, GATE_LAUNCHER_FILE);
}

export const GATE_LAUNCHER_SH = `#!/bin/sh
# gsd-review for GSD's review gate (a post-unit hook of @opengsd/gsd-pi), written by GSD Review Loop:
# finds this machine's gsd-review CLI and runs it with the arguments given.
${FIND_CLI_SH}if [ -z "$cli" ] && command -v gsd-review >/dev/null 2>&1; then exec gsd-review "$@"; fi
if [ -z "$runtime" ]; then runtime="$(command -v node 2>/dev/null)"; fi
if [ -z "$cli" ] || [ -z "$runtime" ]; then
  echo "gsd-review: command not found on this machine (install the GSD Review Loop extension, or put gsd-review on PATH)" >&2
  exit 127
fi
ELECTRON_RUN_AS_NODE=1 exec "$runtime" "$cli" "$@"
`;

/** Writes the launcher when it is missing or not ours as it is now. Best effort: false when nothing was written. */
export function writeGateLauncher(home: string): boolean {
  const file = gateLauncherFile(home);
  try {
    if (fs.existsSync(file) && readBoundedText(realPathOf(file), 64 * 1024) === GATE_LAUNCHER_SH) return false;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    replaceAtomically(realPathOf(file), GATE_LAUNCHER_SH);
    fs.chmodSync(realPathOf(file), 0o755);
    return true;
  } catch {
    return false;
  }
}
