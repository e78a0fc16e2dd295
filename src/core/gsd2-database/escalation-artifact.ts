// A task's escalation (`T01-ESCALATION.json`, written by GSD when the agent asks the user to choose)
// pauses the loop only while the artifact is valid and unanswered. Rules from gsd-build/gsd-2 at
// 76568edc, src/resources/extensions/gsd/escalation.ts (`readEscalationArtifact`,
// `detectPendingEscalation`): version 1, non-empty task/slice/milestone ids and question, 2–4 options
// with unique non-empty ids and string label/tradeoffs, a recommendation naming one of them, a boolean
// continueWithDefault and a string createdAt; anything else counts as no artifact.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** An artifact is a few KB; a file past this is not one GSD wrote. */
const MAX_BYTES = 256 * 1024;

export type EscalationRead = { pending: boolean } | { pending: false; problem: string };

function validArtifact(value: unknown): value is { respondedAt?: unknown } {
  if (!value || typeof value !== 'object') return false;
  const a = value as Record<string, unknown>;
  const nonEmpty = (v: unknown) => typeof v === 'string' && v.length > 0;
  if (a.version !== 1) return false;
  if (!nonEmpty(a.taskId) || !nonEmpty(a.sliceId) || !nonEmpty(a.milestoneId) || !nonEmpty(a.question)) return false;
  if (!Array.isArray(a.options) || a.options.length < 2 || a.options.length > 4) return false;
  const ids = new Set<string>();
  for (const opt of a.options as unknown[]) {
    if (!opt || typeof opt !== 'object') return false;
    const o = opt as Record<string, unknown>;
    if (!nonEmpty(o.id) || typeof o.label !== 'string' || typeof o.tradeoffs !== 'string') return false;
    if (ids.has(o.id as string)) return false;
    ids.add(o.id as string);
  }
  if (typeof a.recommendation !== 'string' || !ids.has(a.recommendation)) return false;
  if (typeof a.continueWithDefault !== 'boolean' || typeof a.createdAt !== 'string') return false;
  return true;
}

/** Whether the artifact at `artifactPath` (absolute as GSD writes it; relative is taken from the project root) awaits an answer. */
export function readEscalationArtifact(root: string, artifactPath: string): EscalationRead {
  const file = path.resolve(root, artifactPath);
  let raw: string;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) return { pending: false, problem: 'is not a file' };
    if (stat.size > MAX_BYTES) return { pending: false, problem: `is ${stat.size} bytes, larger than an escalation artifact` };
    raw = fs.readFileSync(file, 'utf8');
  } catch {
    return { pending: false, problem: 'does not exist' };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { pending: false, problem: 'is not JSON' };
  }
  if (!validArtifact(parsed)) return { pending: false, problem: 'is not a valid escalation artifact' };
  return { pending: !parsed.respondedAt };
}
