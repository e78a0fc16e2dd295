// `npm run demo`: the extension running in a real VS Code (code-server + its web workbench) on a
// copy of the bundled sample GSD project, opened on the GSD panel. Prints the URL; stops on Ctrl+C,
// or when the npm that started it goes away.
//   --port N           serve on port N (one clear line if it is taken)
//   --screenshot FILE  open the URL headless with the sidebar at 300 px, save a screenshot of the
//                      first view, one after a click on the status bar's Next Unit (FILE-next-unit.png)
//                      and one of Complete Unit's confirmation from the palette (FILE-complete.png), stop
//   GSD_CODE_SERVER_VERSION=4.100.3|floor|latest (default: latest)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError, launchBrowser, startCodeServer } from './code-server-host.mjs';
import { cacheDir } from './code-server-install.mjs';
import { onExitRequest } from './lifetime.mjs';
import { copyTracked } from './tracked-copy.cjs';
import { resolveMatrix } from './versions.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');

function option(name) {
  const i = process.argv.indexOf(name);
  if (i < 0) return undefined;
  const value = process.argv[i + 1];
  if (value === undefined || value.startsWith('--')) throw new UsageError(`${name} needs a value`);
  return value;
}

let work;
let server;
let browser;
const cleanUp = async () => {
  await browser?.close().catch(() => undefined);
  await server?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
};
onExitRequest(async (why) => {
  if (server) console.log(`\ndemo stopped (${why}); code-server is shut down`);
  await cleanUp();
});

/** The built extension, as a user would have it installed, plus the demo's panel opener. */
function installExtensions(extensionsDir) {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const installed = path.join(extensionsDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`);
  fs.mkdirSync(installed, { recursive: true });
  for (const entry of ['package.json', 'dist', 'media', 'README.md', 'package.nls.json']) {
    if (fs.existsSync(path.join(repoRoot, entry))) fs.cpSync(path.join(repoRoot, entry), path.join(installed, entry), { recursive: true });
  }
  fs.rmSync(path.join(installed, 'dist', 'test'), { recursive: true, force: true });
  fs.rmSync(path.join(installed, 'dist', 'bench'), { recursive: true, force: true });
  fs.cpSync(path.join(here, 'demo-opener'), path.join(extensionsDir, 'gsd-review-loop-demo.open-gsd-panel-0.0.1'), { recursive: true });
}

/**
 * The sample's devDependency @types/node (sample-project/package.json), linked from this repository's
 * own node_modules: the sample's TypeScript type-checks in the demo without an install, so Problems
 * shows the review's findings, not `Cannot find module 'node:fs'`.
 */
function linkSampleTypes(folder) {
  const from = path.join(repoRoot, 'node_modules', '@types', 'node');
  if (!fs.existsSync(from)) {
    console.log("(@types/node is not in this repository's node_modules: run npm ci, or the sample's TypeScript shows errors in Problems)");
    return;
  }
  const to = path.join(folder, 'node_modules', '@types', 'node');
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.symlinkSync(from, to, 'dir');
}

async function screenshotFirstView(url, file) {
  // A check that the URL really shows the workbench with the GSD panel: open it headless, as is.
  browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
  await page.goto(url);
  await page.locator('.activitybar').waitFor({ timeout: 90_000 });
  await page.getByText('M002-k7q2xz', { exact: false }).first().waitFor({ timeout: 90_000 });
  await narrowSidebar(page, 300);
  await page.waitForTimeout(1500);
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  await page.screenshot({ path: file });
  const tabs = await page.locator('.tabs-container .tab').allInnerTexts();
  console.log(`screenshot of the demo's first view: ${file}${tabs.length ? ` (editor tabs: ${tabs.map((t) => t.trim()).join(', ')})` : ' (no editor tabs open)'}`);
  // Then what a user sees after clicking the status bar's Next Unit: the toast saying what went where.
  await page.locator('.statusbar-item', { hasText: 'GSD:' }).first().click();
  const toast = page.locator('.notification-toast').first();
  const shown = await toast.waitFor({ state: 'visible', timeout: 30_000 }).then(() => true, () => false);
  await page.waitForTimeout(800);
  const after = file.replace(/(\.png)?$/i, '-next-unit.png');
  await page.screenshot({ path: after });
  console.log(`screenshot after Next Unit: ${after} (${shown ? `toast: ${(await toast.innerText()).split('\n')[0]}` : 'no toast floated'})`);
  // Then GSD: Complete Unit from the palette. A unit whose completion signal (the file it should
  // write) is missing asks first, in a modal dialog, which VS Code refuses inside extension tests:
  // seen here instead. A unit with no file signal (fix-task) completes at once; then the next one.
  await page.keyboard.press('Escape');
  const complete = file.replace(/(\.png)?$/i, '-complete.png');
  const dialog = page.locator('.monaco-dialog-box');
  for (let round = 0; round < 3; round++) {
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').waitFor({ timeout: 15_000 });
    await page.keyboard.type('GSD: Complete Unit');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Complete Unit' }).first().waitFor({ timeout: 15_000 });
    await page.keyboard.press('Enter');
    if (await dialog.waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false)) {
      await page.waitForTimeout(500);
      await page.screenshot({ path: complete });
      console.log(`screenshot of Complete Unit's confirmation: ${complete} (dialog: ${(await dialog.innerText()).split('\n').filter(Boolean).join(' | ')})`);
      await page.keyboard.press('Escape');
      return;
    }
    await page.keyboard.press('Escape');
    await page.waitForTimeout(1500);
    await page.locator('.statusbar-item', { hasText: 'GSD:' }).first().click();
    await page.waitForTimeout(2500);
  }
  await page.screenshot({ path: complete });
  console.log(`Complete Unit asked nothing in three rounds: ${complete}`);
}

