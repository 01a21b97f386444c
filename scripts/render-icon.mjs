// Renders resources/icon.svg to the PNG sizes electron-builder and the window use, in the
// same Chromium the tests use. Run after changing the SVG: node scripts/render-icon.mjs
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const root = join(import.meta.dirname, '..');
const svg = readFileSync(join(root, 'resources/icon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
for (const size of [512, 256]) {
  const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
  await page.setContent(
    `<html><body style="margin:0;background:transparent">${svg.replace('width="512" height="512"', `width="${size}" height="${size}"`)}</body></html>`,
  );
  await page.screenshot({ path: join(root, `resources/icon${size === 512 ? '' : `-${size}`}.png`), omitBackground: true });
  await page.close();
}
await browser.close();
console.log('resources/icon.png and icon-256.png written');
