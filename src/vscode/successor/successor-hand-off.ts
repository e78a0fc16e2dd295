// GSD: Next Unit on a successor project (@opengsd/gsd-pi 1.x): GSD runs its own next unit. With `gsd`
// on PATH in a trusted workspace, `gsd headless next` starts in a terminal in the project; otherwise
// one message says how to continue. The decision and its words are the core's (successor/hand-off.ts),
// the same the CLI's `next` prints.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GSDState } from '../../core/model/types';
import { GSD_INSTALL, successorHandOff, type SuccessorHandOff } from '../../core/successor';

const GSD_PACKAGE = '@opengsd/gsd-pi';
import type { ProjectHandle } from '../workspace/gsd-workspace';

export interface HandOffShown {
  handOff: SuccessorHandOff;
  /** The terminal GSD's step runs in, when one was started. */
  terminal?: vscode.Terminal;
}

export const HAND_OFF_TERMINAL = 'GSD: next unit';

export function handOffToGsd(handle: ProjectHandle, state: GSDState, log: vscode.LogOutputChannel): HandOffShown {
  const handOff = successorHandOff(handle.project.root, state);
  // One short plain sentence and one button: the long explanation is the CLI's (handOff.message)
  // and the panel's header tooltip; a notification shows no markdown.
  const offer = (text: string, button: string, copied: string) =>
    void vscode.window.showInformationMessage(text, button).then((choice) => {
      if (choice === button) void vscode.env.clipboard.writeText(copied);
    });
  if (handOff.gsdPath && vscode.workspace.isTrusted) {
    // The terminal's shell gets the PATH this `gsd` was found on (a terminal's environment comes
    // from another process than the extension host's, and may not have it).
    const PATH = [path.dirname(handOff.gsdPath), process.env.PATH].filter(Boolean).join(path.delimiter);
    const terminal = vscode.window.createTerminal({ name: HAND_OFF_TERMINAL, cwd: handle.project.root, env: { PATH } });
    terminal.show(true);
    terminal.sendText(handOff.command);
    log.info(`successor project ${handle.project.root}: handed Next Unit to GSD (${handOff.gsdPath}): \`${handOff.command}\` in a terminal`);
    const show = vscode.l10n.t('Show Terminal');
    void vscode.window.showInformationMessage(vscode.l10n.t('GSD runs its next unit in the terminal "{0}".', HAND_OFF_TERMINAL), show).then((choice) => {
      if (choice === show) terminal.show();
    });
    return { handOff, terminal };
  }
  log.info(`successor project ${handle.project.root}: Next Unit handed off to GSD (${handOff.gsdPath ? 'untrusted workspace' : 'gsd is not on PATH'}): ${handOff.message}`);
  if (!handOff.gsdPath) offer(vscode.l10n.t('GSD runs this project\'s units, and gsd is not on PATH: install {0}, then run {1}.', GSD_PACKAGE, handOff.command), vscode.l10n.t('Copy Install Command'), GSD_INSTALL);
  // Running a command is not done in an untrusted workspace; the words say what to run instead.
  else offer(vscode.l10n.t('GSD runs this project\'s units: run {0} in a terminal (not started here, the workspace is not trusted).', handOff.command), vscode.l10n.t('Copy Command'), handOff.command);
  return { handOff };
}
