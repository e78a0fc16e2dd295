// Waits for something the extension does on its own (a watcher's report, a worked-out next unit):
// a bound on never, not a measure of speed (bench/ measures that).

/** Resolves once `check` holds; throws naming `what` after `ms`. */
export async function waitFor(what: string | (() => string), check: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
