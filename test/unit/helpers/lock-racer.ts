// Child process for the lock takeover race. Mode `hold`: takes the project's write lock, says
// "holding" and keeps it until it is killed. Mode `write`: a writer that stays up for many rounds:
// for each line `<file> <round>` on stdin it says `started <round>` on stderr, makes its conditional
// writes (read, add its own line, write if unchanged) and prints one JSON line: the tokens it was
// told were written, when the first of them was (ms since the epoch: while the lock is held, none can
// be), and the writes that threw.
import * as readline from 'node:readline';
import { NodeGsdStore } from '../../../src/core/files/gsd-store';
import { withGsdLock } from '../../../src/core/files/gsd-lock';

const [mode, target, id, countText] = process.argv.slice(2);

if (mode === 'hold') {
  withGsdLock(target, () => {
    process.stdout.write('holding\n');
    // Bounded: the test kills it long before; a stray holder ends by itself.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
  });
} else {
  const store = new NodeGsdStore();
  const lines = readline.createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    const [file, round] = line.split(' ');
    const written: string[] = [];
    const failed: string[] = [];
    let firstWrittenAt: number | null = null;
    process.stderr.write(`started ${round}\n`);
    for (let i = 0; i < Number(countText); i++) {
      const token = `${id}-${round}-${i}`;
      try {
        const before = store.readText(file);
        if (store.writeIfUnchanged(file, `${before ?? ''}${token}\n`, before) === 'written') {
          written.push(token);
          firstWrittenAt ??= Date.now();
        }
      } catch (error) {
        failed.push((error as Error).message);
      }
    }
    process.stdout.write(JSON.stringify({ written, failed, firstWrittenAt }) + '\n');
  });
}
