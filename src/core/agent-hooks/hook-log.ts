// Every agent-hook invocation, one JSON line each, in `.gsd/runtime/gsd-review-loop/hooks.jsonl`,
// for the review panel's "Recent hook events". Kept small: past 256 KB the older half goes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runtimeDir } from '../dispatch-record';
import { ensureRuntimeDir } from '../runtime-folder';

export interface HookLogEntry {
  at: string;
  event: string;
  sessionId: string;
  /** What the bridge answered: none, context, deny: …, block: …, message: …, error. */
  answer: string;
  ms: number;
  error?: string;
  notes?: string[];
}

const MAX_BYTES = 256 * 1024;

export function hookLogFile(gsdDir: string): string {
  return path.join(runtimeDir(gsdDir), 'hooks.jsonl');
}

/** Best effort: the log must never make a hook fail. */
export function appendHookLog(gsdDir: string, entry: HookLogEntry): void {
  const file = hookLogFile(gsdDir);
  try {
    ensureRuntimeDir(gsdDir);
    fs.appendFileSync(file, JSON.stringify(entry) + '\n');
    if (fs.statSync(file).size > MAX_BYTES) {
      const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, lines.slice(Math.floor(lines.length / 2)).join('\n') + '\n');
      fs.renameSync(tmp, file);
    }
  } catch {
    // a full disk or a read-only .gsd must not block the agent
  }
}

export function readHookLog(gsdDir: string, limit = 20): HookLogEntry[] {
  try {
    const lines = fs.readFileSync(hookLogFile(gsdDir), 'utf8').trimEnd().split('\n');
    const out: HookLogEntry[] = [];
    for (const line of lines.slice(-limit).reverse()) {
      try {
        out.push(JSON.parse(line) as HookLogEntry);
      } catch {
        // a half-written line from a killed process
      }
    }
    return out;
  } catch {
    return [];
  }
}
