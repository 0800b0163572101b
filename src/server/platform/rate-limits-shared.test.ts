import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config';
import { migrateDatabase, openDatabase, type Database } from '../db/client';
import { rateLimitHits } from '../db/schema';
import { seedEssentials } from '../db/seed/demo';
import { createPostgresDatabase, createUser, TEST_DB_KIND, type TestApp } from '../testing/test-app';
import type { App } from './context';
import { Redis } from 'ioredis';
import {
  connectRedisRateCounts,
  RedisRateCounts,
  REDIS_UNAVAILABLE,
} from '../adapters/redis/redis-rate-counts';
import { RateLimitCounts, RateLimiter, type RateCounts, type RateLimitSettings } from './rate-limit';

/**
 * Two app instances on one database share one budget per key (docs/decisions/0003-rate-limits.md,
 * Counted in the database): on PGlite both apps use the one embedded database, on PostgreSQL each
 * has a pool of its own, as two processes behind a load balancer would. With REDIS_URL set they
 * count in Redis instead (Counted in Redis), each instance with a client of its own.
 */

/** The Redis of these tests: TEST_REDIS_URL, or the one on this machine's usual port. */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisAnswers = await (async () => {
  const probe = new Redis(REDIS_URL, {
    lazyConnect: true,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
})();
// CI runs beside a Redis: there these tests must run, never quietly skip.
if (!redisAnswers && process.env.CI) throw new Error(`no Redis answers at ${REDIS_URL}`);
const STORES = redisAnswers ? (['database', 'redis'] as const) : (['database'] as const);
type Store = (typeof STORES)[number];
/** Redis's connection failures are no news in these tests. */
const silentLog = { warn: () => undefined };
/** This run's keys in Redis start with it, so runs and tests never share a count. */
const redisPrefix = () => `test-rate:${crypto.randomUUID()}:`;

const NO_LIMITS: RateLimitSettings = {
  signInPerIpPerMinute: 10_000,
  signInFreeFailuresPerAccount: 10_000,
  signInFreeFailuresPerAccountAndAddress: 10_000,
  signUpPerIpPerHour: 10_000,
  accountMailPerIpPerHour: 10_000,
  contactPerIpPer10Minutes: 10_000,
  messagesPerUserPerMinute: 10_000,
  twoFactorFailuresPerUserPer15Minutes: 10_000,
};

let dropDatabase = async () => {};
let dataDir: string;
let config: Config;
/** Instance A's and instance B's handles on the one database (the same handle on PGlite). */
let databases: [Database, Database];
let apps: App[] = [];
let statuses: number[] = [];
/** The instances' clock, moved by the tests instead of waiting. */
let clock = Date.now();
/** Each instance's waits before answering a slowed sign-in, recorded instead of slept. */
let pauses: { a: number[]; b: number[] };

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-rate-limits-'));
  config = loadConfig({
    NODE_ENV: 'test',
    DEMO_DATA: 'off',
    DATA_DIR: dataDir,
    MONEY_RETRY_INTERVAL_MS: '0',
    NOTIFY_INTERVAL_MS: '0',
  });
  if (TEST_DB_KIND === 'postgres') {
    const created = await createPostgresDatabase();
    dropDatabase = created.drop;
    databases = [
      await openDatabase({ databaseUrl: created.url }),
      await openDatabase({ databaseUrl: created.url }),
    ];
  } else {
    const database = await openDatabase({});
    databases = [database, database];
  }
  await migrateDatabase(databases[0]);
  await seedEssentials(databases[0].db);
}, 60_000);

afterEach(async () => {
  for (const app of apps) await app.close();
  apps = [];
  expect(statuses.filter((status) => status >= 500)).toEqual([]);
  statuses = [];
});

