// Counts the notifications the extension shows while `run` runs, by wrapping the window API
// the extension host hands to this extension (tests and extension share it).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { captureWorkbench } from './workbench';

type Show = (...args: unknown[]) => Thenable<unknown>;

/** `run` gets the messages shown so far, to wait on one (a click runs its command a moment later). */
export async function notificationsDuring<T>(run: (messages: readonly string[]) => Thenable<T> | Promise<T>): Promise<{ result: T; messages: string[] }> {
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
    return { result: await run(messages), messages };
  } finally {
    names.forEach((n, i) => (w[n] = originals[i]));
  }
}

/** A modal dialog the extension asked for: its message and detail, as the dialog shows them. */
export interface ModalAsked {
  message: string;
  detail: string;
  buttons: string[];
}

/**
 * Runs `run` with every modal dialog answered by `answer` (undefined: dismissed), recording what each
 * asked; notifications still show and are recorded as in notificationsDuring.
 */
export async function answeringModals<T>(answer: string | undefined, run: () => Thenable<T> | Promise<T>): Promise<{ result: T; modals: ModalAsked[]; messages: string[] }> {
  const w = vscode.window as unknown as Record<string, Show>;
  const names = ['showInformationMessage', 'showWarningMessage', 'showErrorMessage'];
  const originals = names.map((n) => w[n]);
  const modals: ModalAsked[] = [];
  const messages: string[] = [];
  names.forEach((n, i) => {
    w[n] = function (this: unknown, ...args: unknown[]) {
      const options = args[1] as vscode.MessageOptions | undefined;
      if (options && typeof options === 'object' && options.modal) {
        modals.push({ message: String(args[0]), detail: options.detail ?? '', buttons: args.slice(2).map(String) });
        return Promise.resolve(answer);
      }
      messages.push(String(args[0]));
      return originals[i].apply(this, args);
    };
  });
  try {
    return { result: await run(), modals, messages };
  } finally {
    names.forEach((n, i) => (w[n] = originals[i]));
  }
}

/**
 * Runs Complete Unit and answers its confirmation pick (the unit's file not written yet) as a person
 * would: Enter on the first row (Cancel), or Down and Enter (Complete Anyway). When the unit's file
 * was written, Complete asks nothing and is done first. Waits for the pick in the page when the
 * runner's browser is there, else a moment.
 */
export async function completeAnswering(answer: 'Cancel' | 'Complete Anyway', shot: string): Promise<{ result: unknown; asked: boolean }> {
  const done = Promise.resolve(vscode.commands.executeCommand('gsdReviewLoop.completeUnit'));
  const first = await Promise.race([
    done.then(() => 'done' as const),
    captureWorkbench(shot, ['Complete Anyway']).then(async (view) => {
      if (!view) await new Promise((r) => setTimeout(r, 1000));
      return view ? (view.seen['Complete Anyway'] ? ('asked' as const) : ('not seen' as const)) : ('no page' as const);
    }),
  ]);
  if (first === 'done') return { result: await done, asked: false };
  assert.notEqual(first, 'not seen', 'Complete Unit neither finished nor showed its confirmation');
  if (answer === 'Complete Anyway') await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  return { result: await done, asked: true };
}
