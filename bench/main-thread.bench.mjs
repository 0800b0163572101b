// The main thread of a dashboard's first load in a real browser (docs/decisions/0014-first-load.md,
// Drawn when scrolled near): Lighthouse simulates its scores from one unthrottled trace, and what a
// page changes in its own work can hide in that simulation's spread. This loads the page in Debian's
// Chromium with the CPU slowed by DevTools (the phone Lighthouse emulates), records a trace and
// prints, per load: the first contentful paint, the time in style, layout and paint, and the blocking
// time after the first paint (the part of each task beyond 50 ms), with the tasks over 50 ms.
//
//   node bench/main-thread.bench.mjs --page seller --runs 5
//   node bench/main-thread.bench.mjs --page admin --slowdown 5.4 --app-root ../previous-build
//
// Starts the built server of --app-root (default: this checkout; `npm run build` first) with a fresh
// embedded database and the demo data, signs in as the page's demo user, loads the page at a phone's
// size and waits 4 s after the load event.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { startProcess, stopProcess } from './bench-process.mjs';

/** How long after the load event each trace runs. */
const WINDOW_MS = 4000;
const PAGES = { seller: '/seller/dashboard', admin: '/admin', driver: '/driver/dashboard' };
const { values } = parseArgs({
  options: {
    page: { type: 'string', default: 'seller' },
    runs: { type: 'string', default: '5' },
    slowdown: { type: 'string', default: '5.4' },
    'app-root': { type: 'string', default: path.resolve(import.meta.dirname, '..') },
  },
});
const pagePath = PAGES[values.page];
if (!pagePath) throw new Error(`--page must be one of ${Object.keys(PAGES).join(', ')}`);
const runs = Number(values.runs);
const slowdown = Number(values.slowdown);
const root = path.resolve(values['app-root']);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-main-thread-'));
const server = await startProcess(
  [path.join(root, 'dist/server/main.js')],
  { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO_DATA: 'on', LOG_LEVEL: 'warn' },
  /is running at http:\/\/[^:]+:(\d+)/,
  root,
);
const url = `http://127.0.0.1:${server.port}`;

const ms = (microseconds) => Math.round(microseconds / 1000);
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
console.log(`${values.page} dashboard (${pagePath}) from ${root}, CPU slowdown ${slowdown}x, ${runs} loads`);
try {
  for (let run = 0; run < runs; run++) {
    const context = await browser.newContext({
      viewport: { width: 412, height: 823 },
      isMobile: true,
      deviceScaleFactor: 1.75,
    });
    const page = await context.newPage();
    const signIn = await page.request.post(`${url}/api/login`, {
      data: { email: `${values.page}@example.com`, password: 'demo1234' },
    });
    if (!signIn.ok()) throw new Error(`signing in as the demo ${values.page}: ${signIn.status()}`);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
    await browser.startTracing(page, {
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'],
    });
    await page.goto(url + pagePath, { waitUntil: 'load' });
    // The measurement's window, not a wait for something: the trace covers the page's work for a
    // fixed time after its load event (hydration, its reads, what it draws after), the same for
    // every load and build compared.
    await page.waitForTimeout(WINDOW_MS);
    const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
    const tasks = events.filter((event) => event.name === 'RunTask' && event.ph === 'X');
    const start = Math.min(...tasks.map((task) => task.ts));
    const fcp = events.find((event) => event.name === 'firstContentfulPaint');
    const total = (name) =>
      ms(events.filter((e) => e.name === name && e.ph === 'X').reduce((a, e) => a + e.dur, 0));
    const after = fcp ? tasks.filter((task) => task.ts >= fcp.ts) : [];
    const blocking = after.reduce((sum, task) => sum + Math.max(0, ms(task.dur) - 50), 0);
    console.log(
      `load ${run + 1}: first paint ${fcp ? ms(fcp.ts - start) : '?'} ms, style ${total('UpdateLayoutTree')} ms, ` +
        `layout ${total('Layout')} ms, paint ${total('Paint')} ms, blocking after the first paint ${blocking} ms ` +
        `(tasks over 50 ms: ${after
          .filter((task) => task.dur > 50_000)
          .map((task) => ms(task.dur))
          .join(', ')})`,
    );
    await context.close();
  }
} finally {
  await browser.close();
  await stopProcess(server.child);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
