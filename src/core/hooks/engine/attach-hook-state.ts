// Hook state for a state that did not come from our markdown derivation (a GSD-2 database project:
// the units come from `gsd.db`, their folders from the disk): each unit's sidecar is read and its
// blocks put into the unit's `extensions`, and pending actions a hook recorded (`pendingActions` in
// its block) join the task's, as the markdown derivation does. Only sidecars: GSD renders the PLAN
// and ROADMAP files of such a project from its database, so no older block can be trusted there.
import * as path from 'node:path';
import type { GSDState, PendingAction, TaskEntry } from '../../model/types';
import type { ProjectFiles } from '../../state/project-files';
import { extensionBlocks, sidecarName, unreadableSidecar } from './hook-sidecar';
import type { UnreadableHookState } from '../../model/types';

function blocksAt(files: ProjectFiles, dir: string, id: string, state: GSDState, unreadable?: (u: UnreadableHookState) => void): Record<string, unknown> | null {
  const name = sidecarName(id);
  // One listing per folder (cached): no read at all for the many units without a sidecar.
  if (!files.dir(dir)?.entries.some((e) => e.isFile && e.name === name)) return null;
  const file = path.join(dir, name);
  const parsed = files.parse(file, (text, f) => extensionBlocks(text, f));
  for (const d of parsed.diagnostics) state.diagnostics.push(d);
  const broken = unreadableSidecar(file, parsed.diagnostics);
  if (broken) unreadable?.(broken);
  return parsed.value?.blocks ?? null;
}

function recordedActions(task: TaskEntry, blocks: Record<string, unknown>, file: string, milestoneId: string, sliceId: string): PendingAction[] {
  const out: PendingAction[] = [];
  for (const [hook, block] of Object.entries(blocks)) {
    const list = (block as { pendingActions?: unknown } | null)?.pendingActions;
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const text = typeof item === 'string' ? item : typeof (item as { text?: unknown })?.text === 'string' ? (item as { text: string }).text : null;
      if (text) out.push({ text, source: hook, file, line: 1, milestoneId, sliceId, taskId: task.id });
    }
  }
  return out;
}

/**
 * Fills `extensions` (and recorded pending actions) of every unit whose folder is known. Mutates
 * `state`. A slice whose tasks a lazy read left unread (`planLoaded: false`) is left as the markdown
 * lazy read leaves an unread plan: its hook state is not read either (one folder listing saved per
 * slice), and `state --json` prints its `extensions` as null.
 */
export function attachHookState(state: GSDState, files: ProjectFiles): void {
  for (const m of state.milestones) {
    const mBlocks = m.dir ? blocksAt(files, m.dir, m.id, state) : null;
    if (mBlocks) m.extensions = { ...m.extensions, ...mBlocks };
    for (const s of m.slices) {
      if (!s.dir || !s.planLoaded) continue;
      const sBlocks = blocksAt(files, s.dir, s.id, state);
      if (sBlocks) s.extensions = { ...s.extensions, ...sBlocks };
      const tasksDir = path.join(s.dir, 'tasks');
      for (const t of s.tasks) {
        const tBlocks = blocksAt(files, tasksDir, t.id, state, (u) => (t.hookStateUnreadable = u));
        if (!tBlocks) continue;
        t.extensions = { ...t.extensions, ...tBlocks };
        const actions = recordedActions(t, tBlocks, path.join(tasksDir, sidecarName(t.id)), m.id, s.id);
        t.pendingActions.push(...actions);
        state.pendingActions.push(...actions);
      }
    }
  }
}
