// Where this machine's gsd-review CLI is, as a shell finds it: the script both launchers run
// (the agent hooks' launcher.ts and the successor gate's gate-launcher.ts), and the places it looks
// (the order is at the top of agent-hooks/launcher.ts). Strings only: the hook files that run it are
// committed, so it names no path of one machine.

export const POINTER_DIR = '.gsd-review-loop';
export const POINTER_FILE = 'bridge';

/** Where VS Code-family editors keep extensions, relative to the home folder. */
export const EXTENSION_DIRS = [
  '.vscode/extensions',
  '.vscode-server/extensions',
  '.vscode-insiders/extensions',
  '.vscode-server-insiders/extensions',
  '.vscode-oss/extensions',
  '.cursor/extensions',
  '.local/share/code-server/extensions',
];
export const EXTENSION_GLOB = 'gsd-review-loop.gsd-review-loop-*';

/**
 * Finds this machine's CLI and a runtime for it, in the order at the top of agent-hooks/launcher.ts (1-3; PATH is
 * each caller's own last step): sets `cli` and, from the pointer, `runtime`, either left empty.
 */
export const FIND_CLI_SH = `cli=""
runtime=""
if [ -n "$GSD_REVIEW_CLI" ] && [ -f "$GSD_REVIEW_CLI" ]; then cli="$GSD_REVIEW_CLI"; fi
pointer="$HOME/${POINTER_DIR}/${POINTER_FILE}"
if [ -z "$cli" ] && [ -f "$pointer" ]; then
  { IFS= read -r runtime; IFS= read -r cli; } < "$pointer"
  [ -f "$cli" ] || cli=""
  [ -x "$runtime" ] || runtime=""
fi
if [ -z "$cli" ]; then
  for dir in ${EXTENSION_DIRS.map((d) => `"$HOME/${d}"`).join(' ')}; do
    for found in "$dir"/${EXTENSION_GLOB}/dist/cli.js; do
      [ -f "$found" ] && cli="$found"
    done
    [ -n "$cli" ] && break
  done
fi
`;
