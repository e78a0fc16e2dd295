// The review panel's tree as its provider gives it: the rows VS Code must draw when the view opens
// (a node's children are drawn when its item says Expanded), and a dump of every node for the record.
import * as vscode from 'vscode';
import type { PanelNode } from '../../../src/vscode/panel/panel-node';
import type { ReviewPanelProvider } from '../../../src/vscode/panel/review-panel-provider';
import { labelOf } from './extension';
import type { TreeRow } from './workbench';

/** Rows of a view opened for the first time, plus the nodes opened by hand (`opened`, ids). */
export function rowsOnOpen(panel: ReviewPanelProvider, opened: ReadonlySet<string> = new Set()): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (nodes: PanelNode[], level: number) => {
    for (const n of nodes) {
      const item = panel.getTreeItem(n);
      rows.push({ level, label: labelOf(item) });
      if (item.collapsibleState === vscode.TreeItemCollapsibleState.Expanded || opened.has(n.id)) walk(panel.getChildren(n), level + 1);
    }
  };
  walk(panel.getChildren(), 1);
  return rows;
}

export interface DumpedNode {
  id: string | undefined;
  label: string;
  /** The id of the element whose getChildren returned it (null at the top level). */
  fetchedUnder: string | null;
  /** What getParent says. */
  parent: string | null;
  state: 'none' | 'collapsed' | 'expanded';
}

/** Every node of the provider's tree, depth first, with where it was fetched and what getParent says. */
export function dumpPanel(panel: ReviewPanelProvider): DumpedNode[] {
  const out: DumpedNode[] = [];
  const states = ['none', 'collapsed', 'expanded'] as const;
  const walk = (nodes: PanelNode[], under: string | null) => {
    for (const n of nodes) {
      const item = panel.getTreeItem(n);
      out.push({ id: item.id, label: labelOf(item), fetchedUnder: under, parent: panel.getParent(n)?.id ?? null, state: states[item.collapsibleState ?? 0] });
      walk(panel.getChildren(n), n.id);
    }
  };
  walk(panel.getChildren(), null);
  return out;
}

/**
 * Resolves once VS Code has asked the provider for no children for `quietMs` (a refresh it is still
 * drawing asks for the children of each level it opens), or after `capMs` in all.
 */
export async function whenPanelQuiet(panel: ReviewPanelProvider, quietMs = 3000, capMs = 30_000): Promise<void> {
  let last = Date.now();
  const own = Object.getOwnPropertyDescriptor(panel, 'getChildren');
  const original = panel.getChildren.bind(panel);
  panel.getChildren = (node?: PanelNode) => {
    last = Date.now();
    return original(node);
  };
  try {
    const end = Date.now() + capMs;
    while (Date.now() - last < quietMs && Date.now() < end) await new Promise((r) => setTimeout(r, 200));
  } finally {
    if (own) Object.defineProperty(panel, 'getChildren', own);
    else delete (panel as { getChildren?: unknown }).getChildren;
  }
}
