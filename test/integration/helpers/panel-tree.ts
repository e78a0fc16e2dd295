// The review panel's tree as its provider gives it: the rows VS Code must draw when the view opens
// (a node's children are drawn when its item says Expanded), and a dump of every node for the record.
import * as vscode from 'vscode';
import type { PanelNode } from '../../../src/vscode/panel/panel-node';
import type { ReviewPanelProvider } from '../../../src/vscode/panel/review-panel-provider';
import { labelOf } from './extension';
import type { TreeRow } from './workbench';

/** Rows of a view opened for the first time (nothing expanded or collapsed by hand). */
export function rowsOnOpen(panel: ReviewPanelProvider): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (nodes: PanelNode[], level: number) => {
    for (const n of nodes) {
      const item = panel.getTreeItem(n);
      rows.push({ level, label: labelOf(item) });
      if (item.collapsibleState === vscode.TreeItemCollapsibleState.Expanded) walk(panel.getChildren(n), level + 1);
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
