// Which of our pre-rename `gsd.*` command ids may still be registered as hidden aliases. Plain
// logic (no `vscode` import) so the unit tests decide it without a workbench.
import { COMMANDS, LEGACY_COMMANDS, legacyCommandId } from './contribution-ids';

export interface LegacyAlias {
  legacy: string;
  target: string;
}

/**
 * An alias is registered only when no other extension owns its id: neither registered now (VS Code
 * throws on a second registration) nor contributed in another installed extension's package.json
 * (that extension would throw when it activates later, e.g. GSD's successor extension).
 */
export function legacyAliases(registered: Iterable<string>, contributedByOthers: Iterable<string>): LegacyAlias[] {
  const taken = new Set([...registered, ...contributedByOthers]);
  return LEGACY_COMMANDS.map((name) => ({ legacy: legacyCommandId(name), target: COMMANDS[name] }))
    .filter((a) => !taken.has(a.legacy));
}

/** The command ids an extension's package.json contributes (`contributes.commands`). */
export function contributedCommands(packageJSON: unknown): string[] {
  const commands = (packageJSON as { contributes?: { commands?: unknown } } | undefined)?.contributes?.commands;
  if (!Array.isArray(commands)) return [];
  return commands.map((c) => (c as { command?: unknown })?.command).filter((c): c is string => typeof c === 'string');
}
