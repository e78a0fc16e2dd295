// Where GSD: Next Unit sends a unit's prompt: the chat (a fresh session in agent mode, or in the
// gsd-reviewer custom agent for a review), a terminal running a configurable command, or a new
// markdown editor. Prompt files live under `.gsd/gsd-review-loop/prompts/`, never outside
// the workspace.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as os from 'node:os';
import { REVIEWER_NAME } from '../../core/agent-hooks/hook-install';
import { copilotGuardWarning, trustFilesOnDisk, withGuardWarning } from '../../core/agent-hooks/host-trust';
import { ensureRuntimeDir, runtimeDir } from '../../core/files/runtime-folder';
import { createExclusive } from '../../core/files/atomic-write';
import { confinedDir } from '../../core/files/confine';
import { promptFileBase } from '../../core/dispatch/prompt-file-name';
import { shellQuote, terminalDialect } from '../../core/shell/shell-quote';
import type { DispatchDecision } from '../../core/hooks/engine/middleware-types';
import { promptDocuments } from './prompt-documents';

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

/**
 * The configured command with the prompt file quoted for the terminal's shell: PowerShell's rules
 * when `shell` (VS Code's `env.shell`) is PowerShell on any OS, else POSIX, or cmd / PowerShell on Windows.
 */
export function renderCommand(template: string, promptFile: string, platform = process.platform, shell = ''): string {
  const quoted = shellQuote(promptFile, terminalDialect(shell, platform));
  // A function, not a string: in a replacement string `$'`, `$&` and `` $` `` insert parts of the template.
  return template.replace(/\{promptFile\}/g, () => quoted);
}

export function writePromptFile(gsdDir: string, decision: DispatchDecision, now = new Date()): string {
  // Confined to the real `.gsd` (a linked runtime folder is refused), and created exclusively: a
  // name someone planted as a link is never written through.
  ensureRuntimeDir(gsdDir);
  const dir = confinedDir(gsdDir, path.relative(gsdDir, path.join(runtimeDir(gsdDir), 'prompts')));
  const base = promptFileBase(decision.unitType, decision.unitId, now);
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

/** Why the chat cannot take an agent prompt: said in full once, then in a few words. */
interface ChatUnavailable {
  reason: string;
  short: string;
}

/** Why the chat cannot take an agent prompt in this VS Code, or null when it can. */
export async function chatUnavailable(): Promise<ChatUnavailable | null> {
  const commands = await vscode.commands.getCommands(true);
  if (!commands.includes('workbench.action.chat.open')) return { reason: vscode.l10n.t('This VS Code has no chat'), short: vscode.l10n.t('no chat in this VS Code') };
  // Current VS Code shows its Chat view before any model is there (until the user signs in):
  // without a language model, a prompt sent there only waits for "the default agent".
  const noModel = vscode.l10n.t('no language model in the chat yet');
  try {
    const models = await vscode.lm.selectChatModels();
    if (models.length === 0) return { reason: vscode.l10n.t('The chat has no language model yet (sign in to GitHub Copilot, or add a model provider)'), short: noModel };
  } catch {
    return { reason: vscode.l10n.t('The chat has no language model yet'), short: noModel };
  }
  return null;
}

/** Reasons already explained in full this session (the window's extension host). */
const explained = new Set<string>();

/** What a dispatch's notification says about the chat it could not use: in full the first time, then one short line. */
function chatFallbackNote(why: ChatUnavailable): string {
  if (explained.has(why.reason)) return vscode.l10n.t('The prompt is in a new editor ({0}).', why.short);
  explained.add(why.reason);
  return vscode.l10n.t('{0}; the prompt is in a new editor instead.', why.reason);
}

/** The custom agent a unit goes to in the chat: the reviewer for a review, when it is installed. */
export function chatAgentFor(decision: DispatchDecision, projectRoot: string): { mode: string; preface: string } {
  if (decision.unitType === 'review-task' && fs.existsSync(path.join(projectRoot, '.github', 'agents', `${REVIEWER_NAME}.agent.md`))) {
    // The mode opens the chat in the custom agent; the sentence names it too, for a chat that falls
    // back to the default agent (which can then hand it to the reviewer as a subagent).
    return { mode: REVIEWER_NAME, preface: `This is a review for the ${REVIEWER_NAME} agent of the GSD review loop.\n\n` };
  }
  return { mode: 'agent', preface: '' };
}

/** A fresh chat session per unit (so the agent's SessionStart hook runs), then the prompt in it. */
async function toChat(decision: DispatchDecision, projectRoot: string): Promise<void> {
  const { mode, preface } = chatAgentFor(decision, projectRoot);
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: preface + decision.prompt, mode, isPartialQuery: false });
}

