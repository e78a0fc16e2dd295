// GSD: Next Unit on a successor project (@opengsd/gsd-pi 1.x): GSD runs its own next unit. With `gsd`
// on PATH in a trusted workspace, `gsd headless next` starts in a terminal in the project; otherwise
// one message says how to continue. The decision and its words are the core's (successor/hand-off.ts),
// the same the CLI's `next` prints.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GSDState } from '../../core/model/types';
import { successorHandOff, type SuccessorHandOff } from '../../core/successor';
import type { ProjectHandle } from '../workspace/gsd-workspace';

export interface HandOffShown {
  handOff: SuccessorHandOff;
  /** The terminal GSD's step runs in, when one was started. */
  terminal?: vscode.Terminal;
}

export const HAND_OFF_TERMINAL = 'GSD: next unit';

export function handOffToGsd(handle: ProjectHandle, state: GSDState, log: vscode.LogOutputChannel): HandOffShown {
  const handOff = successorHandOff(handle.project.root, state);
  const copy = vscode.l10n.t('Copy command');
  const offerCopy = (text: string) =>
    void vscode.window.showInformationMessage(text, copy).then((choice) => {
      if (choice === copy) void vscode.env.clipboard.writeText(handOff.command);
    });
  if (handOff.gsdPath && vscode.workspace.isTrusted) {
    // The terminal's shell gets the PATH this `gsd` was found on (a terminal's environment comes
    // from another process than the extension host's, and may not have it).
    const PATH = [path.dirname(handOff.gsdPath), process.env.PATH].filter(Boolean).join(path.delimiter);
    const terminal = vscode.window.createTerminal({ name: HAND_OFF_TERMINAL, cwd: handle.project.root, env: { PATH } });
    terminal.show(true);
    terminal.sendText(handOff.command);
    log.info(`successor project ${handle.project.root}: handed Next Unit to GSD (${handOff.gsdPath}): \`${handOff.command}\` in a terminal`);
    void vscode.window.showInformationMessage(vscode.l10n.t('GSD: `{0}` runs GSD\'s next unit in the terminal "{1}". GSD records its progress; the panel follows it read-only.', handOff.command, HAND_OFF_TERMINAL));
    return { handOff, terminal };
  }
  // Running a command is not done in an untrusted workspace; the words say what to run instead.
  const text = handOff.gsdPath ? `${handOff.message} ${vscode.l10n.t('(Not started here: the workspace is not trusted.)')}` : handOff.message;
  log.info(`successor project ${handle.project.root}: Next Unit handed off to GSD (${handOff.gsdPath ? 'untrusted workspace' : 'gsd is not on PATH'})`);
  offerCopy(text);
  return { handOff };
}
