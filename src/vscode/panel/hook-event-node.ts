// One agent hook call: event, answer, time and how long it took.
import * as vscode from 'vscode';
import { humanDate } from '../dispatch/unit-age';
import type { HookLogEntry } from '../../core/agent-hooks/hook-log';
import { md, PanelNode } from './panel-node';

export class HookEventNode extends PanelNode {
  private entry: HookLogEntry | undefined;
  constructor(readonly id: string) {
    super();
  }
  /** The node at this position is kept across refreshes; the event at it changes. */
  update(entry: HookLogEntry): this {
    this.entry = entry;
    return this;
  }
  treeItem(): vscode.TreeItem {
    const e = this.entry;
    const item = new vscode.TreeItem(e ? `${e.event} · ${e.answer}` : '', vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    if (!e) return item;
    const blocked = /^(deny|block)/.test(e.answer);
    item.iconPath = new vscode.ThemeIcon(e.answer === 'error' ? 'error' : blocked ? 'debug-stop' : 'pass', new vscode.ThemeColor(e.answer === 'error' ? 'errorForeground' : blocked ? 'problemsWarningIcon.foreground' : 'descriptionForeground'));
    item.description = `${new Date(e.at).toLocaleTimeString()} · ${e.ms} ms`;
    item.tooltip = md(`${vscode.l10n.t('**{0}** at {1} (session `{2}`)', e.event, humanDate(e.at, vscode.env.language), e.sessionId)}\n\n${vscode.l10n.t('Answer: {0}', e.answer)}${e.error ? `\n\n${vscode.l10n.t('Error: {0}', e.error)}` : ''}${e.notes?.length ? `\n\n${e.notes.map((n) => `- ${n}`).join('\n')}` : ''}`);
    return item;
  }
}
