// Runs the integration suite (dist/test/integration) inside a real VS Code extension host, once per
// window: a copy of the sample GSD project, a workspace without `.gsd`, a multi-root workspace, and
// (code-server host) the sample in Restricted Mode.
//
// Host: GSD_TEST_HOST=code-server (offline: code-server from npm + Debian's chromium) or
// GSD_TEST_HOST=electron (@vscode/test-electron: downloads VS Code, or uses VSCODE_EXECUTABLE_PATH).
// Default: electron when VSCODE_EXECUTABLE_PATH is set, code-server otherwise.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testsPath = path.join(repoRoot, 'dist', 'test', 'integration', 'index.js');
const artifactsDir = path.join(repoRoot, 'test-artifacts');
const sampleProject = path.join(repoRoot, 'sample-project');
const RUN_TIMEOUT_MS = Number(process.env.GSD_TEST_TIMEOUT_MS ?? 10 * 60_000);

function prepareWorkspaces() {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-it-'));
  const withGsd = path.join(base, 'sample-project');
  fs.cpSync(sampleProject, withGsd, { recursive: true });
  const withoutGsd = path.join(base, 'plain-project');
  fs.mkdirSync(withoutGsd);
  fs.writeFileSync(path.join(withoutGsd, 'README.md'), '# A project that does not use GSD\n');
  // A multi-root workspace: a second copy of the sample and the CRLF legacy-names fixture.
  const multi = path.join(base, 'multi');
  fs.cpSync(sampleProject, path.join(multi, 'ledgerline'), { recursive: true });
  fs.cpSync(path.join(repoRoot, 'test', 'fixtures', 'legacy-flight-sim'), path.join(multi, 'flight-sim'), { recursive: true });
  const workspaceFile = path.join(multi, 'gsd.code-workspace');
  fs.writeFileSync(workspaceFile, JSON.stringify({ folders: [{ path: 'ledgerline' }, { path: 'flight-sim' }] }, null, 2));
  // The sample again, opened in Restricted Mode (workspace trust on, this folder not trusted).
  const untrusted = path.join(base, 'untrusted', 'sample-project');
  fs.cpSync(sampleProject, untrusted, { recursive: true });
  return {
    base,
    runs: [
      { kind: 'with-gsd', folder: withGsd },
      { kind: 'without-gsd', folder: withoutGsd },
      { kind: 'multi-root', workspace: workspaceFile },
      { kind: 'untrusted', folder: untrusted, untrusted: true },
    ],
  };
}

async function runWithCodeServer(runs) {
  const { startCodeServer, launchBrowser, workbenchUrl } = await import('./code-server-host.mjs');
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-it-log-'));
  const bridgeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-it-bridge-'));
  const env = { GSD_TEST_LOG_DIR: logDir, GSD_WORKBENCH_BRIDGE: bridgeDir };
  // Trust is a server-wide switch: the untrusted run gets its own code-server.
  const servers = new Map();
  const serverFor = async (run) => {
    const key = run.untrusted ? 'untrusted' : 'trusted';
    if (!servers.has(key)) servers.set(key, await startCodeServer({ env, workspaceTrust: !!run.untrusted }));
    return servers.get(key);
  };
  const browser = await launchBrowser();
  let failed = 0;
  try {
    for (const run of runs) {
      const code = await runOne(browser, await serverFor(run), run, logDir, bridgeDir, workbenchUrl);
      if (code !== 0) failed++;
    }
  } finally {
    await browser.close();
    for (const [key, server] of servers) {
      // Keep VS Code's own logs (extension host, our GSD output channel) as a test artifact.
      const logs = path.join(server.userDataDir, 'logs');
      if (fs.existsSync(logs)) fs.cpSync(logs, path.join(artifactsDir, key === 'trusted' ? 'vscode-logs' : `vscode-logs-${key}`), { recursive: true });
      await server.stop();
    }
  }
  return failed === 0 ? 0 : 1;
}

