// `GSD: Next Unit`: what GSD should do next in a project, from the shared core.
import * as vscode from 'vscode';
import type { GsdWorkspace, ProjectHandle } from './gsd-workspace';

async function pickProject(workspace: GsdWorkspace): Promise<ProjectHandle | undefined> {
  const projects = workspace.list();
  if (projects.length <= 1) return projects[0];
  const picked = await vscode.window.showQuickPick(
    projects.map((p) => ({ label: p.folder.name, description: p.project.root, handle: p })),
    { placeHolder: 'Which GSD project?' },
  );
  return picked?.handle;
}

export function registerNextUnitCommand(workspace: GsdWorkspace, log: vscode.LogOutputChannel): vscode.Disposable {
  return vscode.commands.registerCommand('gsd.nextUnit', async () => {
    const handle = await pickProject(workspace);
    if (!handle) {
      void vscode.window.showWarningMessage('GSD: no .gsd folder in this workspace.');
      return undefined;
    }
    const state = workspace.state(handle);
    log.info(`next unit for ${handle.project.root}: ${state.phase} — ${state.nextAction}`);
    void vscode.window.showInformationMessage(`GSD (${state.phase}): ${state.nextAction}`);
    return { phase: state.phase, nextAction: state.nextAction };
  });
}
