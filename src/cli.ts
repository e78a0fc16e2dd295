// `gsd-review` — the command-line face of the shared core (docs/cli.md).
// Bad input gets one clear line on stderr and a non-zero exit, never a stack trace.
import * as fs from 'node:fs';
import { parseArgs } from 'node:util';
import { BUILTIN_HOOKS } from './builtin-hooks';
import { runCompleteCommand, runNextCommand } from './cli/dispatch-commands';
import { runStateCommand } from './cli/state-command';
import { NoProjectError } from './core/state/derive-state';
import { fail, finish, guardProcess } from './cli/process-exit';
import { OPTIONS } from './cli/cli-options';
import { plainArgs } from './cli/plain-args';
import { BUNDLE_OF_PART, commandOf, partOf, type CliPart } from './cli/cli-parts';

const USAGE = `usage: gsd-review <command> --root <project dir> [--json]

commands:
  state [--full]      print the derived GSD state (--full reads every slice)
  next [--apply]      the next unit to run; --apply commits hook state and records the dispatch
                      (in a project of GSD's successor, @opengsd/gsd-pi: says how GSD runs it, exit 3)
  complete            process the recorded unit's result from its artifacts (afterDispatch)
  hook [--event NAME] [--host H]
                      one agent-hook payload (VS Code, Copilot CLI or Claude Code) on stdin, its answer on stdout
  install-hooks --host vscode|claude|copilot-cli|gsd [--user] [--dry-run]
                      write (or show) the agent-hook files and the reviewer agent for that host
                      (gsd: our review gate in GSD's PREFERENCES.md, for @opengsd/gsd-pi projects)
  uninstall-hooks --host vscode|claude|copilot-cli|gsd [--user] [--dry-run]
                      take them out again, leaving everything else in those files as it was
  gate M001/S01/T01 [--done]
                      in GSD's review gate (@opengsd/gsd-pi): this cycle's review instructions;
                      --done records the written review and sets the verdict GSD reads

options:
  --root DIR          the project (any folder inside it); default: the current folder
  --json              machine-readable output
  --untrusted         do not run hook code from the workspace (.gsd/extensions/)
`;

export class UsageError extends Error {}

/** Which bundle this is: esbuild.mjs defines it, and drops the other part's code (dead branches below). */
declare const GSD_CLI_PART: CliPart;

/** A command of the other bundle: only when a bundle is run directly, not through the launcher. */
function otherBundle(command: string): Error {
  return new Error(`${command} is in dist/${BUNDLE_OF_PART[partOf(command)]}; run gsd-review through dist/cli.js`);
}

type CliArgs = ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof OPTIONS }>>;

const HELP_HINT = 'see gsd-review --help';
const COMMANDS = ['state', 'next', 'complete', 'hook', 'install-hooks', 'uninstall-hooks', 'gate'];

/**
 * node:util's parser says what is wrong in its own words (an unknown option comes with advice about
 * `--` and an unbalanced quote); this says it in ours, naming the option.
 */
function argumentProblem(error: { code?: string; message: string }): string {
  const option = /'(--?[^' =]+)/.exec(error.message)?.[1];
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${option ?? error.message}; ${HELP_HINT}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (option && /argument missing/i.test(error.message)) return `option ${option} needs a value; ${HELP_HINT}`;
      if (option) return `option ${option} takes no value; ${HELP_HINT}`;
      return `${error.message}; ${HELP_HINT}`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument; ${HELP_HINT}`;
    default:
      return `${error.message}; ${HELP_HINT}`;
  }
}

/** `--root` must name an existing folder: otherwise "no .gsd folder" would blame the wrong thing. */
function checkRoot(root: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(root);
  } catch {
    throw new UsageError(`--root ${root}: no such folder; ${HELP_HINT}`);
  }
  if (!stat.isDirectory()) throw new UsageError(`--root ${root} is a file, not a folder; ${HELP_HINT}`);
}

function parse(argv: string[]): CliArgs {
  const plain = plainArgs(argv, OPTIONS);
  // The same answer parseArgs gives (test/unit/plain-args.property.test.ts), typed as its.
  if (plain) return plain as CliArgs;
  try {
    return parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    const e = error as { code?: string; message: string };
    if (typeof e.code === 'string' && e.code.startsWith('ERR_PARSE_ARGS')) throw new UsageError(argumentProblem(e));
    throw error;
  }
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv);
  const command = positionals[0];
  if (values.help || !command) {
    process.stdout.write(USAGE);
    return command || values.help ? 0 : 2;
  }
  if (command === 'hook') {
    if (GSD_CLI_PART === 'agent-hooks') {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- in this bundle only (esbuild drops the dead branch)
      const { runHookCommand } = require('./cli/hook-command') as typeof import('./cli/hook-command');
      // The payload's cwd is the project when --root is not given.
      return runHookCommand({ trusted: !values.untrusted, builtins: BUILTIN_HOOKS, ...(values.root ? { root: values.root } : {}), ...(values.event ? { event: values.event } : {}), ...(values.host ? { host: values.host } : {}) });
    }
    throw otherBundle(command);
  }
  if (!COMMANDS.includes(command)) throw new UsageError(`unknown command "${command}" (commands: ${COMMANDS.join(', ')}); ${HELP_HINT}`);
  if (values.root !== undefined) checkRoot(values.root);
  const root = values.root ?? process.cwd();
  switch (command) {
    case 'state':
      return runStateCommand({ root, json: values.json ?? false, full: values.full ?? false });
    case 'next':
    case 'complete': {
      const o = { root, json: values.json ?? false, apply: values.apply ?? false, trusted: !values.untrusted, builtins: BUILTIN_HOOKS };
      return command === 'next' ? runNextCommand(o) : runCompleteCommand(o);
    }
    case 'install-hooks':
    case 'uninstall-hooks': {
      if (GSD_CLI_PART === 'agent-hooks') {
        // Loaded only here: the JSON splicing it brings is no part of what every hook process loads.
        const { runInstallHooksCommand } = await import('./cli/install-hooks-command.js');
        return runInstallHooksCommand({ root, host: values.host, user: values.user ?? false, dryRun: values['dry-run'] ?? false, json: values.json ?? false, uninstall: command === 'uninstall-hooks' });
      }
      throw otherBundle(command);
    }
    case 'gate':
      // Its own bundle (src/cli-gate.ts), which the launcher starts for it.
      throw otherBundle(command);
    default:
      throw new UsageError(`unknown command "${command}"; ${HELP_HINT}`);
  }
}

const argv = process.argv.slice(2);
guardProcess(commandOf(argv));
main(argv).then(finish, (error: unknown) => {
  if (error instanceof UsageError || (error as Error | null)?.name === 'InstallHooksUsageError') {
    process.stderr.write(`gsd-review: ${(error as Error).message}\n`);
    finish(2);
  } else if (error instanceof NoProjectError) {
    fail(`${error.message}: run it inside a GSD project or pass --root <project dir>`);
  } else fail(error);
});
