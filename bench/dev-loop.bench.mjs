// The dev loop, measured as a newcomer meets it (CONTRIBUTING.md, The dev loop): `npm run dev` in a
// fresh checkout of this commit (a git worktree of HEAD, sharing this checkout's node_modules, with a
// DATA_DIR of its own), then, in Chromium, an edit to a page and an edit to a route, each timed
// from the moment the file is written until it is seen: the page's new heading on screen (Vite's
// hot reload), the route's new summary in GET /api/openapi.json through Vite's proxy (tsx restarts
// the server). Each edit is made `--rounds` times (3 by default), alternating two texts.
//
//   node bench/dev-loop.bench.mjs [--rounds=3]
//
// Everything runs on 127.0.0.1 on free ports and is removed at the end (the worktree, its data).
// Results: bench/results/dev-loop.md (and printed).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(import.meta.dirname, '..');
const RESULTS = path.join(ROOT, 'bench/results/dev-loop.md');
const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? 'true'];
  }),
);
const ROUNDS = Number(args.rounds ?? 3);
const PAGE_FILE = 'src/web/app/pages/landing-page.tsx';
const PAGE_TEXT = 'Featured Products';
const ROUTE_FILE = 'src/server/modules/health/health.routes.ts';
const ROUTE_TEXT = 'Answers 200 while the process answers; asks nothing of the database';

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

async function until(what, check, timeoutMs = 120_000) {
  const start = Date.now();
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not up yet
    }
    if (Date.now() - start > timeoutMs) throw new Error(`${what}: not seen within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Replaces `from` by `to` in `file` (exactly once). */
function edit(dir, file, from, to) {
  const full = path.join(dir, file);
  const text = fs.readFileSync(full, 'utf8');
  if (text.split(from).length !== 2) throw new Error(`${file}: "${from}" is not there exactly once`);
  fs.writeFileSync(full, text.replace(from, to));
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'dev-loop-'));
const tree = path.join(work, 'checkout');
const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim();
execFileSync('git', ['worktree', 'add', '--detach', '--quiet', tree, 'HEAD'], { cwd: ROOT });
fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(tree, 'node_modules'));
let dev;
let browser;
const cleanup = () => {
  if (dev && dev.exitCode === null) process.kill(-dev.pid, 'SIGTERM');
  try {
    execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: ROOT });
  } catch {
    // already gone
  }
  fs.rmSync(work, { recursive: true, force: true });
};
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    cleanup();
    process.exit(1);
  });

try {
  const serverPort = await freePort();
  const vitePort = await freePort();
  const load = os.loadavg()[0].toFixed(2);
  const started = Date.now();
  dev = spawn(
    'npm',
    ['run', 'dev', '--', '--port', String(vitePort), '--strictPort', '--host', '127.0.0.1'],
    {
      cwd: tree,
      env: { ...process.env, PORT: String(serverPort), DATA_DIR: path.join(work, 'data'), LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  let output = '';
  dev.stdout.on('data', (chunk) => (output += chunk));
  dev.stderr.on('data', (chunk) => (output += chunk));
  const base = `http://127.0.0.1:${vitePort}`;
  await until('the server through Vite', async () => (await fetch(`${base}/api/ready`)).ok, 300_000).catch(
    (error) => {
      throw new Error(`${error.message}\n${output}`);
    },
  );
  const readyMs = Date.now() - started;

  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  const page = await browser.newPage();
  const opened = Date.now();
  await page.goto(base);
  await page.getByRole('heading', { name: PAGE_TEXT }).waitFor({ timeout: 120_000 });
  const firstPageMs = Date.now() - opened;

  const pageEdits = [];
  let reloads = 0;
  const routeEdits = [];
  let pageText = PAGE_TEXT;
  let routeText = ROUTE_TEXT;
  for (let round = 1; round <= ROUNDS; round++) {
    const nextPage = round % 2 === 1 ? `${PAGE_TEXT} (edited)` : PAGE_TEXT;
    // A mark on the window: gone if the edit reloaded the page instead of replacing the module.
    await page.evaluate(() => (window.devLoopMark = true));
    const t0 = Date.now();
    edit(tree, PAGE_FILE, `\n            ${pageText}\n`, `\n            ${nextPage}\n`);
    await page.getByRole('heading', { name: nextPage, exact: true }).waitFor({ timeout: 60_000 });
    pageEdits.push(Date.now() - t0);
    if (!(await page.evaluate(() => window.devLoopMark === true))) reloads++;
    pageText = nextPage;

    const nextRoute = round % 2 === 1 ? `${ROUTE_TEXT} (edited)` : ROUTE_TEXT;
    const t1 = Date.now();
    edit(tree, ROUTE_FILE, `'${routeText}'`, `'${nextRoute}'`);
    await until('the route edit', async () => {
      const response = await fetch(`${base}/api/openapi.json`);
      return response.ok && (await response.text()).includes(`"${nextRoute}"`);
    });
    routeEdits.push(Date.now() - t1);
    routeText = nextRoute;
    // The page is still the one open before the server restarted: the app goes on working.
    await page.getByRole('heading', { name: pageText, exact: true }).waitFor();
  }

  const cpus = os.cpus();
  const lines = [
    '# The dev loop: an edit to a page and to a route, seen live',
    '',
    `Run ${new Date().toISOString()} with \`node bench/dev-loop.bench.mjs --rounds=${ROUNDS}\` on ${head}: \`npm run dev\` in a fresh`,
    'worktree of the commit (node_modules shared, a DATA_DIR of its own), Chromium on the page Vite serves.',
    '',
    `- Machine: ${cpus[0]?.model.trim()}, ${cpus.length} logical CPUs, Node ${process.version}; load average (1 min) at the start ${load}, at the end ${os.loadavg()[0].toFixed(2)}.`,
    `- From \`npm run dev\` to \`/api/ready\` answering through Vite's proxy (first start: migrations and the demo data on a new embedded database): ${(readyMs / 1000).toFixed(1)} s.`,
    `- The landing page opened and its "${PAGE_TEXT}" heading shown (Vite transforms the modules on first request): ${(firstPageMs / 1000).toFixed(1)} s.`,
    '',
    '| edit | what is timed | rounds (ms) | median ms | target |',
    '|---|---|---|---:|---|',
    `| a page (\`${PAGE_FILE}\`, a heading's text) | the file written → the new heading on screen (${reloads === 0 ? 'hot module replacement: no reload' : `${reloads} of ${ROUNDS} reloaded the page`}) | ${pageEdits.join(', ')} | ${median(pageEdits)} | under 2,000 ms: ${median(pageEdits) < 2000 ? 'yes' : '**no**'} |`,
    `| a route (\`${ROUTE_FILE}\`, a route's summary) | the file written → the new summary in \`GET /api/openapi.json\` through Vite (tsx restarts the server) | ${routeEdits.join(', ')} | ${median(routeEdits)} | |`,
    '',
  ];
  fs.writeFileSync(RESULTS, lines.join('\n'));
  process.stdout.write(`${lines.join('\n')}\nWritten to ${path.relative(ROOT, RESULTS)}.\n`);
} finally {
  await browser?.close();
  cleanup();
}
