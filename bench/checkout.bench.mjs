// The checkout benchmark: N buyers at once quote, start a payment and pay it
// with the test provider's succeeding card, over HTTP against the built server
// (dist/server/main.js), on a few hot products everyone wants and many cold ones. Then it checks
// the books: no product sold more than it had, stock never negative, every succeeded payment has
// its orders, and the units sold are the orders' quantities.
//
//   npm run bench:checkout                 PGlite, and PostgreSQL too when TEST_DATABASE_URL is set
//   node bench/checkout.bench.mjs --db=postgres --buyers=64 --seconds=20
//   … --count-statements   also count the statements the server sends (bench/count-statements.mjs)
//   … --profile=DIR        the server writes a V8 CPU profile to DIR (node --cpu-prof)
//   … --flash              a flash sale: 16 buyers on 8 products of large stock, nothing else
//   … --ceiling            PostgreSQL only: also trace 30 paid checkouts' statements and replay them
//                          straight against a fresh database of the same data with as many pg
//                          clients as buyers (fresh ids each time): the machine's ceiling, and the
//                          app's share of it; written to the "Ceiling" section of the results
//   … --rounds=N           with --ceiling: the app and the replay take N turns each of seconds÷N
//                          (default 4), so the machine's drift during the run weighs on both alike
//   … --app-root=DIR       run the server built in another checkout (its dist/ and migrations)
//
// Sessions are written straight into the database with cookies signed by the server's secret, so
// no password hashing happens in the measured window. Everything runs on 127.0.0.1 and stops by
// itself. Results: bench/results/checkout.md (and printed).
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../scripts/server-node-flags.mjs';
import { spawn } from 'node:child_process';
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
import { preparePostgresDatabase } from './bench-database.mjs';
import { md5Uuid, uuidOf } from './bench-ids.mjs';
import { productId } from './catalog-fill.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const RESULTS = path.join(ROOT, 'bench/results/checkout.md');
const RUN_LIMIT_MS = 10 * 60 * 1000;

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value = 'true'] = arg.replace(/^--/, '').split('=');
    return [key, value];
  }),
);
/** --app-root=DIR: the checkout whose built server (and migrations) are measured. */
const APP_ROOT = path.resolve(args['app-root'] ?? ROOT);
const MIGRATIONS = path.join(APP_ROOT, 'src/server/db/migrations');
const SERVER = path.join(APP_ROOT, 'dist/server/main.js');
const FLASH = args.flash === 'true';
const CEILING = args.ceiling === 'true';
const BUYERS = Number(args.buyers ?? (FLASH ? 16 : 64));
// With --ceiling, 40: four turns of 10 s each for the app and for the replay.
const SECONDS = Number(args.seconds ?? (args.ceiling === 'true' ? 40 : 20));
// The server's code is compiled to its fastest form only after thousands of checkouts: with 3 s of
// warm-up the first half minute of a run still spent a tenth of the server's CPU compiling
// (V8's compiler threads; docs/decisions/0025-checkout-statements.md, A warm server).
const WARMUP_SECONDS = Number(args.warmup ?? 20);
/** --rounds=N: with --ceiling, the app's and the replay's seconds are split into N turns each. */
const ROUNDS = CEILING ? Number(args.rounds ?? 4) : 1;
const SELLERS = 100;
const HOT_PRODUCTS = FLASH ? 8 : 5;
const HOT_STOCK = Number(args['hot-stock'] ?? (FLASH ? 1_000_000 : 20));
const COLD_PRODUCTS = 2000;
const COLD_STOCK = 1000;
/** One checkout in this many buys a hot product. */
const HOT_SHARE = FLASH ? 1 : 0.3;
const adminUrl = process.env.TEST_DATABASE_URL;
const databases = (args.db ?? (adminUrl ? 'pglite,postgres' : 'pglite')).split(',');
/** --label=before: the name of this run's column in the results (kept from earlier runs). */
const LABEL = args.label ?? 'this run';
/** --profile=DIR: the server writes a V8 CPU profile there (node --cpu-prof) when it stops. */
const PROFILE_DIR = args.profile ? path.resolve(args.profile) : undefined;
/** --count-statements: the statements the server sent in the measured window, an order's share of each. */
const COUNT_STATEMENTS = args['count-statements'] === 'true' || CEILING;

const children = new Set();
const cleanups = [];
const stopChildren = () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
};
const watchdog = setTimeout(() => {
  process.stderr.write('The checkout benchmark ran too long; stopping.\n');
  stopChildren();
  process.exit(1);
}, RUN_LIMIT_MS);
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    stopChildren();
    process.exit(130);
  });
const log = (line) => process.stdout.write(`${line}\n`);

// --- Data --------------------------------------------------------------------------------------

const uuid = (kind, i) => uuidOf(`'bench-${kind}-' || ${i}`);

