// The 10× data benchmark: a million products of 20,000 sellers,
// 100,000 orders, 10,000 drivers (bench/scale-fill.mjs), the real built server on a free loopback
// port, and the reads that grow with the data: a driver's available orders, the admin's lists
// (first and later pages, each filter and search) and the catalog's search. Every call's path
// changes from one request to the next (another page, another word, another driver), so no kept
// answer is measured; the figure is each call's latency, p95 under 100 ms being the target.
//
//   npm run bench:scale                                  PostgreSQL (TEST_DATABASE_URL)
//   node bench/scale.bench.mjs --requests=200 --concurrency=1,4,8 --calls=admin
//   node bench/scale.bench.mjs --db=pglite               the embedded database (a long fill)
//   node bench/scale.bench.mjs --keep --calls=none       keep the filled PostgreSQL database, to read plans
//   node bench/scale.bench.mjs --previous=DIR            first the same bench on another checkout's build
//                                                        (DIR/dist/server, its migrations): an A/B in one run
//
// Everything runs on 127.0.0.1 and stops by itself; PostgreSQL gets a database of its own, dropped
// at the end. Results: bench/results/scale.md (and printed).
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../scripts/server-node-flags.mjs';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { SCALE, driverEmail, scaleFillStatements } from './scale-fill.mjs';
import { request, startProcess, stopChildren, stopProcess } from './bench-process.mjs';
import { preparePostgresDatabase } from './bench-database.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const RESULTS = path.join(ROOT, 'bench/results/scale.md');
const RUN_LIMIT_MS = 60 * 60 * 1000;
const TARGET_P95_MS = 100;

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? 'true'];
  }),
);
const REQUESTS = Number(args.requests ?? 200);
const WARMUP = Number(args.warmup ?? 20);
const CONCURRENCIES = (args.concurrency ?? '1,4,8').split(',').map(Number);
const adminUrl = process.env.TEST_DATABASE_URL;
const kind = args.db ?? 'postgres';
const PREVIOUS = args.previous ? path.resolve(args.previous) : undefined;
/** --scale=0.1: a tenth of the data, to try the bench quickly (not a result). */
const FACTOR = Number(args.scale ?? 1);
const DATA = Object.fromEntries(Object.entries(SCALE).map(([key, n]) => [key, Math.round(n * FACTOR)]));

const cleanups = [];
const watchdog = setTimeout(() => {
  process.stderr.write(`The benchmark ran over ${RUN_LIMIT_MS / 60000} minutes; stopping.\n`);
  stopChildren();
  process.exit(1);
}, RUN_LIMIT_MS);
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    stopChildren();
    process.exit(130);
  });

const log = (line) => process.stdout.write(`${line}\n`);

// --- The accounts that sign in ------------------------------------------------------------------

const PASSWORD = 'bench password 123';
const ADMIN = 'bench-admin@example.com';
const BUYER = 'bench-buyer-1@example.com';
/** Drivers signed in, each with their own place in the metro area (their primary address). */
const SIGNED_IN_DRIVERS = [1, 2, 3, 4, 5].map(driverEmail);

/**
 * One password for every signed-in account, hashed as the server's passwords.ts does (scrypt N
 * 16384, r 8, p 1, 64-byte key); their email confirmed, as a sign-up's mailed link would.
 */
