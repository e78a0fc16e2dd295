// Which file holds a unit's hook state: a task's in `T01-PLAN.md`, a slice's in `S01-PLAN.md`, a
// milestone's in `M001-ROADMAP.md` (under `extensions.<hook>` in the frontmatter).
import * as path from 'node:path';
import { listMilestones } from '../../state/derive-state';
import type { ProjectFiles } from '../../state/project-files';

export interface UnitRef {
  milestoneId: string;
  sliceId?: string;
  taskId?: string;
}

const UNIT_ID = /^(M\d+(?:-[a-z0-9]{6})?)(?:\/(S\d+)(?:\/(T\d+))?)?$/i;

export function parseUnitId(id: string): UnitRef | null {
  const m = UNIT_ID.exec(id.trim());
  if (!m) return null;
  const ref: UnitRef = { milestoneId: m[1].replace(/^m/, 'M') };
  if (m[2]) ref.sliceId = m[2].toUpperCase();
  if (m[3]) ref.taskId = m[3].toUpperCase();
  return ref;
}

export class UnitFileError extends Error {}

/**
 * The state file of a unit. When it does not exist yet, its conventional path inside the unit's
 * folder (which must exist): GSD creates these files, we only add frontmatter to them.
 */
export function unitStateFile(files: ProjectFiles, gsdDir: string, unitId: string): string {
  const ref = parseUnitId(unitId);
  if (!ref) throw new UnitFileError(`"${unitId}" is not a unit id (M001, M001/S01 or M001/S01/T01)`);
  const milestone = listMilestones(files, gsdDir, []).find((m) => m.id === ref.milestoneId);
  if (!milestone) throw new UnitFileError(`milestone ${ref.milestoneId} has no folder under .gsd/milestones`);
  const mDir = files.dir(milestone.dir);
  if (!ref.sliceId) return mDir?.file(ref.milestoneId, 'ROADMAP') ?? path.join(milestone.dir, `${ref.milestoneId}-ROADMAP.md`);
  const slicesDir = mDir?.subdir('slices');
  const sliceDir = slicesDir ? files.dir(slicesDir)?.subdir(ref.sliceId) : null;
  if (!sliceDir) throw new UnitFileError(`slice ${ref.milestoneId}/${ref.sliceId} has no folder`);
  const sDir = files.dir(sliceDir);
  if (!ref.taskId) return sDir?.file(ref.sliceId, 'PLAN') ?? path.join(sliceDir, `${ref.sliceId}-PLAN.md`);
  const tasksDir = sDir?.subdir('tasks') ?? path.join(sliceDir, 'tasks');
  return files.dir(tasksDir)?.file(ref.taskId, 'PLAN') ?? path.join(tasksDir, `${ref.taskId}-PLAN.md`);
}