/** Sellers and buyers around the Loop, the hot and the cold products, and the buyers' sessions. */
function fillStatements(sessions) {
  return [
    `insert into users (id, email, first_name, last_name, role, roles)
     select ${uuid('seller', 'i')}, 'bench-seller-' || i || '@example.com', 'Seller', 'No ' || i, 'seller',
            ARRAY['buyer','seller']::text[]
     from generate_series(1, ${SELLERS}) i`,
    `insert into users (id, email, first_name, last_name, role, roles)
     select ${uuid('buyer', 'i')}, 'bench-buyer-' || i || '@example.com', 'Buyer', 'No ' || i, 'buyer',
            ARRAY['buyer']::text[]
     from generate_series(1, ${BUYERS}) i`,
    `insert into addresses (id, user_id, address_line1, city, state, zip_code, latitude, longitude, is_verified, is_primary)
     select ${uuidOf("'bench-address-' || u.email")}, u.id, (100 + n) || ' W Bench St', 'Chicago', 'IL', '60601',
            41.8781 + (n % 40 - 20) * 0.005, -87.6298 + (n % 37 - 18) * 0.005, true, true
     from (select id, email, row_number() over (order by email) as n from users where email like 'bench-%') u`,
    `insert into products (id, seller_id, name, description, price, category, stock, available)
     select ${uuid('product', 'i')}, ${uuid('seller', `1 + i % ${SELLERS}`)},
            case when i <= ${HOT_PRODUCTS} then 'Hot Lantern ' || i else 'Cold Chair ' || i end,
            'A benchmark product.', 10 + (i % 50), 'Furniture',
            case when i <= ${HOT_PRODUCTS} then ${HOT_STOCK} else ${COLD_STOCK} end, true
     from generate_series(1, ${HOT_PRODUCTS + COLD_PRODUCTS}) i`,
    `insert into sessions (sid, sess, user_id, expire) values ${sessions
      .map((s) => `('${s.sid}', '{"userId":"${s.userId}"}'::jsonb, '${s.userId}', now() + interval '1 day')`)
      .join(', ')}`,
    'analyze',
  ];
}

/** A cookie as @fastify/cookie signs it: value.base64(HMAC-SHA256(value)) without padding. */
function signedCookie(sid, secret) {
  const mac = crypto.createHmac('sha256', secret).update(sid).digest('base64').replace(/=+$/, '');
  return `sid=${encodeURIComponent(`${sid}.${mac}`)}`;
}

function buyersOf(secret) {
  return Array.from({ length: BUYERS }, (_, k) => {
    const i = k + 1;
    const email = `bench-buyer-${i}@example.com`;
    const sid = crypto.randomBytes(32).toString('base64url');
    return {
      userId: md5Uuid(`bench-buyer-${i}`),
      addressId: md5Uuid(`bench-address-${email}`),
      sid,
      cookie: signedCookie(sid, secret),
    };
  });
}

async function preparePglite(dataDir, sessions) {
  const client = new PGlite(path.join(dataDir, 'db'), { extensions: { pg_trgm } });
  await client.waitReady;
  try {
    await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS });
    for (const statement of fillStatements(sessions)) await client.exec(statement);
    const version = (await client.query('select version()')).rows[0].version.split(' on ')[0];
    return { env: {}, version: `PGlite (${version})`, query: undefined };
  } finally {
    await client.close();
  }
}

function preparePostgres(sessions) {
  return preparePostgresDatabase({
    adminUrl,
    migrationsFolder: MIGRATIONS,
    fill: async (query) => {
      for (const statement of fillStatements(sessions)) await query(statement);
    },
    cleanups,
  });
}

/** Reads the books after the run: on PGlite once the server has stopped (it is single-process). */
async function withDatabase(kind, prepared, dataDir, use) {
  if (kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: prepared.env.DATABASE_URL, max: 1 });
    try {
      return await use(async (text) => (await pool.query(text)).rows);
    } finally {
      await pool.end();
    }
  }
  const client = new PGlite(path.join(dataDir, 'db'), { extensions: { pg_trgm } });
  await client.waitReady;
  try {
    return await use(async (text) => (await client.query(text)).rows);
  } finally {
    await client.close();
  }
}

// --- Processes and HTTP ------------------------------------------------------------------------

function startServer(env) {
  const flags = [
    ...SERVER_NODE_FLAGS,
    ...(PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []),
    ...(COUNT_STATEMENTS ? ['--import', path.join(ROOT, 'bench/count-statements.mjs')] : []),
  ];
  const child = spawn(process.execPath, [...flags, SERVER], {
    cwd: APP_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start in time:\n${output}`)), 90_000);
    child.stdout.on('data', (chunk) => {
      output += chunk.toString();
      const match = /is running at http:\/\/[^:]+:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]), output: () => output });
      }
    });
    child.stderr.on('data', (chunk) => (output += chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}:\n${output}`));
    });
  });
}

/** CPU milliseconds (user + system) a process has used so far, from /proc (Linux). */
function cpuMsOf(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/** The processes a process started, and theirs (Linux /proc). */
function descendantsOf(pid) {
  const found = [];
  let tasks = [];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return found;
  }
  for (const task of tasks) {
    let children = '';
    try {
      children = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const child of children.split(' ').filter(Boolean).map(Number))
      found.push(child, ...descendantsOf(child));
  }
  return found;
}

const commandOf = (pid) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
};

/**
 * The CPU milliseconds so far of the server's processes (the server and any workers it started) and
 * of the database's (the embedded database's process, or PostgreSQL's backends serving the
 * benchmark's database), by pid, so a window's cost is the difference of two of these.
 */
async function cpuSnapshot(serverPid, databaseName) {
  const app = new Map([[serverPid, cpuMsOf(serverPid)]]);
  const database = new Map();
  for (const pid of descendantsOf(serverPid))
    (commandOf(pid).includes('embedded-db') ? database : app).set(pid, cpuMsOf(pid));
  if (databaseName) {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      const { rows } = await client.query(
        "select pid from pg_stat_activity where datname = $1 and backend_type = 'client backend'",
        [databaseName],
      );
      for (const { pid } of rows) database.set(pid, cpuMsOf(pid));
    } finally {
      await client.end();
    }
  }
  return { app, database, client: process.cpuUsage() };
}

