// The launcher the hook files run: committed with the repository, so it names no path of one
// machine. It finds this machine's CLI and a JavaScript runtime, in this order:
//   1. GSD_REVIEW_CLI (a path to cli.js), if set;
//   2. the pointer the extension keeps in the user's home (`~/.gsd-review-loop/bridge`: the runtime
//      VS Code runs it with, then the bundled cli.js), refreshed when the extension starts;
//   3. the newest copy of the installed extension under the usual extension folders;
//   4. `gsd-review` on PATH.
// VS Code does not put `node` on PATH for hooks; its own runtime runs as Node with
// ELECTRON_RUN_AS_NODE=1, which plain Node ignores. Without a CLI the launcher says so on stderr and
// exits 0: a missing tool never blocks the agent.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { replaceAtomically } from '../files/atomic-write';
import { readBoundedText } from '../files/bounded-read';
import { realPathOf } from '../files/confine';
import { RUNTIME_FOLDER } from '../files/runtime-folder';
import { TOOLS } from '../hooks/lifecycle/edit-tools';
import { AGENT_TYPE_FIELDS } from './hook-payload';
import { HOOK_PROJECT_ENV, HOST_PROJECT_ENV } from './hook-project';
import { EXTENSION_DIRS, EXTENSION_GLOB, FIND_CLI_SH, POINTER_DIR, POINTER_FILE } from '../shell/find-cli';

const HOOKS_FILE_NAME = 'gsd-review-loop.json';
const GITHUB_HOOKS_REL = `.github/hooks/${HOOKS_FILE_NAME}`;
const JOURNAL = 'commit-journal.json';
/**
 * A payload naming an agent: any of the fields the bridge reads one from, or a `\u` escape (which
 * may spell such a field or a name in other letters). The shell cannot tell which names the
 * project's hooks take for a reviewer (`reviewer_agent`, any case, `plugin:name`), so every such
 * payload goes to the bridge; a main agent's call names none.
 */
const NAMES_AN_AGENT = [...AGENT_TYPE_FIELDS.map((f) => `*${f}*`), "*'\\u'*"].join('|');

/**
 * The start of what follows the tool-name key of a PreToolUse payload whose tool is one the guard
 * never stops (a `read` of edit-tools.ts's table): the bridge's answer to it is none, whatever is in
 * flight. Both hosts' spellings of the key, with or without a space after the colon.
 */
const READ_TOOL_CALL = Object.entries(TOOLS)
  .filter(([name, spec]) => spec.kind === 'read' && /^[A-Za-z_]+$/.test(name))
  .flatMap(([name]) => ['tool_name', 'toolName'].flatMap((key) => [`'"${key}":"${name}"'*`, `'"${key}": "${name}"'*`]))
  .join('|');

/** Payloads read for the shell's answer to a read: far above any host's read (a path, a query). */
const READ_PAYLOAD_MAX = 16_384;

