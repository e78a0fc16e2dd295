// The one-time move of hook state out of PLAN/ROADMAP frontmatter (where versions before the
// sidecars kept it) into the unit's sidecar. Byte-preserving: the sidecar gets the blocks; the
// PLAN/ROADMAP loses exactly its `extensions` key and keeps every other byte. When `extensions` was
// its only key, the `---` fences go too, which gives back the file as GSD wrote it (GSD's PLAN and
// ROADMAP renders have no frontmatter of their own, and an empty `---\n---` block would be a change
// of ours left in GSD's file).
//
// When: inside the first commit of hook state after the update (`next --apply`, `complete`, the
// extension's Next Unit), under the write lock, in the same all-or-nothing commit (the journal
// covers a crash between the two files), never over a file that changed since it was read. Not on
// open: reading commands and opening the panel never write (`next` without `--apply` writes nothing),
// and until the move every reader still finds the old blocks (hook-sidecar.ts `mergedBlocks`).
// The whole project is swept once per machine (a marker in our runtime folder); after that, a unit
// whose PLAN holds a block again (say, an old branch checked out) has it moved when its state is next
// written, and read from there meanwhile.
import * as path from 'node:path';
import { listMilestones } from '../../state/milestone-folders';
import type { ProjectFiles } from '../../state/project-files';
import { FrontmatterWriteError, setExtensionBlock } from '../../parse/frontmatter-block';
import type { GsdStore } from '../../files/gsd-store';
import { SLICE_FOLDER_ID, TASK_FILE_ID } from '../../files/gsd-layout';
import { runtimeDir } from '../../files/runtime-folder';
import { extensionBlocks, newSidecarText } from '../../parse/hook-sidecar';
import { unitStateFiles, type UnitStateFiles } from './unit-files';

/** Written (in our runtime folder) by the commit that swept the whole project. */
export const MOVED_MARKER = 'hook-state-moved.json';

export function movedMarkerFile(gsdDir: string): string {
  return path.join(runtimeDir(gsdDir), MOVED_MARKER);
}

/** `text` without its `extensions` key (every other byte kept). Throws FrontmatterWriteError. */
export function withoutExtensions(text: string, hooks: readonly string[]): string {
  let next = text;
  for (const hook of hooks) next = setExtensionBlock(next, hook, undefined);
  return next;
}

/** Units whose own file (PLAN/ROADMAP) may hold hook state: every milestone, slice and planned task folder entry. */
export function unitsOfProject(files: ProjectFiles, gsdDir: string): string[] {
  const ids: string[] = [];
  for (const m of listMilestones(files, gsdDir, [])) {
    ids.push(m.id);
    const slicesPath = files.dir(m.dir)?.subdir('slices');
    const slices = slicesPath ? files.dir(slicesPath) : null;
    const sliceIds = new Set<string>();
    for (const e of slices?.entries ?? []) {
      const s = e.isDirectory ? SLICE_FOLDER_ID.exec(e.name)?.[1]?.toUpperCase() : undefined;
      if (!s || sliceIds.has(s)) continue;
      sliceIds.add(s);
      ids.push(`${m.id}/${s}`);
      const sliceDir = slices!.subdir(s);
      const tasksPath = sliceDir ? files.dir(sliceDir)?.subdir('tasks') : null;
      const taskIds = new Set<string>();
      for (const t of (tasksPath ? files.dir(tasksPath)?.entries : null) ?? []) {
        const id = t.isFile && t.name.toUpperCase().endsWith('-PLAN.MD') ? TASK_FILE_ID.exec(t.name)?.[1]?.toUpperCase() : undefined;
        if (id && !taskIds.has(id)) {
          taskIds.add(id);
          ids.push(`${m.id}/${s}/${id}`);
        }
      }
    }
  }
  return ids;
}

export interface MovePlan {
  /** New sidecar text, or null when it stays as it is. */
  sidecar: string | null;
  /** New PLAN/ROADMAP text, or null when it stays as it is. */
  legacy: string | null;
  /** Hooks whose blocks moved. */
  hooks: string[];
  /** Why the old blocks stay where they are (then nothing of the unit is moved). */
  skipped?: string;
}

/**
 * The move for one unit from its two files' current texts (read under the lock). The sidecar keeps
 * its own blocks where both files have one (the sidecar's is the newer); a block only in the old
 * file is moved in. Never throws: what cannot be moved safely stays, with the reason.
 */
export function planMove(store: GsdStore, unit: UnitStateFiles, sidecarText: string | null, legacyText: string | null): MovePlan {
  const legacy = extensionBlocks(legacyText, unit.legacy ?? '');
  const hooks = Object.keys(legacy.blocks);
  if (hooks.length === 0 || unit.legacy === null || legacyText === null) return { sidecar: null, legacy: null, hooks: [] };
  const name = path.basename(unit.legacy);
  const refused = store.refusesWrite?.(unit.legacy) ?? null;
  if (refused) return { sidecar: null, legacy: null, hooks: [], skipped: `hook state in ${name} not moved yet: ${refused}` };
  try {
    const strippedLegacy = withoutExtensions(legacyText, hooks);
    let sidecar: string;
    if (sidecarText === null) {
      sidecar = newSidecarText(unit.level, unit.unitId, unit.ownFile, legacy.blocks);
    } else {
      const own = extensionBlocks(sidecarText, unit.sidecar);
      if (own.diagnostics.length > 0) return { sidecar: null, legacy: null, hooks: [], skipped: `hook state in ${name} not moved: ${path.basename(unit.sidecar)} cannot be read (${own.diagnostics[0].message})` };
      sidecar = sidecarText;
      for (const hook of hooks) if (!(hook in own.blocks)) sidecar = setExtensionBlock(sidecar, hook, legacy.blocks[hook]);
    }
    return { sidecar, legacy: strippedLegacy, hooks };
  } catch (error) {
    const why = error instanceof FrontmatterWriteError ? error.message : `${(error as Error).message}`;
    return { sidecar: null, legacy: null, hooks: [], skipped: `hook state in ${name} not moved: ${why}` };
  }
}

/** The state files of every unit of the project, skipping ids whose folders are gone meanwhile. */
export function stateFilesOfProject(files: ProjectFiles, gsdDir: string): UnitStateFiles[] {
  const out: UnitStateFiles[] = [];
  for (const id of unitsOfProject(files, gsdDir)) {
    try {
      out.push(unitStateFiles(files, gsdDir, id));
    } catch {
      // a folder that vanished: nothing to move there
    }
  }
  return out;
}