/** CPU milliseconds spent between two snapshots; a process that started in between counts from zero. */
function cpuSpent(before, after) {
  const sum = (key) =>
    [...after[key]].reduce(
      (total, [pid, ms]) => total + (Number.isNaN(ms) ? 0 : ms - (before[key].get(pid) ?? 0)),
      0,
    );
  const client = process.cpuUsage(before.client);
  return { app: sum('app'), database: sum('database'), client: (client.user + client.system) / 1000 };
}

/** The server's statement counts since the last call (bench/count-statements.mjs). */
async function takeStatementCounts(child, file) {
  fs.rmSync(file, { force: true });
  child.kill('SIGUSR2');
  for (let i = 0; i < 200 && !fs.existsSync(file); i++)
    await new Promise((resolve) => setTimeout(resolve, 25));
  await new Promise((resolve) => setTimeout(resolve, 50));
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

async function stopProcess(child) {
  if (child.exitCode !== null) return;
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

function post(port, agent, urlPath, cookie, body) {
  return new Promise((resolve, reject) => {
    const payload = Buffer.from(JSON.stringify(body));
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: urlPath,
        agent,
        headers: { cookie, 'content-type': 'application/json', 'content-length': payload.length },
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let json;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode, json, text });
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(60_000, () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(payload);
  });
}

// --- The load ----------------------------------------------------------------------------------

const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Bench Buyer' };

/**
 * A product by the run's mix: one of the hot ones for HOT_SHARE of checkouts, else a cold one.
 * The warm-up (`coldOnly`) leaves the hot products of the hot-and-cold mix their stock for the run.
 */
function pickProduct(random, coldOnly = false) {
  return !(coldOnly && !FLASH) && random() < HOT_SHARE
    ? 1 + Math.floor(random() * HOT_PRODUCTS)
    : HOT_PRODUCTS + 1 + Math.floor(random() * COLD_PRODUCTS);
}

/**
 * One buyer's checkout of one product: quote, start the payment, pay. Answers { orders, quantity },
 * { soldOut } or { failure }.
 */
async function checkoutOnce(port, agent, buyer, random, warmUp) {
  const index = pickProduct(random, warmUp);
  const quantity = 1 + Math.floor(random() * 2);
  const body = {
    items: [{ productId: productId(index), quantity }],
    isPickup: false,
    deliveryAddressId: buyer.addressId,
  };
  try {
    const quote = await post(port, agent, '/api/checkout/quote', buyer.cookie, body);
    if (quote.status !== 200) return { failure: `quote ${quote.status} ${quote.json?.message ?? ''}` };
    if (quote.json?.problems?.length) return { soldOut: true };
    const payment = await post(port, agent, '/api/payments', buyer.cookie, body);
    if (payment.status !== 201) {
      if (payment.status === 409 || payment.json?.quote?.problems?.length) return { soldOut: true };
      return { failure: `payment ${payment.status} ${payment.json?.code ?? ''}` };
    }
    const confirmed = await post(
      port,
      agent,
      `/api/payments/${payment.json.paymentId}/confirm`,
      buyer.cookie,
      CARD,
    );
    if (confirmed.status === 200 && Array.isArray(confirmed.json?.orders) && confirmed.json.orders.length)
      return { orders: confirmed.json.orders.length, quantity, index };
    // 409: sold out between the payment and its confirmation: refunded, no order.
    if (confirmed.status === 409) return { soldOut: true };
    return { failure: `confirm ${confirmed.status} ${confirmed.json?.code ?? confirmed.text.slice(0, 80)}` };
  } catch (error) {
    return { failure: error.message };
  }
}

/**
 * Every buyer checks out one product after another until the time is up: quote, start the
 * payment, pay. Answers the counts and the latency of each whole checkout that was paid.
 */
async function runBuyers(port, buyers, seconds, random, warmUp = false) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: buyers.length });
  const stats = { paid: 0, paidUnits: 0, soldOut: 0, failed: 0, failures: new Map(), latencies: [] };
  const fail = (what) => {
    stats.failed++;
    stats.failures.set(what, (stats.failures.get(what) ?? 0) + 1);
  };
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    buyers.map(async (buyer) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const outcome = await checkoutOnce(port, agent, buyer, random, warmUp);
        if (outcome.orders) {
          stats.paid += outcome.orders;
          stats.paidUnits += outcome.quantity;
          stats.latencies.push(performance.now() - t0);
        } else if (outcome.soldOut) stats.soldOut++;
        else fail(outcome.failure);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  stats.latencies.sort((a, b) => a - b);
  const at = (q) =>
    stats.latencies[Math.min(stats.latencies.length - 1, Math.ceil(q * stats.latencies.length) - 1)] ?? 0;
  return {
    ...stats,
    seconds: elapsed,
    ordersPerSecond: stats.paid / elapsed,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
  };
}

