// Which of the panel's nodes a state change touches. Plain (no `vscode` import): the provider fires
// what this says, and the unit tests hold it against real state changes.
import type { GSDState } from '../../core/model/types';
import type { StateChanges } from '../../core/state/state-changes';
import { pendingGroupNodeId, projectNodeId, unitNodeId } from './node-ids';

export type RefreshPlan = { full: true } | { full: false; ids: string[] };

/**
 * A change of the milestone list, or the pending actions group appearing or going, rebuilds the
 * whole tree; otherwise the changed milestones, the changed slices with every task node under them
 * that exists (`knownIds`), and the project's own nodes when its phase or pending actions changed.
 */
export function refreshPlan(gsdDir: string, changes: StateChanges, pendingGroupToggled: boolean, knownIds: Iterable<string>): RefreshPlan {
  if (changes.structure || pendingGroupToggled) return { full: true };
  const ids = new Set<string>();
  for (const m of changes.milestones) ids.add(unitNodeId(gsdDir, m));
  const sliceIds = [...changes.slices].map((s) => unitNodeId(gsdDir, s));
  for (const slice of sliceIds) ids.add(slice);
  if (sliceIds.length) {
    // A slice's task nodes (and theirs) are its children; their items change with it.
    for (const id of knownIds) if (sliceIds.some((slice) => id.startsWith(`${slice}/`))) ids.add(id);
  }
  if (changes.project) {
    ids.add(projectNodeId(gsdDir));
    ids.add(pendingGroupNodeId(gsdDir));
  }
  return { full: false, ids: [...ids] };
}

/** The nodes whose "next" mark moves when the unit Next Unit would dispatch changes (unit ids or null). */
export function nextMarkIds(gsdDir: string, before: string | null, after: string | null): string[] {
  const units = [before, after].filter((u): u is string => u !== null);
  return [...new Set([projectNodeId(gsdDir), ...units.map((u) => unitNodeId(gsdDir, u))])];
}

/**
 * Node ids grouped by the project they belong to (a project's nodes have ids under its id), in the
 * order of `gsdDirs`; ids under none of them form a last group (`gsdDir` null). No empty groups.
 */
export function byProject(ids: Iterable<string>, gsdDirs: readonly string[]): Array<{ gsdDir: string | null; ids: string[] }> {
  const roots = gsdDirs.map((d) => projectNodeId(d));
  const groups = [...gsdDirs, null].map((gsdDir) => ({ gsdDir, ids: [] as string[] }));
  for (const id of ids) {
    const i = roots.findIndex((r) => id === r || id.startsWith(`${r}/`) || id.startsWith(`${r}#`));
    groups[i < 0 ? roots.length : i].ids.push(id);
  }
  return groups.filter((g) => g.ids.length > 0);
}

/** Every unit path of the state: `M001`, `M001/S01`, `M001/S01/T01`. */
function unitPaths(state: Pick<GSDState, 'milestones'>): Set<string> {
  const out = new Set<string>();
  for (const m of state.milestones) {
    out.add(m.id);
    for (const s of m.slices) {
      out.add(`${m.id}/${s.id}`);
      for (const t of s.tasks) out.add(`${m.id}/${s.id}/${t.id}`);
    }
  }
  return out;
}

/**
 * The cached node ids of this project that belong to a unit the state no longer has (a task taken
 * out of its plan, a milestone removed): the unit's own node and those under it (its review cycles,
 * its pending actions). Nodes of the project itself (`#pending`, `#hooks`) are not units' nodes.
 */
export function nodesOfRemovedUnits(gsdDir: string, state: Pick<GSDState, 'milestones'>, cachedIds: Iterable<string>): string[] {
  const prefix = `${projectNodeId(gsdDir)}/`;
  const units = unitPaths(state);
  const out: string[] = [];
  for (const id of cachedIds) {
    if (!id.startsWith(prefix)) continue;
    const unit = id.slice(prefix.length).split('#')[0];
    if (!units.has(unit)) out.push(id);
  }
  return out;
}
