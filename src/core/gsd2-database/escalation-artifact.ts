// A task's escalation (`T01-ESCALATION.json`, written by GSD when the agent asks the user to choose)
// pauses the loop only while the artifact is valid and unanswered. Rules from gsd-build/gsd-2 at
// 76568edc, src/resources/extensions/gsd/escalation.ts (`readEscalationArtifact`,
// `detectPendingEscalation`): version 1, non-empty task/slice/milestone ids and question, 2–4 options
// with unique non-empty ids and string label/tradeoffs, a recommendation naming one of them, a boolean
// continueWithDefault and a string createdAt; anything else counts as no artifact.
import * as path from 'node:path';
import { readBoundedText, UnreadableFileError } from '../files/bounded-read';
import { confine, OutsideGsdError } from '../files/confine';

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

/**
 * Whether the artifact at `artifactPath` (absolute as GSD writes it; relative is taken from the
 * project root) awaits an answer. The path comes from a database row, so it is confined like every
 * path: one whose real path leaves the real `.gsd` is not read.
 */
export function readEscalationArtifact(root: string, artifactPath: string, gsdDir: string): EscalationRead {
  let raw: string | null;
  try {
    const real = confine(gsdDir, path.resolve(root, artifactPath));
    raw = readBoundedText(real, MAX_BYTES);
  } catch (error) {
    if (error instanceof OutsideGsdError) return { pending: false, problem: 'leads outside .gsd; not read' };
    if (error instanceof UnreadableFileError) return { pending: false, problem: error.reason === 'too-large' ? 'is larger than an escalation artifact' : 'is not a file' };
    return { pending: false, problem: 'does not exist' };
  }
  if (raw === null) return { pending: false, problem: 'does not exist' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { pending: false, problem: 'is not JSON' };
  }
  if (!validArtifact(parsed)) return { pending: false, problem: 'is not a valid escalation artifact' };
  return { pending: !parsed.respondedAt };
}
