// The catalog benchmark: 100,000 products of 2,000 sellers spread over the
// Chicago metro area, the real built server (dist/server/main.js) on a free loopback port, and a
// bounded load of the product list, a search and the distance query; then the same bytes from a
// bare node:http server, to show what the framework and the database cost.
//
//   npm run bench                       PGlite, and PostgreSQL too when TEST_DATABASE_URL is set
//   node bench/catalog.bench.mjs --db=pglite --requests=1000 --concurrency=8
//   … --app-root=DIR   run the server built in another checkout (its dist/ and migrations)
//   … --calls=health,signed   only the calls whose names start with one of these
//   … --log-level=warn        the server's log level (default: info, the server's own default)
//
// Everything runs on 127.0.0.1 and stops by itself; PostgreSQL gets a database of its own, dropped
// at the end. Results: bench/results/catalog.md (and printed).
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../scripts/server-node-flags.mjs';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { catalogFillStatements, productId, sellerId } from './catalog-fill.mjs';
import { request, startProcess as startIn, stopChildren, stopProcess } from './bench-process.mjs';
import { preparePostgresDatabase } from './bench-database.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const startProcess = (args, env, ready) => startIn(args, env, ready, ROOT);
const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value = 'true'] = arg.replace(/^--/, '').split('=');
    return [key, value];
  }),
);
/** --app-root=DIR: the checkout whose built server (and migrations) are measured (an A/B run). */
const APP_ROOT = path.resolve(args['app-root'] ?? ROOT);
const MIGRATIONS = path.join(APP_ROOT, 'src/server/db/migrations');
const SERVER = path.join(APP_ROOT, 'dist/server/main.js');
const RESULTS = path.join(ROOT, 'bench/results/catalog.md');
/** The whole run is cut off after this, whatever happens. */
const RUN_LIMIT_MS = 12 * 60 * 1000;

const REQUESTS = Number(args.requests ?? 20000);
/** --log-level=warn: the server's log level; by default the one it runs with unless told (info). */
const LOG_LEVEL = args['log-level'] ?? 'info';
const BARE_REQUESTS = Number(args['bare-requests'] ?? 20000);
const CONCURRENCY = Number(args.concurrency ?? 16);
/**
 * Warm-up requests before each measurement, so that the measured ones run on optimised code. A
 * route's code is optimised over its first few thousand calls, on background threads whose CPU
 * the process is charged: after 1,000 warm-up requests the next 2,000 of the signed-in current
 * user cost the server 240 µs of CPU each, after 5,000 65 µs (one build, 2026-12-06).
 */
const WARMUP = Number(args.warmup ?? 5000);
/**
 * Requests of the first call before any is measured, to the server and to the bare server alike:
 * with the per-call warm-up alone, whichever call came first cost the server and the load
 * generator about twice the CPU per request of the later ones, bare server included.
 */
const PROCESS_WARMUP = Number(args['process-warmup'] ?? 5000);
/** The call that asks for a new page each time: 1,100 distinct pages, warm-up included. */
const NEW_PAGE_WARMUP = 100;
/** --slices=N: each call's requests in N turns of the server and the bare server. */
const SLICES = Number(args.slices ?? 4);
const NEW_PAGE_REQUESTS = 1000;
const adminUrl = process.env.TEST_DATABASE_URL;
const databases = (args.db ?? (adminUrl ? 'pglite,postgres' : 'pglite')).split(',');
/** --profile=DIR: the server writes a V8 CPU profile there (node --cpu-prof) when it stops. */
const PROFILE_DIR = args.profile ? path.resolve(args.profile) : undefined;

/** A seller with ten reviews (bench/catalog-fill.mjs: order i is of seller 1 + 13i mod 2,000). */
const REVIEWED_SELLER = sellerId(14);
/** The measuring buyer's own delivered orders. */
const SHOPPER_ORDERS = 12;

/**
 * The calls measured; the buyer signs in and lives in the Loop (ZIP 60601). `check` answers the
 * number of items in an answer that is not a list.
 */
