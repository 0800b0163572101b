// Lighthouse on the first load of seven pages (docs/decisions/0014-first-load.md): the landing and
// a product page as a visitor meets them, the home page and checkout (with one product in the cart)
// signed in as the demo buyer, and the driver, seller and admin dashboards signed in as the demo
// driver, seller and admin. Mobile, Lighthouse's default settings (simulated slow 4G) but for the
// CPU: the same phone on any machine. A fixed slowdown (Lighthouse's default is 4x) emulates a
// slower phone on a slower or busier machine, and the scores move with the machine. So the slowdown
// is the machine's benchmark index ÷ 500 (the index of the phone emulated: 4x on a machine of
// 2000), measured by one calibration run of Lighthouse on the landing page before the measured
// runs, and at least 1; `--cpu-slowdown N` sets it instead, and
// `--benchmark-index N` gives the index. Each page loads with an empty HTTP cache.
//
//   npm run lighthouse                       # builds if dist/ is missing
//   npm run lighthouse -- --runs 3           # the median of three runs per page
//   npm run lighthouse -- --build            # builds first in any case
//   npm run lighthouse -- --reports /tmp/lh  # also keeps each full report (JSON) and its trace there
//   npm run lighthouse -- --only driver      # only the pages whose name contains "driver"
//   npm run lighthouse -- --only dashboard   # the three dashboards
//   npm run lighthouse -- --cpu-slowdown 4   # a fixed slowdown instead of the calibrated one
//
// Starts the built server (dist/server/main.js) on a free loopback port with a fresh embedded
// database and the demo data, drives Debian's Chromium (CHROME_PATH, default /usr/bin/chromium)
// through Playwright to sign in and fill the cart, and lets Lighthouse load each page in that same
// browser. Writes bench/results/lighthouse.md; exits 1 when a score is below 0.95.
import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
import { throttling } from 'lighthouse/core/config/constants.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const SERVER = path.join(ROOT, 'dist/server/main.js');
const WEB_INDEX = path.join(ROOT, 'dist/web/index.html');
const RESULTS = path.join(ROOT, 'bench/results/lighthouse.md');
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const BUYER = { email: 'buyer@example.com', password: 'demo1234' };
const DRIVER = { email: 'driver@example.com', password: 'demo1234' };
const SELLER = { email: 'seller@example.com', password: 'demo1234' };
const ADMIN = { email: 'admin@example.com', password: 'demo1234' };
const MIN_SCORE = 0.95;
const LIGHTHOUSE_VERSION = createRequire(import.meta.url)('lighthouse/package.json').version;

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1' },
    build: { type: 'boolean', default: false },
    reports: { type: 'string' },
    only: { type: 'string' },
    'cpu-slowdown': { type: 'string' },
    'benchmark-index': { type: 'string' },
  },
});
/** The benchmark index of the phone every run emulates (slowdown = the machine's index ÷ this). */
const PHONE_BENCHMARK_INDEX = 500;
const positive = (text, name) => {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a positive number, not ${text}`);
  return value;
};
const fixedSlowdown = values['cpu-slowdown'] && positive(values['cpu-slowdown'], '--cpu-slowdown');
const givenIndex = values['benchmark-index'] && positive(values['benchmark-index'], '--benchmark-index');
/** The slowdown for a machine of this benchmark index: one decimal, never below 1 (no speed-up). */
const slowdownFor = (index) => Math.max(1, Math.round((index / PHONE_BENCHMARK_INDEX) * 10) / 10);
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number, not ${values.runs}`);

if (values.build || !fs.existsSync(SERVER) || !fs.existsSync(WEB_INDEX)) {
  console.log('Building (npm run build)...');
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
}

