// `npm run bench:paint`: activation to first panel paint in the real workbench (code-server + its web
// workbench in headless chromium), on the 10,000-task tree of `npm run bench`, against baselines from
// the same run: the same path on the bundled sample project (a dozen tasks), and the workbench's own
// Explorer (its first row, from navigation). A measurement, not a test: it prints medians and ratios,
// and when the rest of the project (read after the panel's first look) was read.
//
// How: the extension is installed as a user would have it; code-server runs with GSD_PANEL_PAINT_LOG,
// so each extension host appends when activate() started and when the panel first handed VS Code
// its top level (src/vscode/workspace/paint-timing.ts), and shows its view container at once (as a window
// restored with the panel open would). In the page, a requestAnimationFrame loop notes the first
// frame in which a first-level row of the panel (its Pending actions group or a milestone) and a row of
// the Explorer are in the DOM, and the first in which a task row is (the active slice opened: the panel
// hands its first rows closed and opens them after, src/vscode/panel/first-unfold.ts). Both clocks
// are this machine's Date.now().
//   GSD_PAINT_ROUNDS (default 5) rounds, the two folders interleaved; GSD_CODE_SERVER_VERSION as for
//   the demo (default: latest installed in GSD_VSCODE_CACHE); GSD_PAINT_SCREENSHOTS=<folder> saves the
//   window of the first measured round of each folder at its first panel rows, once the active slice's
//   tasks are drawn, and once all is read. GSD_PAINT_KEEP_LOG=<file> appends each window's extension-host
//   log and page marks to it, for a look at where the time went.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, startCodeServer } from '../scripts/vscode-host/code-server-host.mjs';
import { cacheDir } from '../scripts/vscode-host/code-server-install.mjs';
import { onExitRequest } from '../scripts/vscode-host/lifetime.mjs';
import { copyTracked } from '../scripts/vscode-host/tracked-copy.cjs';
import { resolveMatrix } from '../scripts/vscode-host/versions.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.GSD_PAINT_ROUNDS ?? 5);
const PAINT_TIMEOUT_MS = 180_000;
const SHOTS = process.env.GSD_PAINT_SCREENSHOTS ? path.resolve(process.env.GSD_PAINT_SCREENSHOTS) : undefined;

let work;
let server;
let browser;
const cleanUp = async () => {
  await browser?.close().catch(() => undefined);
  await server?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
};
onExitRequest(async (why) => {
  console.error(`bench:paint stopped (${why})`);
  await cleanUp();
});

