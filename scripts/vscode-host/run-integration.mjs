// Runs the integration suite (dist/test/integration) inside a real VS Code extension host, once per
// window: a copy of the sample GSD project, a workspace without `.gsd`, a multi-root workspace,
// (code-server host) the sample in Restricted Mode, and a project of GSD's successor; and that once per VS Code of the test matrix.
//
// Host: GSD_TEST_HOST=code-server (offline: code-server from npm + Debian's chromium) or
// GSD_TEST_HOST=electron (@vscode/test-electron: downloads VS Code, or uses VSCODE_EXECUTABLE_PATH).
// Default: electron when VSCODE_EXECUTABLE_PATH is set, code-server otherwise.
// Which code-server: GSD_CODE_SERVER_VERSION = a version (4.139.1), floor, latest, or a comma list;
// unset, the floor (engines.vscode) and the latest on npm. GSD_TEST_SUITES: a comma list of the
// windows to run (with-gsd, without-gsd, multi-root, untrusted, successor); unset, all of them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lateTreeTimers } from './late-tree-timers.mjs';
import { onExitRequest } from './lifetime.mjs';
import { copyTracked } from './tracked-copy.cjs';
import { createRequire } from 'node:module';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testsPath = path.join(repoRoot, 'dist', 'test', 'integration', 'index.js');
const artifactsRoot = path.join(repoRoot, 'test-artifacts');
let artifactsDir = artifactsRoot;
const RUN_TIMEOUT_MS = Number(process.env.GSD_TEST_TIMEOUT_MS ?? 10 * 60_000);
/** A test silent this long gets a line saying which one is running. */
const QUIET_MS = 15_000;
/**
 * Windows whose page holds the late timers of a tree view's batch (late-tree-timers.mjs): the
 * multi-root window always (its panel fetches several nodes' children per turn), every window with
 * GSD_TEST_LATE_TREE_TIMERS=1, none with GSD_TEST_LATE_TREE_TIMERS=0.
 */
const LATE_TREE_TIMERS_MS = 1500;
const lateTreeTimersIn = (kind) => (process.env.GSD_TEST_LATE_TREE_TIMERS === '1' ? true : process.env.GSD_TEST_LATE_TREE_TIMERS === '0' ? false : kind === 'multi-root');

/** Copies of the tracked sample (as git has it), so a user's runs of the CLI on sample-project/ never leak in. */
function prepareWorkspaces(base) {
  const withGsd = path.join(base, 'sample-project');
  copyTracked('sample-project', withGsd);
  const withoutGsd = path.join(base, 'plain-project');
  fs.mkdirSync(withoutGsd);
  fs.writeFileSync(path.join(withoutGsd, 'README.md'), '# A project that does not use GSD\n');
  // A multi-root workspace: a second copy of the sample and the CRLF legacy-names fixture.
  const multi = path.join(base, 'multi');
  copyTracked('sample-project', path.join(multi, 'ledgerline'));
  copyTracked('test/fixtures/legacy-flight-sim', path.join(multi, 'flight-sim'));
  const workspaceFile = path.join(multi, 'gsd.code-workspace');
  fs.writeFileSync(workspaceFile, JSON.stringify({ folders: [{ path: 'ledgerline' }, { path: 'flight-sim' }] }, null, 2));
  // The sample again, opened in Restricted Mode (workspace trust on, this folder not trusted).
  const untrusted = path.join(base, 'untrusted', 'sample-project');
  copyTracked('sample-project', untrusted);
  // A project of GSD's successor (@opengsd/gsd-pi 1.x), built by the tests' own fixture builder.
  const successor = path.join(base, 'successor', 'shop');
  fs.mkdirSync(successor, { recursive: true });
  createRequire(import.meta.url)(path.join(repoRoot, 'dist', 'test', 'integration', 'successor-fixture.js')).writeSuccessorWorkspace(successor);
  return [
    { kind: 'with-gsd', folder: withGsd },
    { kind: 'without-gsd', folder: withoutGsd },
    { kind: 'multi-root', workspace: workspaceFile },
    { kind: 'untrusted', folder: untrusted, untrusted: true },
    { kind: 'successor', folder: successor },
  ];
}

/** Servers and browsers still running, stopped on Ctrl+C or when whoever started us goes away. */
const live = new Set();

