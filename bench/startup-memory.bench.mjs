// Start-up, memory and the embedded database off the request thread: the
// built server (dist/server/main.js) started as `npm start` starts it, on a free loopback port.
//   - time from spawning it to the first 200 of /api/health and of the home page: a first start
//     that creates and seeds the data directory, and a start on a seeded one;
//   - resident memory (VmRSS, and PSS, of the server and its database process together) after a
//     few hundred requests of every kind: catalog, search, product pages, sign-in, orders, address
//     validation, static assets;
//   - /api/health and the product list under 16 clients;
// for the embedded database in its own process (the default), in the server's process
// (EMBEDDED_DATABASE=in-process, the baseline) and on PostgreSQL when TEST_DATABASE_URL is set, in
// one run. Results: bench/results/startup-memory.md (and printed).
//
//   npm run bench:startup
//   node bench/startup-memory.bench.mjs --requests=2000 --mix=400 --modes=process,in-process,postgres
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../scripts/server-node-flags.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const SERVER = path.join(ROOT, 'dist/server/main.js');
const SEED = path.join(ROOT, 'dist/server/seed.js');
const RESULTS = path.join(ROOT, 'bench/results/startup-memory.md');
const RUN_LIMIT_MS = 15 * 60 * 1000;
/** The demo marketplace's buyer (src/server/db/seed/demo.ts). */
const BUYER = { email: 'buyer@example.com', password: 'demo1234' };

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value = 'true'] = arg.replace(/^--/, '').split('=');
    return [key, value];
  }),
);
const REQUESTS = Number(args.requests ?? 2000);
const MIX = Number(args.mix ?? 400);
const CONCURRENCY = Number(args.concurrency ?? 16);
const BUSY_SECONDS = Number(args['busy-seconds'] ?? 10);
const adminUrl = process.env.TEST_DATABASE_URL;
const modes = (args.modes ?? `process,in-process${adminUrl ? ',postgres' : ''}`).split(',');

const children = new Set();
const cleanups = [];
const watchdog = setTimeout(() => {
  process.stderr.write('The benchmark ran too long; stopping.\n');
  for (const child of children) child.kill('SIGKILL');
  process.exit(1);
}, RUN_LIMIT_MS);
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    for (const child of children) child.kill('SIGTERM');
    process.exit(130);
  });

const log = (line) => process.stdout.write(`${line}\n`);

for (const file of [
  SERVER,
  SEED,
  path.join(ROOT, 'dist/server/embedded-db.js'),
  path.join(ROOT, 'dist/web/index.html'),
])
  if (!fs.existsSync(file)) {
    process.stderr.write(`${path.relative(ROOT, file)} is missing: run npm run build first.\n`);
    process.exit(1);
  }

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function request(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: payload ? { 'content-type': 'application/json', ...headers } : headers,
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        );
      },
    );
    req.on('error', () => resolve({ status: 0, headers: {}, body: '' }));
    req.end(payload);
  });
}

/** Every direct and indirect child of `pid` (the database process), from /proc. */
function processTree(pid) {
  const parents = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // gone meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++)
    for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  return tree;
}

function memoryOf(pid) {
  const kb = (file, field) => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(file, 'utf8'));
    return match ? Number(match[1]) : 0;
  };
  const each = processTree(pid).map((p) => {
    const rollup = `/proc/${p}/smaps_rollup`;
    return {
      pid: p,
      rss: kb(`/proc/${p}/status`, 'VmRSS'),
      pss: kb(rollup, 'Pss'),
      private: kb(rollup, 'Private_Clean') + kb(rollup, 'Private_Dirty'),
      shared: kb(rollup, 'Shared_Clean') + kb(rollup, 'Shared_Dirty'),
    };
  });
  const mb = (value) => Math.round(value / 1024);
  const sum = (field) => each.reduce((total, p) => total + p[field], 0);
  return {
    rss: mb(sum('rss')),
    pss: mb(sum('pss')),
    // The pages only these processes hold, and their shared pages (the node binary and libraries,
    // which both map) counted once: what the host spends on them, as near as /proc tells.
    once: mb(sum('private') + Math.max(...each.map((p) => p.shared))),
    parts: each.map((p) => mb(p.rss)),
  };
}