/** A deterministic random stream, so runs buy the same things in the same order. */
function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The books after the run: what must hold whatever the load did. */
async function audit(query) {
  const [stock] = await query(`
    select count(*) filter (where p.stock < 0)::int as negative,
           count(*) filter (where p.stock + coalesce(s.units, 0) <> (case when p.name like 'Hot%' then ${HOT_STOCK} else ${COLD_STOCK} end))::int as mismatched,
           coalesce(sum(s.units), 0)::int as units,
           count(*) filter (where p.name like 'Hot%' and p.stock = 0)::int as hot_sold_out
    from products p
    left join (select oi.product_id, sum(oi.quantity) as units from order_items oi
               join orders o on o.id = oi.order_id group by oi.product_id) s on s.product_id = p.id
    where p.name like 'Hot%' or p.name like 'Cold%'`);
  const [payments] = await query(`
    select count(*) filter (where p.status = 'succeeded')::int as succeeded,
           count(*) filter (where p.status = 'succeeded' and not exists (select 1 from orders o where o.payment_id = p.id)
                            and not exists (select 1 from refunds r where r.payment_id = p.id))::int as without_orders,
           (select count(*)::int from orders) as orders
    from payments p`);
  return { ...stock, ...payments };
}

// --- The ceiling: the checkout's own statements replayed straight against PostgreSQL ----------

const TRACED_CHECKOUTS = 30;
/**
 * What a checkout makes new: row ids, the test provider's payment and charge ids, order numbers,
 * the checkout's key (43 characters of base64url, as a session id is).
 */
const FRESH =
  /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\b[a-z]{2,4}_[0-9a-f]{16,}\b|\bORD-[A-Z0-9]+\b|(?<![\w-])[\w-]{43}(?![\w-])/gi;

/** A new value of the same shape as `id`. */
function freshLike(id) {
  if (id.length === 36) return crypto.randomUUID();
  if (id.length === 43) return crypto.randomBytes(32).toString('base64url');
  const cut = id.indexOf(id.startsWith('ORD-') ? '-' : '_') + 1;
  const fresh = crypto
    .randomBytes(id.length)
    .toString('hex')
    .slice(0, id.length - cut);
  return id.slice(0, cut) + (id.startsWith('ORD-') ? fresh.toUpperCase() : fresh);
}

/**
 * One buyer checks out products of the run's mix one after another until TRACED_CHECKOUTS are paid;
 * answers each paid checkout's statements in the order the server sent them
 * (bench/count-statements.mjs), with what it bought and who bought it.
 */
async function traceCheckouts(server, buyer, countsFile, traceFile) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const random = seeded(99);
  const traces = [];
  await takeStatementCounts(server.child, countsFile);
  for (let attempt = 0; attempt < TRACED_CHECKOUTS * 4 && traces.length < TRACED_CHECKOUTS; attempt++) {
    const outcome = await checkoutOnce(server.port, agent, buyer, random);
    await takeStatementCounts(server.child, countsFile);
    const statements = fs
      .readFileSync(traceFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    if (outcome.orders) traces.push({ index: outcome.index, buyer, statements });
  }
  agent.destroy();
  fs.writeFileSync(`${traceFile}.stop`, '');
  await takeStatementCounts(server.child, countsFile);
  // The server's background jobs (its job queue's polling, the outbox, live events) send statements
  // too, and some land in a checkout's window: only the checkouts whose window holds the commonest
  // sequence of statement texts are kept, which are the checkout's own statements alone.
  const shape = (trace) => trace.statements.map((statement) => statement.text).join('\n');
  const seen = new Map();
  for (const trace of traces) seen.set(shape(trace), (seen.get(shape(trace)) ?? 0) + 1);
  const commonest = [...seen].sort((a, b) => b[1] - a[1])[0]?.[0];
  return { traced: traces.length, traces: traces.filter((trace) => shape(trace) === commonest) };
}

/**
 * A traced checkout made a new one: its product becomes `index`, its buyer `buyer` (user, address,
 * session), and every other uuid, provider id and order number in it (what it inserted) a fresh one.
 */
function substituted(trace, index, buyer) {
  const sellerOf = (i) => md5Uuid(`bench-seller-${1 + (i % SELLERS)}`);
  const ids = new Map([
    [trace.buyer.sid, buyer.sid],
    [productId(trace.index), productId(index)],
    [sellerOf(trace.index), sellerOf(index)],
    [trace.buyer.userId, buyer.userId],
    [trace.buyer.addressId, buyer.addressId],
  ]);
  const swap = (text) =>
    text.replace(FRESH, (id) => {
      if (!ids.has(id)) ids.set(id, freshLike(id));
      return ids.get(id);
    });
  return trace.statements.map((statement) => ({
    client: statement.client,
    text: swap(statement.text),
    values: statement.values && JSON.parse(swap(JSON.stringify(statement.values))),
  }));
}

/**
 * Replays the traced checkouts with as many pg clients as buyers, for the run's seconds, against a
 * fresh database of the same data: each client takes a traced checkout after another (round robin),
 * a product by the run's mix and its own buyer, and sends its statements one after another. A
 * checkout whose statements went on several connections in the server goes on as many here.
 */
/**
 * Waits until the app's server and database use under 5% of a core over half a second, twice in a
 * row (its jobs done), at most 60 s; answers the seconds until the first of those quiet half
 * seconds began (the time the app still worked) and the CPU its server and database used meanwhile.
 */
async function settle(serverPid, databaseName) {
  const started = performance.now();
  let quietSince;
  let quiet = 0;
  let cpuMs = 0;
  while (quiet < 2 && performance.now() - started < 60_000) {
    const before = await cpuSnapshot(serverPid, databaseName);
    const t0 = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const spent = cpuSpent(before, await cpuSnapshot(serverPid, databaseName));
    cpuMs += spent.app + spent.database;
    if ((spent.app + spent.database) / (performance.now() - t0) < 0.05) {
      quietSince ??= t0;
      quiet++;
    } else {
      quietSince = undefined;
      quiet = 0;
    }
  }
  return { seconds: ((quietSince ?? performance.now()) - started) / 1000, cpuMs };
}

