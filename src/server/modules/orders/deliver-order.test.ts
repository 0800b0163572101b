import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { adminActions, orders } from '../../db/schema';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import { orderInTransit, verifiedDriver, type DeliveryScene } from '../../testing/payout-scenes';
import type { Order } from '../../../domain/orders';
import type { DeliveryProofSettings } from '../../../domain/delivery-proof';

/**
 * Proof of delivery (docs/rules/deliveries.md, Deliveries; docs/rules/admin.md, Admin): Mark Delivered takes
 * a drop-off photo and/or the 4-digit code the buyer reads, as the admin's settings ask; the code is the
 * buyer's alone, used once, and only the assigned driver may deliver with it.
 */

let clock = new Date('2026-11-18T18:00:00.000Z');
let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp({ now: () => clock });
  admin = await signedInAs(t, 'admin');
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** Uploads a picture as the browser would and answers its object path. */
async function upload(user: TestUser): Promise<string> {
  const asked = await as(t, user, { method: 'POST', url: '/api/objects/upload' });
  const { uploadURL, objectPath } = asked.json<{ uploadURL: string; objectPath: string }>();
  const url = new URL(uploadURL);
  const put = await t.app.inject({
    method: 'PUT',
    url: url.pathname + url.search,
    payload: PNG,
    headers: {
      'content-type': 'image/png',
      host: url.host,
      origin: url.origin,
      'sec-fetch-site': 'same-origin',
    },
  });
  expect(put.statusCode, put.body).toBe(200);
  return objectPath;
}

const setProof = (user: TestUser, settings: DeliveryProofSettings) =>
  as(t, user, { method: 'PUT', url: '/api/admin/delivery-proof-settings', payload: settings });
const deliver = (user: TestUser, id: string, payload: Record<string, unknown>) =>
  as(t, user, { method: 'POST', url: `/api/orders/${id}/deliver`, payload });
const orderAs = async (user: TestUser, id: string) =>
  (await as(t, user, { method: 'GET', url: `/api/orders/${id}` })).json<Order>();
const codeOf = async (s: DeliveryScene) => (await orderAs(s.buyer, s.order.id)).deliveryCode ?? '';
const otherCode = (code: string) => String((Number(code) + 1) % 10_000).padStart(4, '0');

const DEFAULTS = { standardPhoto: true, standardCode: false, trailerPhoto: true, trailerCode: true };
const CODE_ONLY = { standardPhoto: false, standardCode: true, trailerPhoto: false, trailerCode: true };

describe('the proof settings', () => {
  it('start as photo for standard orders and photo and code for trailer orders; only admins change them, audited', async () => {
    expect((await as(t, admin, { method: 'GET', url: '/api/admin/delivery-proof-settings' })).json()).toEqual(
      DEFAULTS,
    );
    const driver = await verifiedDriver(t);
    expect((await setProof(driver, CODE_ONLY)).statusCode).toBe(403);
    expect((await setProof(admin, { ...CODE_ONLY, extra: true } as never)).statusCode).toBe(400);
    const saved = await setProof(admin, CODE_ONLY);
    expect(saved.json()).toEqual(CODE_ONLY);
    expect((await as(t, driver, { method: 'GET', url: '/api/delivery-proof-settings' })).json()).toEqual(
      CODE_ONLY,
    );
    const audit = await t.database.db
      .select()
      .from(adminActions)
      .where(eq(adminActions.action, 'delivery_proof.updated'));
    expect(audit).toMatchObject([{ actorId: admin.id, before: DEFAULTS, after: CODE_ONLY }]);
    expect((await setProof(admin, DEFAULTS)).statusCode).toBe(200);
  });
});

