// The review guard fails closed: when the bridge cannot judge a tool call (its payload is unreadable
// or over the limit, the bridge or a hook failed or ran out of time) while a review is in flight, the
// host is told to ask the user instead of being left to run the tool. Outside a review nothing is
// ever refused. Small on purpose: the small hook entry (src/hook-entry.ts) uses it too.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readBoundedText } from '../files/bounded-read';
import { openConfined, registerGsdRoot } from '../files/confine';
import { RUNTIME_FOLDER } from '../files/runtime-folder';
import { findGsdFolder } from '../state/find-gsd-folder';
import { detectHost, type AgentHost, type HostDialect } from './agent-host';
import { eventName, type HookEvent } from '../hooks/lifecycle/agent-events';
import { formatAnswer } from './hook-payload';
import { firstHookProject } from './hook-project';

/** The most of a payload either hook entry reads: a host (or whatever feeds us) may send gigabytes. */
export const MAX_PAYLOAD_BYTES = 4 * 1024 * 1024;
/** What either entry says on stderr when it read no payload. */
export const UNREAD_PAYLOAD_NOTE = 'gsd-review hook: no payload (or over 4 MB) on stdin; nothing to do\n';

/**
 * Whether the dispatch record says a review-task is in flight. A record that exists but cannot be
 * read or understood counts as one: the guard cannot show there is none.
 */
export function reviewInFlight(gsdDir: string): boolean {
  let text: string | null;
  try {
    text = readBoundedText(path.join(gsdDir, RUNTIME_FOLDER, 'dispatch.json'), 4 * 1024 * 1024, openConfined);
  } catch {
    return true;
  }
  if (text === null) return false;
  try {
    const record = JSON.parse(text) as { current?: { unitType?: unknown; completedAt?: unknown } | null };
    if (!record || typeof record !== 'object') return true;
    if (record.current === null || record.current === undefined) return false;
    if (typeof record.current !== 'object') return true;
    // A completed unit stays `current`, with its completion time.
    if (typeof record.current.completedAt === 'string') return false;
    return record.current.unitType === 'review-task' || typeof record.current.unitType !== 'string';
  } catch {
    return true;
  }
}

/** The answer to a PreToolUse the bridge could not judge: ask during a review, nothing otherwise. */
export function failClosedAnswer(event: HookEvent | null, gsdDir: string | null, dialect: HostDialect, why: string): Record<string, unknown> | null {
  if (event !== 'PreToolUse' || gsdDir === null || !reviewInFlight(gsdDir)) return null;
  return formatAnswer('PreToolUse', { permissionDecision: 'ask', reason: `GSD review loop: a review is in progress and this tool call could not be checked (${why}). Allow it only if it changes no file but the review.` }, dialect);
}

/** The real `.gsd` of the project at or above `start` (registered as a confinement root), or null. */
export function gsdDirFrom(start: string): string | null {
  try {
    const found = findGsdFolder(start);
    if (!found) return null;
    const gsdDir = fs.realpathSync(found.gsdLink);
    // As locateProject does: a `.gsd` linked to a folder of another name is still the confinement root.
    registerGsdRoot(gsdDir);
    return gsdDir;
  } catch {
    return null;
  }
}

/**
 * The one answer of both hook entries (`gsd-review hook` and dist/hook.js) to an event whose payload
 * they did not read (none, or over MAX_PAYLOAD_BYTES): nothing, unless it is a tool call during a
 * review, which the guard cannot judge unread. The project is found as for any event
 * (hook-project.ts), without the payload's `cwd`.
 */
export function unreadPayloadAnswer(fallbackEvent: string | null | undefined, root: string | null, host: AgentHost | null, env: NodeJS.ProcessEnv): Record<string, unknown> | null {
  const event = eventName(fallbackEvent ?? null);
  if (event !== 'PreToolUse') return null;
  const gsdDir = firstHookProject({ root, env, cwd: process.cwd() }, gsdDirFrom);
  return failClosedAnswer(event, gsdDir, detectHost({}, env, host).dialect, 'its payload is over 4 MB');
}
