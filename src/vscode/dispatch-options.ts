// The core options of every dispatch decision the extension makes: GSD: Next Unit, its preview in
// the status bar and the "next" mark in the panel. One builder, so all three ask the same question
// (same hooks, same trust, same view of unsaved editors) and get the same unit.
import * as vscode from 'vscode';
import { BUILTIN_HOOKS } from '../builtin-hooks';
import type { DispatchOptions } from '../core/dispatch/dispatch';
import { EditorAwareStore } from './editor-aware-store';
import type { GsdProject } from '../core/state/locate-project';

/** `preview`: a decision made on every change only to show it; its hooks' chatter goes to debug. */
// Takes only the project (not gsd-workspace's ProjectHandle), so the two modules do not import each other.
export function dispatchOptions(handle: { readonly project: GsdProject }, log: vscode.LogOutputChannel, preview = false): DispatchOptions {
  return {
    root: handle.project.root,
    store: new EditorAwareStore(),
    builtins: BUILTIN_HOOKS,
    trusted: vscode.workspace.isTrusted,
    log: { info: (m: string) => (preview ? log.debug(m) : log.info(m)), warn: (m: string) => (preview ? log.debug(m) : log.warn(m)) },
  };
}
