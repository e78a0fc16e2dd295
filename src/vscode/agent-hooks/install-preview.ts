// What GSD: Install Agent Hooks shows before writing: one markdown document with every file in full,
// and whether this VS Code runs agent hooks at all. Plain (no `vscode` import; the adapter passes
// `vscode.l10n.t`) so the unit tests read the document a user would see.
import * as path from 'node:path';
import { INSTALLED_EVENTS, type FileChange } from '../../core/agent-hooks/hook-install';
import type { Translate } from '../panel/task-presentation';

/** Agent hooks came to VS Code's Local agent in 1.109.3 (docs/agent-hooks.md). */
const FIRST_VSCODE_WITH_HOOKS = [1, 109, 3];

export function vscodeRunsHooks(version: string): boolean {
  const v = version.split(/[.-]/).slice(0, 3).map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < 3; i++) if (v[i] !== FIRST_VSCODE_WITH_HOOKS[i]) return v[i] > FIRST_VSCODE_WITH_HOOKS[i];
  return true;
}

/** From 1.120 VS Code runs a custom agent's own hooks without chat.useCustomAgentHooks. */
export function vscodeRunsCustomAgentHooks(version: string): boolean {
  const [major, minor] = version.split(/[.-]/).map((n) => Number.parseInt(n, 10) || 0);
  return major > 1 || (major === 1 && minor >= 120);
}

export function changeVerb(c: FileChange, t: Translate): string {
  return c.after === null ? t('Delete') : c.before === null ? t('Create') : t('Update');
}

/** A code fence longer than any run of backticks in `text`, so the file shows whole. */
function fenceFor(text: string): string {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * The line the Install / Cancel CodeLens sits above: under the title, not on the first line. A lens
 * above line 1 that arrives after the editor drew the preview is scrolled out of sight (VS Code keeps
 * line 1 at the top), which CI showed on 1.139: the preview without its Install.
 */
export const DECISION_LINE = 2;

/** The preview document: each change with its purpose and, unless deleted, the file's new text. */
export function installPreview(root: string, changes: readonly FileChange[], skipped: readonly string[], t: Translate, notes: readonly string[] = [], intro?: string): string {
  const lines = ['# GSD: Install Agent Hooks — preview', '', intro ?? `Hooks on: ${INSTALLED_EVENTS.join(', ')}; the review guard (PreToolUse) acts only while a review is in flight.`, ''];
  for (const c of changes) {
    // Files of the project by their path in it; the user's own (home, ~/.gsd) in full.
    const rel = c.file.startsWith(root + path.sep) ? path.relative(root, c.file) : c.file;
    lines.push(`## ${changeVerb(c, t)} ${rel}`, '', c.purpose, '');
    if (c.after !== null) {
      const fence = fenceFor(c.after);
      lines.push(fence + (rel.endsWith('.json') ? 'json' : rel.endsWith('.md') ? 'markdown' : rel.endsWith('.ps1') ? 'powershell' : rel.endsWith('.js') ? 'javascript' : 'sh'), c.after.trimEnd(), fence, '');
    }
  }
  for (const s of skipped) lines.push(`- Left alone: ${s}`);
  for (const n of notes) lines.push(`- Note: ${n}`);
  return lines.join('\n') + '\n';
}
