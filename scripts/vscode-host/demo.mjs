// `npm run demo`: the extension running in a real VS Code (code-server + its web workbench) on a
// copy of the bundled sample GSD project. Prints the URL; stops on Ctrl+C.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, launchBrowser, startCodeServer } from './code-server-host.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const port = Number(args[args.indexOf('--port') + 1]) || Number(process.env.GSD_DEMO_PORT) || (await freePort());
const screenshot = args.includes('--screenshot') ? args[args.indexOf('--screenshot') + 1] : null;

// Install the built extension into the demo's own extensions folder, as a user would have it.
const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-demo-'));
const extensionsDir = path.join(work, 'extensions');
const installed = path.join(extensionsDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`);
fs.mkdirSync(installed, { recursive: true });
for (const entry of ['package.json', 'dist', 'media', 'README.md']) {
  fs.cpSync(path.join(repoRoot, entry), path.join(installed, entry), { recursive: true });
}
fs.rmSync(path.join(installed, 'dist', 'test'), { recursive: true, force: true });
fs.rmSync(path.join(installed, 'dist', 'bench'), { recursive: true, force: true });

const folder = path.join(work, 'sample-project');
fs.cpSync(path.join(repoRoot, 'sample-project'), folder, { recursive: true });
try {
  execFileSync('git', ['init', '-q'], { cwd: folder });
} catch {
  // git is optional for the demo
}

const server = await startCodeServer({ port, extensionsDir, folder });
const url = `${server.url}/?folder=${encodeURIComponent(folder)}`;
console.log(`\nGSD Review Loop demo: VS Code ${'1.100.3'} (code-server) with the extension installed,`);
console.log(`opened on a copy of the sample project (${folder}).\n`);
console.log(`  open ${url}\n`);
console.log(`(code-server log: ${server.logFile}; Ctrl+C stops it)`);

if (screenshot) {
  // A check that the URL really shows the workbench with the GSD container: open it headless.
  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
  await page.goto(url);
  await page.locator('.activitybar').waitFor({ timeout: 60_000 });
  await page.locator('.activitybar [aria-label^="GSD"]').first().click();
  await page.getByText('M002-k7q2xz', { exact: false }).first().waitFor({ timeout: 60_000 });
  await page.waitForTimeout(1000);
  await page.screenshot({ path: screenshot });
  console.log(`screenshot of the demo workbench: ${screenshot}`);
  await browser.close();
  await server.stop();
  fs.rmSync(work, { recursive: true, force: true });
  process.exit(0);
}

const stop = async () => {
  await server.stop();
  fs.rmSync(work, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