afterAll(async () => {
  await databases[0].close();
  if (databases[1] !== databases[0]) await databases[1].close();
  await dropDatabase();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The Redis counts of the current test's instances, closed after it. */
let redisCounts: RedisRateCounts[] = [];
/** The key prefix in Redis of the current test. */
let prefix = '';

afterEach(async () => {
  for (const counts of redisCounts) await counts.close();
  redisCounts = [];
});

/**
 * Instances A and B of one deployment (one session secret), with these limits, on the test's clock,
 * counting in the database or in Redis.
 */
async function twoInstances(
  limits: Partial<RateLimitSettings>,
  store: Store = 'database',
): Promise<{ a: App; b: App }> {
  clock = Date.now();
  pauses = { a: [], b: [] };
  prefix = redisPrefix();
  const sessionSecret = crypto.randomBytes(32).toString('hex');
  const built: App[] = [];
  for (const [i, name] of (['a', 'b'] as const).entries()) {
    let rateCounts: RateCounts | undefined;
    if (store === 'redis') {
      const counts = await connectRedisRateCounts(REDIS_URL, () => clock, silentLog, prefix);
      redisCounts.push(counts);
      rateCounts = counts;
    }
    const app = await buildApp({
      config,
      database: databases[i] ?? databases[0],
      sessionSecret,
      now: () => new Date(clock),
      payoutRetryMs: 0,
      rateLimits: { ...NO_LIMITS, ...limits, pause: async (ms) => void pauses[name].push(ms) },
      rateCounts,
    });
    app.addHook('onResponse', async (_request, reply) => {
      statuses.push(reply.statusCode);
    });
    await app.ready();
    built.push(app);
    apps.push(app);
  }
  const [a, b] = built;
  if (!a || !b) throw new Error('instances not built');
  return { a, b };
}

/** A user made directly in the database, for the instances to sign in. */
function newUser(app: App) {
  const scene: TestApp = {
    app,
    database: databases[0],
    config,
    statuses,
    storage: undefined as never,
    close: async () => {},
  };
  return createUser(scene);
}

function signIn(app: App, remoteAddress: string, email: string, password: string) {
  return app.inject({ method: 'POST', url: '/api/login', remoteAddress, payload: { email, password } });
}

const contact = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '',
  subject: 'Late order',
  message: 'My order has not arrived yet.',
};

function sendContact(app: App, remoteAddress: string) {
  return app.inject({ method: 'POST', url: '/api/contact', remoteAddress, payload: contact });
}

/** The keys the current test's counts are stored under (the database's rows, or Redis's keys without the prefix). */
async function storedKeys(store: Store): Promise<string[]> {
  if (store === 'database')
    return (await databases[0].db.select({ key: rateLimitHits.key }).from(rateLimitHits)).map(
      (row) => row.key,
    );
  const redis = new Redis(REDIS_URL);
  try {
    return (await redis.keys(`${prefix}*`)).map((key) => key.slice(prefix.length));
  } finally {
    redis.disconnect();
  }
}

describe.each(STORES)('rate limits shared by two instances, counted in the %s', (store) => {
  it('refuses sign-ins from one address split across both instances at the total one instance allows', async () => {
    const { a, b } = await twoInstances({ signInPerIpPerMinute: 4 }, store);
    const user = await newUser(a);
    for (const app of [a, b, a, b])
      expect((await signIn(app, '203.0.113.7', user.email, user.password)).statusCode).toBe(200);

    for (const app of [a, b]) {
      const refused = await signIn(app, '203.0.113.7', user.email, user.password);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({
        message: 'Too many sign-in attempts. Please try again in a minute.',
        code: 'rate_limited',
        requestId: expect.any(String),
      });
    }
    // Another address has a budget of its own, on either instance.
    expect((await signIn(b, '198.51.100.20', user.email, user.password)).statusCode).toBe(200);
  });

  it('counts hits arriving at the same time on both instances exactly, none lost and none doubled', async () => {
    const { a, b } = await twoInstances({ contactPerIpPer10Minutes: 10 }, store);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => sendContact(i % 2 === 0 ? a : b, '203.0.113.30')),
    );
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code === 201)).toHaveLength(10);
    expect(codes.filter((code) => code === 429)).toHaveLength(20);
  });

  it('slows the next try on one instance down after failures counted on the other', async () => {
    const { a, b } = await twoInstances({ signInFreeFailuresPerAccountAndAddress: 3 }, store);
    const user = await newUser(a);
    for (let i = 0; i < 3; i++)
      expect((await signIn(a, '192.0.2.1', user.email, 'wrong password')).statusCode).toBe(401);
    expect(pauses).toEqual({ a: [], b: [] });

    // B waits for A's failures, and a failure on B makes A's next wait longer.
    expect((await signIn(b, '192.0.2.1', user.email, 'wrong password')).statusCode).toBe(401);
    expect(pauses).toEqual({ a: [], b: [1_000] });
    expect((await signIn(a, '192.0.2.1', user.email.toUpperCase(), user.password)).statusCode).toBe(200);
    expect(pauses).toEqual({ a: [2_000], b: [1_000] });

    // Signed in through A: that address starts afresh on B too.
    expect((await signIn(b, '192.0.2.1', user.email, user.password)).statusCode).toBe(200);
    expect(pauses).toEqual({ a: [2_000], b: [1_000] });
  });

  it('keeps the counts of different keys and different limits apart', async () => {
    const { a, b } = await twoInstances({ signInPerIpPerMinute: 2, contactPerIpPer10Minutes: 2 }, store);
    const user = await newUser(a);
    for (const app of [a, b])
      expect((await signIn(app, '203.0.113.50', user.email, user.password)).statusCode).toBe(200);
    expect((await signIn(a, '203.0.113.50', user.email, user.password)).statusCode).toBe(429);

    // The same address on another limit, and another address on the same limit, are untouched.
    for (const app of [b, a]) expect((await sendContact(app, '203.0.113.50')).statusCode).toBe(201);
    const third = await sendContact(b, '203.0.113.50');
    expect(third.statusCode).toBe(429);
    expect(third.json().message).toBe(
      'You have sent several messages in a short time. Please try again in 10 minutes.',
    );
    expect((await signIn(b, '203.0.113.51', user.email, user.password)).statusCode).toBe(200);

    // Rows (or Redis keys) are named by their limit and hold a digest, not the address.
    const keys = await storedKeys(store);
    expect(keys.some((key) => key.includes('203.0.113.'))).toBe(false);
    expect(keys.filter((key) => key.startsWith('sign-in-ip:')).length).toBeGreaterThanOrEqual(2);
    expect(keys.filter((key) => key.startsWith('contact-ip:')).length).toBeGreaterThanOrEqual(1);
  });

  it('starts a window again once it has ended, the wait told counted from its first hit', async () => {
    const { a, b } = await twoInstances(
      { signUpPerIpPerHour: 1, signInFreeFailuresPerAccountAndAddress: 0 },
      store,
    );
    const signUp = (app: App, n: number) =>
      app.inject({
        method: 'POST',
        url: '/api/signup',
        remoteAddress: '203.0.113.90',
        payload: {
          email: `window${n}-${clock}@example.com`,
          password: 'long enough',
          firstName: 'W',
          lastName: 'N',
        },
      });
    expect((await signUp(a, 1)).statusCode).toBe(202);
    const refused = await signUp(b, 2);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(
      'Too many accounts created from this network. Please try again in 60 minutes.',
    );

    clock += 45 * 60_000;
    expect((await signUp(a, 3)).json().message).toBe(
      'Too many accounts created from this network. Please try again in 15 minutes.',
    );
    clock += 15 * 60_000;
    expect((await signUp(b, 4)).statusCode).toBe(202);
    expect((await signUp(a, 5)).statusCode).toBe(429);

    // A failure's slowdown ends with its 15-minute window too.
    const user = await newUser(a);
    expect((await signIn(a, '203.0.113.91', user.email, 'wrong password')).statusCode).toBe(401);
    expect((await signIn(b, '203.0.113.91', user.email, 'wrong password')).statusCode).toBe(401);
    expect(pauses.b).toEqual([2_000]);
    clock += 15 * 60_000;
    expect((await signIn(b, '203.0.113.91', user.email, 'wrong password')).statusCode).toBe(401);
    expect(pauses.b).toEqual([2_000]);
  });
});

