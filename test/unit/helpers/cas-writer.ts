// Child process for the compare-and-swap stress test. Mode `cas`: appends its own tokens to one file
// with conditional writes (read, add a line, write if unchanged). Mode `dispatch`: records distinct
// user-chosen units with dispatchUnit, as `next --apply` records its decision. Prints a JSON list of
// what it was told was written (or recorded).
import { dispatchUnit } from './one-shot-dispatch';
import { NodeGsdStore } from '../../../src/core/files/gsd-store';

const [mode, target, id, countText] = process.argv.slice(2);
const count = Number(countText);

async function main(): Promise<string[]> {
  const done: string[] = [];
  if (mode === 'cas') {
    const store = new NodeGsdStore();
    for (let i = 0; i < count; i++) {
      const token = `${id}-${i}`;
      const before = store.readText(target);
      if (store.writeIfUnchanged(target, `${before ?? ''}${token}\n`, before) === 'written') done.push(token);
    }
  } else {
    for (let i = 0; i < count; i++) {
      const unitId = `M001/S01/T0${(i % 2) + 1}`;
      try {
        const outcome = await dispatchUnit({ root: target }, { unitType: 'execute-task', unitId, prompt: `worker ${id} dispatch ${i}`, source: 'user', reason: `${id}-${i}` });
        if (outcome.applied) done.push(`${id}-${i}`);
      } catch {
        // reported as not recorded: honest, and not counted
      }
    }
  }
  return done;
}

main().then(
  (done) => process.stdout.write(JSON.stringify(done) + '\n'),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 1;
  },
);