const SCENARIOS = [
  { name: 'list (first page)', path: '/api/products' },
  { name: 'search "lantern"', path: '/api/products?search=lantern' },
  { name: 'search "zzz" (no match)', path: '/api/products?search=zzz' },
  { name: 'distance ≤ 25 mi', path: '/api/products/with-distance?maxDistance=25', signedIn: true },
  { name: 'distance, any', path: '/api/products/with-distance', signedIn: true },
  // Every call a page of its own (offsets 0–1,099): what a call costs when no answer is kept.
  {
    name: 'list, a new page each call',
    path: '/api/products?offset=0',
    pathOf: (i) => `/api/products?offset=${i % (NEW_PAGE_WARMUP + NEW_PAGE_REQUESTS)}`,
    warmup: NEW_PAGE_WARMUP,
    requests: NEW_PAGE_REQUESTS,
    noBare: true,
  },
  // The other public reads, and two signed-in ones.
  { name: 'categories', path: '/api/categories' },
  // Liveness: answered from the process alone, through every hook an API request passes.
  { name: 'health', path: '/api/health', check: (body) => (body.status === 'ok' ? 1 : 0) },
  { name: 'a product', path: `/api/products/${productId(1)}`, check: (body) => (body.id ? 1 : 0) },
  {
    name: "a seller's reviews",
    path: `/api/reviews/user/${REVIEWED_SELLER}`,
    check: (body) => body.reviews.length,
  },
  { name: "a seller's pickup slots", path: `/api/availability/slots/${REVIEWED_SELLER}` },
  {
    name: 'signed in: current user',
    path: '/api/auth/user',
    signedIn: true,
    check: (body) => (body.id ? 1 : 0),
  },
  { name: 'signed in: own orders', path: '/api/orders', signedIn: true },
];

/** --calls=list,search: only the calls whose names start with one of these (all by default). */
const CALLS = args.calls ? args.calls.split(',') : undefined;
const scenarios = SCENARIOS.filter((s) => !CALLS || CALLS.some((prefix) => s.name.startsWith(prefix)));

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

function log(line) {
  process.stdout.write(`${line}\n`);
}

// --- Databases ---------------------------------------------------------------------------------

const SHOPPER = { email: 'bench-shopper@example.com', password: 'bench password 123' };

/**
 * The signed-in scenarios' buyer, made with the catalog: a sign-up now waits for its mailed link
 * (docs/decisions/0019-reaching-people.md, Accounts), so the account is written confirmed, with a
 * password hashed as the server's passwords.ts does (scrypt N 16384, r 8, p 1, 64-byte key).
 */
function shopperStatement() {
  const salt = crypto.randomBytes(16);
  const key = crypto.scryptSync(SHOPPER.password.normalize('NFKC'), salt, 64, { N: 16384, r: 8, p: 1 });
  const hash = ['scrypt', 16384, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
  return `with shopper as (
    insert into users (email, first_name, last_name, email_verified_at)
    values ('${SHOPPER.email}', 'Bench', 'Shopper', now()) returning id)
  insert into password_credentials (user_id, password_hash) select id, '${hash}' from shopper`;
}

/** The measuring buyer's orders, delivered, from as many sellers. */
const shopperOrdersStatement = () => `
  insert into orders (id, buyer_id, seller_id, order_number, status, product_subtotal, delivery_fee, total,
                      delivery_address, seller_earnings, driver_earnings, purchase_platform_fee,
                      delivery_platform_fee, platform_fee)
  select gen_random_uuid(), u.id, '${sellerId(1)}'::uuid, 'BENCH-SHOPPER-' || i, 'delivered', 100.00, 10.00, 110.00,
         '233 S Wacker Dr, Chicago, IL 60601', 90.00, 9.00, 10.00, 1.00, 11.00
  from users u cross join generate_series(1, ${SHOPPER_ORDERS}) i where u.email = '${SHOPPER.email}'`;

async function fill(run) {
  const started = performance.now();
  for (const statement of catalogFillStatements()) await run(statement);
  await run(shopperStatement());
  await run(shopperOrdersStatement());
  return performance.now() - started;
}

async function preparePglite(dataDir) {
  const client = new PGlite(path.join(dataDir, 'db'), { extensions: { pg_trgm } });
  await client.waitReady;
  try {
    await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS });
    const fillMs = await fill((statement) => client.exec(statement));
    const version = (await client.query('select version()')).rows[0].version;
    return { env: {}, fillMs, version: `PGlite ${pgliteVersion()} (${version.split(' on ')[0]})` };
  } finally {
    await client.close();
  }
}

