// Starts code-server on 127.0.0.1 with a throwaway user-data and extensions folder and opens the
// workbench in Debian's chromium through playwright-core.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { installCodeServer } from './code-server-install.mjs';
import { CHROMIUM_FLAGS, ensureChromium } from './chromium.mjs';

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
 * @param {{ port?: number, env?: Record<string,string>, extensionsDir?: string, settings?: object,
 *           logFile?: string, folder?: string, workspaceTrust?: boolean }} options
 */
export async function startCodeServer(options = {}) {
  const entry = installCodeServer();
  const port = options.port ?? (await freePort());
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-code-server-'));
  const userDataDir = path.join(work, 'user-data');
  const extensionsDir = options.extensionsDir ?? path.join(work, 'extensions');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...USER_SETTINGS, ...(options.workspaceTrust ? TRUST_SETTINGS : {}), ...(options.settings ?? {}) }, null, 2),
  );
  const args = [
    entry,
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
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...(options.env ?? {}) },
    stdio: ['ignore', out, out],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/healthz`, child);
  return {
    url,
    port,
    child,
    logFile,
    userDataDir,
    extensionsDir,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => {
          const t = setTimeout(() => { child.kill('SIGKILL'); r(); }, 5000);
          child.once('exit', () => { clearTimeout(t); r(); });
        });
      }
      fs.rmSync(work, { recursive: true, force: true });
    },
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