/**
 * The ceiling's database, made once with the same data, and its replaying clients: `run(seconds)`
 * replays kept checkouts for that long (as many clients as buyers, each with a first connection
 * opened before the clock starts) and answers that round's checkouts a second; `summary()` adds
 * the rounds up.
 */
async function openReplay(traces, buyers) {
  const prepared = await preparePostgres(buyers);
  const connect = async () => {
    const client = new pg.Client({ connectionString: prepared.env.DATABASE_URL });
    client.on('error', () => {});
    await client.connect();
    return client;
  };
  const stats = { checkouts: 0, failed: 0, failures: new Map(), latencies: [], seconds: 0, loads: [] };
  const random = seeded(42);
  let next = 0;
  let firstConnections;
  cleanups.push(async () => {
    await Promise.all((firstConnections ?? []).map((client) => client.end().catch(() => {})));
  });
  const run = async (seconds) => {
    const connections = [];
    let checkouts = 0;
    const worker = async (buyer, opened) => {
      const clients = new Map();
      let spare = opened;
      const deadline = performance.now() + seconds * 1000;
      while (performance.now() < deadline) {
        const trace = traces[next++ % traces.length];
        const t0 = performance.now();
        let failed;
        for (const statement of substituted(trace, pickProduct(random), buyer)) {
          if (!clients.has(statement.client)) {
            const client = spare ?? (await connect());
            spare = undefined;
            connections.push(client);
            clients.set(statement.client, client);
          }
          const client = clients.get(statement.client);
          try {
            await client.query({ text: statement.text, values: statement.values });
          } catch (error) {
            failed ??= error.message.slice(0, 80);
            await client.query('rollback').catch(() => {});
          }
        }
        if (failed) {
          stats.failed++;
          stats.failures.set(failed, (stats.failures.get(failed) ?? 0) + 1);
        } else {
          checkouts++;
          stats.latencies.push(performance.now() - t0);
        }
      }
    };
    // Each client's first connection is opened once, before the first round's clock starts, and
    // kept for the next rounds.
    firstConnections ??= await Promise.all(buyers.map(() => connect()));
    const opened = firstConnections;
    const loadBefore = os.loadavg()[0];
    const started = performance.now();
    try {
      await Promise.all(buyers.map((buyer, i) => worker(buyer, opened[i])));
    } finally {
      const others = connections.filter((client) => !opened.includes(client));
      await Promise.all(others.map((client) => client.end().catch(() => {})));
    }
    const elapsed = (performance.now() - started) / 1000;
    stats.checkouts += checkouts;
    stats.seconds += elapsed;
    stats.loads.push((loadBefore + os.loadavg()[0]) / 2);
    return checkouts / elapsed;
  };
  const summary = () => {
    stats.latencies.sort((a, b) => a - b);
    return {
      checkouts: stats.checkouts,
      failed: stats.failed,
      failures: stats.failures,
      seconds: stats.seconds,
      perSecond: stats.checkouts / stats.seconds,
      p50: stats.latencies[Math.floor(stats.latencies.length / 2)] ?? 0,
      load: stats.loads.reduce((sum, load) => sum + load, 0) / Math.max(1, stats.loads.length),
      statementsPerCheckout:
        traces.reduce((sum, trace) => sum + trace.statements.length, 0) / Math.max(1, traces.length),
      connectionsPerCheckout:
        traces.reduce((sum, trace) => sum + new Set(trace.statements.map((s) => s.client)).size, 0) /
        Math.max(1, traces.length),
    };
  };
  return { run, summary };
}

/** Rounds of buyers as one run: their counts added, their latencies pooled. */
function mergeRuns(parts) {
  const failures = new Map();
  for (const part of parts)
    for (const [what, n] of part.failures) failures.set(what, (failures.get(what) ?? 0) + n);
  const latencies = parts.flatMap((part) => part.latencies).sort((a, b) => a - b);
  const sum = (key) => parts.reduce((total, part) => total + part[key], 0);
  const seconds = sum('seconds');
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)] ?? 0;
  return {
    paid: sum('paid'),
    paidUnits: sum('paidUnits'),
    soldOut: sum('soldOut'),
    failed: sum('failed'),
    failures,
    latencies,
    seconds,
    ordersPerSecond: sum('paid') / seconds,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
  };
}

// --- The run -----------------------------------------------------------------------------------