function accountStatements() {
  const salt = crypto.randomBytes(16);
  const key = crypto.scryptSync(PASSWORD.normalize('NFKC'), salt, 64, { N: 16384, r: 8, p: 1 });
  const hash = ['scrypt', 16384, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
  const emails = [ADMIN, BUYER, ...SIGNED_IN_DRIVERS].map((e) => `'${e}'`).join(',');
  return [
    `insert into users (email, first_name, last_name, role, roles)
     values ('${ADMIN}', 'Bench', 'Admin', 'admin', ARRAY['buyer','admin']::text[])`,
    `update users set email_verified_at = now() where email in (${emails})`,
    `insert into password_credentials (user_id, password_hash)
     select id, '${hash}' from users where email in (${emails})`,
    `analyze`,
  ];
}

// --- The calls ----------------------------------------------------------------------------------

const WORDS = [
  'chair',
  'walnut',
  'lamp',
  'rustic table',
  'wireless speaker',
  'oak',
  'board game',
  'tent',
  'copper lantern',
  'honey',
  'sturdy drill',
  'novel',
];
const CATEGORIES = ['Furniture', 'Electronics', 'Books', 'Groceries', 'Tools & Hardware'];
const q = encodeURIComponent;

/**
 * Each call names who makes it and its path for the k-th request; paths differ from one request to
 * the next so no kept answer is what is measured.
 */
const CALLS = [
  { name: 'driver: available orders', as: 'driver', path: () => '/api/orders/available' },
  {
    name: 'driver: available within 10 mi',
    as: 'driver',
    path: (k) => `/api/orders/available?maxDistance=${10 + (k % 3)}`,
  },
  {
    name: 'driver: available, second page',
    as: 'driver',
    path: (k) => `/api/orders/available?offset=${50 + (k % 7)}`,
  },
  { name: 'admin: summary', as: 'admin', path: () => '/api/admin/summary' },
  { name: 'admin: users, pages 1–20', as: 'admin', path: (k) => `/api/admin/users?page=${1 + (k % 20)}` },
  {
    name: 'admin: users by name',
    as: 'admin',
    path: (k) => `/api/admin/users?search=${q(`Number ${1 + ((k * 37) % DATA.drivers)}`)}`,
  },
  {
    name: 'admin: users, role driver',
    as: 'admin',
    path: (k) => `/api/admin/users?role=driver&page=${1 + (k % 20)}`,
  },
  { name: 'admin: orders, pages 1–20', as: 'admin', path: (k) => `/api/admin/orders?page=${1 + (k % 20)}` },
  {
    name: 'admin: orders by status',
    as: 'admin',
    path: (k) =>
      `/api/admin/orders?status=${['pending', 'assigned', 'in-transit', 'delivered'][k % 4]}&page=${1 + (k % 5)}`,
  },
  {
    name: 'admin: orders by number',
    as: 'admin',
    path: (k) => `/api/admin/orders?search=${q(`BENCH-OPEN-${1 + ((k * 97) % 10_000)}`)}`,
  },
  {
    name: 'admin: orders by driver',
    as: 'admin',
    path: (k) => `/api/admin/orders?driver=${q(driverEmail(1 + ((k * 53) % DATA.drivers)))}`,
  },
  {
    name: 'admin: orders by dates',
    as: 'admin',
    path: (k) => {
      const day = new Date(Date.now() - (k % 300) * 86_400_000).toISOString().slice(0, 10);
      return `/api/admin/orders?from=${day}&to=${day}`;
    },
  },
  {
    name: 'admin: products, pages 1–20',
    as: 'admin',
    path: (k) => `/api/admin/products?page=${1 + (k % 20)}`,
  },
  {
    name: 'admin: products by name',
    as: 'admin',
    path: (k) =>
      `/api/admin/products?search=${q(WORDS[k % WORDS.length])}&page=${1 + ((k / WORDS.length) | 0)}`,
  },
  {
    name: 'admin: products by category',
    as: 'admin',
    path: (k) => `/api/admin/products?category=${q(CATEGORIES[k % CATEGORIES.length])}&page=${1 + (k % 9)}`,
  },
  { name: 'admin: drivers, pages 1–20', as: 'admin', path: (k) => `/api/admin/drivers?page=${1 + (k % 20)}` },
  {
    name: 'admin: drivers by name',
    as: 'admin',
    path: (k) => `/api/admin/drivers?search=${q(`Number ${1 + ((k * 41) % DATA.drivers)}`)}`,
  },
  { name: 'admin: categories', as: 'admin', path: (k) => `/api/admin/categories?page=${1 + (k % 2)}` },
  {
    name: 'search: a word',
    as: 'visitor',
    path: (k) => `/api/products?search=${q(WORDS[k % WORDS.length])}&offset=${48 * ((k / WORDS.length) | 0)}`,
  },
  {
    name: 'search: a word in a category',
    as: 'visitor',
    path: (k) =>
      `/api/products?search=${q(WORDS[k % WORDS.length])}&category=${q(CATEGORIES[k % CATEGORIES.length])}&offset=${48 * ((k / WORDS.length) | 0)}`,
  },
  {
    name: 'search: a category',
    as: 'visitor',
    path: (k) =>
      `/api/products?category=${q(CATEGORIES[k % CATEGORIES.length])}&offset=${48 * ((k / CATEGORIES.length) | 0)}`,
  },
  {
    name: 'search: signed in, nearest first',
    as: 'buyer',
    path: (k) =>
      `/api/products/with-distance?search=${q(WORDS[k % WORDS.length])}&offset=${48 * ((k / WORDS.length) | 0)}`,
  },
];
const only = args.calls ? args.calls.split(',') : undefined;
const calls = CALLS.filter((c) => !only || only.some((prefix) => c.name.startsWith(prefix)));

// --- The database -------------------------------------------------------------------------------

async function fill(run) {
  const started = performance.now();
  for (const statement of [...scaleFillStatements(DATA), ...accountStatements()]) {
    const t0 = performance.now();
    await run(statement);
    log(
      `  ${((performance.now() - t0) / 1000).toFixed(1)} s  ${statement.trim().split('\n')[0].slice(0, 70)}`,
    );
  }
  return performance.now() - started;
}

async function preparePglite(dataDir, migrations) {
  const client = new PGlite(path.join(dataDir, 'db'), { extensions: { pg_trgm } });
  await client.waitReady;
  try {
    await migratePglite(drizzlePglite(client), { migrationsFolder: migrations });
    const fillMs = await fill((statement) => client.exec(statement));
    const version = (await client.query('select version()')).rows[0].version;
    return {
      env: {},
      fillMs,
      version: version.split(' on ')[0].replace('PostgreSQL', 'PGlite (PostgreSQL') + ')',
    };
  } finally {
    await client.close();
  }
}

function preparePostgres(migrations) {
  return preparePostgresDatabase({
    adminUrl,
    migrationsFolder: migrations,
    fill,
    cleanups,
    keep: Boolean(args.keep),
    log,
  });
}

// --- Load ---------------------------------------------------------------------------------------

async function signIn(port, email) {
  const response = await request(port, {
    method: 'POST',
    path: '/api/login',
    body: { email, password: PASSWORD },
  });
  if (response.status !== 200)
    throw new Error(`sign-in of ${email} failed: ${response.status} ${response.body}`);
  const cookie = [response.headers['set-cookie'] ?? []]
    .flat()
    .find((c) => c.startsWith('sid='))
    ?.split(';')[0];
  if (!cookie) throw new Error(`no session cookie for ${email}`);
  return cookie;
}

/** Rows in an answer: a page's items, or a list's length. */
function rowsOf(body) {
  const json = JSON.parse(body.toString());
  if (Array.isArray(json)) return json.length;
  if (Array.isArray(json.items)) return json.items.length;
  if (Array.isArray(json.products)) return json.products.length;
  return 1;
}

/** `requests` calls, at most `concurrency` in flight; latencies in ms, sorted. */
async function measure(port, call, cookies, requests, concurrency, firstK) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies = [];
  let rows = 0;
  let failures = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        const k = firstK + next++;
        const cookie = cookies(k);
        const t0 = performance.now();
        const response = await request(port, {
          path: call.path(k),
          headers: cookie ? { cookie } : {},
          agent,
        }).catch((error) => ({ status: 0, body: Buffer.from(String(error)) }));
        latencies.push(performance.now() - t0);
        if (response.status === 200) rows += rowsOf(response.body);
        else if (failures++ === 0)
          log(`  ${call.name}: ${response.status} ${response.body.toString().slice(0, 200)}`);
      }
    }),
  );
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (p) => latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)];
  return {
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    max: latencies.at(-1),
    rows: rows / requests,
    failures,
  };
}

