// How a `gsd-review` process ends, whatever the code it runs does: one line on stderr for any failure
// (never a stack trace), an exit right after the answer is written (a hook's leftover timer or socket
// must not keep the process alive), a deadline for commands that run hook code, and for `hook` an
// exit code of 0 in every case (exit 2 would block the agent; any other code only warns).
import { chainBudgetMs } from '../core/hooks/engine/hook-budget';
import { writeStdout } from './write-stdout';

let hookMode = false;
/** Commands that print one answer, written to fd 1 directly (writeAnswer). */
const ANSWERING_COMMANDS = new Set(['state', 'next', 'complete', 'hook']);
let finished = false;
/** Output went through `process.stdout` (a stream, which may still hold it at exit). */
let streamed = true;

/** The first line of what was thrown: messages of JSON.stringify and others run over several lines. */
export function oneLine(error: unknown): string {
  let text: string;
  try {
    text = error instanceof Error ? error.message : typeof error === 'string' ? error : String(error);
  } catch {
    text = 'an error that cannot be printed';
  }
  return text.split('\n')[0].trim() || 'unknown error';
}

function writeErr(line: string): void {
  try {
    process.stderr.write(`gsd-review: ${line}\n`);
  } catch {
    // stderr closed too: nothing left to tell.
  }
}

/**
 * Writes the answer of a command that prints one (`state`) to fd 1 itself (write-stdout.ts); a reader
 * that went away (EPIPE) is reported as before.
 */
export function writeAnswer(text: string): void {
  try {
    if (writeStdout(text, useStdoutStream) === 'gone') fail(Object.assign(new Error('EPIPE: broken pipe, write'), { code: 'EPIPE' }), 1, 'cannot write the answer: ');
  } catch (error) {
    fail(error, 1, 'cannot write the answer: ');
  }
}

function useStdoutStream(): void {
  if (streamed) return;
  streamed = true;
  // EPIPE and the like: whoever read our output went away; say so once, without a trace.
  process.stdout.on('error', (error) => fail(error, 1, 'cannot write the answer: '));
}

/** Ends the process with `code` (0 for `hook`), once stdout has taken what was written. */
export function finish(code: number): void {
  if (finished) return;
  finished = true;
  const exitCode = hookMode ? 0 : code;
  process.exitCode = exitCode;
  const exit = () => process.exit(exitCode);
  // Everything was written to fd 1 synchronously: nothing is left to flush.
  if (!streamed) {
    exit();
    return;
  }
  // A pipe to a slow reader may still hold the answer; exit when it is flushed, or after a second.
  setTimeout(exit, 1000);
  try {
    process.stdout.write('', exit);
  } catch {
    exit();
  }
}

/** Reports a failure in one line and ends the process (exit 1, or 0 for `hook`). */
export function fail(error: unknown, code = 1, prefix = ''): void {
  if (finished) return;
  writeErr(prefix + oneLine(error));
  finish(code);
}

/**
 * Installs the process-wide guards. `hook` is known before the arguments are validated, so even a
 * bad option to `hook` exits 0.
 */
export function guardProcess(command: string | undefined): void {
  hookMode = command === 'hook';
  process.on('uncaughtException', (error) => fail(error, 1, 'a hook failed outside its call: '));
  process.on('unhandledRejection', (reason) => fail(reason, 1, 'a hook failed outside its call: '));
  // These print their one answer through writeAnswer (no stream to load); the others use the stream.
  streamed = false;
  if (!ANSWERING_COMMANDS.has(command ?? '')) useStdoutStream();
  // The event loop emptied while the command was still waiting: a hook's promise that can never settle.
  process.on('beforeExit', () => fail('a hook never settled (its promise can no longer resolve); nothing was answered'));
  deadlineCommand = command === 'hook' || command === 'next' || command === 'complete' ? command : null;
  // `hook` waits for its payload on stdin from the start. `next` and `complete` can wait only on hook
  // code from a hook folder: their deadline is armed when such code loads (armDeadline), as the first
  // timer of a process costs about 0.3 ms, and most projects run the built-in hooks alone.
  if (command === 'hook') armDeadline();
}

let deadlineCommand: string | null = null;
let deadlineArmed = false;

/**
 * Gives up on the command after its deadline. Hosts kill a hook process after 30 s; the middleware
 * chain (10 s) and each lifecycle provider have their own budgets inside this one.
 */
export function armDeadline(): void {
  if (deadlineArmed || deadlineCommand === null) return;
  deadlineArmed = true;
  const command = deadlineCommand;
  const deadline = Math.min(25_000, 2.5 * chainBudgetMs());
  const timer = setTimeout(() => fail(`${command} did not finish within ${deadline} ms (a hook that never ends?); gave up`), deadline);
  timer.unref();
}
