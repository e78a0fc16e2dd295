// A unit's hook-state sidecar: `T01-HOOKS.md` beside the task's files (in the slice's `tasks/`),
// `S01-HOOKS.md` in the slice folder, `M001-HOOKS.md` in the milestone folder. YAML frontmatter
// `extensions: { <hook>: … }`, then a few lines for a person reading the repository.
//
// Why a file of its own: GSD-2 re-renders every task SUMMARY, `S01-PLAN.md` and `M001-ROADMAP.md`
// from its database after nearly every tool call, and every `T01-PLAN.md` of a slice on plan or
// replan, so state kept in their frontmatter is lost. GSD never reads, writes or deletes a
// `*-HOOKS.md`: it finds unit files by fixed suffixes (PLAN, SUMMARY, CONTEXT…), its doctor's
// task-file check looks at `-SUMMARY.md` only, and its markdown importer takes a fixed suffix list
// (gsd-build/gsd-2 at 76568edc: paths.ts `resolveFile`/`resolveTaskFiles`, doctor.ts, md-importer.ts).
//
// A new sidecar is written by gray-matter (its `yaml` engine keeps GSD-style values as written); an
// existing one is edited byte-preservingly, one hook's block at a time (frontmatter-block.ts), so
// another hook's block, a comment or the body a person edited stays as it was. Reads go through the
// same frontmatter reader as every other file of a derive (frontmatter.ts, checked against
// gray-matter by a property test): loading gray-matter on every `next` costs 10–15 ms.
import { writeWithFrontmatter } from '../../parse/gray-matter-frontmatter';
import { fmRecord, parseFrontmatter } from '../../parse/frontmatter';
import * as path from 'node:path';
import type { Diagnostic, UnreadableHookState } from '../../model/types';

export type UnitLevel = 'milestone' | 'slice' | 'task';

export const SIDECAR_SUFFIX = 'HOOKS';

/** `T01-HOOKS.md`, `S01-HOOKS.md`, `M001-HOOKS.md` (`M001-abc123-HOOKS.md` for a suffixed id). */
export function sidecarName(id: string): string {
  return `${id}-${SIDECAR_SUFFIX}.md`;
}

/** The body of a new sidecar: what the file is, for whoever finds it in the repository. */
export function sidecarBody(level: UnitLevel, unitId: string, ownFile: string): string {
  return [
    `# Hook state of ${level} ${unitId}`,
    '',
    `Written by GSD Review Loop. The frontmatter above is what its hooks remember about this ${level},`,
    'one block per hook under `extensions` (the review loop: its cycle, review history and outcome;',
    'pending actions a hook recorded).',
    '',
    `It sits beside ${ownFile} because GSD re-renders that file from its database, which would drop`,
    'anything added to it. GSD never reads or writes this file. Keep it with the unit (commit it if',
    `you commit \`.gsd\`); deleting it makes the hooks forget this ${level}, e.g. the review loop`,
    'starts again at cycle 1.',
    '',
  ].join('\n');
}

/** A new sidecar holding `extensions`, written by gray-matter. */
export function newSidecarText(level: UnitLevel, unitId: string, ownFile: string, extensions: Record<string, unknown>): string {
  return writeWithFrontmatter(sidecarBody(level, unitId, ownFile), { extensions });
}

/** The `extensions` blocks of a file's frontmatter (a sidecar, or a PLAN/ROADMAP of an older version). */
export function extensionBlocks(text: string | null, file = ''): { blocks: Record<string, unknown>; diagnostics: Diagnostic[] } {
  if (text === null) return { blocks: {}, diagnostics: [] };
  // Most PLAN and ROADMAP files hold no hook state: one substring search instead of a YAML parse.
  if (!text.includes('extensions')) return { blocks: {}, diagnostics: [] };
  const fm = parseFrontmatter(text, file);
  return { blocks: fmRecord(fm.data, 'extensions'), diagnostics: fm.diagnostics };
}

/**
 * A unit's hook state, from its sidecar and from its own PLAN/ROADMAP (where an older version kept
 * it, until it is moved): per hook, the sidecar's block wins; a hook only in the old file still
 * reads from there, so nothing is lost before the move.
 */
export function mergedBlocks(sidecar: Record<string, unknown>, legacy: Record<string, unknown>): Record<string, unknown> {
  let any = false;
  for (const _ in legacy) {
    any = true;
    break;
  }
  if (!any) return sidecar;
  return { ...legacy, ...sidecar };
}

/** The sidecar's first error, when its frontmatter could not be read at all (its blocks are then unknown, not empty). */
export function unreadableSidecar(file: string, diagnostics: readonly Diagnostic[]): UnreadableHookState | undefined {
  const d = diagnostics.find((x) => x.severity === 'error');
  return d ? { file, ...(d.line ? { line: d.line } : {}), reason: d.message } : undefined;
}

/**
 * A hook asked for a unit's state whose sidecar cannot be read. Nothing is decided for the unit from
 * it (reading it as empty would start the review loop again at cycle 1); the message leads with
 * what is wrong, then names the file and the way out.
 */
export class UnreadableHookStateError extends Error {
  constructor(
    readonly unitId: string,
    readonly unreadable: UnreadableHookState,
  ) {
    const at = `${path.basename(unreadable.file)}${unreadable.line ? ` line ${unreadable.line}` : ''}`;
    super(
      `${unitId} is blocked by its hook-state file: ${at}: ${unreadable.reason}. ` +
        'Fix that file; until then nothing is dispatched for it (deleting the file would make the review loop forget its cycles and start again at cycle 1).',
    );
  }
}