function pgliteVersion() {
  const file = path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json');
  return JSON.parse(fs.readFileSync(file, 'utf8')).version;
}

function preparePostgres() {
  return preparePostgresDatabase({ adminUrl, migrationsFolder: MIGRATIONS, fill, cleanups });
}

// --- Processes ---------------------------------------------------------------------------------

/**
 * CPU seconds (user + system) a process and its descendants have used so far, from /proc (Linux);
 * undefined elsewhere. The embedded database's own process is a child of the server, so it counts.
 */
function cpuSecondsOf(pid) {
  try {
    let ticks = 0;
    const visit = (id) => {
      // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
      const stat = fs.readFileSync(`/proc/${id}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
      for (const task of fs.readdirSync(`/proc/${id}/task`)) {
        const children = fs.readFileSync(`/proc/${id}/task/${task}/children`, 'utf8').trim();
        for (const child of children ? children.split(' ') : []) visit(child);
      }
    };
    visit(pid);
    return ticks / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
/** USER_HZ: 100 on every Linux this runs on (`getconf CLK_TCK`). */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * Waits (at most 20 s) until the server and its children use under 5% of a core over half a
 * second: the embedded database compiles PostgreSQL's WebAssembly in the background for a while
 * after it starts, which is start-up work (bench/startup-memory.bench.mjs), not a call's.
 */
async function waitUntilIdle(pid) {
  const deadline = performance.now() + 20_000;
  let before = cpuSecondsOf(pid);
  while (before !== undefined && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = cpuSecondsOf(pid);
    if (now === undefined || now - before < 0.025) return;
    before = now;
  }
}

// --- HTTP --------------------------------------------------------------------------------------

/** The bench's buyer, signed in, with a primary address in the Loop; answers the session cookie. */
async function signInBuyer(port) {
  const signIn = await request(port, { method: 'POST', path: '/api/login', body: SHOPPER });
  if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status} ${signIn.body}`);
  const setCookie = [signIn.headers['set-cookie'] ?? []].flat();
  const cookie = setCookie.find((c) => c.startsWith('sid='))?.split(';')[0];
  if (!cookie) throw new Error('no session cookie');
  const address = await request(port, {
    method: 'POST',
    path: '/api/addresses',
    headers: { cookie },
    body: { addressLine1: '233 S Wacker Dr', city: 'Chicago', state: 'IL', zipCode: '60601' },
  });
  if (address.status !== 201) throw new Error(`address failed: ${address.status} ${address.body}`);
  return cookie;
}

/** Counts the calls of scenarios whose path changes with every call, across warm-up and load. */
let pathCounter = 0;

/**
 * N requests, at most C in flight on keep-alive connections; latencies in milliseconds, and the CPU
 * time per request of the server (`pid`, with its children) and of this load generator.
 */
async function load(port, urlPath, headers, requests, concurrency, pathOf, pid) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies = [];
  let issued = 0;
  let failures = 0;
  let bytes = 0;
  const serverCpuBefore = pid === undefined ? undefined : cpuSecondsOf(pid);
  const clientCpuBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (issued < requests) {
        const path = pathOf ? pathOf(pathCounter++) : urlPath;
        issued++;
        const t0 = performance.now();
        try {
          const response = await request(port, { path, headers, agent });
          if (response.status !== 200) failures++;
          bytes = response.body.length;
        } catch {
          failures++;
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = performance.now() - started;
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const serverCpuAfter = pid === undefined ? undefined : cpuSecondsOf(pid);
  agent.destroy();
  return summary({
    requests,
    concurrency,
    failures,
    bytes,
    seconds: elapsed / 1000,
    latencies,
    serverCpuSeconds:
      serverCpuBefore === undefined || serverCpuAfter === undefined
        ? undefined
        : serverCpuAfter - serverCpuBefore,
    clientCpuUsTotal: clientCpu.user + clientCpu.system,
  });
}

/** Rates, percentiles and CPU a request of measured requests. */
function summary(measured) {
  const { requests, seconds, latencies, serverCpuSeconds, clientCpuUsTotal } = measured;
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)];
  return {
    ...measured,
    rps: requests / seconds,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    max: latencies[latencies.length - 1],
    serverCpuUs: serverCpuSeconds === undefined ? undefined : (serverCpuSeconds * 1e6) / requests,
    clientCpuUs: clientCpuUsTotal / requests,
  };
}

/** The slices of one measurement as one: their requests over their time together. */
function combined(slices) {
  const sum = (pick) => slices.reduce((total, slice) => total + pick(slice), 0);
  const cpu = slices.every((slice) => slice.serverCpuSeconds !== undefined)
    ? sum((slice) => slice.serverCpuSeconds)
    : undefined;
  return summary({
    requests: sum((slice) => slice.requests),
    concurrency: slices[0]?.concurrency,
    failures: sum((slice) => slice.failures),
    bytes: slices[0]?.bytes,
    seconds: sum((slice) => slice.seconds),
    latencies: slices.flatMap((slice) => slice.latencies),
    serverCpuSeconds: cpu,
    clientCpuUsTotal: sum((slice) => slice.clientCpuUs * slice.requests),
  });
}

// --- The distance filter against a full scan ----------------------------------------------------

const EARTH_RADIUS_MILES = 3958.7613;
const DISTANCE_RUNS = Number(args['distance-runs'] ?? 30);

/** Haversine miles from the origin ($1, $2) to a point, as src/server/modules/catalog/catalog.queries.ts writes it. */
const haversine = (lat, lng) => `(2 * ${EARTH_RADIUS_MILES}::float8 * asin(least(1::float8, sqrt(
    power(sin(radians(${lat}::float8 - $1::float8) / 2), 2)
    + cos(radians($1::float8)) * cos(radians(${lat}::float8)) * power(sin(radians(${lng}::float8 - $2::float8) / 2), 2)))))`;

/**
 * The first page of products within the limit, nearest seller first, then newest, as the app asks
 * for it (src/server/modules/catalog/catalog.queries.ts, listNearbyProductCards): the sellers in
 * rings of doubling radius ($3–$8: each ring's inner and outer miles and the box of its outer
 * circle, an index range), checked exactly, then each seller's available products newest first by
 * index; sorted within a ring only, stopping at the ring that fills the page.
 */
const FILTERED_PAGE = `
  select page.id from (
    select sp.id, s.distance, sp.created_at, ring.k from
      unnest($3::float8[], $4::float8[], $5::numeric[], $6::numeric[], $7::numeric[], $8::numeric[])
        with ordinality as ring(inner_miles, outer_miles, lat_min, lat_max, lng_min, lng_max, k)
    cross join lateral (
      select a.user_id as seller_id, ${haversine('a.latitude', 'a.longitude')} as distance
      from addresses a
      where a.is_primary and a.latitude is not null and a.longitude is not null
        and a.latitude between ring.lat_min and ring.lat_max
        and a.longitude between ring.lng_min and ring.lng_max
        and ${haversine('a.latitude', 'a.longitude')} <= ring.outer_miles
        and ${haversine('a.latitude', 'a.longitude')} > ring.inner_miles) s
    cross join lateral (
      select p.id, p.created_at from products p
      where p.seller_id = s.seller_id and p.available
      order by p.created_at desc, p.id) sp
    order by ring.k, s.distance, sp.created_at desc, sp.id
    limit 48) page
  order by page.distance, page.created_at desc, page.id`;

/** The same page by brute force: the distance of every available product's seller, then sort. */
const FULL_SCAN_PAGE = `
  select p.id from products p
  join addresses a on a.user_id = p.seller_id and a.is_primary
  where p.available and a.latitude is not null and a.longitude is not null
    and ${haversine('a.latitude', 'a.longitude')} <= $3::float8
  order by ${haversine('a.latitude', 'a.longitude')}, p.created_at desc, p.id
  limit 48`;

/** The box holding every point within `miles` of the origin (src/domain/geo.ts, boundingBoxOf). */
function boundingBox({ latitude, longitude }, miles) {
  const angular = miles / EARTH_RADIUS_MILES;
  const lat = (latitude * Math.PI) / 180;
  const deg = (radians) => (radians * 180) / Math.PI;
  const half = deg(Math.asin(Math.min(1, Math.sin(angular) / Math.cos(lat)))) + 1e-6;
  return [deg(lat - angular) - 1e-6, deg(lat + angular) + 1e-6, longitude - half, longitude + half];
}

/** The app's rings up to `miles` (1, 2, 4, … miles, then the limit) as the query's array parameters. */
function ringParameters(origin, miles) {
  const outer = [];
  for (let r = 1; r < miles; r *= 2) outer.push(r);
  outer.push(miles);
  const boxes = outer.map((r) => boundingBox(origin, r).map((degrees) => degrees.toFixed(7)));
  const array = (values) => `{${values.join(',')}}`;
  return [
    array([-1, ...outer.slice(0, -1)]),
    array(outer),
    ...[0, 1, 2, 3].map((i) => array(boxes.map((box) => box[i]))),
  ];
}

/**
 * Times the distance filter's query and a full scan giving the same page, one after the other on
 * the same database with nothing else running; checks they answer the same products.
 */
async function compareDistanceQueries(query, miles = 25) {
  const [origin] = await query(
    `select a.latitude::float8 as latitude, a.longitude::float8 as longitude from addresses a
     join users u on u.id = a.user_id where u.email = 'bench-shopper@example.com' and a.is_primary`,
  );
  if (!origin) throw new Error('the measuring buyer has no address');
  const params = [origin.latitude, origin.longitude, ...ringParameters(origin, miles)];
  const fullScanParams = [origin.latitude, origin.longitude, miles];
  const idsOf = async (text, values) => (await query(text, values)).map((row) => row.id);
  const filteredIds = await idsOf(FILTERED_PAGE, params);
  const fullScanIds = await idsOf(FULL_SCAN_PAGE, fullScanParams);
  // One of each in turn, so that whatever else the machine does meanwhile slows both alike.
  const timed = async (text, values) => {
    const t0 = performance.now();
    await query(text, values);
    return performance.now() - t0;
  };
  const filteredTimes = [];
  const fullScanTimes = [];
  for (let i = 0; i < 2; i++) {
    await timed(FILTERED_PAGE, params);
    await timed(FULL_SCAN_PAGE, fullScanParams);
  }
  for (let i = 0; i < DISTANCE_RUNS; i++) {
    filteredTimes.push(await timed(FILTERED_PAGE, params));
    fullScanTimes.push(await timed(FULL_SCAN_PAGE, fullScanParams));
  }
  const median = (times) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
  const filtered = { ids: filteredIds, median: median(filteredTimes) };
  const fullScan = { ids: fullScanIds, median: median(fullScanTimes) };
  if (filtered.ids.length !== 48 || filtered.ids.join() !== fullScan.ids.join())
    throw new Error('the filtered query and the full scan answer different pages');
  return { miles, filteredMs: filtered.median, fullScanMs: fullScan.median };
}

async function withDatabase(kind, prepared, dataDir, use) {
  if (kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: prepared.env.DATABASE_URL, max: 1 });
    try {
      return await use(async (text, params) => (await pool.query(text, params)).rows);
    } finally {
      await pool.end();
    }
  }
  const client = new PGlite(path.join(dataDir, 'db'), { extensions: { pg_trgm } });
  await client.waitReady;
  try {
    return await use(async (text, params) => (await client.query(text, params)).rows);
  } finally {
    await client.close();
  }
}