async function runWithCodeServer(runs, base, target) {
  const { startCodeServer, launchBrowser, workbenchUrl } = await import('./code-server-host.mjs');
  const logDir = path.join(base, 'log');
  const bridgeDir = path.join(base, 'bridge');
  fs.mkdirSync(logDir);
  fs.mkdirSync(bridgeDir);
  // A Node with node:sqlite (24, from the same cache) writes gsd.db for tests whose host's Node has none.
  const { installNode } = await import('./node-runtime.mjs');
  const { cacheDir } = await import('./code-server-install.mjs');
  const { nodeBin: sqliteNode } = await installNode(cacheDir, '24');
  const env = { GSD_TEST_LOG_DIR: logDir, GSD_WORKBENCH_BRIDGE: bridgeDir, GSD_TEST_SQLITE_NODE: sqliteNode };
  // Trust is a server-wide switch: the untrusted run gets its own code-server.
  const servers = new Map();
  const serverFor = async (run) => {
    const key = run.untrusted ? 'untrusted' : 'trusted';
    if (!servers.has(key)) {
      const server = await startCodeServer({ version: target.version, env, workspaceTrust: !!run.untrusted, testPayload: true });
      live.add(server.stop);
      servers.set(key, server);
    }
    return servers.get(key);
  };
  const browser = await launchBrowser();
  const closeBrowser = () => browser.close();
  live.add(closeBrowser);
  let failed = 0;
  try {
    for (const run of runs) {
      const code = await runOne(browser, await serverFor(run), run, logDir, bridgeDir, workbenchUrl, target);
      if (code !== 0) failed++;
    }
  } finally {
    await browser.close();
    live.delete(closeBrowser);
    for (const [key, server] of servers) {
      // Keep VS Code's own logs (extension host, our GSD output channel) as a test artifact.
      const logs = path.join(server.userDataDir, 'logs');
      if (fs.existsSync(logs)) fs.cpSync(logs, path.join(artifactsDir, key === 'trusted' ? 'vscode-logs' : `vscode-logs-${key}`), { recursive: true });
      await server.stop();
      live.delete(server.stop);
    }
  }
  return failed === 0 ? 0 : 1;
}

