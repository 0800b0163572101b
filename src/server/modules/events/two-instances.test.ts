import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { migrateDatabase, openDatabase, type Database } from '../../db/client';
import { seedEssentials } from '../../db/seed/demo';
import type { App } from '../../platform/context';
import {
  as,
  createPostgresDatabase,
  createUser,
  signIn,
  TEST_DB_KIND,
  type TestApp,
  type TestUser,
} from '../../testing/test-app';
import { createProduct } from '../../testing/commerce';
import { users } from '../../db/schema';
import { eq } from 'drizzle-orm';
import { listenOnFreePort, openEventStream } from '../../testing/event-stream';

/**
 * Two app instances behind one load balancer share one PostgreSQL database
 * (docs/rules/live-updates.md, Live updates): an event published through one reaches the streams held
 * by the other through LISTEN/NOTIFY. Only meaningful on PostgreSQL; the embedded database is one
 * process by design.
 */
describe.skipIf(TEST_DB_KIND !== 'postgres')('two app instances on one PostgreSQL database', () => {
  let dropDatabase = async () => {};
  const databases: Database[] = [];
  const apps: App[] = [];
  let dataDir: string;
  let a: TestApp;
  let urlB: string;

  beforeAll(async () => {
    const created = await createPostgresDatabase();
    dropDatabase = created.drop;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-two-instances-'));
    const config = loadConfig({ NODE_ENV: 'test', DEMO_DATA: 'off', DATA_DIR: dataDir });
    // One session secret, as two instances of one deployment have: a cookie works on either.
    const sessionSecret = crypto.randomBytes(32).toString('hex');
    for (let i = 0; i < 2; i++) {
      const database = await openDatabase({ databaseUrl: created.url });
      databases.push(database);
      if (i === 0) {
        await migrateDatabase(database);
        await seedEssentials(database.db);
      }
      const app = await buildApp({ config, database, sessionSecret });
      await app.ready();
      apps.push(app);
    }
    const [appA, appB] = apps;
    const [databaseA] = databases;
    if (!appA || !appB || !databaseA) throw new Error('instances not built');
    urlB = await listenOnFreePort(appB);
    a = {
      app: appA,
      database: databaseA,
      config,
      statuses: [],
      storage: undefined as never,
      close: async () => {},
    };
  }, 60_000);

  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const database of databases) await database.close();
    await dropDatabase();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function person(firstName: string, roles: ('buyer' | 'seller')[]): Promise<TestUser> {
    const user = await createUser(a, { roles, firstName, lastName: 'Example' });
    return { ...user, cookie: await signIn(a, user.email, user.password) };
  }

  it("carries a message posted through instance A to a stream on instance B within a second, and to nobody else's", async () => {
    const buyer = await person('Bea', ['buyer']);
    const seller = await person('Sol', ['buyer', 'seller']);
    const bystander = await person('Ben', ['buyer']);
    const product = await createProduct(a, seller.id, { name: 'Cedar Bench' });

    const sellerOnB = await openEventStream(urlB, seller.cookie);
    const bystanderOnB = await openEventStream(urlB, bystander.cookie);
    try {
      expect(sellerOnB.status).toBe(200);
      const sentAt = Date.now();
      const sent = await as(a, buyer, {
        method: 'POST',
        url: '/api/product-messages',
        payload: { productId: product.id, content: 'Is the bench cedar all through?' },
      });
      expect(sent.statusCode, sent.body).toBe(201);
      const received = await sellerOnB.waitFor((event) => event.type === 'product.message', 1_000);
      expect(received.at - sentAt).toBeLessThan(1_000);
      expect(received.data).toMatchObject({ productId: product.id, senderId: buyer.id, sellerId: seller.id });

      // The bystander on the same instance heard nothing of it: their first event is their own.
      await as(a, bystander, {
        method: 'POST',
        url: '/api/product-messages',
        payload: { productId: product.id, content: 'Mine' },
      });
      await bystanderOnB.waitFor(() => true, 1_000);
      expect(bystanderOnB.events.map((event) => event.data)).toEqual([
        expect.objectContaining({ type: 'product.message', buyerId: bystander.id }),
      ]);
    } finally {
      sellerOnB.close();
      bystanderOnB.close();
    }
  });

  it('ends the streams a user holds on instance B within a second of their suspension through instance A', async () => {
    const user = await person('Sue', ['buyer']);
    const other = await person('Otto', ['buyer']);
    const admin = await createUser(a, { roles: ['buyer', 'admin'] });
    const adminCookie = await signIn(a, admin.email, admin.password);
    const userOnB = await openEventStream(urlB, user.cookie);
    const otherOnB = await openEventStream(urlB, other.cookie);
    try {
      const suspendedAt = Date.now();
      const suspended = await as(
        a,
        { cookie: adminCookie },
        {
          method: 'POST',
          url: `/api/admin/users/${user.id}/suspend`,
        },
      );
      expect(suspended.statusCode, suspended.body).toBe(200);
      await userOnB.waitUntil(() => userOnB.ended(), "the suspended user's stream to end", 1_000);
      expect(Date.now() - suspendedAt).toBeLessThan(1_000);
      expect(otherOnB.ended()).toBe(false);
    } finally {
      userOnB.close();
      otherOnB.close();
    }
  });

  it('sees on instance B, at the very next request, a sign-out through instance A and a role taken away in the database', async () => {
    // Instance B keeps the users of sessions it has read; a fence makes sure it has heard every
    // change committed before a request arrived (docs/decisions/0029-signed-in-reads-kept.md).
    const b: TestApp = { ...a, app: apps[1]! };
    const buyer = await person('Kit', ['buyer']);
    const seller = await person('Sol', ['buyer', 'seller']);
    for (let i = 0; i < 3; i++) {
      expect((await as(b, buyer, { method: 'GET', url: '/api/auth/user' })).statusCode).toBe(200);
      const me = await as(b, seller, { method: 'GET', url: '/api/auth/user' });
      expect(me.json<{ roles: string[] }>().roles).toEqual(['buyer', 'seller']);
    }
    const out = await as(a, buyer, { method: 'POST', url: '/api/logout' });
    expect(out.statusCode, out.body).toBe(204);
    expect((await as(b, buyer, { method: 'GET', url: '/api/auth/user' })).statusCode).toBe(401);

    await a.database.db
      .update(users)
      .set({ roles: ['buyer'], role: 'buyer' })
      .where(eq(users.id, seller.id));
    const after = await as(b, seller, { method: 'GET', url: '/api/auth/user' });
    expect(after.json<{ roles: string[] }>().roles).toEqual(['buyer']);
    expect((await as(b, seller, { method: 'GET', url: '/api/seller/products' })).statusCode).toBe(403);
  });

  it("catches a page's first stream on instance B up from the live cursor it read on instance A", async () => {
    const buyer = await person('Bo', ['buyer']);
    const seller = await person('Sam', ['buyer', 'seller']);
    const product = await createProduct(a, seller.id, { name: 'Pine Stool' });
    const me = await as(a, seller, { method: 'GET', url: '/api/auth/user' });
    const { liveCursor } = me.json<{ liveCursor: number }>();
    const sent = await as(a, buyer, {
      method: 'POST',
      url: '/api/product-messages',
      payload: { productId: product.id, content: 'Sent while the page loads' },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const sellerOnB = await openEventStream(urlB, seller.cookie, { since: String(liveCursor) });
    try {
      const caughtUp = await sellerOnB.waitFor((event) => event.type === 'product.message', 1_000);
      expect(caughtUp.data).toMatchObject({ productId: product.id, senderId: buyer.id });
    } finally {
      sellerOnB.close();
    }
  });
});
