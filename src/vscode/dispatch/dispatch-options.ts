// The per-call options of every dispatch decision the extension makes: GSD: Next Unit, its preview in
// the status bar and the "next" mark in the panel. The project engine fixes the rest (same hooks, same
// trust, same view of unsaved editors), so all three ask the same question and get the same unit.
import * as vscode from 'vscode';
import type { DecisionOptions } from '../../core/dispatch/dispatch';

/** `preview`: a decision made on every change only to show it; its hooks' chatter goes to debug. */
export function runOptions(log: vscode.LogOutputChannel, preview = false): DecisionOptions {
  return {
    log: { info: (m: string) => (preview ? log.debug(m) : log.info(m)), warn: (m: string) => (preview ? log.debug(m) : log.warn(m)) },
  };
}