// --- The run -----------------------------------------------------------------------------------

function checkAnswer(scenario, body) {
  const list = JSON.parse(body.toString());
  if (scenario.check) return scenario.check(list);
  if (!Array.isArray(list)) throw new Error(`${scenario.name}: not a list`);
  if (scenario.path.includes('search=lantern') && !list.every((p) => /lantern/i.test(p.name)))
    throw new Error(`${scenario.name}: a result does not match`);
  if (scenario.path.includes('maxDistance=25')) {
    const distances = list.map((p) => p.distance);
    if (distances.some((d) => d === null || d > 25))
      throw new Error(`${scenario.name}: a product is too far`);
    if (distances.some((d, i) => i > 0 && d < distances[i - 1]))
      throw new Error(`${scenario.name}: not nearest first`);
  }
  return list.length;
}

async function benchDatabase(kind) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-bench-'));
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  log(`\n[${kind}] filling 100,000 products of 2,000 sellers…`);
  const prepared = kind === 'postgres' ? await preparePostgres() : await preparePglite(dataDir);
  log(
    `[${kind}] filled in ${(prepared.fillMs / 1000).toFixed(1)} s (${prepared.version}); starting the server…`,
  );
  const server = await startProcess(
    [...SERVER_NODE_FLAGS, ...(PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []), SERVER],
    {
      ...SERVER_ENV,
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      // The bench takes no payments; production refuses the test provider unless told (docs/operations.md).
      ALLOW_TEST_PAYMENTS: 'true',
      SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      DEMO_DATA: 'off',
      LOG_LEVEL,
      ...prepared.env,
    },
    /is running at http:\/\/[^:]+:(\d+)/,
  );
  const serverRows = [];
  const bareRows = [];
  try {
    const cookie = await signInBuyer(server.port);
    await waitUntilIdle(server.child.pid);
    // Every call's answer first, for the bare server to send the same bytes.
    const captured = {};
    const counts = new Map();
    for (const scenario of scenarios) {
      const headers = scenario.signedIn ? { cookie } : {};
      const first = await request(server.port, { path: scenario.path, headers });
      if (first.status !== 200) throw new Error(`${scenario.name}: ${first.status} ${first.body}`);
      counts.set(scenario.name, checkAnswer(scenario, first.body));
      captured[scenario.path] = {
        contentType: first.headers['content-type'],
        body: first.body.toString('base64'),
      };
    }
    const routesFile = path.join(dataDir, 'bare-routes.json');
    fs.writeFileSync(routesFile, JSON.stringify(captured));
    const bare = await startProcess(
      [path.join(ROOT, 'bench/bare-server.mjs'), routesFile],
      { PATH: process.env.PATH },
      /listening (\d+)/,
    );
    try {
      // With the first call's own cookie: without it a signed-in call warmed only the refusal.
      await load(
        server.port,
        scenarios[0]?.path ?? '/api/products',
        scenarios[0]?.signedIn ? { cookie } : {},
        PROCESS_WARMUP,
        CONCURRENCY,
      );
      await load(bare.port, scenarios[0]?.path ?? '/api/products', {}, PROCESS_WARMUP, CONCURRENCY);
      // Each call on the server, then at once on the bare server: whatever else the shared machine
      // does meanwhile weighs on both figures of a ratio alike.
      for (const scenario of scenarios) {
        const headers = scenario.signedIn ? { cookie } : {};
        const count = counts.get(scenario.name);
        // What the call before left running (collecting its garbage, trimming the kept answers) is
        // not this call's cost.
        await waitUntilIdle(server.child.pid);
        await load(
          server.port,
          scenario.path,
          headers,
          scenario.warmup ?? WARMUP,
          CONCURRENCY,
          scenario.pathOf,
        );
        if (!scenario.noBare) await load(bare.port, scenario.path, {}, WARMUP, CONCURRENCY);
        // Server and bare server take turns in slices, so that a slow moment of the shared machine
        // falls on both figures of a ratio alike rather than on one of them.
        const serverSlices = [];
        const bareSlices = [];
        for (let slice = 0; slice < SLICES; slice++) {
          serverSlices.push(
            await load(
              server.port,
              scenario.path,
              headers,
              Math.ceil((scenario.requests ?? REQUESTS) / SLICES),
              CONCURRENCY,
              scenario.pathOf,
              server.child.pid,
            ),
          );
          if (scenario.noBare) continue;
          bareSlices.push(
            await load(
              bare.port,
              scenario.path,
              {},
              Math.ceil(BARE_REQUESTS / SLICES),
              CONCURRENCY,
              undefined,
              bare.child.pid,
            ),
          );
        }
        const result = combined(serverSlices);
        log(
          `[${kind}] ${scenario.name}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, server ${cpuText(result.serverCpuUs)} µs CPU/req (${count} items)`,
        );
        serverRows.push({ target: `server + ${kind}`, scenario: scenario.name, count, ...result });
        if (scenario.noBare) continue;
        const bareResult = combined(bareSlices);
        log(
          `[bare] ${scenario.name}: ${bareResult.rps.toFixed(0)} req/s, p50 ${bareResult.p50.toFixed(2)} ms, p99 ${bareResult.p99.toFixed(2)} ms, server ${cpuText(bareResult.serverCpuUs)} µs CPU/req`,
        );
        bareRows.push({
          target: 'bare node:http, same bytes',
          scenario: scenario.name,
          count: null,
          ...bareResult,
        });
      }
    } finally {
      await stopProcess(bare.child);
    }
  } finally {
    await stopProcess(server.child);
  }
  const rows = [...serverRows, ...bareRows];
  // The server has stopped (PGlite is single-process): the queries alone, on the same data.
  const distance = await withDatabase(kind, prepared, dataDir, (query) => compareDistanceQueries(query));
  log(
    `[${kind}] distance ≤ ${distance.miles} mi: filtered ${distance.filteredMs.toFixed(2)} ms, full scan ${distance.fullScanMs.toFixed(2)} ms`,
  );
  return { kind, version: prepared.version, fillMs: prepared.fillMs, rows, distance };
}

