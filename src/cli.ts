// `gsd-review` — the command-line face of the shared core (DESIGN.md section 8).
// Bad input gets one clear line on stderr and a non-zero exit, never a stack trace.
import { parseArgs } from 'node:util';
import { BUILTIN_HOOKS } from './builtin-hooks';
import { runCompleteCommand, runNextCommand } from './cli/dispatch-commands';
import { runHookCommand } from './cli/hook-command';
import { runStateCommand } from './cli/state-command';
import { fail, finish, guardProcess } from './cli/process-exit';

const USAGE = `usage: gsd-review <command> --root <project dir> [--json]

commands:
  state [--full]      print the derived GSD state (--full reads every slice)
  next [--apply]      the next unit to run; --apply commits hook state and records the dispatch
  complete            process the recorded unit's result from its artifacts (afterDispatch)
  hook [--event NAME] one agent-hook payload (VS Code or Claude Code) on stdin, its answer on stdout

options:
  --root DIR          the project (any folder inside it); default: the current folder
  --json              machine-readable output
  --untrusted         do not run hook code from the workspace (.gsd/extensions/)
`;

export class UsageError extends Error {}

const OPTIONS = {
  root: { type: 'string' },
  json: { type: 'boolean', default: false },
  full: { type: 'boolean', default: false },
  apply: { type: 'boolean', default: false },
  untrusted: { type: 'boolean', default: false },
  event: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** The command word, found leniently (before the arguments are checked): `hook` must exit 0 even on bad options. */
function commandOf(argv: string[]): string | undefined {
  try {
    return parseArgs({ args: argv, allowPositionals: true, strict: false, options: OPTIONS }).positionals[0];
  } catch {
    return undefined;
  }
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  const command = positionals[0];
  if (values.help || !command) {
    process.stdout.write(USAGE);
    return command || values.help ? 0 : 2;
  }
  if (command === 'hook') {
    // The payload's cwd is the project when --root is not given.
    return runHookCommand({ trusted: !values.untrusted, builtins: BUILTIN_HOOKS, ...(values.root ? { root: values.root } : {}), ...(values.event ? { event: values.event } : {}) });
  }
  const root = values.root ?? process.cwd();
  switch (command) {
    case 'state':
      return runStateCommand({ root, json: values.json ?? false, full: values.full ?? false });
    case 'next':
    case 'complete': {
      const o = { root, json: values.json ?? false, apply: values.apply ?? false, trusted: !values.untrusted, builtins: BUILTIN_HOOKS };
      return command === 'next' ? runNextCommand(o) : runCompleteCommand(o);
    }
    default:
      throw new UsageError(`unknown command "${command}"\n${USAGE}`);
  }
}

const argv = process.argv.slice(2);
guardProcess(commandOf(argv));
main(argv).then(finish, (error: unknown) => {
  const usage = error instanceof UsageError || (error as { code?: string } | null)?.code?.startsWith('ERR_PARSE_ARGS');
  // The usage text follows an unknown command; every other message is one line.
  if (error instanceof UsageError) process.stderr.write(`gsd-review: ${error.message}\n`);
  if (error instanceof UsageError) finish(2);
  else fail(error, usage ? 2 : 1);
});
