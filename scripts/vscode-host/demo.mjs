// `npm run demo`: the extension running in a real VS Code (code-server + its web workbench) on a
// copy of the bundled sample GSD project, opened on the GSD panel. Prints the URL; stops on Ctrl+C,
// or when the npm that started it goes away.
//   --port N           serve on port N (one clear line if it is taken)
//   --screenshot FILE  open the URL headless with the sidebar at 300 px, save a screenshot of the
//                      first view and its Problems view (FILE-problems-first.png), then of each
//                      step of one review-loop turn (FILE-next-unit.png,
//                      -loop-complete, -loop-next, -complete: Complete Unit's confirmation,
//                      -loop-reviewed, -problems), saying what the status bar shows after each; stop
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

/** The status bar's GSD item, as the page draws it. */
async function barText(page) {
  return ((await page.locator('.statusbar-item', { hasText: 'GSD' }).first().innerText().catch(() => '')) || '').replace(/\s+/g, ' ').trim();
}

/** Waits until the bar's text passes `ok` (up to 20 s); returns what it says then. */
async function barUntil(page, ok) {
  for (let i = 0; i < 100; i++) {
    const text = await barText(page);
    if (ok(text)) return text;
    await page.waitForTimeout(200);
  }
  return barText(page);
}

/** Runs a command by its palette title. */
async function palette(page, title) {
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').waitFor({ timeout: 15_000 });
  await page.keyboard.type(title);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title.replace(/^GSD: /, '') }).first().waitFor({ timeout: 15_000 });
  await page.keyboard.press('Enter');
}

/**
 * The first view, then one turn of the review loop as a user drives it, a screenshot after each step
 * (FILE-<step>.png) with what the status bar says: Next Unit (the bar's click), Complete Unit (from
 * the palette), Next Unit again, Complete Unit's confirmation (the review not written yet: Cancel is
 * the default), the reviewer writing its review (which completes the unit), and the Problems view.
 */