async function benchDatabase(kind) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-checkout-bench-'));
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const secret = crypto.randomBytes(32).toString('hex');
  const buyers = buyersOf(secret);
  log(
    `\n[${kind}] ${SELLERS} sellers, ${HOT_PRODUCTS} hot and ${COLD_PRODUCTS} cold products, ${BUYERS} buyers…`,
  );
  const prepared = kind === 'postgres' ? await preparePostgres(buyers) : await preparePglite(dataDir, buyers);
  const countsFile = path.join(dataDir, 'statement-counts.json');
  const traceFile = path.join(dataDir, 'statement-trace.jsonl');
  const server = await startServer({
    ...SERVER_ENV,
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    SESSION_SECRET: secret,
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    DEMO_DATA: 'off',
    ALLOW_TEST_PAYMENTS: 'true',
    LOG_LEVEL: 'warn',
    ...(COUNT_STATEMENTS ? { BENCH_STATEMENT_COUNTS: countsFile } : {}),
    ...(CEILING ? { BENCH_STATEMENT_TRACE: traceFile } : {}),
    ...prepared.env,
  });
  let result;
  let traced;
  let replay;
  const roundRatios = [];
  const appDuringReplay = { cpuMs: 0, ms: 0 };
  const settled = [];
  try {
    if (CEILING) {
      traced = await traceCheckouts(server, buyers[0], countsFile, traceFile);
      replay = await openReplay(traced.traces, buyers);
    }
    if (WARMUP_SECONDS > 0) await runBuyers(server.port, buyers.slice(0, 8), WARMUP_SECONDS, seeded(7), true);
    if (COUNT_STATEMENTS) await takeStatementCounts(server.child, countsFile);
    // With --ceiling the app and the replay take turns, ROUNDS each, so that a machine that slows
    // down or speeds up during the run weighs on both sides of the ratio alike.
    const parts = [];
    const cpu = { app: 0, database: 0, client: 0 };
    const loads = [];
    const random = seeded(42);
    for (let round = 0; round < ROUNDS; round++) {
      const cpuBefore = await cpuSnapshot(server.child.pid, prepared.databaseName);
      const loadBefore = os.loadavg()[0];
      const part = await runBuyers(server.port, buyers, SECONDS / ROUNDS, random);
      if (replay) {
        // The round's work is not done when its buyers are: the app's jobs go on (the orders' mail,
        // say). Before the replay takes its turn the app finishes it, and the time that takes is
        // the app's: its orders a second count it.
        const finished = await settle(server.child.pid, prepared.databaseName);
        part.seconds += finished.seconds;
        part.ordersPerSecond = part.paid / part.seconds;
        settled.push(finished);
      }
      const spent = cpuSpent(cpuBefore, await cpuSnapshot(server.child.pid, prepared.databaseName));
      for (const key of Object.keys(cpu)) cpu[key] += spent[key];
      loads.push((loadBefore + os.loadavg()[0]) / 2);
      parts.push(part);
      if (replay) {
        // The app's server and database stay up, idle but for its jobs finishing this round's
        // work (mail of the orders, say): what that costs during the replay is reported beside it.
        const idleBefore = await cpuSnapshot(server.child.pid, prepared.databaseName);
        const replayStarted = performance.now();
        const ceilingPerSecond = await replay.run(SECONDS / ROUNDS);
        const idle = cpuSpent(idleBefore, await cpuSnapshot(server.child.pid, prepared.databaseName));
        appDuringReplay.cpuMs += idle.app + idle.database;
        appDuringReplay.ms += performance.now() - replayStarted;
        roundRatios.push(part.ordersPerSecond / ceilingPerSecond);
      }
    }
    result = mergeRuns(parts);
    result.load = loads.reduce((sum, load) => sum + load, 0) / loads.length;
    // What one paid order costs the server, the database and the buyers' process, whatever else runs
    // on the machine.
    const perOrder = (ms) => ms / Math.max(1, result.paid);
    result.serverCpuMsPerOrder = perOrder(cpu.app);
    result.databaseCpuMsPerOrder = perOrder(cpu.database);
    result.clientCpuMsPerOrder = perOrder(cpu.client);
    log(
      `[${kind}] ${result.paid} orders paid in ${result.seconds.toFixed(1)} s: ${result.ordersPerSecond.toFixed(0)}/s, ` +
        `p50 ${result.p50.toFixed(0)} ms, p99 ${result.p99.toFixed(0)} ms; ${result.soldOut} sold out, ${result.failed} failed; ` +
        `CPU an order: server ${result.serverCpuMsPerOrder.toFixed(1)} ms, database ${result.databaseCpuMsPerOrder.toFixed(1)} ms, ` +
        `buyers ${result.clientCpuMsPerOrder.toFixed(1)} ms; load ${result.load.toFixed(1)}`,
    );
    for (const [what, n] of result.failures) log(`  ${n} × ${what}`);
    if (COUNT_STATEMENTS) {
      const counts = Object.entries(await takeStatementCounts(server.child, countsFile)).sort(
        (a, b) => b[1] - a[1],
      );
      const total = counts.reduce((sum, [, n]) => sum + n, 0);
      result.statementsPerOrder = total / Math.max(1, result.paid);
      log(
        `[${kind}] ${total} statements, ${result.statementsPerOrder.toFixed(1)} an order (attempts that sold out included):`,
      );
      for (const [text, n] of counts)
        log(`  ${(n / Math.max(1, result.paid)).toFixed(2)}  ${text.slice(0, 160)}`);
    }
  } finally {
    await stopProcess(server.child);
  }
  const books = await withDatabase(kind, prepared, dataDir, audit);
  log(`[${kind}] books: ${JSON.stringify(books)}`);
  let ceiling;
  if (CEILING) {
    ceiling = replay.summary();
    ceiling.traced = traced.traced;
    ceiling.kept = traced.traces.length;
    ceiling.roundRatios = roundRatios;
    ceiling.appCpuShare = appDuringReplay.cpuMs / Math.max(1, appDuringReplay.ms);
    ceiling.settled = settled;
    log(
      `[${kind}] ceiling: ${traced.traces.length} of ${traced.traced} traced checkouts (${ceiling.statementsPerCheckout.toFixed(1)} statements, ` +
        `${ceiling.connectionsPerCheckout.toFixed(1)} connections each) replayed ${ceiling.checkouts} times in ` +
        `${ceiling.seconds.toFixed(1)} s: ${ceiling.perSecond.toFixed(0)}/s, p50 ${ceiling.p50.toFixed(0)} ms, ` +
        `${ceiling.failed} failed; load ${ceiling.load.toFixed(1)}; the app reached ${(result.ordersPerSecond / ceiling.perSecond).toFixed(2)} of it ` +
        `(rounds: ${roundRatios.map((ratio) => ratio.toFixed(2)).join(', ')}); ` +
        `the app's jobs took ${settled.map((f) => f.seconds.toFixed(1)).join(', ')} s to finish after its rounds ` +
        `(${settled.map((f) => (f.cpuMs / 1000).toFixed(1)).join(', ')} s of CPU), ` +
        `and its idle server and database used ${(ceiling.appCpuShare * 100).toFixed(1)}% of a core during the replay`,
    );
    for (const [what, n] of ceiling.failures) log(`  ${n} × ${what}`);
  }
  return { kind, version: prepared.version, result, books, ceiling };
}

