// Our settings (package.json, contributes.configuration), typed, in one place. Their defaults are
// written only in package.json: VS Code answers a contributed setting nobody set with the default
// contributed there, so `get` is called without a fallback (a second copy of the default could drift).
import * as vscode from 'vscode';
import type { TargetName } from '../dispatch/dispatch-targets';
import type { ProblemsScope } from '../reviews/finding-problems';
import { NAMESPACE } from './contribution-ids';

/** Each setting by its key under `gsdReviewLoop.`, with its type (manifest.test.ts holds it to package.json). */
export interface Settings {
  'review.maxCycles': number;
  'dispatch.target': TargetName;
  'dispatch.terminalCommand': string;
  'refreshDebounceMs': number;
  'reviewFindings.problems': ProblemsScope;
}

export type SettingKey = keyof Settings;

/** The setting's value now: the user's or the workspace's, else the default package.json contributes. */
export function setting<K extends SettingKey>(key: K): Settings[K] {
  return vscode.workspace.getConfiguration(NAMESPACE).get(key) as Settings[K];
}

/** Runs `listener` with the new value whenever `key` changes (in any scope). */
export function onDidChangeSetting<K extends SettingKey>(key: K, listener: (value: Settings[K]) => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(`${NAMESPACE}.${key}`)) listener(setting(key));
  });
}
