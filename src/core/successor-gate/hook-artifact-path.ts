// Where the successor reads a post-unit hook's artifact for a task, found the way gsd-pi 1.16.1 finds
// it (rule-registry.ts resolveHookArtifactPath, paths.ts resolvePhaseDir / targetSliceFile,
// layout-policy.ts), so that the reviewer writes the very file GSD reads the verdict from.
//
// For `M001/S01/T01` and `CODE-REVIEW.md` in a phase folder `.gsd/phases/01-slug/`, GSD takes the
// first of these that exists: `01-slug/CODE-REVIEW.md`, `01-slug/01-01-CODE-REVIEW.md` (the
// slice's), `01-slug/T01-CODE-REVIEW.md`, `01-slug/S01-T01-CODE-REVIEW.md`, then the older nested
// layout's `milestones/M001/slices/S01/tasks/T01-CODE-REVIEW.md`, `…/tasks/CODE-REVIEW.md`,
// `…/slices/S01/CODE-REVIEW.md`, `milestones/M001/CODE-REVIEW.md`; with none there,
// `01-slug/S01-T01-CODE-REVIEW.md`. The first two and the last two are shared by every task of the
// phase or slice: one of them there would stand for every task's review, so the gate refuses it.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface GateUnit {
  milestoneId: string;
  sliceId: string;
  taskId: string;
  /** `M001/S01/T01`, as GSD names the trigger unit. */
  unitId: string;
}

// GSD's ids: M001 (or a team id M001-abc123), S01 (R01 for a remediation slice), T01.
const UNIT_ID = /^(M\d{1,6}(?:-[a-z0-9]{6})?)\/([SR]\d{1,4})\/(T\d{1,4})$/i;

/** `M001/S01/T01` read strictly (nothing that could name another folder), or null. */
export function parseGateUnit(raw: string): GateUnit | null {
  const m = UNIT_ID.exec(raw.trim());
  if (!m) return null;
  const milestoneId = m[1].replace(/^m/, 'M').replace(/^(M\d+)(-[a-z0-9]{6})?$/i, (_, id: string, team?: string) => id.toUpperCase() + (team ? team.toLowerCase() : ''));
  const sliceId = m[2].toUpperCase();
  const taskId = m[3].toUpperCase();
  return { milestoneId, sliceId, taskId, unitId: `${milestoneId}/${sliceId}/${taskId}` };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** layout-policy.ts milestoneIdToPhaseNum. */
const phaseNum = (milestoneId: string) => Number(/^M(\d+)/i.exec(milestoneId)?.[1] ?? 1);
/** layout-policy.ts sliceIdToPlanNum (a remediation slice R01 has no number there: 1). */
const planNum = (sliceId: string) => Number(/^S(\d+)(?:-|$)/i.exec(sliceId)?.[1] ?? 1);
const teamSuffix = (milestoneId: string) => /^M\d{3}-([a-z0-9]{6})$/i.exec(milestoneId)?.[1]?.toLowerCase();

function listDirs(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory());
  } catch {
    return [];
  }
}

/** paths.ts phaseDirMatchesMilestoneId. */
function matchesMilestone(name: string, milestoneId: string, allowTeamSlugs: boolean): boolean {
  const m = /^(\d+)-(.*)$/.exec(name);
  if (!m || Number(m[1]) !== phaseNum(milestoneId)) return false;
  const suffix = teamSuffix(milestoneId);
  if (suffix) return m[2] === suffix || m[2].startsWith(`${suffix}-`);
  if (/^[a-z0-9]{6}(-|$)/.test(m[2]) && !allowTeamSlugs) return false;
  return true;
}

/** The milestone's phase folder under `.gsd/phases/` (paths.ts resolvePhaseDir), or null. */
export function resolvePhaseDir(gsdDir: string, milestoneId: string): string | null {
  const phases = path.join(gsdDir, 'phases');
  const entries = listDirs(phases);
  if (entries.length === 0) return null;
  const suffix = teamSuffix(milestoneId);
  // canonicalPhaseDirName without a title: `01-m001`, or `01-abc123` for a team id.
  const canonical = `${pad(phaseNum(milestoneId))}-${suffix ?? milestoneId.toLowerCase()}`;
  if (entries.some((e) => e.name === canonical)) return path.join(phases, canonical);
  let matches = entries.filter((e) => matchesMilestone(e.name, milestoneId, false)).map((e) => e.name);
  if (matches.length === 0 && !suffix) matches = entries.filter((e) => matchesMilestone(e.name, milestoneId, true)).map((e) => e.name);
  if (matches.length === 0) return null;
  // Several: the one changed last (pickPreferredPhaseDir).
  let best = matches[0];
  let bestTime = -1;
  for (const name of matches) {
    try {
      const t = fs.statSync(path.join(phases, name)).mtimeMs;
      if (t > bestTime) {
        bestTime = t;
        best = name;
      }
    } catch {
      // unreadable: keeps the one before
    }
  }
  return path.join(phases, best);
}

export interface HookArtifact {
  /** The file GSD reads (existing, or where it would look when none exists). */
  file: string;
  /** The task's own file in the phase folder: where the review belongs. */
  taskFile: string | null;
  /** The artifact GSD would read is shared with other tasks (a phase-, slice- or milestone-level file). */
  shared: boolean;
  phaseDir: string | null;
}

/** resolveHookArtifactPath for a task unit, and whether the file it gives is the task's own. */
export function resolveTaskArtifact(gsdDir: string, unit: GateUnit, artifact: string): HookArtifact {
  const phaseDir = resolvePhaseDir(gsdDir, unit.milestoneId);
  const suffix = artifact.includes('/') || artifact.includes('\\') ? null : (/^(.*)\.md$/i.exec(artifact)?.[1] || null);
  const candidates: Array<{ file: string; own: boolean }> = [];
  let taskFile: string | null = null;
  if (phaseDir) {
    candidates.push({ file: path.join(phaseDir, artifact), own: false });
    if (suffix !== null) candidates.push({ file: path.join(phaseDir, `${pad(phaseNum(unit.milestoneId))}-${pad(planNum(unit.sliceId))}-${suffix}.md`), own: false });
    candidates.push({ file: path.join(phaseDir, `${unit.taskId}-${artifact}`), own: true });
    if (suffix !== null) {
      taskFile = path.join(phaseDir, `${unit.sliceId}-${unit.taskId}-${suffix}.md`);
      candidates.push({ file: taskFile, own: true });
    }
  }
  const legacy = path.join(gsdDir, 'milestones', unit.milestoneId);
  const legacyTask = path.join(legacy, 'slices', unit.sliceId, 'tasks', `${unit.taskId}-${artifact}`);
  candidates.push({ file: legacyTask, own: true });
  candidates.push({ file: path.join(legacy, 'slices', unit.sliceId, 'tasks', artifact), own: false });
  candidates.push({ file: path.join(legacy, 'slices', unit.sliceId, artifact), own: false });
  candidates.push({ file: path.join(legacy, artifact), own: false });
  const existing = candidates.find((c) => fs.existsSync(c.file));
  if (existing) return { file: existing.file, taskFile: taskFile ?? (existing.own ? existing.file : null), shared: !existing.own, phaseDir };
  if (phaseDir) {
    const file = taskFile ?? path.join(phaseDir, artifact);
    return { file, taskFile, shared: taskFile === null, phaseDir };
  }
  return { file: legacyTask, taskFile: legacyTask, shared: false, phaseDir };
}