export const LAUNCHER_SH = `#!/bin/sh
# gsd-review-loop agent-hook launcher, written by GSD Review Loop's hook install. Safe to commit: it
# finds this machine's gsd-review CLI and runs \`gsd-review hook\` with the hook payload on stdin.
# Answers that need no JavaScript runtime, so most events start no Node at all:
event=""; host=""; prev=""; payload=""; feed=""
for arg in "$@"; do
  case "$prev" in --event) event="$arg" ;; --host) host="$arg" ;; esac
  prev="$arg"
done
# The project these hook files belong to, named by where they are installed (\`<project>/.claude/hooks\`,
# \`<project>/.github/hooks\`; a user-level launcher names none), for the bridge too (hook-project.ts).
here=""
case "$0" in
  */.claude/hooks/*|*/.github/hooks/*) here="\${0%/*/*/*}"; [ -n "$here" ] || here="/" ;;
  .claude/hooks/*|.github/hooks/*) here="." ;;
esac
case "$here" in ""|/*) ;; .) here="$PWD" ;; *) here="$PWD/$here" ;; esac
[ "$here" = "$HOME" ] && here=""
if [ -n "$here" ]; then export ${HOOK_PROJECT_ENV}="$here"; else unset ${HOOK_PROJECT_ENV}; fi
# Copilot CLI runs .claude/settings.json as well as .github/hooks: where our .github/hooks file is
# installed it answers, and this entry stands aside (one bridge run per event).
if [ "$host" = claude ] && [ "$COPILOT_CLI" = 1 ]; then
  proj="\${COPILOT_PROJECT_DIR:-$PWD}"
  if [ -f "$proj/${GITHUB_HOOKS_REL}" ] || [ -f "$HOME/.copilot/hooks/${HOOKS_FILE_NAME}" ]; then [ -t 0 ] || cat >/dev/null; exit 0; fi
fi
# A tool call with no review in flight has nothing to guard (hosts that ignore matchers, VS Code,
# run this for every tool call). Read as the CLI writes the record (JSON, two-space indent): only a
# record that plainly says "nothing" or "another unit" answers here; anything else goes to the bridge.
if [ "$event" = PreToolUse ]; then
  # The project as the bridge finds it (hook-project.ts, find-gsd-folder.ts): from the installed
  # location, the host's project variables, then here, the nearest \`.gsd\` folder, never past a
  # \`.git\` nor in the home folder.
  gsd=""
  for start in "$here" ${HOST_PROJECT_ENV.map((v) => `"$${v}"`).join(' ')} "$PWD"; do
    dir="$start"
    while [ -n "$dir" ]; do
      [ "$dir" = "$HOME" ] && break
      if [ -d "$dir/.gsd" ]; then gsd="$dir/.gsd"; break; fi
      [ -e "$dir/.git" ] || [ -L "$dir/.git" ] && break
      up="\${dir%/*}"; [ -n "$up" ] || up="/"
      [ "$up" = "$dir" ] && break
      dir="$up"
    done
    [ -n "$gsd" ] && break
  done
  idle=""
  if [ -z "$gsd" ]; then idle=1
  elif [ ! -e "$gsd/${RUNTIME_FOLDER}/${JOURNAL}" ]; then
    record="$gsd/${RUNTIME_FOLDER}/dispatch.json"
    if [ ! -e "$record" ] && [ ! -L "$record" ]; then idle=1
    elif [ -f "$record" ] && [ ! -L "$record" ]; then
      # The unit in flight is "current" without "completedAt" (a completed one stays there).
      idle=$( {
        IFS= read -r l1; IFS= read -r l2; IFS= read -r l3
        if [ "$l1" = "{" ]; then
          case "$l2" in
            '  "current": null,') echo 1 ;;
            '  "current": {')
              case "$l3" in
                '    "unitType": "review-task",')
                  n=0
                  while [ $n -lt 500 ] && IFS= read -r line; do
                    n=$((n + 1))
                    case "$line" in '    "completedAt": '*) echo 1; break ;; '  }'*) break ;; esac
                  done ;;
                '    "unitType": "'*'",') echo 2 ;;
              esac ;;
          esac
        fi
      } < "$record" 2>/dev/null )
    fi
  fi
  # Another unit in flight: nothing to guard, unless a reviewer makes the call (Claude Code and
  # Copilot CLI name the subagent in its payload): a reviewer is held to its review in any cycle.
  if [ "$idle" = 2 ]; then
    idle=1
    if [ ! -t 0 ]; then
      payload=$(cat)
      case "$payload" in ${NAMES_AN_AGENT}) idle=""; feed=1 ;; esac
    fi
  fi
  if [ -n "$idle" ]; then [ -n "$feed$payload" ] || [ -t 0 ] || cat >/dev/null; exit 0; fi
  # Something to guard, yet a tool the guard never stops (a read) gets its answer, none, here: VS Code
  # ignores matchers, so a reviewer's every read came this far and started Node. The name is taken
  # only where JSON.parse takes it (hook-payload.ts): a tool-name key written once in the payload
  # (so nothing in the tool's input can name a tool too), with no \\u escape anywhere (which could
  # spell a key or a name), as a key of the top-level object (before it nothing but that object's
  # own \`{\`, no \`[\` or \`}\`), in a payload that closes its object.
  if [ ! -t 0 ]; then
    [ -n "$feed" ] || { payload=$(cat); feed=1; }
    key=""
    if [ \${#payload} -le ${READ_PAYLOAD_MAX} ]; then
      case "$payload" in
        *'\\u'*|*tool_name*tool_name*|*toolName*toolName*|*tool_name*toolName*|*toolName*tool_name*) ;;
        '{'*tool_name*'}') key=tool_name ;;
        '{'*toolName*'}') key=toolName ;;
      esac
    fi
    if [ -n "$key" ]; then
      q='"'; before="\${payload%%"$q$key$q"*}"
      # A key's quote with a backslash before it is a quote inside a string; any other opens a string.
      case "$before" in
        ?*'{'*|*'['*|*'}'*|*'\\') ;;
        *) case "\${payload#"$before"}" in ${READ_TOOL_CALL}) exit 0 ;; esac ;;
      esac
    fi
  fi
fi
# Runs the bridge with the payload: re-fed when the fast path above has read it.
run() { if [ -n "$feed" ]; then printf '%s\\n' "$payload" | "$@"; exit $?; fi; exec "$@"; }
${FIND_CLI_SH}if [ -z "$cli" ] && command -v gsd-review >/dev/null 2>&1; then run gsd-review hook "$@"; fi
if [ -z "$runtime" ]; then runtime="$(command -v node 2>/dev/null)"; fi
if [ -z "$cli" ] || [ -z "$runtime" ]; then
  echo "gsd-review hook: no gsd-review CLI found (install the GSD Review Loop extension, or put gsd-review on PATH); nothing done" >&2
  cat >/dev/null
  exit 0
fi
export ELECTRON_RUN_AS_NODE=1
entry="\${cli%cli.js}hook.js"
if [ -f "$entry" ]; then run "$runtime" "$entry" "$@"; fi
run "$runtime" "$cli" hook "$@"
`;

