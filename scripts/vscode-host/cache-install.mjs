// Installs one thing (a Node runtime, a code-server) into the shared cache folder exactly once, even
// when several processes ask for it at the same time: one takes a lock, builds in a temporary folder
// and renames it into place with its `.ready` marker; the others wait for that marker. A lock whose
// holder stopped refreshing it (a killed install) is taken over.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const LOCK_STALE_MS = 2 * 60_000;
const WAIT_LIMIT_MS = 30 * 60_000;

export function log(scope, message) {
  process.stderr.write(`[${scope}] ${message}\n`);
}

export function isReady(dir) {
  return fs.existsSync(path.join(dir, '.ready'));
}

/**
 * Runs a command; while it runs, says every 8 s that it is still at work, so a long native build
 * never looks like a hang (and npm test's own "still running" line, after 10 s of quiet, stays
 * away). Output is kept and shown only when the command fails.
 */
export function runQuietly(scope, what, cmd, args, options = {}) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(cmd, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const beat = setInterval(() => log(scope, `  … still ${what} (${Math.round((Date.now() - started) / 1000)} s)`), 8_000);
    child.on('error', (error) => {
      clearInterval(beat);
      reject(error);
    });
    child.on('close', (code) => {
      clearInterval(beat);
      if (code === 0) resolve(output);
      else reject(new Error(`${what} failed (exit ${code}):\n${output.split('\n').slice(-40).join('\n')}`));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function tryLock(lockDir) {
  try {
    fs.mkdirSync(lockDir);
    return true;
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
    const age = Date.now() - fs.statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs;
    if (age > LOCK_STALE_MS) {
      // The holder stopped refreshing the lock: it was killed. Take over.
      fs.rmSync(lockDir, { recursive: true, force: true });
      return tryLock(lockDir);
    }
    return false;
  }
}

/**
 * Makes `finalDir` exist with a `.ready` marker, calling `build(tmpDir)` at most once across every
 * process sharing the cache. Returns whether this process did the install.
 */
export async function installOnce(scope, finalDir, label, build) {
  if (isReady(finalDir)) return false;
  fs.mkdirSync(path.dirname(finalDir), { recursive: true });
  const lockDir = `${finalDir}.lock`;
  const waitStarted = Date.now();
  let lastWord = 0;
  for (;;) {
    if (isReady(finalDir)) return false;
    if (!fs.existsSync(finalDir) && tryLock(lockDir)) break;
    if (Date.now() - waitStarted > WAIT_LIMIT_MS) {
      throw new Error(`${label}: waited ${WAIT_LIMIT_MS / 60_000} min for another install into ${finalDir}; ` +
        `if none is running, delete ${finalDir} and ${lockDir}`);
    }
    if (Date.now() - lastWord > 30_000) {
      log(scope, `${label}: another process is installing it into ${finalDir}; waiting`);
      lastWord = Date.now();
    }
    await sleep(2000);
  }
  const heartbeat = setInterval(() => {
    const now = new Date();
    try {
      fs.utimesSync(lockDir, now, now);
    } catch {
      // lock taken over; the rename below still cannot clobber a finished install
    }
  }, 20_000);
  const tmpDir = `${finalDir}.tmp-${process.pid}-${Date.now().toString(36)}`;
  const started = Date.now();
  try {
    log(scope, `installing ${label} into ${finalDir} (once; later runs reuse it)`);
    fs.mkdirSync(tmpDir, { recursive: true });
    await build(tmpDir);
    fs.writeFileSync(path.join(tmpDir, '.ready'), new Date().toISOString() + '\n');
    try {
      fs.renameSync(tmpDir, finalDir);
    } catch (error) {
      // Someone else's finished (or in-place) install is there already: keep theirs.
      if (!['EEXIST', 'ENOTEMPTY'].includes(error.code)) throw error;
      fs.rmSync(tmpDir, { recursive: true, force: true });
    }
    log(scope, `${label} installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return true;
  } catch (error) {
    fs.rmSync(tmpDir, { recursive: true, force: true });
    throw error;
  } finally {
    clearInterval(heartbeat);
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}