describe('the rate limits table', () => {
  it('deletes expired rows in bounded batches every few hits, never a row still counting', async () => {
    const { db } = databases[0];
    let now = Date.parse('2026-01-01T00:00:00Z');
    const counts = new RateLimitCounts(() => now, { everyHits: 3, batch: 2 });
    const limiter = new RateLimiter('clean-up', 10, 60_000, counts);
    const rows = async () =>
      (await db.select({ key: rateLimitHits.key }).from(rateLimitHits)).filter((row) =>
        row.key.startsWith('clean-up:'),
      ).length;

    for (const key of ['k1', 'k2', 'k3']) await limiter.hit(db, key);
    expect(await rows()).toBe(3);
    now += 61_000;
    await limiter.hit(db, 'k4');
    await limiter.hit(db, 'k5');
    // No clean-up between the third hit and the sixth: the expired rows are still there.
    expect(await rows()).toBe(5);
    // The sixth hit starts k1's window again, then deletes two expired rows: k2 and k3, never k1.
    await limiter.hit(db, 'k1');
    expect(await rows()).toBe(3);
    expect(await limiter.check(db, 'k1')).toBe(0);

    now += 61_000;
    await limiter.hit(db, 'k6');
    await limiter.hit(db, 'k7');
    expect(await rows()).toBe(5);
    // k1, k4 and k5 have expired; one clean-up deletes at most two of them.
    await limiter.hit(db, 'k8');
    expect(await rows()).toBe(4);
  });

  it("answers check without counting, and reset clears a key's window", async () => {
    const { db } = databases[0];
    let now = Date.parse('2026-01-01T00:00:00Z');
    const limiter = new RateLimiter('check-reset', 2, 60_000, new RateLimitCounts(() => now));
    expect(await limiter.check(db, 'x')).toBe(0);
    expect(await limiter.hit(db, 'x')).toBe(0);
    expect(await limiter.check(db, 'x')).toBe(0);
    expect(await limiter.hit(db, 'x')).toBe(0);
    now += 30_000;
    // At the limit: the next hit would be refused, for the 30 seconds left of the window.
    expect(await limiter.check(db, 'x')).toBe(30);
    expect(await limiter.check(db, 'x')).toBe(30);
    expect(await limiter.hit(db, 'x')).toBe(30);
    await limiter.reset(db, 'x');
    expect(await limiter.check(db, 'x')).toBe(0);
    expect(await limiter.hit(db, 'x')).toBe(0);
  });
});

