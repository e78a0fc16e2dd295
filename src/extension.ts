import * as vscode from 'vscode';
export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(vscode.commands.registerCommand('gsd.nextUnit', () => undefined));
}
