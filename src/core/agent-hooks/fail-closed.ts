// The review guard fails closed: when the bridge cannot judge a tool call (its payload is unreadable
// or over the limit, the bridge or a hook failed or ran out of time) while a review is in flight, the
// host is told to ask the user instead of being left to run the tool. Outside a review nothing is
// ever refused. Small on purpose: the small hook entry (src/hook-entry.ts) uses it too.
import * as path from 'node:path';
import { readBoundedText } from '../files/bounded-read';
import { openConfined } from '../files/confine';
import { RUNTIME_FOLDER } from '../files/runtime-folder';
import type { HostDialect } from './agent-host';
import type { HookEvent } from './agent-events';
import { formatAnswer } from './hook-payload';

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