async function runOne(browser, server, run, logDir, bridgeDir, workbenchUrl, target) {
  console.log(`\n=== integration suite "${run.kind}" in code-server ${server.version} (${run.folder ?? run.workspace})`);
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
  fs.mkdirSync(artifactsDir, { recursive: true });
  const pageLog = path.join(artifactsDir, `browser-console-${run.kind}.log`);
  fs.writeFileSync(pageLog, '');
  page.on('console', (m) => fs.appendFileSync(pageLog, `[${m.type()}] ${m.text()}\n`));
  let resolveExit;
  const exited = new Promise((r) => (resolveExit = r));
  await page.exposeFunction('codeAutomationExit', (code) => resolveExit(Number(code)));
  if (lateTreeTimersIn(run.kind)) {
    await page.addInitScript(lateTreeTimers, LATE_TREE_TIMERS_MS);
    console.log(`  (tree views' batched timers held ${LATE_TREE_TIMERS_MS} ms in this window: scripts/vscode-host/late-tree-timers.mjs)`);
  }

  const logFile = path.join(logDir, `${run.kind}.log`);
  const progressFile = path.join(logDir, `${run.kind}.current`);
  let printed = 0;
  let lastOutput = Date.now();
  const pump = () => {
    if (fs.existsSync(logFile)) {
      const text = fs.readFileSync(logFile, 'utf8');
      if (text.length > printed) {
        process.stdout.write(text.slice(printed));
        printed = text.length;
        lastOutput = Date.now();
      }
    }
    if (Date.now() - lastOutput >= QUIET_MS) {
      // Say what the host is busy with: the test index.ts says is running, or the workbench loading.
      const current = fs.existsSync(progressFile) ? fs.readFileSync(progressFile, 'utf8').trim() : '';
      const since = Math.round((Date.now() - started) / 1000);
      console.log(`  … ${current ? `still in "${current}"` : 'VS Code is loading the workbench and the extension'} (${since} s into this window)`);
      lastOutput = Date.now();
    }
  };
  const started = Date.now();
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
  // The matrix must run what it says: the host itself names its VS Code.
  const inside = /\[gsd-integration\] inside VS Code (\S+)/.exec(report)?.[1];
  if (target.vscode && inside && inside !== target.vscode) {
    console.error(`integration suite "${run.kind}" ran inside VS Code ${inside}, not ${target.vscode} as code-server ${target.version} should`);
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

/** The rows the side bar's tree shows, top to bottom: depth (1 = top level) and label. */
function sideBarRows(page) {
  return page
    .$$eval('.part.sidebar .monaco-list-row[aria-level]', (rows) =>
      rows
        .map((r) => ({ top: r.getBoundingClientRect().top, level: Number(r.getAttribute('aria-level')), label: r.querySelector('.label-name')?.textContent ?? '' }))
        .sort((a, b) => a.top - b.top)
        .map(({ level, label }) => ({ level, label })),
    )
    .catch(() => []);
}

/** The texts of the status bar's GSD items, as drawn (icons are glyphs, not text). */
function statusBarTexts(page) {
  return page
    .$$eval('.part.statusbar .statusbar-item', (items) => items.map((i) => (i.textContent ?? '').replace(/\s+/g, ' ').trim()).filter((t) => t.startsWith('GSD')))
    .catch(() => []);
}

/** The aria-labels of what `selector` finds (visible ones), in page order, without repeats. */
function ariaLabelsOf(page, selector) {
  return page
    .$$eval(selector, (els) => [...new Set(els.filter((e) => e.getClientRects().length > 0).map((e) => e.getAttribute('aria-label') ?? '').filter(Boolean))])
    .catch(() => []);
}

/** What a screen reader is given for the status bar's GSD items: their aria-labels. */
function statusBarLabels(page) {
  return page
    .$$eval('.part.statusbar .statusbar-item', (items) =>
      items
        .filter((i) => (i.textContent ?? '').trim().startsWith('GSD'))
        .map((i) => i.getAttribute('aria-label') ?? i.querySelector('[aria-label]')?.getAttribute('aria-label') ?? ''),
    )
    .catch(() => []);
}

/** A test asked for a screenshot of the real workbench and for which texts the page shows. */
async function answerWorkbenchRequest(page, kind, request) {
  await widenSideBar(page).catch(() => undefined);
  const safe = String(request.name).replace(/[^\w.-]+/g, '-');
  const shot = path.join(artifactsDir, `${kind}-${safe}.png`);
  fs.mkdirSync(artifactsDir, { recursive: true });
  // A row to hover: the pointer rests on its label so the workbench shows the tree item's tooltip.
  if (request.hoverRow) {
    await page
      .locator('.part.sidebar .monaco-list-row .label-name', { hasText: request.hoverRow })
      .first()
      .hover({ timeout: 5000 })
      .catch(() => undefined);
  }
  // Let the workbench finish rendering what the test just did: each text the test expects gets up to
  // 10 s in all to appear (a loaded machine draws a tree in several frames), then a short settle.
  const deadline = Date.now() + 10_000;
  for (const text of request.expectTexts ?? []) {
    await page
      .getByText(text, { exact: false })
      .first()
      .waitFor({ state: 'visible', timeout: Math.max(1, deadline - Date.now()) })
      .catch(() => undefined);
  }
  // Rows asked for: the side bar's tree rows (depth and label) must come to equal them in that time.
  const wantRows = request.expectRows ? JSON.stringify(request.expectRows) : undefined;
  while (wantRows && JSON.stringify(await sideBarRows(page)) !== wantRows && Date.now() < deadline) await page.waitForTimeout(200);
  await page.waitForTimeout(300);
  await page.screenshot({ path: shot });
  const seen = {};
  for (const text of request.expectTexts ?? []) {
    seen[text] = await page.getByText(text, { exact: false }).first().isVisible().catch(() => false);
  }
  const rows = request.expectRows ? await sideBarRows(page) : undefined;
  const statusBar = request.statusBar ? await statusBarTexts(page) : undefined;
  const statusBarAria = request.statusBar ? await statusBarLabels(page) : undefined;
  // The side bar view's title actions and the activity bar's items, by the names a person hovers or hears.
  const viewActions = request.viewActions ? await ariaLabelsOf(page, '.part.sidebar .pane-header .actions .action-label, .part.sidebar .title-actions .action-label') : undefined;
  const activityBar = request.viewActions ? await ariaLabelsOf(page, '.part.activitybar .action-item .action-label, .part.activitybar .action-item') : undefined;
  // A notification's button, clicked after the shot (in a toast, or in the notification centre a test opened).
  if (request.clickNotificationButton) {
    await page
      .locator('.notifications-toasts, .notifications-center')
      .getByRole('button', { name: request.clickNotificationButton, exact: true })
      .first()
      .click({ timeout: 5000 })
      .catch((error) => console.log(`  [workbench] could not click the notification button "${request.clickNotificationButton}": ${error.message.split('\n')[0]}`));
  }
  // A click on the status bar's GSD item, after the shot (what the bar showed when it was clicked).
  if (request.clickStatusBar) await page.locator('.part.statusbar .statusbar-item', { hasText: 'GSD' }).first().click({ timeout: 5000 }).catch(() => undefined);
  if (request.pressAfter) await page.keyboard.press(request.pressAfter).catch(() => undefined);
  const answer = JSON.stringify({ screenshot: shot, seen, rows, statusBar, statusBarAria, viewActions, activityBar });
  fs.writeFileSync(`${request.response}.tmp`, answer);
  fs.renameSync(`${request.response}.tmp`, request.response);
  console.log(`  [workbench] screenshot ${path.relative(repoRoot, shot)}${Object.keys(seen).length ? ` — sees ${JSON.stringify(seen)}` : ''}${statusBar ? ` — status bar ${JSON.stringify(statusBar)}` : ''}`);
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
  const host = process.env.GSD_TEST_HOST || (process.env.VSCODE_EXECUTABLE_PATH ? 'electron' : 'code-server');
  if (host !== 'electron' && host !== 'code-server') throw new Error(`GSD_TEST_HOST must be code-server or electron, not "${host}"`);
  let targets = [{ version: undefined, vscode: undefined, role: 'desktop' }];
  if (host === 'code-server') {
    const { resolveMatrix } = await import('./versions.mjs');
    const { cacheDir } = await import('./code-server-install.mjs');
    targets = await resolveMatrix(process.env.GSD_CODE_SERVER_VERSION, cacheDir);
  }
  const results = [];
  for (const target of targets) {
    // Everything of this run lives in one temporary folder, which also serves as TMPDIR for
    // code-server, VS Code and chromium, and goes when the run ends: nothing is left in /tmp.
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-it-'));
    const previousTmp = process.env.TMPDIR;
    process.env.TMPDIR = path.join(base, 'tmp');
    fs.mkdirSync(process.env.TMPDIR);
    const removeBase = () => fs.rmSync(base, { recursive: true, force: true });
    live.add(removeBase);
    const started = Date.now();
    if (target.version) {
      artifactsDir = path.join(artifactsRoot, `vscode-${target.vscode}`);
      console.log(`\n##### VS Code ${target.vscode} (code-server ${target.version}; ${target.role})`);
    }
    fs.mkdirSync(artifactsDir, { recursive: true });
    for (const old of fs.readdirSync(artifactsDir).filter((n) => n.startsWith('vscode-logs'))) fs.rmSync(path.join(artifactsDir, old), { recursive: true, force: true });
    let code;
    try {
      // GSD_TEST_SUITES=successor,with-gsd runs only those windows (a whole run takes minutes).
      const only = process.env.GSD_TEST_SUITES?.split(',').map((k) => k.trim()).filter(Boolean);
      const runs = prepareWorkspaces(base).filter((r) => !only?.length || only.includes(r.kind));
      code = host === 'electron' ? await runWithElectron(runs) : await runWithCodeServer(runs, base, target);
    } catch (error) {
      console.error(`integration tests could not run${target.version ? ` on code-server ${target.version}` : ''}: ${error.message}`);
      code = 1;
    } finally {
      if (previousTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previousTmp;
      removeBase();
      live.delete(removeBase);
    }
    results.push({ target, code, seconds: (Date.now() - started) / 1000 });
  }
  if (host === 'code-server') {
    console.log('\nintegration matrix:');
    for (const { target, code, seconds } of results) {
      console.log(`  VS Code ${target.vscode} (code-server ${target.version}, ${target.role}): ${code === 0 ? 'passed' : 'FAILED'} in ${seconds.toFixed(0)} s`);
    }
  }
  return results.every((r) => r.code === 0) ? 0 : 1;
}

onExitRequest(async (why) => {
  console.error(`\nintegration tests stopped: ${why}`);
  for (const stop of [...live].reverse()) await Promise.resolve(stop()).catch(() => undefined);
});

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`integration tests could not run: ${error.message}`);
    process.exit(1);
  },
);