// --- Report -------------------------------------------------------------------------------------

function table(run) {
  const lines = [
    `| call | rows | ${CONCURRENCIES.map((c) => `c=${c} p50 ms | c=${c} p95 ms | c=${c} p99 ms`).join(' | ')} | failed | p95 < ${TARGET_P95_MS} ms |`,
    `|---|---:|${CONCURRENCIES.map(() => '---:|---:|---:').join('|')}|---:|---|`,
  ];
  for (const row of run.rows) {
    const worst = Math.max(...row.results.map((r) => r.p95));
    lines.push(
      `| ${row.name} | ${row.results[0].rows.toFixed(0)} | ${row.results
        .map((r) => `${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)}`)
        .join(
          ' | ',
        )} | ${row.results.reduce((n, r) => n + r.failures, 0)} | ${worst < TARGET_P95_MS ? 'yes' : '**no**'} |`,
    );
  }
  return lines;
}

function report(runs, started, startLoad) {
  const endLoad = os.loadavg()[0];
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const lines = [
    '# 10× data: latency of the reads that grow with the data',
    '',
    `Run of ${new Date(started).toISOString()} on ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ` +
      `load ${startLoad.toFixed(2)} at the start and ${endLoad.toFixed(2)} at the end; ${runs[0]?.version}; ` +
      `\`node bench/scale.bench.mjs --db=${kind} --requests=${REQUESTS} --concurrency=${CONCURRENCIES.join(',')}${PREVIOUS ? ' --previous=…' : ''}\`.`,
    '',
    `Data (bench/scale-fill.mjs): ${DATA.products.toLocaleString('en-US')} products of ${DATA.sellers.toLocaleString('en-US')} sellers, ` +
      `${DATA.orders.toLocaleString('en-US')} orders (${DATA.offered.toLocaleString('en-US')} waiting for a driver, ` +
      `${DATA.underway.toLocaleString('en-US')} underway, the rest delivered and reviewed), ${DATA.drivers.toLocaleString('en-US')} ` +
      `verified drivers, ${DATA.buyers.toLocaleString('en-US')} buyers, filled afresh for each build.`,
    '',
    `Each call ${REQUESTS} times after ${WARMUP} to warm up, its path changing every request (another page, word, driver`,
    `or day), so no kept answer is measured; at each concurrency, from the built server (NODE_ENV=production) over`,
    `keep-alive connections. Target: p95 under ${TARGET_P95_MS} ms.`,
  ];
  for (const run of runs)
    lines.push(
      '',
      `## ${run.build}`,
      '',
      `Filled in ${(run.fillMs / 1000).toFixed(0)} s.`,
      '',
      ...table(run),
    );
  return lines.join('\n');
}