const cpuText = (us) => (us === undefined ? '' : us.toFixed(0));

function report(runs, started, startLoad) {
  const args = process.argv.slice(2).join(' ');
  // `npm run bench` builds the server first, then runs this file.
  const command =
    process.env.npm_lifecycle_event === 'bench'
      ? `npm run bench ${args}`.trim()
      : `node bench/catalog.bench.mjs ${args}`.trim();
  const cpu = os.cpus();
  const lines = [
    '# Catalog benchmark',
    '',
    `Run ${new Date(started).toISOString()} with \`${command}\`${adminUrl ? ' (TEST_DATABASE_URL set)' : ''}.`,
    '',
    `- Machine: ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} logical CPUs, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}.`,
    '  The load generator, the server (one Node process) and PostgreSQL share these CPUs.',
    `  Load average (1 min) at the start: ${startLoad.toFixed(2)}; other work on the machine slows every figure alike.`,
    '- Data: 100,000 products (95% available) of 2,000 sellers spread uniformly over a 40-mile disc',
    '  around the Loop (one in fifty without coordinates), 200 buyers, 20,000 delivered orders with a',
    '  seller review each, the categories, and a weekly pickup schedule for every seller (bench/catalog-fill.mjs).',
    `  The buyer measuring lives in ZIP 60601 and has ${SHOPPER_ORDERS} delivered orders. "a product", "a seller's reviews"`,
    '  and "a seller\'s pickup slots" are read as a visitor; "signed in" calls carry the buyer\'s session cookie.',
    `- Load: ${REQUESTS} requests per call to the server and ${BARE_REQUESTS} to the bare server, ${CONCURRENCY} at a time on`,
    `  keep-alive connections, after ${WARMUP} warm-up requests (the new page each call: ${NEW_PAGE_REQUESTS} after ${NEW_PAGE_WARMUP}),`,
    `  and ${PROCESS_WARMUP} requests of the first call to each server before anything is measured;`,
    '  pages of 48 products (the default). CPU per request: user and system time of the server process',
    "  (with the embedded database's process, its child) and of the load generator over the measured requests;",
    '  before each call the server is left to settle until it uses under 5% of a core, and each call is measured',
    `  in ${SLICES} turns of the server and the bare server (both running), so a ratio's two figures see the same machine.`,
    `- Server: the built app (\`node ${SERVER_NODE_FLAGS.join(' ')} dist/server/main.js\` as \`npm start\` runs it, NODE_ENV=production, LOG_LEVEL=${LOG_LEVEL}) on 127.0.0.1;`,
    '  the bare server answers the very bytes the app sent, captured once per call, with no other work.',
    '- The app keeps finished public answers until the catalog changes',
    '  (docs/decisions/0015-catalog-and-checkout-throughput.md): a repeated call is served from memory.',
    '  It also keeps the users of sessions and lists of own orders until a session, a user or an order',
    '  changes, on PostgreSQL behind a fence; the current user and the distance list of a kept user are',
    "  answered in the server's listener (docs/decisions/0029-signed-in-reads-kept.md).",
    '  Targets: every public read at least 0.6 of bare, the signed-in reads at least 0.5, on both',
    '  databases. "of bare" is the ratio to the bare server of the same run.',
    '  "list, a new page each call" asks for a page of its own each time (offsets 0–1,099), so every',
    '  answer is computed: the cost without the cache. No call sends If-None-Match or Accept-Encoding.',
    '',
  ];
  for (const run of runs) {
    lines.push(`## ${run.version}`, '', `Filled in ${(run.fillMs / 1000).toFixed(1)} s.`, '');
    lines.push(
      '| target | call | items | req/s | of bare | server CPU µs/req | load generator CPU µs/req | p50 ms | p95 ms | p99 ms | max ms | bytes | failed |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    const bareRps = new Map(run.rows.filter((r) => r.count === null).map((r) => [r.scenario, r.rps]));
    for (const row of run.rows) {
      const bare = bareRps.get(row.scenario);
      const ratio = row.count !== null && bare ? (row.rps / bare).toFixed(2) : '';
      lines.push(
        `| ${row.target} | ${row.scenario} | ${row.count ?? ''} | ${row.rps.toFixed(0)} | ${ratio} | ${cpuText(row.serverCpuUs)} | ${cpuText(row.clientCpuUs)} | ${row.p50.toFixed(2)} | ${row.p95.toFixed(2)} | ${row.p99.toFixed(2)} | ${row.max.toFixed(2)} | ${row.bytes} | ${row.failures} |`,
      );
    }
    lines.push(
      '',
      `Distance filter ≤ ${run.distance.miles} mi, the first page of 48 as the app queries it (sellers in rings of doubling`,
      "radius, each through its box on the primary-location index, then each seller's available products by index,",
      'stopping at the ring that fills the page) against a full scan computing the distance of every available product',
      `and sorting them; the same page, median of ${DISTANCE_RUNS} runs of each, taking turns, the server stopped:`,
      '',
      '| query | median ms | full scan ÷ filtered |',
      '|---|---:|---:|',
      `| filtered (the app's) | ${run.distance.filteredMs.toFixed(2)} | ${(run.distance.fullScanMs / run.distance.filteredMs).toFixed(1)}× |`,
      `| full scan | ${run.distance.fullScanMs.toFixed(2)} | |`,
      '',
    );
  }
  return lines.join('\n');
}

async function main() {
  const started = Date.now();
  const startLoad = os.loadavg()[0];
  if (!fs.existsSync(SERVER)) throw new Error(`${SERVER} is missing: run npm run build:server first`);
  const runs = [];
  try {
    for (const kind of databases) {
      if (kind === 'postgres' && !adminUrl) throw new Error('--db=postgres needs TEST_DATABASE_URL');
      if (kind !== 'postgres' && kind !== 'pglite') throw new Error(`Unknown database ${kind}`);
      runs.push(await benchDatabase(kind));
    }
  } finally {
    stopChildren();
    for (const cleanup of cleanups.reverse())
      await cleanup().catch((error) => log(`cleanup: ${error.message}`));
  }
  const text = report(runs, started, startLoad);
  fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
  fs.writeFileSync(RESULTS, `${text}\n`);
  log(
    `\n${text}\nWritten to ${path.relative(process.cwd(), RESULTS)} in ${((Date.now() - started) / 1000).toFixed(0)} s.`,
  );
}

main()
  .catch((error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exitCode = 1;
  })
  .finally(() => clearTimeout(watchdog));