/** The sidebar at `width` px (VS Code's default width on a new install is about 300 px): its sash dragged. */
async function narrowSidebar(page, width) {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box || Math.abs(box.width - width) < 4) return;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width + 1, y);
  await page.mouse.down();
  await page.mouse.move(box.x + width + 1, y, { steps: 8 });
  await page.mouse.up();
}

async function main() {
  const portArg = option('--port') ?? process.env.GSD_DEMO_PORT;
  const port = portArg === undefined ? undefined : Number(portArg);
  if (portArg !== undefined && !Number.isInteger(port)) throw new UsageError(`--port must be a number from 1 to 65535, not "${portArg}"`);
  const screenshot = option('--screenshot');
  const [target] = await resolveMatrix(process.env.GSD_CODE_SERVER_VERSION || 'latest', cacheDir);
  if (!target) throw new Error('GSD_CODE_SERVER_VERSION names no version');

  work = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-demo-'));
  const extensionsDir = path.join(work, 'extensions');
  installExtensions(extensionsDir);
  const folder = path.join(work, 'sample-project');
  copyTracked('sample-project', folder);
  linkSampleTypes(folder);
  try {
    execFileSync('git', ['init', '-q'], { cwd: folder, stdio: 'ignore' });
  } catch {
    // git is optional for the demo
  }

  server = await startCodeServer({ version: target.version, port, extensionsDir, folder });
  const url = `${server.url}/?folder=${encodeURIComponent(folder)}`;
  console.log(`\nGSD Review Loop demo: VS Code ${server.vscodeVersion} (code-server ${server.version}) with the extension installed,`);
  console.log(`opened on a copy of the sample project (${folder}).\n`);
  console.log(`  open ${url}\n`);
  console.log(`(code-server log: ${server.logFile}; Ctrl+C stops it)`);
  if (screenshot) {
    await screenshotFirstView(url, screenshot);
    await cleanUp();
    process.exit(0);
  }
}

main().catch(async (error) => {
  // Bad input (a taken port, a bad flag) is one line; anything else keeps its first line plus detail.
  console.error(error instanceof UsageError ? `demo: ${error.message}` : `demo could not start: ${error.message}`);
  await cleanUp();
  process.exit(1);
});