async function startServer(name, env) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const startedAt = performance.now();
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER], {
    cwd: ROOT,
    env: {
      ...SERVER_ENV,
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // Each sign-in comes from an address of its own, as behind a proxy.
      TRUST_PROXY: 'true',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const firstOk = async (pathname) => {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${name}: the server exited:\n${output}`);
      const response = await request(`${url}${pathname}`);
      if (response.status === 200) return Math.round(performance.now() - startedAt);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const [health, home] = await Promise.all([firstOk('/api/health'), firstOk('/')]);
  return {
    url,
    child,
    health,
    home,
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      const code = await exited;
      children.delete(child);
      if (code !== 0) throw new Error(`${name}: the server did not stop cleanly (${code}):\n${output}`);
    },
  };
}

/** A few hundred requests of every kind a visitor and a buyer make. */
async function mixedLoad(url, total) {
  const index = (await request(`${url}/`)).body;
  const assets = [...index.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
  const list = JSON.parse((await request(`${url}/api/products`)).body);
  const productIds = (list.products ?? list.items ?? list).map((p) => p.id).slice(0, 10);
  let signIns = 0;
  const statuses = new Map();
  const count = (status) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const signIn = async () => {
    signIns += 1;
    const response = await request(`${url}/api/login`, {
      method: 'POST',
      headers: { 'x-forwarded-for': `10.13.${Math.floor(signIns / 250)}.${signIns % 250}` },
      body: BUYER,
    });
    count(response.status);
    const cookie = [response.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('sid='));
    return cookie?.split(';')[0];
  };
  const steps = [
    async () => count((await request(`${url}/`)).status),
    async () => {
      for (const asset of assets) count((await request(`${url}${asset}`)).status);
    },
    async () => count((await request(`${url}/api/products`)).status),
    async () => count((await request(`${url}/api/products?search=lamp`)).status),
    async () => count((await request(`${url}/api/categories`)).status),
    async () => {
      const id = productIds[signIns % productIds.length];
      count((await request(`${url}/api/products/${id}`)).status);
      count((await request(`${url}/products/${id}`)).status);
    },
    async () => {
      const cookie = await signIn();
      const headers = { cookie };
      count((await request(`${url}/api/auth/user`, { headers })).status);
      // Signed-in pages are rendered on the server for their caller, every time.
      count((await request(`${url}/`, { headers })).status);
      count((await request(`${url}/checkout`, { headers })).status);
      count((await request(`${url}/api/orders`, { headers })).status);
      count(
        (
          await request(`${url}/api/addresses/validate`, {
            method: 'POST',
            headers,
            body: {
              addressLine1: '233 S Wacker Dr',
              city: 'Chicago',
              state: 'IL',
              zipCode: '60606',
              country: 'US',
            },
          })
        ).status,
      );
    },
  ];
  const sent = () => [...statuses.values()].reduce((a, b) => a + b, 0);
  while (sent() < total) await Promise.all(steps.map((step) => step()));
  return Object.fromEntries(statuses);
}

async function throughput(url, pathname, total) {
  const warm = Math.min(200, total / 10);
  let next = 0;
  let errors = 0;
  const run = async (count) => {
    next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < count) {
          next += 1;
          const response = await request(`${url}${pathname}`);
          if (response.status !== 200) errors += 1;
        }
      }),
    );
  };
  await run(warm);
  errors = 0;
  const startedAt = performance.now();
  await run(total);
  const seconds = (performance.now() - startedAt) / 1000;
  return { perSecond: Math.round(total / seconds), errors };
}

/**
 * What keeping the event loop free buys: 8 signed-in clients run uncached database work (the
 * distance list with a search) while 4 others fetch a static asset; the asset's latency shows
 * whether the server can answer while the database works.
 */
async function latencyWhileDatabaseBusy(url, seconds) {
  const index = (await request(`${url}/`)).body;
  const asset = /src="(\/assets\/[^"]+\.js)"/.exec(index)?.[1];
  const login = await request(`${url}/api/login`, {
    method: 'POST',
    headers: { 'x-forwarded-for': '10.14.0.1' },
    body: BUYER,
  });
  const cookie = [login.headers['set-cookie'] ?? []]
    .flat()
    .find((c) => c.startsWith('sid='))
    ?.split(';')[0];
  const words = ['lamp', 'lantern', 'chair', 'table', 'mug', 'bread', 'honey', 'soap', 'candle', 'shirt'];
  const until = Date.now() + seconds * 1000;
  let answered = 0;
  let failed = 0;
  const latencies = [];
  await Promise.all([
    ...Array.from({ length: 8 }, async () => {
      for (let i = 0; Date.now() < until; i++) {
        const word = words[Math.floor(Math.random() * words.length)];
        const distance = 5 + Math.floor(Math.random() * 40);
        const response = await request(
          `${url}/api/products/with-distance?maxDistance=${distance}&search=${word}`,
          {
            headers: { cookie },
          },
        );
        if (response.status === 200) answered += 1;
        else failed += 1;
      }
    }),
    ...Array.from({ length: 4 }, async () => {
      while (Date.now() < until) {
        const startedAt = performance.now();
        const response = await request(`${url}${asset}`);
        if (response.status === 200) latencies.push(performance.now() - startedAt);
      }
    }),
  ]);
  latencies.sort((a, b) => a - b);
  const quantile = (q) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0);
  return {
    database: Math.round(answered / seconds),
    failed,
    assets: latencies.length,
    p50: quantile(0.5),
    p99: quantile(0.99),
  };
}

async function measure(name, env) {
  const first = await startServer(name, env);
  log(`${name}: first start (seeds) health ${first.health} ms, home ${first.home} ms`);
  await first.stop();
  const server = await startServer(name, env);
  log(`${name}: seeded start health ${server.health} ms, home ${server.home} ms`);
  const idle = memoryOf(server.child.pid);
  const statuses = await mixedLoad(server.url, MIX);
  const loaded = memoryOf(server.child.pid);
  log(
    `${name}: memory idle ${idle.rss} MB, after ${MIX} mixed requests ${loaded.rss} MB RSS (${loaded.parts.join(' + ')}), ${loaded.once} MB with shared pages once, ${loaded.pss} MB PSS; statuses ${JSON.stringify(statuses)}`,
  );
  const health = await throughput(server.url, '/api/health', REQUESTS);
  const products = await throughput(server.url, '/api/products', REQUESTS);
  const busy = await latencyWhileDatabaseBusy(server.url, BUSY_SECONDS);
  log(
    `${name}: while the database works: ${busy.database} distance lists/s (${busy.failed} failed), static asset p50 ${busy.p50} ms, p99 ${busy.p99} ms over ${busy.assets}`,
  );
  const after = memoryOf(server.child.pid);
  log(
    `${name}: /api/health ${health.perSecond}/s, /api/products ${products.perSecond}/s; memory after ${after.rss} MB RSS`,
  );
  await server.stop();
  return { name, first, server, idle, loaded, after, statuses, health, products, busy };
}

async function withEmbedded(mode) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-bench-start-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  return measure(mode === 'process' ? 'embedded, own process' : 'embedded, in the server', {
    DATA_DIR: dataDir,
    EMBEDDED_DATABASE: mode,
  });
}

async function withPostgres() {
  const host = new URL(adminUrl).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host))
    throw new Error(`The benchmark only talks to this machine; TEST_DATABASE_URL points at ${host}`);
  const name = `mkt_bench_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-bench-start-'));
  cleanups.push(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.end();
  });
  const env = { DATABASE_URL: url.href, DATA_DIR: dataDir };
  // Production never seeds by itself: the demo marketplace is added as `npm run seed` does.
  const seeded = spawnSync(process.execPath, [SEED], { cwd: ROOT, env: { ...process.env, ...env } });
  if (seeded.status !== 0) throw new Error(`seeding PostgreSQL failed:\n${seeded.stderr}`);
  return measure('PostgreSQL', env);
}

const machine = {
  cpu: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown'}`,
  memory: `${Math.round(os.totalmem() / 2 ** 30)} GB`,
  node: process.version,
  load: os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' '),
};
log(`machine: ${machine.cpu}, ${machine.memory}, Node ${machine.node}, load ${machine.load}`);

