// How the panel's nodes open when the view first shows them. Plain (no `vscode` import): the nodes
// turn the answer into a TreeItemCollapsibleState, the unit tests hold it against VS Code's fetching.
//
// VS Code's tree view fetches the children of every node it expands in one turn as one batch, and
// when the extension's answer comes back before the batch's later timers have fired, the nodes just
// received that open expanded start a new batch and a later node of the first batch is answered with
// the new batch's children: rows drawn under the wrong parent (the workbench's TreeDataSource in
// treeView.ts, 1.100 to 1.139 at least; microsoft/vscode pull request 243911, not merged). A batch is
// safe when no node but its last has children that open expanded. With one project at the top level
// that holds: the pending actions group (whose rows never open) comes before the active milestone,
// and the active slices under it hold tasks, which open collapsed. With several projects their roots
// are one batch, so nothing under a project root opens by itself; each root's description names the
// unit GSD: Next Unit would dispatch there.
export type Opening = 'none' | 'collapsed' | 'expanded';

/**
 * `wantsOpen`: the node's own reason to show its children at once (the active milestone or slice,
 * the pending actions). `underProjectRoot`: the panel shows several projects, one root each.
 */
export function opening(hasChildren: boolean, wantsOpen: boolean, underProjectRoot: boolean): Opening {
  if (!hasChildren) return 'none';
  return wantsOpen && !underProjectRoot ? 'expanded' : 'collapsed';
}
