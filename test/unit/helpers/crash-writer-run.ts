// Runs a writer script and kills it (SIGKILL) a moment after it says it started: how the crash tests
// interrupt a write or a commit at an unpredictable point.
import { spawn } from 'node:child_process';

export function runAndKill(script: string, args: string[], delayMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.once('data', () => setTimeout(() => child.kill('SIGKILL'), delayMs));
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`writer exited ${code}: ${err}`))));
  });
}