function report(runs, started, startLoad) {
  const cpu = os.cpus();
  const command =
    process.env.npm_lifecycle_event === 'bench:checkout'
      ? `npm run bench:checkout ${process.argv.slice(2).join(' ')}`.trim()
      : `node bench/checkout.bench.mjs ${process.argv.slice(2).join(' ')}`.trim();
  const previous = fs.existsSync(RESULTS) ? fs.readFileSync(RESULTS, 'utf8') : '';
  const kept = previous.split('\n## Earlier runs\n')[1]?.trim() ?? '';
  const lines = [
    '# Checkout benchmark',
    '',
    `Run ${new Date(started).toISOString()} with \`${command}\`${adminUrl ? ' (TEST_DATABASE_URL set)' : ''} (${LABEL}).`,
    '',
    `- Machine: ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} logical CPUs, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}.`,
    '  The buyers (one Node process), the server (one Node process) and PostgreSQL share these CPUs.',
    `  Load average (1 min) at the start: ${startLoad.toFixed(2)}; other work on the machine slows every figure alike.`,
    `- Load: ${BUYERS} buyers at once, each checking out one product after another for ${SECONDS} s (after ${WARMUP_SECONDS} s`,
    `  of 8 buyers warming up${FLASH ? '' : ' on the cold products'}): quote, start the payment, pay with the test card 4242 4242 4242 4242; 1 or 2 units,`,
    `  ${HOT_SHARE * 100}% of checkouts on ${HOT_PRODUCTS} hot products of ${HOT_STOCK} units, the rest on ${COLD_PRODUCTS} cold ones of ${COLD_STOCK};`,
    `  delivery to the buyer's primary address. Sessions are written to the database beforehand (no password hashing).`,
    `- Server: the built app (\`node ${SERVER_NODE_FLAGS.join(' ')} dist/server/main.js\` as \`npm start\` runs it, NODE_ENV=production, ALLOW_TEST_PAYMENTS=true, LOG_LEVEL=warn).`,
    '- Books, read from the database after the run: oversold products (stock below zero, or stock + units',
    '  in orders ≠ the starting stock), succeeded payments without orders and not refunded (lost orders).',
    '',
    '- "CPU ms/order": CPU time (user + system, /proc) during the run over the orders paid, of the server',
    "  process, of the database (the embedded database's process, or PostgreSQL's backends of the",
    "  benchmark's database) and of the buyers' process. Together they bound what the machine can pay:",
    "  its cores × 1000 ÷ their sum orders a second. Socket writes are a large part of the server's share",
    '  and cost more the busier the machine is, so compare runs at a similar load average (given per run).',
    '- "statements/order" (with --count-statements): statements the server sent over the orders paid',
    '  (checkouts that found the stock gone included).',
    '',
    '| database | paid orders | orders/s | load | server CPU ms/order | database CPU ms/order | buyers CPU ms/order | statements/order | p50 ms | p95 ms | p99 ms | sold out | failed | stock < 0 | stock ≠ start − sold | paid without orders | hot sold out |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const run of runs) {
    const r = run.result;
    const b = run.books;
    lines.push(
      `| ${run.version} | ${r.paid} | ${r.ordersPerSecond.toFixed(0)} | ${r.load.toFixed(1)} | ${r.serverCpuMsPerOrder.toFixed(1)} | ${r.databaseCpuMsPerOrder.toFixed(1)} | ${r.clientCpuMsPerOrder.toFixed(1)} | ${r.statementsPerOrder?.toFixed(1) ?? '–'} | ${r.p50.toFixed(0)} | ${r.p95.toFixed(0)} | ${r.p99.toFixed(0)} | ${r.soldOut} | ${r.failed} | ${b.negative} | ${b.mismatched} | ${b.without_orders} | ${b.hot_sold_out} of ${HOT_PRODUCTS} |`,
    );
  }
  const failures = runs.flatMap((run) =>
    [...run.result.failures].map(([what, n]) => `- ${run.kind}: ${n} × ${what}`),
  );
  if (failures.length) lines.push('', 'Failures:', ...failures);
  const summary = runs
    .map(
      (run) =>
        `${run.kind} ${run.result.ordersPerSecond.toFixed(0)} orders/s (CPU an order: server ${run.result.serverCpuMsPerOrder.toFixed(1)} ms, database ${run.result.databaseCpuMsPerOrder.toFixed(1)} ms${run.result.statementsPerOrder ? `; ${run.result.statementsPerOrder.toFixed(1)} statements` : ''})`,
    )
    .join(', ');
  const earlier = [
    `- ${new Date(started).toISOString()} (${LABEL}, load ${startLoad.toFixed(2)}): ${summary}`,
    kept,
  ]
    .filter(Boolean)
    .join('\n');
  lines.push('', '## Earlier runs', '', earlier, '');
  return lines.join('\n');
}