async function screenshotFirstView(url, file, folder) {
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
  console.log(`screenshot of the demo's first view: ${file}${tabs.length ? ` (editor tabs: ${tabs.map((t) => t.trim()).join(', ')})` : ' (no editor tabs open)'} — bar: ${await barText(page)}`);
  const shot = async (step, what) => {
    const out = file.replace(/(\.png)?$/i, `-${step}.png`);
    await page.screenshot({ path: out });
    console.log(`screenshot ${what}: ${out} — bar: ${await barText(page)}`);
  };
  // 0. The Problems view as a first look finds it: the review's findings of the task in its loop.
  await palette(page, 'View: Focus Problems');
  await page.locator('.markers-panel').waitFor({ timeout: 15_000 }).catch(() => undefined);
  await page.waitForTimeout(1500);
  await shot('problems-first', `of the first Problems view (${(await page.locator('.markers-panel .monaco-list-row').allInnerTexts().catch(() => [])).map((r) => r.split('\n')[0]).join(' | ') || 'empty'})`);
  // Ctrl+J: View: Toggle Panel, which closes it again.
  await page.keyboard.press('Control+J');
  await page.waitForTimeout(500);
  // 1. Next Unit, by a click on the status bar: the toast says what went where.
  await page.locator('.statusbar-item', { hasText: 'GSD:' }).first().click();
  const toast = page.locator('.notification-toast').first();
  const shown = await toast.waitFor({ state: 'visible', timeout: 30_000 }).then(() => true, () => false);
  await barUntil(page, (t) => t.includes(' · '));
  await page.waitForTimeout(800);
  await shot('next-unit', `after Next Unit (${shown ? `toast: ${(await toast.innerText()).split('\n')[0]}` : 'no toast floated'})`);
  // 2. Complete Unit on the fix (it writes no file of its own: no question asked).
  await page.keyboard.press('Escape');
  await palette(page, 'GSD: Complete Unit');
  await barUntil(page, (t) => t.includes('review-task') && !t.includes(' · '));
  await page.waitForTimeout(800);
  await shot('loop-complete', 'after Complete Unit on the fix');
  // 3. Next Unit again: the review.
  await page.keyboard.press('Escape');
  await page.locator('.statusbar-item', { hasText: 'GSD:' }).first().click();
  await barUntil(page, (t) => t.includes('review-task') && t.includes(' · '));
  await page.waitForTimeout(800);
  await shot('loop-next', 'after Next Unit again');
  // 4. Complete Unit before the review is written: the question, Cancel first.
  await page.keyboard.press('Escape');
  await palette(page, 'GSD: Complete Unit');
  const asked = await page.locator('.quick-input-widget', { hasText: 'Complete Anyway' }).waitFor({ state: 'visible', timeout: 15_000 }).then(() => true, () => false);
  await page.waitForTimeout(500);
  await shot('complete', asked ? `of Complete Unit's confirmation (${(await page.locator('.quick-input-widget').innerText()).split('\n').filter(Boolean).join(' | ')})` : '(Complete Unit asked nothing)');
  await page.keyboard.press('Enter');
  // 5. The reviewer writes its review (cycle 2, one issue still open): that completes the review.
  const tasks = path.join(folder, '.gsd', 'milestones', 'M002-k7q2xz', 'slices', 'S02', 'tasks');
  fs.writeFileSync(
    path.join(tasks, 'T02-CODE-REVIEW.md'),
    '---\ntask: T02\ncycle: 2\nverdict: changes-requested\n---\n# Code review: T02 (cycle 2)\n\n## Issues\n\n- [x] **major** `src/rules-file.ts:57` fsync before rename\n- [ ] **minor** `src/commands/rule.ts:22` `rule remove` of a missing pattern still exits 0.\n\n## Notes\n\nOne left.\n',
  );
  await barUntil(page, (t) => t.includes('fix-task') && !t.includes(' · '));
  await page.waitForTimeout(800);
  await shot('loop-reviewed', "after the reviewer's cycle-2 review (which completes it)");
  // 6. The Problems view, as a user opens it after opening the file the findings are about (whose
  // TypeScript the language server checks once it is open).
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input').waitFor({ timeout: 15_000 });
  await page.keyboard.type('rules-file.ts');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'rules-file.ts' }).first().waitFor({ timeout: 15_000 });
  await page.keyboard.press('Enter');
  // TypeScript says "Initializing…" / "Analyzing…" in the status bar until its first check is done.
  await page.waitForTimeout(3000);
  for (let i = 0; i < 120 && (await page.locator('.part.statusbar', { hasText: /Analyzing|Initializing|Loading/ }).count()) > 0; i++) await page.waitForTimeout(500);
  await page.waitForTimeout(2000);
  await palette(page, 'View: Focus Problems');
  await page.locator('.markers-panel').waitFor({ timeout: 15_000 }).catch(() => undefined);
  await page.waitForTimeout(1500);
  await shot('problems', `of the Problems view (${(await page.locator('.markers-panel .monaco-list-row').allInnerTexts().catch(() => [])).slice(0, 3).map((r) => r.split('\n')[0]).join(' | ') || 'empty'})`);
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

  // code-server's own temporary files (its vscode-ipc-*.sock sockets) in the demo's folder, removed
  // with it when the demo stops, instead of left in the system's temporary folder.
  const tmp = path.join(work, 'tmp');
  fs.mkdirSync(tmp);
  server = await startCodeServer({ version: target.version, port, extensionsDir, folder, env: { TMPDIR: tmp } });
  const url = `${server.url}/?folder=${encodeURIComponent(folder)}`;
  console.log(`\nGSD Review Loop demo: VS Code ${server.vscodeVersion} (code-server ${server.version}) with the extension installed,`);
  console.log(`opened on a copy of the sample project (${folder}).\n`);
  console.log(`  open ${url}\n`);
  console.log(`(code-server log: ${server.logFile}; Ctrl+C stops it)`);
  if (screenshot) {
    await screenshotFirstView(url, screenshot, folder);
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
