// The guard as GSD loads it: a pi extension file (gsd-pi 1.16.1 loads every file in the project's
// `.gsd/extensions/` and the user's `$GSD_HOME/agent/extensions/`, no trust gate; an extension's
// `tool_call` handler may answer `{ block: true, reason }`, and the agent gets the reason as the
// tool's result: pi-coding-agent extension types, agent-loop.ts). GSD says which unit runs only in
// `.gsd/auto.lock` (crash-recovery.ts writeLock: unitType `hook/<name>`, unitId), so the extension
// reads it, and for our gate's session asks `gsd-review gate <unit> --guard` (gate-guard.ts) about
// each tool call that is not a read. No answer (no CLI on this machine, a crash, a timeout): only
// reading goes on. The file names no path of one machine, so it may be committed.
import * as path from 'node:path';
import { GATE_ARTIFACT, GATE_HOOK_NAME } from './gate-hook';

export const GUARD_EXTENSION_FILE = 'gsd-review-loop-guard.js';

/** Where GSD loads it from: the project's `.gsd/extensions/`, or the user's `$GSD_HOME/agent/extensions/`. */
export function guardExtensionFile(gsdDirOrGsdHome: string, user: boolean): string {
  return user ? path.join(gsdDirOrGsdHome, 'agent', 'extensions', GUARD_EXTENSION_FILE) : path.join(gsdDirOrGsdHome, 'extensions', GUARD_EXTENSION_FILE);
}

export const GUARD_EXTENSION_JS = `// GSD Review Loop's guard for its review gate, written by \`gsd-review install-hooks --host gsd\`
// (\`gsd-review uninstall-hooks --host gsd\` removes it). While GSD runs the gate's session (unit
// hook/${GATE_HOOK_NAME}), the reviewer writes its review file and nothing else: every tool call but a
// read is judged by \`gsd-review gate <task> --guard\`, and a refusal's reason goes to the agent.
// In GSD's other units, no agent writes a review file (${GATE_ARTIFACT}): only the reviewer does.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join } from "node:path";

const UNIT_TYPE = "hook/${GATE_HOOK_NAME}";
const ARTIFACT = ${JSON.stringify(GATE_ARTIFACT.toLowerCase())};
const READING = new Set(["read", "grep", "find", "ls"]);

// The unit GSD runs in this process now (.gsd/auto.lock, GSD's own record of it), or null: a lock
// left by a crash or committed to a repository names another process, and guards nothing.
function unitNow(cwd) {
  try {
    const lock = JSON.parse(readFileSync(join(cwd, ".gsd", "auto.lock"), "utf8"));
    if (!lock || (lock.pid !== process.pid && lock.pid !== process.ppid)) return null;
    return typeof lock.unitType === "string" && typeof lock.unitId === "string" ? lock : null;
  } catch {
    return null;
  }
}

// GSD may load this file twice (its own extension loader and pi's, in a trusted project): one handler per host.
const GUARDED = (globalThis.__gsdReviewLoopGuarded ??= new WeakSet());

export default function gsdReviewLoopGuard(pi) {
  if (GUARDED.has(pi)) return;
  GUARDED.add(pi);
  pi.on("tool_call", async (event, ctx) => {
    const cwd = (ctx && ctx.cwd) || process.cwd();
    const unit = unitNow(cwd);
    if (!unit || READING.has(event.toolName)) return undefined;
    if (unit.unitType !== UNIT_TYPE) {
      const target = event.input && typeof event.input.path === "string" ? event.input.path : "";
      if ((event.toolName === "write" || event.toolName === "edit") && basename(target).toLowerCase().endsWith(ARTIFACT)) {
        return { block: true, reason: "GSD Review Loop: review files (" + basename(target) + ") are written by the reviewer in GSD's review gate, not in " + unit.unitType + "." };
      }
      return undefined;
    }
    const launcher = join(homedir(), ".gsd-review-loop", "gsd-review");
    const run = spawnSync("sh", [launcher, "gate", unit.unitId, "--guard", "--root", cwd], {
      input: JSON.stringify({ toolName: event.toolName, input: event.input || {} }),
      encoding: "utf8",
      timeout: 20000,
      maxBuffer: 1024 * 1024,
    });
    try {
      const answer = JSON.parse(run.stdout);
      if (answer && answer.block === false) return undefined;
      if (answer && answer.block === true) return { block: true, reason: String(answer.reason || "GSD Review Loop: not during the review") };
    } catch {
      // no answer: below
    }
    const why = String(run.stderr || (run.error && run.error.message) || "no answer").trim().split("\\n")[0];
    return { block: true, reason: "GSD Review Loop's guard could not judge " + event.toolName + " (" + why + "); during the review of " + unit.unitId + " the reviewer only reads and writes its review file." };
  });
}
`;
