// The one door to VS Code's `setContext`: each context key our `when` clauses read (package.json),
// with the type of value it holds, so a key cannot be misspelled or set to the wrong kind of value.
import * as vscode from 'vscode';
import { CONTEXT_KEYS } from './contribution-ids';

export type ContextKey = keyof typeof CONTEXT_KEYS;

/** What each key holds: every one of ours is a yes or no today. */
export type ContextValues = { [K in ContextKey]: boolean };

export function setContext<K extends ContextKey>(key: K, value: ContextValues[K]): void {
  void vscode.commands.executeCommand('setContext', CONTEXT_KEYS[key], value);
}
