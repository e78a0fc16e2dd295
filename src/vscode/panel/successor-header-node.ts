// A successor project's header row: what the project is, that it is read-only, where its state came from.
import type * as vscode from 'vscode';
import { successorHeaderItem } from '../successor/successor-panel';
import { successorHeaderNodeId } from './node-ids';
import { PanelNode, type PanelContext } from './panel-node';

export class SuccessorHeaderNode extends PanelNode {
  readonly id: string;
  constructor(private readonly panel: PanelContext) {
    super();
    this.id = successorHeaderNodeId(panel.handle.project.gsdDir);
  }
  treeItem(): vscode.TreeItem {
    return successorHeaderItem(this.id, this.panel.snapshot().state);
  }
}
