// Finds Debian's chromium for playwright-core; installs it with apt-get when we are root and it is
// missing, or says the one command that does.
import { execFileSync, execSync } from 'node:child_process';
import fs from 'node:fs';

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

function which(name) {
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

function find() {
  const fromEnv = process.env.GSD_CHROMIUM;
  if (fromEnv && fs.existsSync(fromEnv)) return fromEnv;
  return which('chromium') ?? which('chromium-browser');
}

export function ensureChromium() {
  const found = find();
  if (found) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && which('apt-get')) {
    // apt-get is quiet for about a minute: say what the wait is.
    process.stderr.write('[chromium] not found; installing Debian\'s chromium with apt-get (about a minute, quietly)…\n');
    const started = Date.now();
    execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const installed = find();
    if (installed) {
      process.stderr.write(`[chromium] installed in ${Math.round((Date.now() - started) / 1000)} s\n`);
      return installed;
    }
  }
  throw new Error(
    'Debian\'s chromium is needed to drive the VS Code web workbench. Install it with:\n' +
      '  sudo apt-get update && sudo apt-get install -y chromium\n' +
      '(or set GSD_CHROMIUM to a Chromium binary)',
  );
}
