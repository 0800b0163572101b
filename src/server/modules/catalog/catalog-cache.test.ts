import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { orders, products } from '../../db/schema';
import type { App } from '../../platform/context';
import {
  DEFAULT_PUBLIC_CACHE_OPTIONS,
  keptReadsServer,
  PublicAnswerCache,
} from '../../platform/public-cache';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import { buy, createAddress, createProduct } from '../../testing/commerce';
import type { ProductListItem } from '../../../domain/catalog';

/**
 * The public catalog answers are kept in memory and served again until the catalog changes
 * (docs/decisions/0015-catalog-and-checkout-throughput.md). Whatever changes a card is seen by the
 * very next list call after the change; answers that depend on the caller's place are the caller's.
 */

let t: TestApp;
let seller: TestUser;
let buyer: TestUser;
let buyerAddressId: string;
/** Requests that went through the app's hooks; an answer replayed from memory does not. */
const throughHooks: string[] = [];

beforeAll(async () => {
  t = await createTestApp({
    extend: (app) =>
      app.addHook('onRequest', (request, _reply, done) => {
        throughHooks.push(`${request.method} ${request.url}`);
        done();
      }),
  });
  seller = await signedInAs(t, 'seller', { firstName: 'Cache', lastName: 'Seller' });
  buyer = await signedInAs(t, 'buyer');
  await createAddress(t, seller.id);
  buyerAddressId = (await createAddress(t, buyer.id)).id;
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

/** A word no other test's products carry, so each test reads a list of its own. */
const uniqueWord = () => `Qz${crypto.randomBytes(4).toString('hex')}`;

function list(word: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url: `/api/products?search=${word}`, headers });
}

async function cards(word: string): Promise<ProductListItem[]> {
  const response = await list(word);
  expect(response.statusCode).toBe(200);
  return response.json<ProductListItem[]>();
}

describe('conditional GET', () => {
  it('tags each list with a strong ETag, answers 304 to a caller holding it, and retags a changed list', async () => {
    const word = uniqueWord();
    const product = await createProduct(t, seller.id, { name: `${word} Lamp`, price: '10.00' });
    const first = await list(word);
    expect(first.statusCode).toBe(200);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');

    const again = await list(word);
    expect(again.body).toBe(first.body);
    expect(again.headers.etag).toBe(etag);

    for (const held of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const notModified = await list(word, { 'if-none-match': held });
      expect(notModified.statusCode, held).toBe(304);
      expect(notModified.body).toBe('');
      expect(notModified.headers.etag).toBe(etag);
    }
    expect((await list(word, { 'if-none-match': '"other"' })).statusCode).toBe(200);

    const changed = await as(t, seller, {
      method: 'PATCH',
      url: `/api/products/${product.id}`,
      payload: { price: '12.00' },
    });
    expect(changed.statusCode).toBe(200);
    const after = await list(word, { 'if-none-match': etag });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect(after.json<ProductListItem[]>()[0]?.price).toBe('12.00');
  });
});

/** The app listening on a port of its own (once), for calls that must go through its HTTP server. */
let listeningAt: string | undefined;
async function listening(): Promise<string> {
  listeningAt ??= await t.app.listen({ port: 0, host: '127.0.0.1' });
  return listeningAt;
}

/** How many times this call went through the app's hooks so far. */
const hooked = (method: string, url: string) => throughHooks.filter((u) => u === `${method} ${url}`).length;

/** The headers that belong to one request (its id, the time), left out to compare two answers. */
function lastingHeaders(headers: Record<string, unknown>) {
  const { 'x-request-id': _id, date: _date, ...rest } = headers;
  return rest;
}

/**
 * Asks for the list until an answer comes from memory: the notice of a product the test inserted
 * itself may drop the first answer kept a moment after it was kept.
 */
async function replayed(word: string, headers: Record<string, string> = {}) {
  const url = `/api/products?search=${word}`;
  let response: Awaited<ReturnType<typeof list>> | undefined;
  await expect
    .poll(async () => {
      const before = hooked('GET', url);
      response = await list(word, headers);
      return hooked('GET', url) === before;
    })
    .toBe(true);
  if (!response) throw new Error('no answer');
  return response;
}

