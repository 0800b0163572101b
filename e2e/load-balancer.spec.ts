import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { request, type APIRequestContext } from '@playwright/test';
import { test, expect, DEMO, DEMO_PASSWORD } from './support/fixtures';
import { cents } from './support/money';
import { serverErrors, startServer, type RunningServer } from './support/server';

/**
 * Two instances of the built server on one PostgreSQL database behind HAProxy (docs/deploy/README.md):
 * sign-in, checkout, the event stream, the jobs and a payout retry work whichever instance answers, and
 * killing one instance during checkouts loses no paid order. Needs TEST_DATABASE_URL and Debian's haproxy,
 * which CI installs (.ci/run); elsewhere the test says what it lacks and is skipped.
 */

const root = path.resolve(import.meta.dirname, '..');
const adminUrl = process.env.TEST_DATABASE_URL;
const haproxyPath = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find((file) => fs.existsSync(file));
if (process.env.CI && (!adminUrl || !haproxyPath)) {
  throw new Error(
    'CI runs the load-balancer test: it needs TEST_DATABASE_URL and haproxy (.ci/run installs it)',
  );
}
test.skip(!adminUrl || !haproxyPath, 'needs TEST_DATABASE_URL and haproxy');
test.describe.configure({ mode: 'serial', timeout: 300_000 });

const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Balanced Buyer' };

let databaseName = '';
let databaseUrl = '';
let dataDir = '';
let instances: Record<'a' | 'b', RunningServer> | undefined;
let proxy: ChildProcess | undefined;
let proxyOutput = '';
let lbUrl = '';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function admin<T>(use: (client: pg.Client) => Promise<T>, url = adminUrl): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

