// `gsd-review` — the command-line face of the shared core (DESIGN.md section 8).
// Bad input gets one clear line on stderr and a non-zero exit, never a stack trace.
import { parseArgs } from 'node:util';
import { runStateCommand } from './cli/state-command';

const USAGE = `usage: gsd-review <command> --root <project dir> [--json]

commands:
  state     print the derived GSD state
`;

export class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      root: { type: 'string' },
      json: { type: 'boolean', default: false },
      full: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const command = positionals[0];
  if (values.help || !command) {
    process.stdout.write(USAGE);
    return command || values.help ? 0 : 2;
  }
  const root = values.root ?? process.cwd();
  switch (command) {
    case 'state':
      return runStateCommand({ root, json: values.json ?? false, full: values.full ?? false });
    default:
      throw new UsageError(`unknown command "${command}"\n${USAGE}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`gsd-review: ${message}\n`);
    process.exitCode = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? 2 : 1;
  },
);