export const LAUNCHER_PS1 = `# gsd-review-loop agent-hook launcher for Windows, written by GSD Review Loop's hook install. Safe
# to commit: it finds this machine's gsd-review CLI and runs \`gsd-review hook\` with the payload.
$ErrorActionPreference = 'SilentlyContinue'
# The project these hook files belong to (.github\\hooks in it), for the bridge (hook-project.ts).
$here = $null
if ((Split-Path -Leaf $PSScriptRoot) -eq 'hooks' -and (Split-Path -Leaf (Split-Path -Parent $PSScriptRoot)) -eq '.github') { $here = Split-Path -Parent (Split-Path -Parent $PSScriptRoot) }
if ($here) { $env:${HOOK_PROJECT_ENV} = $here } else { Remove-Item Env:${HOOK_PROJECT_ENV} }
$cli = $env:GSD_REVIEW_CLI
$runtime = $null
$pointer = Join-Path $HOME '${POINTER_DIR}\\${POINTER_FILE}'
if (-not ($cli -and (Test-Path $cli)) -and (Test-Path $pointer)) {
  $lines = @(Get-Content -LiteralPath $pointer)
  $runtime = $lines[0]; $cli = $lines[1]
}
if (-not ($cli -and (Test-Path $cli))) {
  $cli = $null
  foreach ($dir in @(${EXTENSION_DIRS.slice(0, 6).map((d) => `"$HOME\\${d.replace(/\//g, '\\')}"`).join(', ')})) {
    $ext = Get-ChildItem -LiteralPath $dir -Directory -Filter '${EXTENSION_GLOB}' | Sort-Object Name | Select-Object -Last 1
    if ($ext -and (Test-Path (Join-Path $ext.FullName 'dist\\cli.js'))) { $cli = Join-Path $ext.FullName 'dist\\cli.js'; break }
  }
}
$payload = [Console]::In.ReadToEnd()
if (-not $cli) {
  $g = Get-Command gsd-review -ErrorAction SilentlyContinue
  if ($g) { $payload | & $g.Source hook @args; exit 0 }
}
if (-not ($runtime -and (Test-Path $runtime))) { $runtime = (Get-Command node -ErrorAction SilentlyContinue).Source }
if (-not $cli -or -not $runtime) {
  [Console]::Error.WriteLine('gsd-review hook: no gsd-review CLI found (install the GSD Review Loop extension, or put gsd-review on PATH); nothing done')
  exit 0
}
$env:ELECTRON_RUN_AS_NODE = '1'
$entry = Join-Path (Split-Path $cli) 'hook.js'
if (Test-Path $entry) { $payload | & $runtime $entry @args; exit 0 }
$payload | & $runtime $cli hook @args
exit 0
`;

export function pointerFile(home: string): string {
  return path.join(home, POINTER_DIR, POINTER_FILE);
}

/**
 * Records, in the user's home, the runtime and CLI this machine runs hooks with (the
 * machine-specific part, kept out of the repository). Unchanged content is not rewritten. Best effort.
 */
export function writeBridgePointer(home: string, runtime: string, cli: string): boolean {
  const file = pointerFile(home);
  const text = `${runtime}\n${cli}\n`;
  try {
    if (fs.existsSync(file) && readBoundedText(realPathOf(file), 4096) === text) return false;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // A random temp name created exclusively: nothing planted beside it is written through.
    replaceAtomically(realPathOf(file), text);
    return true;
  } catch {
    return false;
  }
}
