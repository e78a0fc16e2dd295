// The panel's first rows after one round trip to the extension host. The workbench's data tree draws
// a subtree only once the children of every open row in it are in, one round trip per level: handed
// open, the active milestone and slice kept the first rows waiting for three round trips (200–900 ms
// each on a busy 2-core machine, npm run bench:paint). So the first top level is handed with every
// row closed, and the rows that open by themselves are opened right after, with TreeView.reveal.
// No `vscode` import: the unit tests hold it against VS Code's fetching.
import type { PanelNode } from './panel-node';

export interface RevealOptions {
  select: false;
  focus: false;
  expand: true;
}

/** What the panel needs of its TreeView (the composition root hands the real one). */
export interface PanelView {
  readonly visible: boolean;
  reveal(node: PanelNode, options: RevealOptions): Thenable<void>;
}

/** Reveal options that open a row (and the rows above it) without selecting or focusing anything. */
export const OPEN_ONLY: RevealOptions = { select: false, focus: false, expand: true };

/**
 * The rows to reveal so the tree opens as its items say: the last open row of each path of rows
 * that open by themselves, top down (revealing a row opens the rows above it).
 */
export function rowsToOpen(top: readonly PanelNode[], opens: (node: PanelNode) => boolean, children: (node: PanelNode) => PanelNode[]): PanelNode[] {
  const out: PanelNode[] = [];
  const visit = (node: PanelNode, depth: number) => {
    const open = depth < MAX_DEPTH ? children(node).filter(opens) : [];
    if (!open.length) out.push(node);
    for (const child of open) visit(child, depth + 1);
  };
  for (const node of top) if (opens(node)) visit(node, 1);
  return out;
}

/** The panel's deepest rows (project, milestone, slice, task, review): a bound, not a limit met. */
const MAX_DEPTH = 6;