function installExtension(extensionsDir) {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const installed = path.join(extensionsDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`);
  fs.mkdirSync(installed, { recursive: true });
  for (const entry of ['package.json', 'dist', 'media', 'package.nls.json']) {
    if (fs.existsSync(path.join(repoRoot, entry))) fs.cpSync(path.join(repoRoot, entry), path.join(installed, entry), { recursive: true });
  }
  fs.rmSync(path.join(installed, 'dist', 'test'), { recursive: true, force: true });
  fs.rmSync(path.join(installed, 'dist', 'bench'), { recursive: true, force: true });
}

/* global window, document, requestAnimationFrame -- watchRows and its peers run in the workbench page */
/** In the page: the first animation frame in which each kind of row is in the DOM. */
function watchRows() {
  const seen = {};
  window.__gsdPaint = seen;
  const tick = () => {
    if (!seen.workbench && document.querySelector('.monaco-workbench')) seen.workbench = Date.now();
    if (!seen.explorer && document.querySelector('.explorer-folders-view .monaco-list-row')) seen.explorer = Date.now();
    if (!seen.panel) {
      for (const row of document.querySelectorAll('.monaco-list-row')) {
        // The panel's first rows: the pending actions group, or a milestone when there is none.
        const text = row.textContent ?? '';
        if (text.startsWith('Pending actions') || /^M\d{3}/.test(text)) {
          seen.panel = Date.now();
          break;
        }
      }
    }
    // The active slice's tasks: the panel's open rows drawn (they open after the first rows).
    if (seen.panel && !seen.tasks) {
      for (const row of document.querySelectorAll('.monaco-list-row')) {
        if (/^T\d{2}/.test(row.textContent ?? '')) {
          seen.tasks = Date.now();
          break;
        }
      }
    }
    if (!seen.panel || !seen.explorer || !seen.tasks) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

function readLog(file) {
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

async function measure(folder, logFile, shotName) {
  fs.writeFileSync(logFile, '');
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
  await page.addInitScript(watchRows);
  const navigated = Date.now();
  await page.goto(`${server.url}/?folder=${encodeURIComponent(folder)}`);
  await page.waitForFunction(() => window.__gsdPaint?.panel !== undefined, undefined, { timeout: PAINT_TIMEOUT_MS, polling: 100 });
  // As soon as the first rows are there: the open rows may still be opening.
  if (shotName) await page.screenshot({ path: path.join(SHOTS, `${shotName}-first-rows.png`) });
  // The Explorer may be replaced by the panel's container before it ever paints: wait briefly.
  await page.waitForFunction(() => window.__gsdPaint?.explorer !== undefined, undefined, { timeout: 3000, polling: 100 }).catch(() => undefined);
  await page.waitForFunction(() => window.__gsdPaint?.tasks !== undefined, undefined, { timeout: 10_000, polling: 100 }).catch(() => undefined);
  const seen = await page.evaluate(() => window.__gsdPaint);
  if (shotName) await page.screenshot({ path: path.join(SHOTS, `${shotName}-opened.png`) });
  // The rest of the project is read after the first rows: wait for that too (reported, not a ratio).
  for (let waited = 0; waited < 30_000 && !readLog(logFile).some((e) => e.event === 'read'); waited += 200) await new Promise((r) => setTimeout(r, 200));
  if (shotName) {
    // The panel redraws with the full state a moment after the read.
    await new Promise((r) => setTimeout(r, 1500));
    await page.screenshot({ path: path.join(SHOTS, `${shotName}-read.png`) });
  }
  await page.close();
  const log = readLog(logFile);
  if (process.env.GSD_PAINT_KEEP_LOG) fs.appendFileSync(process.env.GSD_PAINT_KEEP_LOG, `${JSON.stringify({ folder, navigated, seen, log })}\n`);
  const activate = log.find((e) => e.event === 'activate')?.at;
  const children = log.find((e) => e.event === 'first-children')?.at;
  const activated = log.find((e) => e.event === 'activated')?.at;
  const read = log.find((e) => e.event === 'read')?.at;
  if (activate === undefined) throw new Error(`no activation was logged for ${folder} (${logFile})`);
  return {
    activateToPaint: seen.panel - activate,
    activateToTasks: seen.tasks === undefined ? NaN : seen.tasks - activate,
    activateToChildren: children === undefined ? NaN : children - activate,
    activateTook: activated === undefined ? NaN : activated - activate,
    activateToRead: read === undefined ? NaN : read - activate,
    navToActivate: activate - navigated,
    navToExplorer: seen.explorer === undefined ? NaN : seen.explorer - navigated,
  };
}

const median = (xs) => {
  const v = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return NaN;
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};
const ms = (x) => (Number.isFinite(x) ? `${Math.round(x)} ms` : 'n/a');

async function main() {
  const [target] = await resolveMatrix(process.env.GSD_CODE_SERVER_VERSION || 'latest', cacheDir);
  if (!target) throw new Error('GSD_CODE_SERVER_VERSION names no version');
  const tree = execFileSync(process.execPath, [path.join(repoRoot, 'dist', 'bench', 'generate-tree-main.js'), '10000'], { encoding: 'utf8' }).trim();
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-paint-'));
  const sample = path.join(work, 'sample-project');
  copyTracked('sample-project', sample);
  const extensionsDir = path.join(work, 'extensions');
  installExtension(extensionsDir);
  const logFile = path.join(work, 'paint.log');
  server = await startCodeServer({ version: target.version, extensionsDir, env: { GSD_PANEL_PAINT_LOG: logFile } });
  browser = await launchBrowser();
  if (SHOTS) fs.mkdirSync(SHOTS, { recursive: true });
  console.log(`panel paint: VS Code ${server.vscodeVersion} (code-server ${server.version}), ${ROUNDS} rounds, folders interleaved`);
  const runs = { tree: [], sample: [] };
  // One unmeasured window first: code-server's first page load fills its caches.
  await measure(sample, logFile);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, folder] of round % 2 ? [['tree', tree], ['sample', sample]] : [['sample', sample], ['tree', tree]]) {
      const r = await measure(folder, logFile, SHOTS && round < 2 && runs[name].length === 0 ? `paint-${name}` : undefined);
      runs[name].push(r);
      console.log(`  round ${round + 1} ${name.padEnd(6)} activation → panel rows ${ms(r.activateToPaint)}, active slice's tasks ${ms(r.activateToTasks)} (activate() took ${ms(r.activateTook)}, getChildren after ${ms(r.activateToChildren)}, all read after ${ms(r.activateToRead)}); navigation → activation ${ms(r.navToActivate)}, → Explorer rows ${ms(r.navToExplorer)}`);
    }
  }
  const m = (name, key) => median(runs[name].map((r) => r[key]));
  const tree10k = m('tree', 'activateToPaint');
  const small = m('sample', 'activateToPaint');
  const explorer = m('tree', 'navToExplorer');
  console.log('\nmedians');
  console.log(`  10,000-task tree: activation → first panel paint ${ms(tree10k)}, the active slice's tasks ${ms(m('tree', 'activateToTasks'))} (activate() took ${ms(m('tree', 'activateTook'))}, top level handed to VS Code after ${ms(m('tree', 'activateToChildren'))}, every file read after ${ms(m('tree', 'activateToRead'))})`);
  console.log(`  sample project:   activation → first panel paint ${ms(small)}, the active slice's tasks ${ms(m('sample', 'activateToTasks'))} (activate() took ${ms(m('sample', 'activateTook'))}, top level after ${ms(m('sample', 'activateToChildren'))})`);
  console.log(`  baseline, same windows: navigation → Explorer rows ${ms(explorer)} (10k tree), navigation → activation ${ms(m('tree', 'navToActivate'))}`);
  console.log(`  ratio 10k tree / sample: ${(tree10k / small).toFixed(2)}×; 10k activation → paint / navigation → Explorer paint: ${(tree10k / explorer).toFixed(2)}×`);
}

main()
  .then(cleanUp)
  .catch(async (error) => {
    console.error(`bench:paint failed: ${error.message}`);
    await cleanUp();
    process.exit(1);
  });
