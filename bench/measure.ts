// Small timing helpers for the benchmark: medians of repeated runs, whole-process wall times.
import { spawnSync } from 'node:child_process';

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

export function timeMs(fn: () => void): number {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

/** Median wall time of a whole process, in ms; throws if it fails. */
export function processMs(runs: number, cmd: string, args: string[]): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  }
  return median(times);
}

export const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
export const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

/**
 * Median wall times of several whole-process commands, run round-robin so that a noisy neighbour
 * slows all of them alike (this machine shares its cores).
 */
export function processMsInterleaved(rounds: number, commands: Array<[string, string[]]>): number[] {
  const times = commands.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    commands.forEach(([cmd, args], i) => times[i].push(processMs(1, cmd, args)));
  }
  return times.map(median);
}

/**
 * Medians of several in-process measurements, taken round-robin for the same reason. Warm-up rounds
 * come first and are not counted: at least `warmupRounds`, and more until `warmupMs` have passed, as
 * benchmark tools warm up by time. They time the JIT compiling the code, not the code (the extension
 * host is long-lived), and a small tree needs more rounds than a large one before the hot functions
 * are compiled. Every function gets the same warm-up.
 */
export function medianMsInterleaved(rounds: number, fns: Array<() => void>, warmupRounds = 2, warmupMs = 300): number[] {
  const started = process.hrtime.bigint();
  for (let r = 0; r < warmupRounds || Number(process.hrtime.bigint() - started) / 1e6 < warmupMs; r++) fns.forEach((fn) => fn());
  const times = fns.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) fns.forEach((fn, i) => times[i].push(timeMs(fn)));
  return times.map(median);
}