describe('the delivery code', () => {
  it('is shown to the buyer while the order is on its way, never to its driver or seller', async () => {
    const s = await orderInTransit(t);
    expect(await codeOf(s)).toMatch(/^\d{4}$/);
    expect((await orderAs(admin, s.order.id)).deliveryCode).toBe(await codeOf(s));
    for (const user of [s.driver, s.seller]) {
      const one = await as(t, user, { method: 'GET', url: `/api/orders/${s.order.id}` });
      const list = await as(t, user, { method: 'GET', url: '/api/orders' });
      expect(one.body).not.toContain('deliveryCode"');
      expect(list.body).not.toContain('deliveryCode"');
    }
  });

  it('delivers once, by the assigned driver only; anyone else gets 404', async () => {
    expect((await setProof(admin, CODE_ONLY)).statusCode).toBe(200);
    const s = await orderInTransit(t);
    const code = await codeOf(s);
    const stranger = await verifiedDriver(t);
    for (const user of [stranger, s.buyer, s.seller, admin]) {
      expect((await deliver(user, s.order.id, { code })).statusCode).toBe(404);
    }
    const done = await deliver(s.driver, s.order.id, { code });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      status: 'delivered',
      deliveredAt: clock.toISOString(),
      deliveryCodeConfirmed: true,
      dropOffPhotoUrl: null,
    });
    expect(done.json()).not.toHaveProperty('deliveryCode');
    const again = await deliver(s.driver, s.order.id, { code });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This order is already Delivered.');
    expect(await orderAs(s.buyer, s.order.id)).toMatchObject({ deliveryCodeConfirmed: true });
    expect((await orderAs(s.buyer, s.order.id)).deliveryCode).toBeUndefined();
  });

  it('refuses a wrong code, and after five wrong ones locks it for 15 minutes', async () => {
    expect((await setProof(admin, CODE_ONLY)).statusCode).toBe(200);
    const s = await orderInTransit(t);
    const code = await codeOf(s);
    for (let i = 0; i < 5; i++) {
      const wrong = await deliver(s.driver, s.order.id, { code: otherCode(code) });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toBe('That code does not match');
    }
    const locked = await deliver(s.driver, s.order.id, { code });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toBe(
      'Too many wrong codes: ask the buyer to read it again in a few minutes',
    );
    expect((await orderAs(s.buyer, s.order.id)).status).toBe('in-transit');
    const start = clock;
    clock = new Date(start.getTime() + 15 * 60_000 + 1);
    try {
      expect((await deliver(s.driver, s.order.id, { code })).statusCode).toBe(200);
    } finally {
      clock = start;
    }
  });
});

describe('Mark Delivered', () => {
  it('through the status step is refused while proof is asked, naming it', async () => {
    expect((await setProof(admin, DEFAULTS)).statusCode).toBe(200);
    const s = await orderInTransit(t);
    const step = await as(t, s.driver, {
      method: 'PATCH',
      url: `/api/orders/${s.order.id}/status`,
      payload: { status: 'delivered' },
    });
    expect(step.statusCode).toBe(409);
    expect(step.json().message).toBe('Mark Delivered needs its proof: a drop-off photo.');
    await t.database.db.update(orders).set({ requiresTrailer: true }).where(eq(orders.id, s.order.id));
    const missing = await deliver(s.driver, s.order.id, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(
      "Mark Delivered needs its proof: a drop-off photo and the buyer's delivery code.",
    );
  });

  it('with a photo, the code and the place records them; the parties see the proof and the photo', async () => {
    expect((await setProof(admin, DEFAULTS)).statusCode).toBe(200);
    const s = await orderInTransit(t);
    await t.database.db.update(orders).set({ requiresTrailer: true }).where(eq(orders.id, s.order.id));
    const photo = await upload(s.driver);
    const badPlace = await deliver(s.driver, s.order.id, {
      dropOffPhotoUrl: photo,
      code: await codeOf(s),
      latitude: 91,
      longitude: 0,
    });
    expect(badPlace.statusCode).toBe(400);
    const halfPlace = await deliver(s.driver, s.order.id, {
      dropOffPhotoUrl: photo,
      code: await codeOf(s),
      latitude: 41,
    });
    expect(halfPlace.statusCode).toBe(400);
    const someoneElses = await upload(s.buyer);
    expect(
      (await deliver(s.driver, s.order.id, { dropOffPhotoUrl: someoneElses, code: await codeOf(s) }))
        .statusCode,
    ).toBe(404);
    const wrong = await deliver(s.driver, s.order.id, {
      dropOffPhotoUrl: photo,
      code: otherCode(await codeOf(s)),
    });
    expect(wrong.statusCode).toBe(400);
    const done = await deliver(s.driver, s.order.id, {
      dropOffPhotoUrl: photo,
      code: await codeOf(s),
      latitude: 41.8781,
      longitude: -87.6298,
    });
    expect(done.statusCode, done.body).toBe(200);
    for (const user of [s.buyer, s.seller, s.driver, admin]) {
      expect(await orderAs(user, s.order.id)).toMatchObject({
        status: 'delivered',
        deliveredAt: clock.toISOString(),
        dropOffPhotoUrl: photo,
        deliveryCodeConfirmed: true,
        dropOffPlace: { latitude: 41.8781, longitude: -87.6298 },
      });
      expect((await as(t, user, { method: 'GET', url: photo })).statusCode).toBe(200);
    }
    const outsider = await signedInAs(t, 'buyer');
    expect((await as(t, outsider, { method: 'GET', url: photo })).statusCode).toBe(404);
  });
});
