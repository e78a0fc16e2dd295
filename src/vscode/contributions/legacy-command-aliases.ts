// Hidden `gsd.*` aliases of our renamed commands, so keybindings made before the rename keep
// working, registered only while no other extension claims those ids.
import * as vscode from 'vscode';
import { contributedCommands, legacyAliases } from './legacy-command-plan';
import { Owner } from '../lifecycle/owner';
import { whenHostQuiet } from '../lifecycle/quiet-host';

export class LegacyCommandAliases extends Owner implements vscode.Disposable {
  private registered: vscode.Disposable[] = [];

  constructor(
    private readonly ownId: string,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    // An extension installed later that contributes `gsd.*` gets its ids back.
    this.own(vscode.extensions.onDidChange(() => void this.update()));
    // Not during the window's start: the list of every command is ~90 KB the workbench builds and
    // sends while it draws the panel's first rows (npm run bench:paint, VS Code 1.100.3).
    whenHostQuiet(this, () => void this.update());
  }

  async update(): Promise<void> {
    this.release();
    const others = vscode.extensions.all.filter((e) => e.id.toLowerCase() !== this.ownId.toLowerCase()).flatMap((e) => contributedCommands(e.packageJSON));
    const aliases = legacyAliases(await vscode.commands.getCommands(false), others);
    for (const a of aliases) {
      try {
        this.registered.push(vscode.commands.registerCommand(a.legacy, (...args: unknown[]) => vscode.commands.executeCommand(a.target, ...args)));
      } catch (error) {
        // Registered by someone in the meantime: theirs wins.
        this.log.debug(`legacy alias ${a.legacy} not registered: ${(error as Error).message}`);
      }
    }
    this.log.debug(`legacy command aliases: ${this.registered.length}`);
  }

  private release(): void {
    for (const d of this.registered) d.dispose();
    this.registered = [];
  }

  override dispose(): void {
    super.dispose();
    this.release();
  }
}
