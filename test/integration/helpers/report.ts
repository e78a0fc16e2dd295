// A line in the suite's own log (what the runner prints), for figures a test measures: a test's
// console.log goes to the extension host's stdout, which under code-server lands in the server's log.
const REPORT = Symbol.for('gsd.integration.report');

/** Set by the suite's entry point (index.ts). */
export function setReporter(write: (line: string) => void): void {
  (globalThis as Record<symbol, unknown>)[REPORT] = write;
}

export function report(line: string): void {
  const write = (globalThis as Record<symbol, unknown>)[REPORT] as ((line: string) => void) | undefined;
  (write ?? console.log)(line);
}
