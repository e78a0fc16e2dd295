// `GSD: Install Agent Hooks`: VS Code has no API to register agent hooks, so we write the hook file
// ourselves (`.github/hooks/gsd-review-loop.json`) plus a `gsd-reviewer` custom agent, after showing
// what will be written; the user can undo it. The hook commands point at this extension's bundled
// CLI by absolute path, refreshed on activation when the extension moved (an update).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { HOOK_EVENTS } from '../core/agent-hooks/hook-payload';
import type { GsdWorkspace, ProjectHandle } from './gsd-workspace';

export const HOOKS_FILE = path.join('.github', 'hooks', 'gsd-review-loop.json');
export const AGENT_FILE = path.join('.github', 'agents', 'gsd-reviewer.agent.md');
const MARKER = 'gsd-review-loop';

function quote(p: string): string {
  return process.platform === 'win32' ? `"${p}"` : `'${p.replace(/'/g, `'\\''`)}'`;
}

export function hooksFileContent(cliPath: string, projectRoot: string): string {
  const command = `node ${quote(cliPath)} hook --root ${quote(projectRoot)}`;
  const hooks: Record<string, unknown[]> = {};
  // SessionEnd and ErrorOccurred are not agent-hook events in VS Code; the CLI accepts them all the same.
  for (const event of HOOK_EVENTS.filter((e) => e !== 'SessionEnd' && e !== 'ErrorOccurred')) {
    hooks[event] = [{ type: 'command', command, timeout: 30 }];
  }
  return JSON.stringify({ [MARKER]: { cli: cliPath, note: 'Written by GSD: Install Agent Hooks; the extension refreshes the CLI path when it updates.' }, hooks }, null, 2) + '\n';
}

export const REVIEWER_AGENT = `---
name: gsd-reviewer
description: Reviews one finished GSD task and writes its CODE-REVIEW.md. Never edits code.
tools: ['search', 'read', 'edit']
---
You are the reviewer of the GSD review loop. Your instructions name one task, one review cycle and
one review file (\`.gsd/milestones/…/tasks/T0n-CODE-REVIEW.md\`).

- Read the task plan, the task summary and the code the task changed; check them against the plan.
- Write the review file in the format your instructions give: frontmatter \`task\`, \`cycle\`,
  \`verdict\`, then \`## Issues\` as checkbox items (unchecked = open), then \`## Notes\`.
- Tick issues of the previous cycle that are fixed; keep the others open.
- Do not edit any other file. Fixes are the next cycle's work.
`;

interface PlannedWrite {
  file: string;
  text: string;
  previous: string | null;
}

function plan(handle: ProjectHandle, cliPath: string): PlannedWrite[] {
  const root = handle.project.root;
  const read = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : null);
  const hooksFile = path.join(root, HOOKS_FILE);
  const agentFile = path.join(root, AGENT_FILE);
  return [
    { file: hooksFile, text: hooksFileContent(cliPath, root), previous: read(hooksFile) },
    { file: agentFile, text: REVIEWER_AGENT, previous: read(agentFile) },
  ];
}

function apply(writes: PlannedWrite[]): void {
  for (const w of writes) {
    fs.mkdirSync(path.dirname(w.file), { recursive: true });
    const tmp = `${w.file}.gsd-${process.pid}.tmp`;
    fs.writeFileSync(tmp, w.text);
    fs.renameSync(tmp, w.file);
  }
}

function undo(writes: PlannedWrite[]): void {
  for (const w of writes) {
    if (w.previous === null) fs.rmSync(w.file, { force: true });
    else fs.writeFileSync(w.file, w.previous);
  }
}

export async function installAgentHooks(handle: ProjectHandle, cliPath: string, confirm = true): Promise<string[] | undefined> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage('GSD: installing agent hooks makes the agent run a command; that is refused in an untrusted workspace.');
    return undefined;
  }
  const writes = plan(handle, cliPath);
  const changed = writes.filter((w) => w.previous !== w.text);
  if (changed.length === 0) {
    void vscode.window.showInformationMessage('GSD: the agent hooks are already installed and up to date.');
    return [];
  }
  if (confirm) {
    const detail = [
      ...changed.map((w) => `${w.previous === null ? 'Create' : 'Replace'} ${path.relative(handle.project.root, w.file)}`),
      '',
      `Every agent hook event (${HOOK_EVENTS.filter((e) => e !== 'SessionEnd' && e !== 'ErrorOccurred').join(', ')}) will run:`,
      `node ${cliPath} hook --root ${handle.project.root}`,
    ].join('\n');
    const answer = await vscode.window.showWarningMessage('Install GSD agent hooks in this workspace?', { modal: true, detail }, 'Install', 'Show the hook file first');
    if (answer === 'Show the hook file first') {
      const doc = await vscode.workspace.openTextDocument({ language: 'json', content: writes[0].text });
      await vscode.window.showTextDocument(doc);
      return undefined;
    }
    if (answer !== 'Install') return undefined;
  }
  apply(changed);
  const files = changed.map((w) => path.relative(handle.project.root, w.file));
  void vscode.window.showInformationMessage(`GSD: wrote ${files.join(' and ')}.`, 'Open', 'Undo').then(async (choice) => {
    if (choice === 'Undo') {
      undo(changed);
      void vscode.window.showInformationMessage('GSD: agent hooks removed again.');
    } else if (choice === 'Open') {
      await vscode.window.showTextDocument(vscode.Uri.file(changed[0].file));
    }
  });
  return files;
}

/** After an update the bundled CLI has a new path: rewrite hook files we wrote that point elsewhere. */
export function refreshInstalledHooks(workspace: GsdWorkspace, cliPath: string, log: vscode.LogOutputChannel): void {
  if (!vscode.workspace.isTrusted) return;
  for (const handle of workspace.list()) {
    const file = path.join(handle.project.root, HOOKS_FILE);
    try {
      if (!fs.existsSync(file)) continue;
      const current = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, { cli?: string } | undefined>;
      if (!current[MARKER] || current[MARKER]?.cli === cliPath) continue;
      apply([{ file, text: hooksFileContent(cliPath, handle.project.root), previous: null }]);
      log.info(`refreshed ${HOOKS_FILE}: the CLI moved to ${cliPath}`);
    } catch (error) {
      log.warn(`could not refresh ${file}: ${(error as Error).message}`);
    }
  }
}
