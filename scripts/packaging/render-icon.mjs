// Renders media/icon.png (128×128, the Marketplace and Open VSX icon) from media/icon.svg with
// Debian's chromium, so the PNG can be made again from the one source: `node scripts/packaging/render-icon.mjs`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, ensureChromium } from '../vscode-host/chromium.mjs';

const media = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'media');
const svg = fs.readFileSync(path.join(media, 'icon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: await ensureChromium(), args: CHROMIUM_FLAGS });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: path.join(media, 'icon.png'), omitBackground: true });
} finally {
  await browser.close();
}