function commitOf(root) {
  try {
    return execFileSync('git', ['-C', root, 'log', '-1', '--format=%h %s'], { encoding: 'utf8' }).trim();
  } catch {
    return 'not a git checkout';
  }
}

/** Fills a database, starts `root`'s built server on it and measures every call. */
async function benchBuild(root, build) {
  const server_ = path.join(root, 'dist/server/main.js');
  if (!fs.existsSync(server_)) throw new Error(`${server_} is missing: run npm run build:server there first`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-scale-'));
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  log(`\n[${build}]`);
  log(
    `[${kind}] filling ${DATA.products.toLocaleString('en-US')} products, ${DATA.orders.toLocaleString('en-US')} orders…`,
  );
  const migrations = path.join(root, 'src/server/db/migrations');
  const prepared =
    kind === 'postgres' ? await preparePostgres(migrations) : await preparePglite(dataDir, migrations);
  log(
    `[${kind}] filled in ${(prepared.fillMs / 1000).toFixed(0)} s (${prepared.version}); starting the server…`,
  );
  const server = await startProcess(
    [...SERVER_NODE_FLAGS, server_],
    {
      ...SERVER_ENV,
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      ALLOW_TEST_PAYMENTS: 'true',
      SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      DEMO_DATA: 'off',
      LOG_LEVEL: 'warn',
      // The bench's administrator signs in with a password only. A production server holds an
      // administrator's powers until two-factor sign-in is on (docs/decisions/0024-two-factor-sign-in.md,
      // Administrators);
      // the check reads the session's user, loaded for every call either way, so the reads cost the same.
      ADMIN_TWO_FACTOR: 'optional',
      ...prepared.env,
    },
    /is running at http:\/\/[^:]+:(\d+)/,
    root,
  );
  try {
    const admin = await signIn(server.port, ADMIN);
    const buyer = await signIn(server.port, BUYER);
    const drivers = [];
    for (const email of SIGNED_IN_DRIVERS) drivers.push(await signIn(server.port, email));
    const cookiesOf = {
      admin: () => admin,
      buyer: () => buyer,
      visitor: () => undefined,
      driver: (k) => drivers[k % drivers.length],
    };
    const rows = [];
    // Each call's k runs on from where its last run stopped: every request a path not asked before.
    for (const call of calls) {
      const results = [];
      let k = 0;
      await measure(server.port, call, cookiesOf[call.as], WARMUP, 1, k);
      k += WARMUP;
      for (const concurrency of CONCURRENCIES) {
        results.push(await measure(server.port, call, cookiesOf[call.as], REQUESTS, concurrency, k));
        k += REQUESTS;
      }
      log(
        `${call.name.padEnd(36)} rows ${results[0].rows.toFixed(0).padStart(3)}  ${results
          .map(
            (r, i) =>
              `c=${CONCURRENCIES[i]} p50 ${r.p50.toFixed(1)} p95 ${r.p95.toFixed(1)} p99 ${r.p99.toFixed(1)}`,
          )
          .join('   ')}${results.some((r) => r.failures) ? '  FAILURES' : ''}`,
      );
      rows.push({ name: call.name, results });
    }
    return { build, version: prepared.version, fillMs: prepared.fillMs, rows };
  } finally {
    await stopProcess(server.child);
  }
}

async function main() {
  const started = Date.now();
  const startLoad = os.loadavg()[0];
  if (kind === 'postgres' && !adminUrl) throw new Error('--db=postgres needs TEST_DATABASE_URL');
  if (kind !== 'postgres' && kind !== 'pglite') throw new Error(`Unknown database ${kind}`);
  const runs = [];
  try {
    if (PREVIOUS) runs.push(await benchBuild(PREVIOUS, `Previous: ${commitOf(PREVIOUS)}`));
    runs.push(await benchBuild(ROOT, `This build: ${commitOf(ROOT)}`));
  } finally {
    stopChildren();
    for (const cleanup of cleanups.reverse())
      await cleanup().catch((error) => log(`cleanup: ${error.message}`));
  }
  const text = report(runs, started, startLoad);
  if (!only && FACTOR === 1) {
    fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
    fs.writeFileSync(RESULTS, `${text}\n`);
  }
  log(
    `\n${text}\n${only || FACTOR !== 1 ? 'Some calls or part of the data only: not written.' : `Written to ${path.relative(process.cwd(), RESULTS)}`} in ${((Date.now() - started) / 1000).toFixed(0)} s.`,
  );
}

main()
  .catch((error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exitCode = 1;
  })
  .finally(() => clearTimeout(watchdog));
