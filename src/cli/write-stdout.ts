// Writing an answer to fd 1 without `process.stdout`: that stream loads Node's stream modules on
// first use, a few ms of a process that lives some tens (the hook entry, `state`). A pipe the reader
// made non-blocking and full (EAGAIN) gets the rest through `process.stdout`, which waits for it.
import * as fs from 'node:fs';

/** `gone`: the reader closed the pipe (EPIPE) before all was written. Other errors are thrown. */
export function writeStdout(text: string, beforeStream: () => void = () => undefined): 'written' | 'gone' {
  const bytes = Buffer.from(text, 'utf8');
  let done = 0;
  try {
    while (done < bytes.length) done += fs.writeSync(1, bytes, done, bytes.length - done);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') return 'gone';
    if (code !== 'EAGAIN') throw error;
    beforeStream();
    process.stdout.write(bytes.subarray(done));
  }
  return 'written';
}
