// Where GSD: Next Unit sends a unit's prompt: the chat in agent mode (when this VS Code has one), a
// terminal running a configurable command, or a new markdown editor. Prompt files live under
// `.gsd/runtime/gsd-review-loop/prompts/`, never outside the workspace.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createExclusive } from '../core/atomic-write';
import { runtimeDir } from '../core/dispatch-record';
import { confinedDir } from '../core/confine';
import type { DispatchDecision } from '../core/middleware';

export type TargetName = 'chat' | 'terminal' | 'editor';

export interface TargetResult {
  target: TargetName;
  /** The prompt file (terminal target) or the editor document (editor target). */
  promptFile?: string;
  document?: vscode.TextDocument;
  terminal?: vscode.Terminal;
  /** Why the configured target was not used, when it fell back. */
  fellBackFrom?: TargetName;
  note?: string;
}

export class TargetRefused extends Error {}

/** Quotes a path for the shell the terminal will run (POSIX shells, or cmd / PowerShell on Windows). */
export function shellQuote(value: string, platform = process.platform): string {
  if (platform === 'win32') return `"${value.replace(/"/g, '""')}"`;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export function renderCommand(template: string, promptFile: string, platform = process.platform): string {
  return template.replace(/\{promptFile\}/g, shellQuote(promptFile, platform));
}

export function writePromptFile(gsdDir: string, decision: DispatchDecision, now = new Date()): string {
  // Confined to the real `.gsd` (a linked runtime folder is refused), and created exclusively: a
  // name someone planted as a link is never written through.
  const dir = confinedDir(gsdDir, path.relative(gsdDir, path.join(runtimeDir(gsdDir), 'prompts')));
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const base = `${stamp}-${decision.unitType}-${decision.unitId.replace(/[\\/]/g, '-')}`;
  for (let n = 0; ; n++) {
    const file = path.join(dir, `${base}${n ? `-${n}` : ''}.md`);
    try {
      createExclusive(file, decision.prompt);
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n >= 20) throw error;
    }
  }
}

/** Whether this VS Code has a chat that can take an agent-mode prompt. */
export async function chatAvailable(): Promise<boolean> {
  const commands = await vscode.commands.getCommands(true);
  if (!commands.includes('workbench.action.chat.open')) return false;
  // The chat view needs a provider (Copilot Chat or another chat extension) to do anything.
  return vscode.extensions.all.some((e) => Array.isArray(e.packageJSON?.contributes?.chatParticipants) && e.packageJSON.contributes.chatParticipants.length > 0);
}

async function toEditor(decision: DispatchDecision): Promise<TargetResult> {
  const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: decision.prompt });
  await vscode.window.showTextDocument(document, { preview: false });
  // The prompt usually goes on to an agent elsewhere: one click puts it on the clipboard.
  void vscode.window.showInformationMessage(`GSD: the ${decision.unitType} prompt for ${decision.unitId} is open in a new editor.`, 'Copy prompt').then((choice) => {
    if (choice === 'Copy prompt') void vscode.env.clipboard.writeText(decision.prompt);
  });
  return { target: 'editor', document };
}

export async function sendToTarget(
  configured: TargetName,
  decision: DispatchDecision,
  gsdDir: string,
  options: { terminalCommand: string; trusted: boolean },
): Promise<TargetResult> {
  if (configured === 'terminal') {
    if (!options.trusted) throw new TargetRefused('GSD: dispatching to a terminal runs a command, which is refused in an untrusted workspace. Trust the workspace, or set gsdReviewLoop.dispatch.target to "editor".');
    if (!options.terminalCommand.includes('{promptFile}')) throw new TargetRefused('GSD: gsdReviewLoop.dispatch.terminalCommand must contain {promptFile}.');
    const promptFile = writePromptFile(gsdDir, decision);
    const terminal = vscode.window.createTerminal({ name: `GSD: ${decision.unitType} ${decision.unitId}`, cwd: path.dirname(gsdDir) });
    terminal.show(true);
    terminal.sendText(renderCommand(options.terminalCommand, promptFile));
    return { target: 'terminal', promptFile, terminal };
  }
  if (configured === 'chat') {
    if (await chatAvailable()) {
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: decision.prompt, mode: 'agent', isPartialQuery: false });
      return { target: 'chat' };
    }
    const result = await toEditor(decision);
    return { ...result, fellBackFrom: 'chat', note: 'This VS Code has no chat that takes agent prompts; the prompt is in a new editor instead.' };
  }
  return toEditor(decision);
}