async function runOne(browser, server, run, logDir, bridgeDir, workbenchUrl) {
  console.log(`\n=== integration suite "${run.kind}" in code-server (${run.folder ?? run.workspace})`);
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
  const pageLog = path.join(artifactsDir, `browser-console-${run.kind}.log`);
  fs.writeFileSync(pageLog, '');
  page.on('console', (m) => fs.appendFileSync(pageLog, `[${m.type()}] ${m.text()}\n`));
  let resolveExit;
  const exited = new Promise((r) => (resolveExit = r));
  await page.exposeFunction('codeAutomationExit', (code) => resolveExit(Number(code)));

  const logFile = path.join(logDir, `${run.kind}.log`);
  let printed = 0;
  const pump = () => {
    if (!fs.existsSync(logFile)) return;
    const text = fs.readFileSync(logFile, 'utf8');
    if (text.length > printed) {
      process.stdout.write(text.slice(printed));
      printed = text.length;
    }
  };
  let bridgeBusy = false;
  const serveBridge = async () => {
    if (bridgeBusy) return;
    bridgeBusy = true;
    try {
      for (const name of fs.readdirSync(bridgeDir).filter((f) => f.startsWith('req-') && f.endsWith('.json')).sort()) {
        const requestFile = path.join(bridgeDir, name);
        const request = JSON.parse(fs.readFileSync(requestFile, 'utf8'));
        fs.unlinkSync(requestFile);
        await answerWorkbenchRequest(page, run.kind, request);
      }
    } finally {
      bridgeBusy = false;
    }
  };
  const timer = setInterval(() => {
    pump();
    void serveBridge();
  }, 250);
  await page.goto(workbenchUrl(server, { folder: run.folder, workspace: run.workspace, extensionPath: repoRoot, testsPath }));
  const code = await Promise.race([
    exited,
    new Promise((r) => setTimeout(() => r('timeout'), RUN_TIMEOUT_MS)),
  ]);
  clearInterval(timer);
  pump();
  if (code === 'timeout') {
    console.error(`integration suite "${run.kind}" did not finish within ${RUN_TIMEOUT_MS / 1000} s`);
  }
  await page.close();
  // A suite that reported nothing (e.g. it ran another workspace's tests) has not passed.
  const report = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
  if (code === 0 && !/\[gsd-integration\] finished: 0 failed/.test(report)) {
    console.error(`integration suite "${run.kind}" exited 0 but reported no results`);
    return 1;
  }
  return code === 'timeout' ? 1 : code;
}

const widened = new WeakSet();

/** Drags the side bar wider once per page, so screenshots show the panel's descriptions. */
async function widenSideBar(page) {
  if (widened.has(page)) return;
  widened.add(page);
  const box = await page.locator('.part.sidebar').boundingBox().catch(() => null);
  if (!box) return;
  const x = box.x + box.width + 1;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 180, y, { steps: 5 });
  await page.mouse.up();
}

/** A test asked for a screenshot of the real workbench and for which texts the page shows. */
async function answerWorkbenchRequest(page, kind, request) {
  await widenSideBar(page).catch(() => undefined);
  const safe = String(request.name).replace(/[^\w.-]+/g, '-');
  const shot = path.join(artifactsDir, `${kind}-${safe}.png`);
  // Let the workbench finish rendering what the test just did.
  await page.waitForTimeout(600);
  await page.screenshot({ path: shot });
  const seen = {};
  for (const text of request.expectTexts ?? []) {
    seen[text] = await page.getByText(text, { exact: false }).first().isVisible().catch(() => false);
  }
  const answer = JSON.stringify({ screenshot: shot, seen });
  fs.writeFileSync(`${request.response}.tmp`, answer);
  fs.renameSync(`${request.response}.tmp`, request.response);
  console.log(`  [workbench] screenshot ${path.relative(repoRoot, shot)}${Object.keys(seen).length ? ` — sees ${JSON.stringify(seen)}` : ''}`);
}

async function runWithElectron(runs) {
  const { runTests } = await import('@vscode/test-electron');
  let failed = 0;
  for (const run of runs) {
    if (run.untrusted) {
      // Not set up for this host: it cannot run where this suite was written, so it could not be checked.
      console.log(`\n=== integration suite "${run.kind}": skipped (code-server host only)`);
      continue;
    }
    console.log(`\n=== integration suite "${run.kind}" in desktop VS Code (${run.folder ?? run.workspace})`);
    try {
      await runTests({
        extensionDevelopmentPath: repoRoot,
        extensionTestsPath: testsPath,
        vscodeExecutablePath: process.env.VSCODE_EXECUTABLE_PATH || undefined,
        version: process.env.GSD_VSCODE_VERSION || undefined,
        launchArgs: [run.folder ?? run.workspace, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome'],
      });
    } catch (error) {
      console.error(`suite "${run.kind}" failed: ${error.message ?? error}`);
      failed++;
    }
  }
  return failed === 0 ? 0 : 1;
}

async function main() {
  if (!fs.existsSync(testsPath)) throw new Error('dist/test/integration/index.js is missing: run `node esbuild.mjs` first');
  fs.mkdirSync(artifactsDir, { recursive: true });
  for (const old of fs.readdirSync(artifactsDir).filter((n) => n.startsWith('vscode-logs'))) fs.rmSync(path.join(artifactsDir, old), { recursive: true, force: true });
  const host = process.env.GSD_TEST_HOST || (process.env.VSCODE_EXECUTABLE_PATH ? 'electron' : 'code-server');
  const { base, runs } = prepareWorkspaces();
  try {
    if (host === 'electron') return await runWithElectron(runs);
    if (host === 'code-server') return await runWithCodeServer(runs);
    throw new Error(`GSD_TEST_HOST must be code-server or electron, not "${host}"`);
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`integration tests could not run: ${error.message}`);
    process.exit(1);
  },
);
