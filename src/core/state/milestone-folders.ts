// GSD's milestone folders: which folders under `.gsd/milestones/` are milestones, in GSD's order (its
// queue order first, then by number), and which of them GSD skips as ghosts. Read by the derive and
// by the hook state's file lookup alike.
import * as path from 'node:path';
import { milestoneIdFromDir, milestoneSeq, milestonesDir } from '../files/gsd-layout';
import { parseQueueOrder, QUEUE_ORDER_FILE, sortByQueueOrder } from '../parse/queue-order';
import type { Diagnostic } from '../model/types';
import type { MilestonePart } from './derive-milestone';
import type { ProjectFiles } from './project-files';

export interface MilestoneDirRef {
  id: string;
  dir: string;
}

export function listMilestones(files: ProjectFiles, gsdDir: string, diagnostics: Diagnostic[]): MilestoneDirRef[] {
  const root = milestonesDir(gsdDir);
  const index = files.dir(root);
  const byId = new Map<string, MilestoneDirRef>();
  for (const e of index?.entries ?? []) {
    if (!e.isDirectory) continue;
    const id = milestoneIdFromDir(e.name);
    if (!id) continue;
    const dir = index!.join(e.name);
    const existing = byId.get(id);
    if (existing) {
      // GSD prefers the bare id folder; keep the one whose name is the id itself.
      diagnostics.push({ file: dir, severity: 'warning', message: `two folders for milestone ${id}; using ${e.name === id ? e.name : path.basename(existing.dir)}` });
      if (e.name !== id) continue;
    }
    byId.set(id, { id, dir });
  }
  const byNumber = [...byId.values()].sort((a, b) => milestoneSeq(a.id) - milestoneSeq(b.id) || a.id.localeCompare(b.id));
  // GSD's queue order, when the user set one, goes before the numbers.
  const queued = files.dir(gsdDir)?.entries.some((e) => e.isFile && e.name === QUEUE_ORDER_FILE);
  if (!queued) return byNumber;
  const q = files.parse(path.join(gsdDir, QUEUE_ORDER_FILE), parseQueueOrder);
  diagnostics.push(...q.diagnostics);
  return sortByQueueOrder(byNumber, q.value?.order ?? null);
}

/**
 * GSD skips a milestone folder with no CONTEXT, CONTEXT-DRAFT, ROADMAP or SUMMARY (empty, or only
 * META.json) unless `.gsd/worktrees/<id>` shows the milestone is being worked on.
 */
export function isGhost(files: ProjectFiles, gsdDir: string, p: Pick<MilestonePart, 'id' | 'hasContentFiles'>): boolean {
  if (p.hasContentFiles) return false;
  const worktrees = files.dir(gsdDir)?.entries.some((e) => e.isDirectory && e.name === 'worktrees') ? files.dir(path.join(gsdDir, 'worktrees')) : null;
  return !worktrees?.entries.some((e) => e.name === p.id);
}
