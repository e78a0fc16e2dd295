// `gsd-review gate`, in a bundle of its own (dist/cli-gate.js, which the launcher starts for it):
// GSD's review session runs it at the start and end of every cycle and the guard at every tool call
// but a read, while GSD waits. It loads only what the gate needs: no state derivation, no hooks
// engine, no host bridge (half the size of the project bundle, a third of its load).
import * as fs from 'node:fs';
import { parseArgs } from 'node:util';
import { OPTIONS } from './cli/cli-options';
import { GateUsageError, runGateCommand } from './cli/gate-command';
import { fail, finish, guardProcess } from './cli/process-exit';
import { plainArgs } from './cli/plain-args';

function parse(argv: string[]) {
  const plain = plainArgs(argv, OPTIONS);
  if (plain) return plain;
  try {
    return parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    throw new GateUsageError(`${(error as Error).message.split('\n')[0]}; see gsd-review --help`);
  }
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv);
  if (positionals[0] !== 'gate') throw new GateUsageError(`dist/cli-gate.js runs only gsd-review gate; run gsd-review through dist/cli.js`);
  const root = typeof values.root === 'string' ? values.root : process.cwd();
  if (typeof values.root === 'string' && !fs.statSync(values.root, { throwIfNoEntry: false })?.isDirectory()) throw new GateUsageError(`--root ${values.root}: no such folder; see gsd-review --help`);
  return runGateCommand({ root, unit: positionals[1], done: values.done === true, json: values.json === true, guard: values.guard === true });
}

const argv = process.argv.slice(2);
guardProcess('gate');
main(argv).then(finish, (error: unknown) => {
  if ((error as Error | null)?.name === 'GateUsageError') {
    process.stderr.write(`gsd-review: ${(error as Error).message}\n`);
    finish(2);
  } else fail(error);
});
