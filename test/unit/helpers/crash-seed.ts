// The kill points of the random crash tests come from a seeded generator. The seed is printed, and
// GSD_CRASH_SEED=<seed> replays the same kill delays (the scheduler may still move a kill a little:
// the delays are what a replay can fix).

/** mulberry32: a small, well-known 32-bit generator; enough for choosing kill delays. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Kill delays in [0, maxMs), from GSD_CRASH_SEED or a fresh seed; `label` names the test in the log line. */
export function killDelays(label: string, maxMs: number): { seed: number; next: () => number } {
  const given = process.env.GSD_CRASH_SEED;
  const seed = given !== undefined && given !== '' && Number.isInteger(Number(given)) ? Number(given) >>> 0 : Math.floor(Math.random() * 2 ** 32);
  console.log(`      ${label}: seed ${seed} (replay: GSD_CRASH_SEED=${seed})`);
  const random = mulberry32(seed);
  return { seed, next: () => Math.floor(random() * maxMs) };
}
