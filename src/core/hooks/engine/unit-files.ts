// Which files hold a unit's hook state: its sidecar (`tasks/T01-HOOKS.md`, `S01-HOOKS.md`,
// `M001-HOOKS.md`, hook-sidecar.ts), and the unit's own file where versions before the sidecars kept
// it (`T01-PLAN.md`, `S01-PLAN.md`, `M001-ROADMAP.md`, under `extensions` in the frontmatter) until
// it is moved out (legacy-hook-state.ts).
import * as path from 'node:path';
import { listMilestones } from '../../state/milestone-folders';
import type { ProjectFiles } from '../../state/project-files';
import { SIDECAR_SUFFIX, sidecarName, type UnitLevel } from '../../parse/hook-sidecar';

export interface UnitRef {
  milestoneId: string;
  sliceId?: string;
  taskId?: string;
}

// Letters in both cases rather than the `i` flag: see gsd-layout.ts.
export const UNIT_ID = /^([Mm]\d+(?:-[a-zA-Z0-9]{6})?)(?:\/([Ss]\d+)(?:\/([Tt]\d+))?)?$/;

export function parseUnitId(id: string): UnitRef | null {
  const m = UNIT_ID.exec(id.trim());
  if (!m) return null;
  const ref: UnitRef = { milestoneId: m[1].replace(/^m/, 'M') };
  if (m[2]) ref.sliceId = m[2].toUpperCase();
  if (m[3]) ref.taskId = m[3].toUpperCase();
  return ref;
}

export class UnitFileError extends Error {}

export interface UnitStateFiles {
  unitId: string;
  level: UnitLevel;
  /** The sidecar's path (it may not exist yet). */
  sidecar: string;
  /** The unit's own PLAN/ROADMAP when it exists (where older versions kept the state), else null. */
  legacy: string | null;
  /** Name of the unit's own file, for the sidecar's text (`T01-PLAN.md`). */
  ownFile: string;
  /**
   * The folder holds no markdown of GSD's for this level yet (a task folder with no file at all).
   * GSD's markdown derivation takes any `.md` in a slice's `tasks/` as "task plans written", so a
   * lone sidecar there would change its phase: such a sidecar is not created.
   */
  folderBare: boolean;
}

/**
 * The state files of a unit. Its folder must exist: GSD creates the unit's folders and files, we
 * only add a sidecar beside them.
 */
export function unitStateFiles(files: ProjectFiles, gsdDir: string, unitId: string): UnitStateFiles {
  const ref = parseUnitId(unitId);
  if (!ref) throw new UnitFileError(`"${unitId}" is not a unit id (M001, M001/S01 or M001/S01/T01)`);
  const milestone = listMilestones(files, gsdDir, []).find((m) => m.id === ref.milestoneId);
  if (!milestone) throw new UnitFileError(`milestone ${ref.milestoneId} has no folder under .gsd/milestones`);
  const mDir = files.dir(milestone.dir);
  if (!ref.sliceId) {
    const id = ref.milestoneId;
    return { unitId, level: 'milestone', sidecar: path.join(milestone.dir, sidecarName(id)), legacy: mDir?.file(id, 'ROADMAP') ?? null, ownFile: `${id}-ROADMAP.md`, folderBare: false };
  }
  const slicesDir = mDir?.subdir('slices');
  const sliceDir = slicesDir ? files.dir(slicesDir)?.subdir(ref.sliceId) : null;
  if (!sliceDir) throw new UnitFileError(`slice ${ref.milestoneId}/${ref.sliceId} has no folder`);
  const sDir = files.dir(sliceDir);
  if (!ref.taskId) {
    const id = ref.sliceId;
    return { unitId, level: 'slice', sidecar: path.join(sliceDir, sidecarName(id)), legacy: sDir?.file(id, 'PLAN') ?? null, ownFile: `${id}-PLAN.md`, folderBare: false };
  }
  const tasksPath = sDir?.subdir('tasks') ?? path.join(sliceDir, 'tasks');
  const tDir = files.dir(tasksPath);
  const id = ref.taskId;
  const sidecar = path.join(tasksPath, sidecarName(id));
  const bare = !(tDir?.entries.some((e) => e.isFile && e.name.toLowerCase().endsWith('.md') && !e.name.toUpperCase().endsWith(`-${SIDECAR_SUFFIX}.MD`)) ?? false);
  return { unitId, level: 'task', sidecar, legacy: tDir?.file(id, 'PLAN') ?? null, ownFile: `${id}-PLAN.md`, folderBare: bare };
}
