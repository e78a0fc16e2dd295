// Starts code-server on 127.0.0.1 with a throwaway user-data and extensions folder and opens the
// workbench in Debian's chromium through playwright-core.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { installCodeServer } from './code-server-install.mjs';
import { CHROMIUM_FLAGS, ensureChromium } from './chromium.mjs';
import { needsSmokeTestDriver } from './versions.mjs';

const exitWithParent = path.join(path.dirname(fileURLToPath(import.meta.url)), 'exit-with-parent.cjs');

/** Input the user can fix (a taken port, a bad --port): the caller prints the message, one line, no stack. */
export class UsageError extends Error {}

/** Fails with one clear line when something already listens on the port (which it would serve instead). */
export function assertPortFree(port) {
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    return Promise.reject(new UsageError(`--port must be a number from 1 to 65535, not "${port}"`));
  }
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', (error) => {
      reject(error.code === 'EADDRINUSE' || error.code === 'EACCES'
        ? new UsageError(`port ${port} is ${error.code === 'EACCES' ? 'not allowed for this user' : 'already in use by another program'}: pick another with --port, or leave --port out to get a free one`)
        : error);
    });
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
  });
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'window.commandCenter': false,
};

async function waitForHttp(url, child, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`code-server exited with code ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`code-server did not answer at ${url} within ${timeoutMs / 1000} s`);
}

/** With `workspaceTrust`, folders open in Restricted Mode (no trust prompt): the untrusted test run. */
const TRUST_SETTINGS = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.emptyWindow': false,
};

/**
 * code-server reads its options from a config file too; ours is written per server, so a user's
 * ~/.config/code-server/config.yaml (a password, another port) never leaks in. VS Code >= 1.134
 * takes the test payload from the URL only with the smoke-test driver enabled, and that driver
 * also keeps every notification from floating as a toast (they go to the bell): so it is on only
 * for the integration runs, which load their tests from the URL, never for the demo or real use.
 */
function writeConfig(file, version, testPayload) {
  const lines = ['auth: none', 'cert: false'];
  if (testPayload && needsSmokeTestDriver(version)) lines.push('vscode-option:', '  - enable-smoke-test-driver');
  fs.writeFileSync(file, lines.join('\n') + '\n');
}

/**
 * @param {{ version?: string, port?: number, env?: Record<string,string>, extensionsDir?: string, settings?: object,
 *           logFile?: string, folder?: string, workspaceTrust?: boolean, testPayload?: boolean }} options
 *   `testPayload`: the workbench URL will carry extension tests (integration runs only).
 */
export async function startCodeServer(options = {}) {
  if (options.port !== undefined) await assertPortFree(options.port);
  const install = await installCodeServer(options.version);
  const port = options.port ?? (await freePort());
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-code-server-'));
  const configFile = path.join(work, 'config.yaml');
  writeConfig(configFile, install.version, !!options.testPayload);
  const userDataDir = path.join(work, 'user-data');
  const extensionsDir = options.extensionsDir ?? path.join(work, 'extensions');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...USER_SETTINGS, ...(options.workspaceTrust ? TRUST_SETTINGS : {}), ...(options.settings ?? {}) }, null, 2),
  );
  const args = [
    '--require', exitWithParent,
    install.entry,
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    ...(options.workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
  ];
  if (options.folder) args.push(options.folder);
  const logFile = options.logFile ?? path.join(work, 'code-server.log');
  const out = fs.openSync(logFile, 'a');
  // Its own process group (detached), so stop() ends code-server with every process it started.
  const child = spawn(install.nodeBin, args, {
    env: { ...process.env, CODE_SERVER_CONFIG: configFile, ...(options.env ?? {}) },
    stdio: ['ignore', out, out],
    detached: true,
  });
  fs.closeSync(out);
  const killGroup = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      killGroup('SIGTERM');
      await new Promise((r) => {
        const t = setTimeout(() => r(), 5000);
        child.once('exit', () => { clearTimeout(t); r(); });
      });
    }
    // Stragglers of the group (extension host, pty host) go too.
    killGroup('SIGKILL');
    fs.rmSync(work, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/healthz`, child);
  } catch (error) {
    const tail = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').trim().split('\n').slice(-15).join('\n') : '';
    await stop();
    throw new Error(`${error.message}${tail ? `\n--- code-server log ---\n${tail}` : ''}`, { cause: error });
  }
  return {
    url,
    port,
    child,
    logFile,
    userDataDir,
    extensionsDir,
    version: install.version,
    vscodeVersion: install.vscodeVersion,
    stop,
  };
}

export async function launchBrowser() {
  const executablePath = ensureChromium();
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_FLAGS });
}

/** Builds the workbench URL that loads an extension under development and, optionally, its tests. */
export function workbenchUrl(server, { folder, workspace, extensionPath, testsPath }) {
  const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
  const payload = [['skipWelcome', 'true']];
  if (extensionPath) payload.push(['extensionDevelopmentPath', remote(extensionPath)]);
  if (testsPath) payload.push(['extensionTestsPath', remote(testsPath)]);
  const query = new URLSearchParams({ ...(workspace ? { workspace } : { folder }), payload: JSON.stringify(payload) });
  return `${server.url}/?${query.toString()}`;
}