async function startInstance(): Promise<RunningServer> {
  return startServer({
    dataDir,
    env: {
      DATABASE_URL: databaseUrl,
      // The same on every instance, as the deployment guide says.
      SESSION_SECRET: 'a-session-secret-shared-by-both-instances-0123456789',
      // The money jobs run every second, so what a killed instance left half done is finished fast.
      MONEY_RETRY_INTERVAL_MS: '1000',
      PAYOUT_RETRY_INTERVAL_MS: '1000',
    },
  });
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test.beforeAll(async () => {
  databaseName = `mkt_lb_${crypto.randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`create database ${databaseName}`));
  const url = new URL(adminUrl ?? '');
  url.pathname = `/${databaseName}`;
  databaseUrl = url.toString();
  // Both instances read uploads from one directory (a shared volume); their database is PostgreSQL.
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-lb-'));
  const seeded = spawnSync(process.execPath, [path.join(root, 'dist/server/seed.js')], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  expect(seeded.status, seeded.stderr + seeded.stdout).toBe(0);

  // One after the other: the first writes the push keys into the shared directory, the second reads them.
  const a = await startInstance();
  const b = await startInstance();
  instances = { a, b };
  const port = await freePort();
  const config = path.join(dataDir, 'haproxy.cfg');
  const backend = (name: string, server: RunningServer) =>
    `  server ${name} ${new URL(server.url).host} check inter 500ms fall 3 rise 1`;
  fs.writeFileSync(
    config,
    [
      'global',
      '  maxconn 512',
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 60s',
      '  timeout server 60s',
      // A readiness answer slowed by a loaded machine is not a dead instance; a killed one refuses at once.
      '  timeout check 10s',
      '  timeout tunnel 1h',
      '  retries 3',
      '  option redispatch',
      '  retry-on conn-failure empty-response',
      'frontend web',
      `  bind 127.0.0.1:${port}`,
      '  default_backend marketplace',
      'backend marketplace',
      '  balance roundrobin',
      // Once sent, only a GET or HEAD is sent again: a write never twice (docs/deploy/README.md, Retries).
      '  http-request disable-l7-retry if !METH_GET',
      '  option httpchk GET /api/ready',
      '  http-check expect status 200',
      // Which instance answered, for the test to see both at work.
      '  http-response set-header X-Served-By %s',
      backend('a', a),
      backend('b', b),
      '',
    ].join('\n'),
  );
  proxy = spawn(haproxyPath ?? 'haproxy', ['-f', config, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  proxy.stdout?.on('data', (chunk: Buffer) => (proxyOutput += chunk.toString()));
  proxy.stderr?.on('data', (chunk: Buffer) => (proxyOutput += chunk.toString()));
  lbUrl = `http://127.0.0.1:${port}`;
  // Both instances in the pool: two answers in a row from two instances.
  await waitFor(async () => {
    const served = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${lbUrl}/api/ready`);
      if (!response.ok) return false;
      served.add(response.headers.get('x-served-by') ?? '');
    }
    return served.has('a') && served.has('b');
  }, 'HAProxy to see both instances ready');
});

test.afterAll(async () => {
  proxy?.kill('SIGTERM');
  for (const server of Object.values(instances ?? {})) {
    if (server.process.exitCode === null && server.process.signalCode === null) {
      await new Promise((resolve) => {
        server.process.once('exit', resolve);
        server.process.kill('SIGTERM');
      });
    }
  }
  if (databaseName) {
    await admin((client) => client.query(`drop database if exists ${databaseName} with (force)`)).catch(
      () => {},
    );
  }
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function signedIn(email: string): Promise<APIRequestContext> {
  const context = await request.newContext({ baseURL: lbUrl });
  const response = await context.post('/api/login', { data: { email, password: DEMO_PASSWORD } });
  expect(response.status(), await response.text()).toBe(200);
  return context;
}

/** Products with stock to spare, and the buyer's delivery address. */
async function thingsToBuy(buyer: APIRequestContext): Promise<{ productIds: string[]; addressId: string }> {
  const list = (await (await buyer.get('/api/products')).json()) as { id: string; stock: number }[];
  const addresses = (await (await buyer.get('/api/addresses')).json()) as {
    id: string;
    isPrimary: boolean;
  }[];
  const address = addresses.find((item) => item.isPrimary) ?? addresses[0];
  const productIds = list.filter((item) => item.stock >= 10).map((item) => item.id);
  if (productIds.length < 10 || !address)
    throw new Error('the demo data has too few products or no buyer address');
  return { productIds, addressId: address.id };
}

/** Quote, payment, confirmation: answers the confirmed orders' ids, or why not. */
async function checkout(
  buyer: APIRequestContext,
  goods: { productId: string; addressId: string },
): Promise<{ orders: string[]; servedBy: string[] } | { failed: string }> {
  const body = {
    items: [{ productId: goods.productId, quantity: 1 }],
    isPickup: false,
    deliveryAddressId: goods.addressId,
  };
  const servedBy: string[] = [];
  try {
    const payment = await buyer.post('/api/payments', { data: body });
    servedBy.push(payment.headers()['x-served-by'] ?? '');
    if (payment.status() !== 201) return { failed: `payment ${payment.status()}` };
    const { paymentId } = (await payment.json()) as { paymentId: string };
    const confirmed = await buyer.post(`/api/payments/${paymentId}/confirm`, { data: CARD });
    servedBy.push(confirmed.headers()['x-served-by'] ?? '');
    if (confirmed.status() !== 200) return { failed: `confirm ${confirmed.status()}` };
    const { orders } = (await confirmed.json()) as { orders: { id: string }[] };
    return { orders: orders.map((order) => order.id), servedBy };
  } catch (error) {
    return { failed: error instanceof Error ? error.message : String(error) };
  }
}

test('a session, a checkout and the event stream work whichever instance answers', async () => {
  const buyer = await signedIn(DEMO.buyer);
  const served = new Set<string>();
  for (let i = 0; i < 6; i++) {
    const me = await buyer.get('/api/auth/user');
    expect(me.status()).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe(DEMO.buyer);
    served.add(me.headers()['x-served-by'] ?? '');
  }
  // The session made through one instance is good on the other.
  expect([...served].sort()).toEqual(['a', 'b']);

  // The buyer's own stream, opened on one instance, hears the order paid through either.
  const cookie = (await buyer.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  let streamed = '';
  let streamServedBy = '';
  const stream = http.get(
    `${lbUrl}/api/events`,
    { headers: { cookie, accept: 'text/event-stream' } },
    (response) => {
      streamServedBy = String(response.headers['x-served-by'] ?? '');
      response.on('data', (chunk: Buffer) => (streamed += chunk.toString()));
    },
  );
  try {
    await waitFor(async () => streamServedBy !== '', 'the event stream to open');
    const goods = await thingsToBuy(buyer);
    const placed: { orders: string[]; servedBy: string[] }[] = [];
    // Two checkouts: round robin sends their calls to both instances.
    for (let i = 0; i < 2; i++) {
      const result = await checkout(buyer, {
        productId: goods.productIds[i] ?? '',
        addressId: goods.addressId,
      });
      if ('failed' in result) throw new Error(result.failed);
      placed.push(result);
    }
    const other = streamServedBy === 'a' ? 'b' : 'a';
    expect(placed.flatMap((result) => result.servedBy)).toContain(other);
    for (const orderId of placed.flatMap((result) => result.orders)) {
      await waitFor(async () => streamed.includes(orderId), `the stream to carry order ${orderId}`, 15_000);
    }
  } finally {
    stream.destroy();
  }

  // The jobs run on the pair, once at a time: the admin sees each with its last run.
  const adminContext = await signedIn(DEMO.admin);
  await waitFor(async () => {
    const jobs = (await (await adminContext.get('/api/admin/jobs')).json()) as {
      queues: { name: string; running: number; lastCompletedAt: string | null }[];
    };
    const names = jobs.queues.filter((queue) => queue.lastCompletedAt !== null).map((queue) => queue.name);
    return ['notifications', 'payments', 'payout-retry'].every((name) => names.includes(name));
  }, 'the three jobs to have run');
});

test('the payout retry job pays what a seller is owed once, whichever instance runs it', async () => {
  // The demo seller's earnings are owed: no payout account yet. They create one through the proxy
  // and leave its setup unfinished, so nothing can be paid.
  const seller = await signedIn(DEMO.seller);
  const created = await seller.post('/api/stripe/connect/account');
  expect(created.status(), await created.text()).toBe(201);
  const before = (await (await seller.get('/api/payouts')).json()) as { owed: string; paidOut: string };
  expect(cents(before.owed)).toBeGreaterThan(0);
  const owedRows = await admin(
    (client) =>
      client.query<{ id: string }>(
        `select p.id from payouts p join users u on u.id = p.user_id
          where u.email = $1 and p.status = 'owed' and p.amount > 0`,
        [DEMO.seller],
      ),
    databaseUrl,
  );
  expect(owedRows.rows.length).toBeGreaterThan(0);

  // The provider finished the account, and the instance that learned it died before paying anyone
  // (docs/decisions/0018-money-against-stripe.md, Failed payouts): only the retry job is left to pay.
  await admin(async (client) => {
    await client.query(
      `update test_payout_accounts set state = 'complete', updated_at = now()
        where user_id = (select id from users where email = $1)`,
      [DEMO.seller],
    );
    await client.query(
      `update users set stripe_onboarding_complete = true, stripe_account_status = 'active' where email = $1`,
      [DEMO.seller],
    );
  }, databaseUrl);

  // Whichever instance's job takes it, the seller reads it through either: all paid, nothing owed.
  // The poll goes on until each instance has answered so (the proxy may send a few polls in a row to
  // the same one).
  const paidOn = new Set<string>();
  await waitFor(async () => {
    const response = await seller.get('/api/payouts');
    const payouts = (await response.json()) as { owed: string; paidOut: string };
    if (cents(payouts.owed) === 0 && cents(payouts.paidOut) >= cents(before.owed)) {
      paidOn.add(response.headers()['x-served-by'] ?? '');
    }
    return paidOn.has('a') && paidOn.has('b');
  }, "both instances to show the seller's owed payouts paid");
  expect([...paidOn].sort()).toEqual(['a', 'b']);

  // Once each: one transfer for every payout that was owed, however many instances ran the job.
  const transfers = await admin(
    (client) =>
      client.query<{ id: string; status: string; transfers: number }>(
        `select p.id, p.status,
                (select count(*)::int from test_transfers t
                  where t.kind = 'transfer' and t.metadata->>'orderId' = p.order_id::text
                    and t.metadata->>'party' = p.kind::text) as transfers
           from payouts p
          where p.id = any($1::uuid[])`,
        [owedRows.rows.map((row) => row.id)],
      ),
    databaseUrl,
  );
  expect(transfers.rows.map((row) => [row.status, row.transfers])).toEqual(
    owedRows.rows.map(() => ['paid', 1]),
  );
});

test('killing one instance during checkouts loses no paid order', async () => {
  if (!instances) throw new Error('instances did not start');
  const buyer = await signedIn(DEMO.buyer);
  const goods = await thingsToBuy(buyer);
  // Each checkout buys something no other running checkout buys (the same checkout twice at once is
  // one payment: docs/decisions/0013-money-movement.md).
  let next = 2;
  const confirmed: string[] = [];
  const failures: string[] = [];
  let killed = false;
  let confirmedAfterKill = 0;
  let stopped = false;
  const loop = async () => {
    // Until a dozen checkouts more went through the survivor alone.
    while (confirmedAfterKill < 12 && !stopped) {
      const productId = goods.productIds[next++ % goods.productIds.length] ?? '';
      const result = await checkout(buyer, { productId, addressId: goods.addressId });
      if ('failed' in result) failures.push(result.failed);
      else {
        confirmed.push(...result.orders);
        if (killed) confirmedAfterKill += 1;
      }
      if (failures.length > 200) throw new Error(`too many failures: ${failures.slice(0, 5).join(', ')}`);
    }
  };
  const buyers = Promise.all([loop(), loop(), loop(), loop()]);
  try {
    await waitFor(async () => confirmed.length >= 8, 'some checkouts before the kill');
  } catch (error) {
    stopped = true;
    await buyers.catch(() => {});
    throw error;
  }
  instances.a.process.kill('SIGKILL');
  killed = true;
  await buyers;

  // Every payment that succeeded has its orders (or was refunded): what instance a was doing when
  // it died is finished by instance b's money job.
  await waitFor(
    async () =>
      admin(async (client) => {
        const { rows } = await client.query<{ lost: number }>(
          `select count(*)::int as lost from payments p
            where p.status = 'succeeded'
              and not exists (select 1 from orders o where o.payment_id = p.id)
              and not exists (select 1 from refunds r where r.payment_id = p.id)`,
        );
        return rows[0]?.lost === 0;
      }, databaseUrl),
    'every succeeded payment to have its orders',
    // The proxy sends no write again once sent (docs/deploy/README.md, Retries): a confirmation that
    // instance a charged and died on is finished by b's money job, which waits until a's run expires
    // (at least 60 s, src/server/platform/job-queue.ts) when a died while running it.
    120_000,
  );
  const stored = await admin(
    (client) => client.query<{ id: string }>('select id from orders where id = any($1::uuid[])', [confirmed]),
    databaseUrl,
  );
  expect(stored.rows).toHaveLength(confirmed.length);
  // The survivor answered no 5xx of its own.
  expect(serverErrors(instances.b.output()), `failed checkouts: ${failures.join(', ')}`).toEqual([]);
});