/** The built server on a free port, its own data directory, the demo data seeded. */
async function startServer() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-lighthouse-'));
  const child = spawn(process.execPath, [SERVER], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_DATA: 'on',
      LOG_LEVEL: 'warn',
      // Checkout offers the built-in test payments, as in the browser tests.
      ALLOW_TEST_PAYMENTS: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 120_000);
    const read = (chunk) => {
      output += chunk.toString();
      const match = /is running at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1].replace('//localhost:', '//127.0.0.1:'));
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}:\n${output}`));
    });
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { url, stop };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const median = (numbers) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

const server = await startServer();
const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-lighthouse-chromium-'));
const port = await freePort();
// A persistent context is the browser's default one: the tab Lighthouse opens shares its cookies
// and local storage.
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: CHROME_PATH,
  headless: true,
  args: [`--remote-debugging-port=${port}`, '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});

try {
  const page = context.pages()[0] ?? (await context.newPage());
  const cdp = await context.newCDPSession(page);
  const products = await (await fetch(`${server.url}/api/products?limit=1`)).json();
  const product = (Array.isArray(products) ? products : products.items)?.[0];
  if (!product) throw new Error('the demo catalog has no product');

  async function signInAs(user) {
    const response = await page.request.post(`${server.url}/api/login`, { data: user });
    if (!response.ok()) throw new Error(`signing in as ${user.email}: ${response.status()}`);
  }
  const signIn = () => signInAs(BUYER);
  async function fillCart() {
    await page.goto(`${server.url}/support`);
    await page.evaluate((item) => localStorage.setItem('cart', JSON.stringify([item])), {
      ...product,
      quantity: 1,
    });
  }

  const pages = [
    { name: 'Landing (visitor)', path: '/', prepare: async () => {} },
    { name: 'Product page (visitor)', path: `/products/${product.id}`, prepare: async () => {} },
    { name: 'Home (signed in)', path: '/', prepare: signIn },
    { name: 'Checkout (signed in, one product in the cart)', path: '/checkout', prepare: fillCart },
    {
      name: 'Driver dashboard (signed in as a driver)',
      path: '/driver/dashboard',
      prepare: () => signInAs(DRIVER),
    },
    {
      name: 'Seller dashboard (signed in as a seller)',
      path: '/seller/dashboard',
      prepare: () => signInAs(SELLER),
    },
    { name: 'Admin dashboard (signed in as an admin)', path: '/admin', prepare: () => signInAs(ADMIN) },
  ].filter((target) => !values.only || target.name.toLowerCase().includes(values.only.toLowerCase()));

  // The machine's benchmark index: given, or measured by one unrecorded run of the landing page
  // (Lighthouse measures it before loading a page, whatever the throttling).
  let calibration;
  if (fixedSlowdown) calibration = { slowdown: fixedSlowdown, how: 'set by --cpu-slowdown' };
  else {
    let index = givenIndex;
    if (!index) {
      const { lhr } = await lighthouse(`${server.url}/`, {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
        disableStorageReset: true,
      });
      index = lhr.environment.benchmarkIndex;
    }
    calibration = {
      slowdown: slowdownFor(index),
      how: `benchmark index ${Math.round(index)} ${givenIndex ? '(--benchmark-index)' : '(a calibration run)'} ÷ ${PHONE_BENCHMARK_INDEX}`,
    };
  }
  console.log(`CPU slowdown ${calibration.slowdown}x (${calibration.how})`);

  const rows = [];
  for (const target of pages) {
    await target.prepare();
    const results = [];
    for (let run = 0; run < runs; run++) {
      let lhr;
      let artifacts;
      // Lighthouse sometimes fails to record Chromium's trace (NO_NAVSTART) and asks to be run
      // again: a run is tried up to three times, and each retry is printed.
      for (let attempt = 1; ; attempt++) {
        // A first visit: nothing cached, while the cookies and the cart stay. The service worker
        // keeps the app's shell in its own cache: it and its cache go too, or every run after the
        // first would load from it.
        await cdp.send('Network.clearBrowserCache');
        await cdp.send('Storage.clearDataForOrigin', {
          origin: new URL(server.url).origin,
          storageTypes: 'service_workers,cache_storage',
        });
        ({ lhr, artifacts } = await lighthouse(`${server.url}${target.path}`, {
          port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility'],
          disableStorageReset: true,
          // Slow 4G as by default; the CPU slowdown calibrated above.
          throttling: { ...throttling.mobileSlow4G, cpuSlowdownMultiplier: calibration.slowdown },
        }));
        if (!lhr.runtimeError) break;
        if (attempt === 3) throw new Error(`${target.name}: ${lhr.runtimeError.message}`);
        console.log(`${target.name}: run ${run + 1} failed (${lhr.runtimeError.code}); trying it again`);
      }
      if (values.reports) {
        fs.mkdirSync(values.reports, { recursive: true });
        const file = `${target.name.replace(/\W+/g, '-').toLowerCase()}-${run + 1}.json`;
        fs.writeFileSync(path.join(values.reports, file), JSON.stringify(lhr));
        fs.writeFileSync(
          path.join(values.reports, file.replace(/\.json$/, '.trace.json')),
          JSON.stringify(artifacts.Trace),
        );
      }
      const audit = (id) => lhr.audits[id]?.numericValue ?? Number.NaN;
      results.push({
        performance: lhr.categories.performance.score,
        accessibility: lhr.categories.accessibility.score,
        fcp: audit('first-contentful-paint'),
        lcp: audit('largest-contentful-paint'),
        tbt: audit('total-blocking-time'),
        cls: audit('cumulative-layout-shift'),
        transfer: audit('total-byte-weight'),
        finalUrl: lhr.finalDisplayedUrl,
        failing: Object.values(lhr.audits)
          .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative')
          .map((a) => a.id),
        warnings: lhr.runWarnings,
        benchmarkIndex: lhr.environment.benchmarkIndex,
      });
      const last = results.at(-1);
      console.log(
        `${target.name}: performance ${last.performance}, accessibility ${last.accessibility}, ` +
          `LCP ${Math.round(last.lcp)} ms${last.failing.length ? `; below 0.9: ${last.failing.join(', ')}` : ''}`,
      );
    }
    const pick = (key) => median(results.map((r) => r[key]));
    rows.push({
      name: target.name,
      path: target.path,
      performance: pick('performance'),
      accessibility: pick('accessibility'),
      fcp: pick('fcp'),
      lcp: pick('lcp'),
      tbt: pick('tbt'),
      cls: pick('cls'),
      transfer: pick('transfer'),
      finalUrl: results[0].finalUrl,
      failing: [...new Set(results.flatMap((r) => r.failing))],
      warnings: [...new Set(results.flatMap((r) => r.warnings))],
      // Each run's score beside the benchmark index Lighthouse measured for it: on a shared machine
      // the index moves from run to run, and the score with it.
      runs: results.map((r) => `${r.performance} (${Math.round(r.benchmarkIndex)})`).join(', '),
      indexes: results.map((r) => r.benchmarkIndex),
    });
  }

  const cpus = os.cpus();
  const [load1, load5] = os.loadavg();
  const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
  const allIndexes = rows.flatMap((r) => r.indexes).map(Math.round);
  const indexRange =
    Math.min(...allIndexes) === Math.max(...allIndexes)
      ? `${Math.min(...allIndexes)}`
      : `${Math.min(...allIndexes)}–${Math.max(...allIndexes)}`;
  // The options that change what was measured, as given (--reports and --build do not).
  const commandArgs = [
    ...(runs > 1 ? [`--runs ${runs}`] : []),
    ...(values.only ? [`--only ${values.only}`] : []),
    ...(values['cpu-slowdown'] ? [`--cpu-slowdown ${values['cpu-slowdown']}`] : []),
    ...(values['benchmark-index'] ? [`--benchmark-index ${values['benchmark-index']}`] : []),
  ];
  const lines = [
    '# Lighthouse: first load on a phone',
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Command: \`npm run lighthouse${commandArgs.length ? ` -- ${commandArgs.join(' ')}` : ''}\` (scripts/lighthouse.mjs)` +
      (values.only ? `; only the pages whose name contains "${values.only}", the others not run` : ''),
    `- Lighthouse ${LIGHTHOUSE_VERSION}, mobile, simulated slow 4G, CPU slowdown ${calibration.slowdown}x ` +
      `(${calibration.how}, so every run emulates a phone of index ${PHONE_BENCHMARK_INDEX}); ` +
      `${runs === 1 ? 'one run' : `median of ${runs} runs`} per page, each with an empty HTTP cache and no service worker; ` +
      `Chromium ${context.browser()?.version() ?? ''} headless (${CHROME_PATH})`,
    `- Machine: ${cpus.length} × ${cpus[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, ` +
      `Node ${process.version}; load average ${load1.toFixed(2)} (1 min), ${load5.toFixed(2)} (5 min) at the end, ` +
      `Lighthouse benchmark index ${indexRange} over the runs (its measure of the processor: higher is faster)`,
    '- Server: the built app (`dist/server/main.js`) on 127.0.0.1, a fresh embedded database with the demo data',
    '',
    '| Page | Performance | Accessibility | FCP | LCP | TBT | CLS | Transferred | Each run: performance (benchmark index) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows.map(
      (r) =>
        `| ${r.name} (\`${r.path}\`) | ${r.performance} | ${r.accessibility} | ${seconds(r.fcp)} | ${seconds(r.lcp)} | ` +
        `${Math.round(r.tbt)} ms | ${r.cls.toFixed(3)} | ${Math.round(r.transfer / 1000)} kB | ${r.runs} |`,
    ),
    '',
  ];
  const notes = rows.filter((r) => r.failing.length || r.warnings.length);
  if (notes.length) {
    lines.push('Audits below 0.9 and Lighthouse warnings:', '');
    for (const r of notes) {
      if (r.failing.length) lines.push(`- ${r.name}: ${r.failing.join(', ')}`);
      for (const warning of r.warnings) lines.push(`- ${r.name}: ${warning.replace(/\s+/g, ' ')}`);
    }
    lines.push('');
  }
  fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
  fs.writeFileSync(RESULTS, lines.join('\n'));
  console.log(`\nWrote ${path.relative(ROOT, RESULTS)}`);
  const below = rows.filter((r) => r.performance < MIN_SCORE || r.accessibility < MIN_SCORE);
  if (below.length) {
    console.error(`Below ${MIN_SCORE}: ${below.map((r) => r.name).join('; ')}`);
    process.exitCode = 1;
  }
} finally {
  await context.close();
  await server.stop();
  fs.rmSync(userDataDir, { recursive: true, force: true });
}
