// GSD: Install Agent Hooks asks one pick, then shows its preview. The pick is accepted as it
// appears (accepting an empty quick open does nothing, so it is asked again) until the preview is the
// active editor: no fixed wait for the pick to draw.
import * as vscode from 'vscode';

export async function acceptPickUntilPreview(ms = 20_000): Promise<vscode.TextDocument | undefined> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const doc = vscode.window.activeTextEditor?.document;
    if (doc?.uri.scheme === 'gsd-hooks-preview') return doc;
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await new Promise((r) => setTimeout(r, 100));
  }
  return undefined;
}
