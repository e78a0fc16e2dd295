// `gsd-review` is built as two bundles from src/cli.ts (esbuild.mjs): the project commands and the
// agent-hook commands. The launcher (src/cli-launcher.ts) starts the one a command is in, so `next`
// and `state` no longer read and load the hook bridge and the installer (a sixth of one bundle:
// 0.7 ms of each `next`, medians of 41 paired runs).
import { parseArgs } from 'node:util';
import { OPTIONS } from './cli-options';
import { plainArgs } from './plain-args';
import CLI_BUNDLES from './cli-bundles.json';

export type CliPart = 'project' | 'agent-hooks' | 'gate';

export const AGENT_HOOK_COMMANDS: readonly string[] = ['hook', 'install-hooks', 'uninstall-hooks'];
/** What GSD's review session runs at every cycle and the guard at every tool call: a bundle of its own. */
export const GATE_COMMANDS: readonly string[] = ['gate'];

/** The bundle of each part, beside the launcher in dist/ (the build names them from the same file). */
export const BUNDLE_OF_PART: Readonly<Record<CliPart, string>> = CLI_BUNDLES;

/** The command word, found leniently (before the arguments are checked): `hook` must exit 0 even on bad options. */
export function commandOf(argv: readonly string[]): string | undefined {
  try {
    return (plainArgs(argv, OPTIONS) ?? parseArgs({ args: [...argv], allowPositionals: true, strict: false, options: OPTIONS })).positionals[0];
  } catch {
    return undefined;
  }
}

export function partOf(command: string | undefined): CliPart {
  if (command === undefined) return 'project';
  return AGENT_HOOK_COMMANDS.includes(command) ? 'agent-hooks' : GATE_COMMANDS.includes(command) ? 'gate' : 'project';
}