describe.skipIf(!redisAnswers)('rate limits counted in Redis', () => {
  it('answers 503 with a sentence while Redis does not answer, /api/ready says so, and both recover when it is back', async () => {
    clock = Date.now();
    prefix = redisPrefix();
    const redis = new Redis(REDIS_URL, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
    });
    redis.on('error', () => undefined);
    await redis.connect();
    const counts = new RedisRateCounts(redis, () => clock, prefix);
    redisCounts.push(counts);
    const app = await buildApp({
      config,
      database: databases[0],
      sessionSecret: crypto.randomBytes(32).toString('hex'),
      now: () => new Date(clock),
      payoutRetryMs: 0,
      rateLimits: { ...NO_LIMITS, contactPerIpPer10Minutes: 1 },
      rateCounts: counts,
    });
    apps.push(app);
    await app.ready();

    expect((await sendContact(app, '203.0.113.120')).statusCode).toBe(201);
    expect((await app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);

    const ended = new Promise((resolve) => redis.once('end', resolve));
    redis.disconnect();
    await ended;
    const refused = await sendContact(app, '203.0.113.121');
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({
      message: REDIS_UNAVAILABLE,
      code: 'unavailable',
      requestId: expect.any(String),
    });
    const ready = await app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().message).toBe('Redis is unreachable');
    // Nothing was stored for the refused message.
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

    await redis.connect();
    expect((await app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
    // The count kept in Redis through the outage: the first address is still at its limit.
    expect((await sendContact(app, '203.0.113.120')).statusCode).toBe(429);
    expect((await sendContact(app, '203.0.113.121')).statusCode).toBe(201);
    // The 503s were this test's point, not a failure of it.
    statuses = statuses.filter((status) => status !== 503);
  });

  it('keeps a server from starting when REDIS_URL names a Redis that does not answer', async () => {
    await expect(connectRedisRateCounts('redis://127.0.0.1:1', () => clock, silentLog)).rejects.toThrow(
      'REDIS_URL is set but Redis at 127.0.0.1:1 cannot be reached',
    );
  });

  it('counts in Redis when REDIS_URL is set, and nothing in the database', async () => {
    clock = Date.now();
    const before = (await databases[0].db.select({ key: rateLimitHits.key }).from(rateLimitHits)).length;
    const app = await buildApp({
      config: { ...config, redisUrl: REDIS_URL },
      database: databases[0],
      sessionSecret: crypto.randomBytes(32).toString('hex'),
      now: () => new Date(clock),
      payoutRetryMs: 0,
      rateLimits: { ...NO_LIMITS, contactPerIpPer10Minutes: 1 },
    });
    apps.push(app);
    await app.ready();
    // An address of this run only: the key in Redis outlives the test by its 10-minute window.
    const address = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    expect((await sendContact(app, address)).statusCode).toBe(201);
    expect((await sendContact(app, address)).statusCode).toBe(429);
    expect((await app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
    expect((await databases[0].db.select({ key: rateLimitHits.key }).from(rateLimitHits)).length).toBe(
      before,
    );
  });
});
