// An extension host kept busy, as while VS Code starts other extensions: a long synchronous piece at
// a time, with a short turn of the event loop between two.

const turn = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Keeps the event loop busy for `forMs`: 40 ms of synchronous work out of every 50. */
export async function busyFor(forMs: number): Promise<void> {
  const end = Date.now() + forMs;
  while (Date.now() < end) {
    const until = Date.now() + 40;
    while (Date.now() < until) {
      // spin: another extension's synchronous work
    }
    await turn(10);
  }
}