describe('a repeated public list call, replayed from memory', () => {
  it('is answered before the other hooks run, with the same bytes, ETag and every header, and an id of its own', async () => {
    const word = uniqueWord();
    await createProduct(t, seller.id, { name: `${word} Lamp`, price: '10.00' });
    const url = `/api/products?search=${word}`;
    const first = await list(word);
    const second = await replayed(word);
    const before = hooked('GET', url);
    const third = await list(word);
    expect(hooked('GET', url)).toBe(before);
    for (const again of [second, third]) {
      expect(again.statusCode).toBe(200);
      expect(again.body).toBe(first.body);
      expect(lastingHeaders(again.headers)).toEqual(lastingHeaders(first.headers));
    }
    // The security headers, caching and validator of the first answer (decision 0011, 0015).
    expect(String(third.headers['content-security-policy'])).toContain("default-src 'self'");
    expect(third.headers['x-content-type-options']).toBe('nosniff');
    expect(third.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(third.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(third.headers['cache-control']).toBe('no-cache');
    expect(third.headers.etag).toBe(first.headers.etag);
    expect(third.headers['content-length']).toBe(String(Buffer.byteLength(first.body)));
    const ids = [first, second, third].map((r) => String(r.headers['x-request-id']));
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("is written by the server's own listener, before Fastify, when the app listens; /api/health too", async () => {
    const word = uniqueWord();
    await createProduct(t, seller.id, { name: `${word} Lamp`, price: '10.00' });
    const base = await listening();
    for (const url of [`/api/products?search=${word}`, '/api/health']) {
      const first = await fetch(base + url);
      expect(first.status).toBe(200);
      const firstBody = await first.text();
      // The full path answered once; from then on the listener answers without the app's hooks.
      await expect
        .poll(async () => {
          const before = hooked('GET', url);
          const response = await fetch(base + url);
          expect(await response.text()).toBe(firstBody);
          return hooked('GET', url) === before;
        })
        .toBe(true);
      const before = hooked('GET', url);
      const replay = await fetch(base + url);
      expect(hooked('GET', url), url).toBe(before);
      expect(await replay.text()).toBe(firstBody);
      const headersOf = (response: Response) =>
        lastingHeaders(Object.fromEntries([...response.headers].filter(([name]) => name !== 'keep-alive')));
      expect(headersOf(replay)).toEqual(headersOf(first));
      expect(replay.headers.get('x-content-type-options')).toBe('nosniff');
      expect(replay.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(replay.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(replay.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
      // A conditional GET still goes through the app and answers 304.
      const conditional = await fetch(base + url, {
        headers: { 'if-none-match': String(first.headers.get('etag')) },
      });
      expect(conditional.status).toBe(304);
      expect(hooked('GET', url)).toBe(before + 1);
    }
  });

  it('is replayed compressed for a caller accepting the same encodings, as the app compressed it', async () => {
    const word = uniqueWord();
    // Enough cards to pass the compression threshold.
    for (let i = 0; i < 8; i++)
      await createProduct(t, seller.id, {
        name: `${word} Lantern ${i}`,
        description: 'A lantern. '.repeat(20),
      });
    const url = `/api/products?search=${word}`;
    const headers = { 'accept-encoding': 'gzip, deflate, br' };
    const first = await list(word, headers);
    expect(first.headers['content-encoding']).toBe('br');
    // The compressed copy is recorded once it is made (off the event loop).
    const again = await replayed(word, headers);
    expect(lastingHeaders(again.headers)).toEqual(lastingHeaders(first.headers));
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    const plainAnswer = await list(word);
    expect(JSON.parse(zlib.brotliDecompressSync(again.rawPayload).toString())).toEqual(plainAnswer.json());
    expect(again.headers.etag).toBe(`W/${String(plainAnswer.headers.etag)}`);
    expect(hooked('GET', url)).toBeGreaterThan(0);
    // Another Accept-Encoding is another answer: plain here, as the app sends it.
    const plain = await list(word, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
  });

  it('is not used for a HEAD or a conditional GET, which go through the app', async () => {
    const word = uniqueWord();
    await createProduct(t, seller.id, { name: `${word} Kite` });
    const url = `/api/products?search=${word}`;
    const first = await replayed(word);
    const before = hooked('GET', url);
    const etag = String(first.headers.etag);
    const notModified = await list(word, { 'if-none-match': etag });
    expect(notModified.statusCode).toBe(304);
    expect(hooked('GET', url)).toBe(before + 1);
    const head = await t.app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers.etag).toBe(etag);
    expect(hooked('HEAD', url)).toBe(1);
  });

  it('is dropped with its answer when the catalog changes', async () => {
    const word = uniqueWord();
    const product = await createProduct(t, seller.id, { name: `${word} Drill`, price: '20.00' });
    const url = `/api/products?search=${word}`;
    expect((await replayed(word)).json<ProductListItem[]>().map((c) => c.price)).toEqual(['20.00']);
    const before = hooked('GET', url);
    const changed = await as(t, seller, {
      method: 'PATCH',
      url: `/api/products/${product.id}`,
      payload: { price: '25.00' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await cards(word)).map((c) => c.price)).toEqual(['25.00']);
    expect(hooked('GET', url)).toBe(before + 1);
  });

  it('replays the distance list only to a signed-in caller at the same place, never to a visitor', async () => {
    const word = uniqueWord();
    await createProduct(t, seller.id, { name: `${word} Tent` });
    const url = `/api/products/with-distance?search=${word}`;
    for (let i = 0; i < 3; i++) {
      const response = await as(t, buyer, { method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.json<ProductListItem[]>().map((c) => c.name)).toEqual([`${word} Tent`]);
    }
    // The first through the app; the next from memory, once the buyer is found signed in
    // (docs/decisions/0029-signed-in-reads-kept.md, Answered in the server's listener).
    expect(hooked('GET', url)).toBe(1);
    // Nothing kept for a buyer is sent to a visitor: the access check refuses them.
    const visitor = await t.app.inject({ method: 'GET', url });
    expect(visitor.statusCode).toBe(401);
    const forged = await t.app.inject({ method: 'GET', url, headers: { cookie: 'sid=forged' } });
    expect(forged.statusCode).toBe(401);
  });
});

describe('every change is seen by the next list call', () => {
  it('a product change by its seller', async () => {
    const word = uniqueWord();
    const product = await createProduct(t, seller.id, { name: `${word} Chair`, price: '40.00' });
    expect((await cards(word)).map((c) => c.price)).toEqual(['40.00']);
    const changed = await as(t, seller, {
      method: 'PATCH',
      url: `/api/products/${product.id}`,
      payload: { price: '35.50', name: `${word} Armchair` },
    });
    expect(changed.statusCode).toBe(200);
    expect((await cards(word)).map((c) => [c.name, c.price])).toEqual([[`${word} Armchair`, '35.50']]);
  });

  it('an order taking the last unit', async () => {
    const word = uniqueWord();
    const product = await createProduct(t, seller.id, { name: `${word} Kite`, stock: 1 });
    expect((await cards(word)).map((c) => c.stock)).toEqual([1]);
    const [order] = await buy(t, buyer, {
      items: [{ productId: product.id, quantity: 1 }],
      isPickup: false,
      deliveryAddressId: buyerAddressId,
    });
    expect(order).toBeDefined();
    expect((await cards(word)).map((c) => c.stock)).toEqual([0]);
  });

  it("a new review of the seller, in the seller's rating", async () => {
    const word = uniqueWord();
    const reviewed = await signedInAs(t, 'seller', { firstName: 'Rated', lastName: 'Seller' });
    await createAddress(t, reviewed.id);
    const product = await createProduct(t, reviewed.id, { name: `${word} Puzzle`, stock: 5 });
    const [order] = await buy(t, buyer, {
      items: [{ productId: product.id, quantity: 1 }],
      isPickup: false,
      deliveryAddressId: buyerAddressId,
    });
    if (!order) throw new Error('no order');
    // Reviews open once the order is delivered; the way there is tested with the orders.
    await t.database.db.update(orders).set({ status: 'delivered' }).where(eq(orders.id, order.id));
    expect((await cards(word)).map((c) => c.sellerRating)).toEqual([null]);
    const review = await as(t, buyer, {
      method: 'POST',
      url: '/api/reviews',
      payload: {
        orderId: order.id,
        revieweeId: reviewed.id,
        revieweeRole: 'seller',
        reviewerRole: 'buyer',
        rating: 2,
        comment: 'Late',
      },
    });
    expect(review.statusCode, review.body).toBe(201);
    expect((await cards(word)).map((c) => c.sellerRating)).toEqual([2]);
  });

  it('a cancelled product', async () => {
    const word = uniqueWord();
    const product = await createProduct(t, seller.id, { name: `${word} Sofa` });
    expect(await cards(word)).toHaveLength(1);
    const cancelled = await as(t, seller, { method: 'DELETE', url: `/api/products/${product.id}` });
    expect(cancelled.statusCode).toBe(200);
    expect(await cards(word)).toEqual([]);
  });

  it('a change written straight to the database, and one made through another instance', async () => {
    const word = uniqueWord();
    const product = await createProduct(t, seller.id, { name: `${word} Tent`, stock: 3 });
    expect((await cards(word)).map((c) => c.stock)).toEqual([3]);
    const other: App = await buildApp({
      config: t.config,
      database: t.database,
      sessionSecret: crypto.randomBytes(32).toString('hex'),
      storage: t.storage,
    });
    await other.ready();
    try {
      const read = async (app: App) =>
        (await app.inject({ method: 'GET', url: `/api/products?search=${word}` })).json<ProductListItem[]>();
      expect((await read(other)).map((c) => c.stock)).toEqual([3]);
      // No request of either instance made it: only the database's notice tells them.
      await t.database.db.update(products).set({ stock: 2 }).where(eq(products.id, product.id));
      await expect.poll(async () => (await read(t.app)).map((c) => c.stock), { timeout: 2_000 }).toEqual([2]);
      await expect.poll(async () => (await read(other)).map((c) => c.stock), { timeout: 2_000 }).toEqual([2]);
      // A write through this instance is seen by the other as soon as its notice arrives.
      const changed = await as(t, seller, {
        method: 'PATCH',
        url: `/api/products/${product.id}`,
        payload: { stock: 7 },
      });
      expect(changed.statusCode).toBe(200);
      await expect.poll(async () => (await read(other)).map((c) => c.stock), { timeout: 2_000 }).toEqual([7]);
    } finally {
      await other.close();
    }
  });
});

describe('answers that depend on the caller', () => {
  it('gives buyers at different places their own distances', async () => {
    const word = uniqueWord();
    // The seller's address is Springfield (commerce.createAddress); one buyer there, one in Chicago.
    await createProduct(t, seller.id, { name: `${word} Drill` });
    const local = await signedInAs(t, 'buyer');
    const faraway = await signedInAs(t, 'buyer');
    const neighbour = await signedInAs(t, 'buyer');
    await createAddress(t, local.id);
    await createAddress(t, neighbour.id);
    const chicago = await as(t, faraway, {
      method: 'POST',
      url: '/api/addresses',
      payload: { addressLine1: '233 S Wacker Dr', city: 'Chicago', state: 'IL', zipCode: '60606' },
    });
    expect(chicago.statusCode).toBe(201);
    const near = (user: TestUser) =>
      as(t, user, { method: 'GET', url: `/api/products/with-distance?search=${word}` });
    const distances = async (user: TestUser) => {
      const response = await near(user);
      expect(response.statusCode).toBe(200);
      // A personal answer: no shared cache keeps it (decision 0011).
      expect(response.headers['cache-control']).toBe('no-store');
      return response.json<ProductListItem[]>().map((c) => c.distance);
    };
    expect(await distances(local)).toEqual([0]);
    const far = await distances(faraway);
    expect(far[0]).toBeGreaterThan(150);
    expect(await distances(local)).toEqual([0]);
    expect(await distances(neighbour)).toEqual([0]);
    // Moving is a change like any other.
    const moved = await as(t, local, {
      method: 'POST',
      url: '/api/addresses',
      payload: { addressLine1: '1 N State St', city: 'Chicago', state: 'IL', zipCode: '60606' },
    });
    expect(moved.statusCode).toBe(201);
    const primary = await as(t, local, {
      method: 'POST',
      url: `/api/addresses/${moved.json<{ id: string }>().id}/set-primary`,
    });
    expect(primary.statusCode).toBe(200);
    expect(await distances(local)).toEqual(far);
  });

  it('never answers a private or admin view from the public cache', async () => {
    const word = uniqueWord();
    const owner = await signedInAs(t, 'seller');
    const admin = await signedInAs(t, 'admin');
    await createProduct(t, owner.id, { name: `${word} Active` });
    await createProduct(t, owner.id, { name: `${word} Withdrawn`, available: false });
    // The public list (twice: the second from memory) shows the available product only.
    expect((await cards(word)).map((c) => c.name)).toEqual([`${word} Active`]);
    expect((await cards(word)).map((c) => c.name)).toEqual([`${word} Active`]);
    const own = await as(t, owner, { method: 'GET', url: '/api/seller/products' });
    expect(own.statusCode).toBe(200);
    expect(own.headers.etag).toBeUndefined();
    expect(
      own
        .json<{ name: string }[]>()
        .map((p) => p.name)
        .sort(),
    ).toEqual([`${word} Active`, `${word} Withdrawn`]);
    const adminView = await as(t, admin, { method: 'GET', url: `/api/admin/products?search=${word}` });
    expect(adminView.statusCode).toBe(200);
    expect(adminView.headers.etag).toBeUndefined();
    expect(
      adminView
        .json<{ items: { name: string }[] }>()
        .items.map((p) => p.name)
        .sort(),
    ).toEqual([`${word} Active`, `${word} Withdrawn`]);
    // The distance list is for signed-in callers, whatever is kept.
    await as(t, buyer, { method: 'GET', url: `/api/products/with-distance?search=${word}` });
    const visitor = await t.app.inject({ method: 'GET', url: `/api/products/with-distance?search=${word}` });
    expect(visitor.statusCode).toBe(401);
  });
});

describe('the cache itself', () => {
  it('does not keep an answer computed before a change it heard of meanwhile', async () => {
    const cache = new PublicAnswerCache(t.database, { warn: () => {} });
    await cache.start();
    try {
      let builds = 0;
      const stale = await cache.answer('k', async () => {
        builds++;
        // The change lands while this answer is being computed.
        cache.clear();
        return Buffer.from('"old"');
      });
      expect(stale.body.toString()).toBe('"old"');
      const fresh = await cache.answer('k', async () => {
        builds++;
        return Buffer.from('"new"');
      });
      expect(fresh.body.toString()).toBe('"new"');
      expect(builds).toBe(2);
      // Kept now: the same bytes without building again.
      expect((await cache.answer('k', () => Promise.reject(new Error('built again')))).etag).toBe(fresh.etag);
    } finally {
      await cache.stop();
    }
  });

  it("answers a replay in the server's listener without calling Fastify's handler, and hands over the rest", async () => {
    const cache = new PublicAnswerCache(t.database, { warn: () => {} });
    await cache.start();
    const handled: string[] = [];
    const server = keptReadsServer(
      () => ({ cache }),
      () => 'an-id',
    )((request, response) => {
      handled.push(`${request.method} ${request.url}`);
      response.writeHead(200, { 'content-type': 'text/plain' }).end('from the app');
    }, {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const base = `http://127.0.0.1:${port}`;
    try {
      const kept = await cache.answer('k', async () => Buffer.from('[1]'));
      // fetch sends an Accept-Encoding of its own; the replay is kept for that one.
      cache.remember('/kept', 'identity', kept, {
        head: ['content-type', 'application/json'],
        body: kept.body,
        visitorsOnly: false,
      });
      const replay = await fetch(`${base}/kept`, { headers: { 'accept-encoding': 'identity' } });
      expect(await replay.text()).toBe('[1]');
      expect(replay.headers.get('x-request-id')).toBe('an-id');
      expect(replay.headers.get('content-length')).toBe('3');
      for (const [url, init] of [
        ['/other', { headers: { 'accept-encoding': 'identity' } }],
        ['/kept', { method: 'HEAD', headers: { 'accept-encoding': 'identity' } }],
        ['/kept', { headers: { 'accept-encoding': 'identity', 'if-none-match': kept.etag } }],
        ['/kept', { method: 'POST', body: '{}', headers: { 'accept-encoding': 'identity' } }],
        ['/kept', { headers: { 'accept-encoding': 'gzip' } }],
      ] as const) {
        const response = await fetch(base + url, init);
        if (init.method !== 'HEAD') expect(await response.text()).toBe('from the app');
      }
      // A closing instance takes every request through the app (which answers 503 then).
      cache.stopReplays();
      expect(await (await fetch(`${base}/kept`, { headers: { 'accept-encoding': 'identity' } })).text()).toBe(
        'from the app',
      );
      expect(handled).toEqual([
        'GET /other',
        'HEAD /kept',
        'GET /kept',
        'POST /kept',
        'GET /kept',
        'GET /kept',
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await cache.stop();
    }
  });

  it('replays an answer only while it is the one kept, and not past its time', async () => {
    let clock = 0;
    const cache = new PublicAnswerCache(
      t.database,
      { warn: () => {} },
      { ...DEFAULT_PUBLIC_CACHE_OPTIONS, ttlMs: 1_000, now: () => clock },
    );
    await cache.start();
    try {
      const head = ['content-type', 'application/json'];
      const kept = await cache.answer('k', async () => Buffer.from('[1]'));
      cache.remember('/a', '', kept, { head, body: kept.body, visitorsOnly: false });
      expect(cache.replayOf('/a', undefined, false)?.body.toString()).toBe('[1]');
      // Another Accept-Encoding, another URL: not recorded for them.
      expect(cache.replayOf('/a', 'gzip', false)).toBeUndefined();
      expect(cache.replayOf('/b', undefined, false)).toBeUndefined();
      clock = 1_000;
      expect(cache.replayOf('/a', undefined, false)).toBeUndefined();
      // A change drops it; an answer no longer kept is not recorded again.
      clock = 0;
      const again = await cache.answer('k', async () => Buffer.from('[2]'));
      cache.remember('/a', '', again, { head, body: again.body, visitorsOnly: false });
      cache.clear();
      expect(cache.replayOf('/a', undefined, false)).toBeUndefined();
      cache.remember('/a', '', again, { head, body: again.body, visitorsOnly: false });
      expect(cache.replayable).toBe(0);
    } finally {
      await cache.stop();
    }
  });

  it('shares one build between callers asking at once, and keeps nothing when it cannot listen', async () => {
    const cache = new PublicAnswerCache(t.database, { warn: () => {} });
    await cache.start();
    try {
      let builds = 0;
      const build = async () => {
        builds++;
        await new Promise((resolve) => setTimeout(resolve, 20));
        return Buffer.from('[]');
      };
      await Promise.all([cache.answer('k', build), cache.answer('k', build), cache.answer('k', build)]);
      expect(builds).toBe(1);
    } finally {
      await cache.stop();
    }
    const deaf = new PublicAnswerCache(
      { db: t.database.db, listen: () => Promise.reject(new Error('no listener')) },
      { warn: () => {} },
    );
    await deaf.start();
    let builds = 0;
    await deaf.answer('k', async () => Buffer.from(String(++builds)));
    await deaf.answer('k', async () => Buffer.from(String(++builds)));
    expect(builds).toBe(2);
    expect(deaf.size).toBe(0);
  });
});
