// Every command of the extension is registered through here: an unexpected error is logged with
// its stack to the GSD output channel and shown as one short notification with "Show Log", instead
// of VS Code's generic "command failed" toast. Nothing is undone or closed on the way: editors,
// unsaved buffers and files stay as the command left them.
import * as vscode from 'vscode';

export type CommandHandler = (...args: never[]) => unknown;

/** The first line of an error's message, kept short for a notification (the log has the rest). */
export function shortReason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split('\n').find((l) => l.trim()) ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}…` : line;
}

export function registerGuardedCommand(log: vscode.LogOutputChannel, id: string, handler: CommandHandler): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      return await (handler as (...a: unknown[]) => unknown)(...args);
    } catch (error) {
      log.error(`${id} failed:`, error instanceof Error ? error : String(error));
      const showLog = vscode.l10n.t('Show Log');
      void vscode.window.showErrorMessage(vscode.l10n.t('GSD: {0}', shortReason(error) || vscode.l10n.t('the command failed.')), showLog).then((choice) => {
        if (choice === showLog) log.show(true);
      });
      return undefined;
    }
  });
}