const results = [];
try {
  for (const mode of modes) {
    if (mode === 'postgres') {
      if (adminUrl) results.push(await withPostgres());
      else log('PostgreSQL skipped: TEST_DATABASE_URL is not set');
    } else results.push(await withEmbedded(mode));
  }
} finally {
  for (const cleanup of cleanups) await cleanup();
  agent.destroy();
  clearTimeout(watchdog);
}

const loadAfter = os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
const row = (r) =>
  `| ${r.name} | ${r.first.health} / ${r.first.home} | ${r.server.health} / ${r.server.home} | ${r.idle.rss} | ${r.loaded.rss} (${r.loaded.parts.join(' + ')}) | ${r.loaded.once} | ${r.loaded.pss} | ${r.after.rss} / ${r.after.once} | ${r.health.perSecond} | ${r.products.perSecond} | ${r.busy.p50} / ${r.busy.p99} (${r.busy.database}/s) |`;
const report = [
  '# Start-up, memory and throughput of the embedded database',
  '',
  `Run ${new Date().toISOString()} by \`npm run bench:startup\` (bench/startup-memory.bench.mjs).`,
  `Machine: ${machine.cpu}, ${machine.memory} RAM, Node ${machine.node}; load average ${machine.load} at the start, ${loadAfter} at the end (the machine is shared).`,
  `Server: \`node ${SERVER_NODE_FLAGS.join(' ')} dist/server/main.js\` as \`npm start\` runs it (environment ${Object.entries(
    SERVER_ENV,
  )
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')}), LOG_LEVEL=warn.`,
  `Load: ${MIX} mixed requests (home page and its assets, product list, search, categories, product page and its API, sign-in, current user, home and checkout pages signed in, orders, address validation), then ${REQUESTS} requests of /api/health and of /api/products from ${CONCURRENCY} clients after a warm-up; then for ${BUSY_SECONDS} s, 8 signed-in clients asking for the distance list with a search (uncached database work) while 4 fetch a static asset.`,
  '',
  '| database | first start, seeds: first 200 ms (health / home) | seeded start: first 200 ms (health / home) | RSS idle MB | RSS after mixed load MB (server + database process) | resident after mixed load, shared pages once MB | PSS after mixed load MB | RSS / shared once at the end MB | /api/health req/s | /api/products req/s | static asset ms p50 / p99 while the database works (distance lists/s) |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ...results.map(row),
  '',
  'RSS is the sum of VmRSS of the server and its database process (/proc/<pid>/status); it counts the',
  'pages of the node binary and shared libraries, which both processes map, twice. "Shared pages once" is',
  'their private pages (Private_Clean + Private_Dirty of /proc/<pid>/smaps_rollup) and the larger of their',
  'shared pages (Shared_Clean + Shared_Dirty), counted once: what the host spends on the two. PSS divides',
  'shared pages among every process mapping them, other Node processes on the machine included, so it',
  'reads lower when more of them run.',
  '',
];
fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
fs.writeFileSync(RESULTS, `${report.join('\n')}\n`);
log(`\n${report.join('\n')}`);
