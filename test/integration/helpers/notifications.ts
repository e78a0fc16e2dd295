// Counts the notifications the extension shows while `run` runs, by wrapping the window API
// the extension host hands to this extension (tests and extension share it).
import * as vscode from 'vscode';

type Show = (...args: unknown[]) => Thenable<unknown>;

export async function notificationsDuring<T>(run: () => Thenable<T> | Promise<T>): Promise<{ result: T; messages: string[] }> {
  const w = vscode.window as unknown as Record<string, Show>;
  const names = ['showInformationMessage', 'showWarningMessage', 'showErrorMessage'];
  const originals = names.map((n) => w[n]);
  const messages: string[] = [];
  names.forEach((n, i) => {
    w[n] = function (this: unknown, ...args: unknown[]) {
      // A modal dialog is not a notification.
      const options = args[1];
      if (!(options && typeof options === 'object' && (options as vscode.MessageOptions).modal)) messages.push(String(args[0]));
      return originals[i].apply(this, args);
    };
  });
  try {
    return { result: await run(), messages };
  } finally {
    names.forEach((n, i) => (w[n] = originals[i]));
  }
}