async function toEditor(decision: DispatchDecision): Promise<TargetResult> {
  // Read-only: closing it never asks to save. Copying it is offered by the dispatch's one notification.
  const document = await vscode.workspace.openTextDocument(promptDocuments.add(decision));
  await vscode.window.showTextDocument(document, { preview: false });
  return { target: 'editor', document };
}

/** Why the target would refuse a unit now (checked before the unit is recorded), or null. */
export function targetRefusal(configured: TargetName, options: { terminalCommand: string; trusted: boolean }): string | null {
  if (configured !== 'terminal') return null;
  if (!options.trusted) return 'GSD: dispatching to a terminal runs a command, which is refused in an untrusted workspace. Trust the workspace, or set gsdReviewLoop.dispatch.target to "editor".';
  if (!options.terminalCommand.includes('{promptFile}')) return 'GSD: gsdReviewLoop.dispatch.terminalCommand must contain {promptFile}.';
  return null;
}

export async function sendToTarget(
  configured: TargetName,
  decision: DispatchDecision,
  gsdDir: string,
  /** `root`: the project folder (`.gsd` may be a symlink, so not always the parent of `gsdDir`). */
  options: { terminalCommand: string; trusted: boolean; root?: string },
): Promise<TargetResult> {
  const root = options.root ?? path.dirname(gsdDir);
  if (configured === 'terminal') {
    const refused = targetRefusal(configured, options);
    if (refused) throw new TargetRefused(refused);
    // A review run by Claude Code goes to its gsd-reviewer subagent (whose guard keeps it to the review file).
    const viaSubagent = decision.unitType === 'review-task' && fs.existsSync(path.join(root, '.claude', 'agents', `${REVIEWER_NAME}.md`));
    // A terminal command may be Copilot CLI, which runs no repository hooks in a folder it does not trust.
    const warning = decision.unitType === 'review-task' ? copilotGuardWarning(trustFilesOnDisk(root, os.homedir())) : null;
    if (warning) void vscode.window.showWarningMessage(`GSD: ${warning}`);
    const prompt = withGuardWarning(viaSubagent ? `Use the ${REVIEWER_NAME} subagent for this review of the GSD review loop.\n\n${decision.prompt}` : decision.prompt, warning);
    const promptFile = writePromptFile(gsdDir, { ...decision, prompt });
    const terminal = vscode.window.createTerminal({ name: `GSD: ${decision.unitType} ${decision.unitId}`, cwd: root });
    terminal.show(true);
    terminal.sendText(renderCommand(options.terminalCommand, promptFile, process.platform, vscode.env.shell));
    return { target: 'terminal', promptFile, terminal };
  }
  if (configured === 'chat') {
    const why = await chatUnavailable();
    if (!why) {
      try {
        await toChat(decision, root);
        return { target: 'chat' };
      } catch (error) {
        // e.g. "timed out waiting for the default agent" when no agent answers in the chat
        const result = await toEditor(decision);
        return { ...result, fellBackFrom: 'chat', note: `The chat did not take the prompt (${(error as Error).message}); it is in a new editor instead.` };
      }
    }
    const result = await toEditor(decision);
    return { ...result, fellBackFrom: 'chat', note: chatFallbackNote(why) };
  }
  return toEditor(decision);
}