const CEILING_HEADING = "\n## Ceiling: the checkout's statements replayed straight against PostgreSQL\n";

/** The "Ceiling" section: its method once, then a row a `--ceiling` run (kept across runs). */
function ceilingSection(previous, runs, started) {
  const kept = previous.split(CEILING_HEADING)[1]?.split('\n## ')[0] ?? '';
  const rows = kept.split('\n').filter((line) => /^\| \d{4}-/.test(line));
  const command = `node bench/checkout.bench.mjs ${process.argv.slice(2).join(' ')}`;
  for (const run of runs.filter((r) => r.ceiling)) {
    const c = run.ceiling;
    const ratio = run.result.ordersPerSecond / c.perSecond;
    rows.push(
      `| ${new Date(started).toISOString().slice(0, 16)} | ${LABEL} | ${FLASH ? `flash sale: ${BUYERS} buyers, ${HOT_PRODUCTS} products` : `hot and cold: ${BUYERS} buyers`} | ${run.result.ordersPerSecond.toFixed(0)} | ${run.result.load.toFixed(1)} | ${c.perSecond.toFixed(0)} | ${c.load.toFixed(1)} | ${ratio.toFixed(2)} (${c.roundRatios.length > 1 ? `rounds ${Math.min(...c.roundRatios).toFixed(2)}–${Math.max(...c.roundRatios).toFixed(2)}; ` : ''}target ${FLASH ? '0.3' : '0.5'}) | ${c.kept} of ${c.traced} | ${c.statementsPerCheckout.toFixed(0)} | ${run.result.p50.toFixed(0)} / ${c.p50.toFixed(0)} | ${c.failed} | \`${command}\` |`,
    );
  }
  if (!rows.length) return '';
  return [
    CEILING_HEADING.trim(),
    '',
    '- Method (`--ceiling`, PostgreSQL only): after the server starts, one buyer checks out products of the',
    "  run's mix one after another until 30 are paid, and the server (node --import bench/count-statements.mjs,",
    '  BENCH_STATEMENT_TRACE) records every statement it sends with its parameter values and its connection;',
    '  the checkouts whose window holds the commonest sequence of statements are kept (the others caught the',
    "  server's background jobs too). A fresh database with the same data is made beside the app's. Then the",
    '  app (measured as above) and the replay take turns, 4 rounds each of 10 s (40 s in all; since',
    "  2026-11-29; earlier rows: the app, then the replay, the app's jobs left unfinished), so that the machine",
    '  speeding up or slowing down during the run weighs on both sides alike. After each of its rounds the app',
    "  finishes its jobs' work (the orders' mail, say) before the replay's turn, and that time counts as the",
    "  app's (until its server and database use under 5% of a core); the ratio adds the rounds up.",
    '  In the replay as many pg clients as buyers each replay a kept checkout after another (round robin),',
    '  statement by statement (BEGIN … COMMIT included) on one connection, each made a',
    "  new checkout: product by the same mix (its seller with it), the client's own buyer, address and session,",
    '  and fresh row ids, provider ids, order numbers and checkout keys. Replayed checkouts a second is the',
    '  ceiling; ratio = app orders/s ÷ ceiling. Each replay is the statements of a paid checkout: a hot',
    '  product gone replays the same statements (the stock update then changes no row), so the ceiling counts',
    "  every replay as an order. The server's background jobs and a sold-out checkout's statements are not",
    '  replayed. "previous" runs the server built from that commit (`--app-root`), its own statements traced',
    '  and replayed. Every row was run under `flock /tmp/bench.lock`; the buyers (or the replaying clients),',
    '  the server and PostgreSQL share the 2 CPUs.',
    '',
    '| run (UTC) | build | scenario | app orders/s | load | ceiling checkouts/s | load | ratio | kept traces | statements/checkout | p50 ms app / replay | failed replays | command |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
  ].join('\n');
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
  fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
  const previous = fs.existsSync(RESULTS) ? fs.readFileSync(RESULTS, 'utf8') : '';
  // A --ceiling run adds its row to the Ceiling section and leaves the rest; any other run rewrites
  // the rest and keeps the Ceiling section.
  const main = CEILING
    ? previous.replace(CEILING_HEADING + (previous.split(CEILING_HEADING)[1]?.split('\n## ')[0] ?? ''), '\n')
    : report(runs, started, startLoad);
  const [head, earlier = ''] = main.split('\n## Earlier runs\n');
  const ceiling = ceilingSection(previous, runs, started);
  const text = `${head.trimEnd()}\n\n${ceiling ? `${ceiling}\n\n` : ''}## Earlier runs\n${earlier}`;
  fs.writeFileSync(RESULTS, text);
  log(`\n${text}\nWritten to ${path.relative(process.cwd(), RESULTS)}.`);
  const broken = runs.filter((run) => run.books.negative || run.books.mismatched || run.books.without_orders);
  if (broken.length) {
    process.stderr.write(`The books do not balance on ${broken.map((run) => run.kind).join(', ')}.\n`);
    process.exitCode = 1;
  }
}

main()
  .catch((error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exitCode = 1;
  })
  .finally(() => clearTimeout(watchdog));
