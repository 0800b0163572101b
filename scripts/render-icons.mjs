// Renders the installable app's icons (src/web/public/icons) from src/web/public/favicon.svg with
// Debian's Chromium: 192 and 512 px, and a 512 px maskable one whose drawing sits inside the safe
// zone on a full-bleed background (docs/decisions/0019-reaching-people.md, Push and the installable
// app). Run once when the favicon changes: `node scripts/render-icons.mjs`; the PNGs are committed.
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';

const root = path.resolve(import.meta.dirname, '..');
const svg = fs.readFileSync(path.join(root, 'src/web/public/favicon.svg'), 'utf8');
const outDir = path.join(root, 'src/web/public/icons');
fs.mkdirSync(outDir, { recursive: true });

/** The favicon's drawing without its rounded square, for the maskable icon. */
const drawing = svg.replace(/<rect[^>]*\/>/, '').replace(/^<svg[^>]*>|<\/svg>$/g, '');
const background = /<rect[^>]*fill="([^"]+)"/.exec(svg)?.[1] ?? '#047857';
// The maskable safe zone is the centre circle of 80% diameter: the 32-unit drawing is shown at 60%.
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${background}"/><g transform="translate(6.4 6.4) scale(0.6)">${drawing}</g></svg>`;

const icons = [
  { file: 'icon-192.png', size: 192, source: svg },
  { file: 'icon-512.png', size: 512, source: svg },
  { file: 'icon-maskable-512.png', size: 512, source: maskable },
];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
try {
  for (const icon of icons) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${icon.source.replace('<svg ', `<svg width="${icon.size}" height="${icon.size}" `)}</body></html>`,
    );
    await page.locator('svg').screenshot({ path: path.join(outDir, icon.file), omitBackground: true });
    await page.close();
    console.log(`${icon.file} (${icon.size}×${icon.size})`);
  }
} finally {
  await browser.close();
}
