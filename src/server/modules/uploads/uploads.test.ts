import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../../domain/uploads';
import type { ObjectStorage } from '../../adapters/storage/object-storage';
import { LocalObjectStorage } from '../../adapters/storage/local-object-storage';
import { S3ObjectStorage } from '../../adapters/storage/s3-object-storage';
import { orders, uploadedObjects, users } from '../../db/schema';
import { startTestS3Server, type TestS3Server } from '../../testing/s3-server';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import { canReadUpload } from '../../platform/policy';
import { claimUpload } from './uploads.service';

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const TEXT = Buffer.from('Just some text that says it is a PNG, and is not.');
const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

interface UploadAnswer {
  uploadURL: string;
  objectPath: string;
}

interface Harness {
  t: TestApp;
  storage: ObjectStorage;
  /** Sends the file to the presigned URL as a browser would. */
  put(
    uploadURL: string,
    bytes: Buffer<ArrayBuffer>,
    contentType?: string,
  ): Promise<{ status: number; etag: string | null; text: string }>;
  /** Moves the local store's clock (expiry tests); undefined for S3. */
  skew?: (ms: number) => void;
  close(): Promise<void>;
}

async function localHarness(): Promise<Harness> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'uploads-test-'));
  let skewMs = 0;
  const storage = new LocalObjectStorage({
    root,
    signingKey: crypto.randomBytes(32),
    now: () => Date.now() + skewMs,
  });
  const t = await createTestApp({ storage });
  return {
    t,
    storage,
    put: async (uploadURL, bytes, contentType = 'image/png') => {
      const url = new URL(uploadURL);
      const response = await t.app.inject({
        method: 'PUT',
        url: url.pathname + url.search,
        payload: bytes,
        // What a browser sends for a same-origin XHR from the page (inject's default Host is localhost:80).
        headers: {
          'content-type': contentType,
          host: url.host,
          origin: url.origin,
          'sec-fetch-site': 'same-origin',
        },
      });
      const etag = response.headers.etag;
      return {
        status: response.statusCode,
        etag: typeof etag === 'string' ? etag : null,
        text: response.body,
      };
    },
    skew: (ms) => {
      skewMs = ms;
    },
    close: async () => {
      await t.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

async function s3Harness(): Promise<Harness> {
  const s3: TestS3Server = await startTestS3Server();
  const t = await createTestApp({ env: s3.env });
  const storage = new S3ObjectStorage(s3.config);
  return {
    t,
    storage,
    put: async (uploadURL, bytes, contentType = 'image/png') => {
      const response = await fetch(uploadURL, {
        method: 'PUT',
        body: bytes,
        headers: { 'content-type': contentType },
      });
      return { status: response.status, etag: response.headers.get('etag'), text: await response.text() };
    },
    close: async () => {
      await t.close();
      await storage.close();
      await s3.close();
    },
  };
}

const keyOf = (objectPath: string) => `uploads/${objectPath.split('/').pop() ?? ''}`;

describe.each([
  ['local', localHarness],
  ['s3', s3Harness],
] as const)('uploads with the %s store', (kind, makeHarness) => {
  let h: Harness;
  let t: TestApp;
  beforeAll(async () => {
    h = await makeHarness();
    t = h.t;
  });
  afterAll(async () => {
    await h.close();
  });
  afterEach(() => {
    expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
  });

  async function newUpload(user: TestUser, payload?: object): Promise<UploadAnswer> {
    const response = await as(t, user, {
      method: 'POST',
      url: '/api/objects/upload',
      ...(payload ? { payload } : {}),
    });
    expect(response.statusCode).toBe(200);
    return response.json();
  }

  async function uploaded(user: TestUser, bytes: Buffer<ArrayBuffer> = PNG): Promise<UploadAnswer> {
    const answer = await newUpload(user);
    const put = await h.put(answer.uploadURL, bytes);
    expect(put.status).toBe(200);
    return answer;
  }

  function claim(user: TestUser | undefined, url: string, imageUrl: unknown) {
    return as(t, user, { method: 'PUT', url, payload: { imageUrl } });
  }

  /** An order assigned to `driver`, straight in the database. */
  async function assignedOrder(buyer: TestUser, seller: TestUser, driver: TestUser) {
    const [order] = await t.database.db
      .insert(orders)
      .values({
        buyerId: buyer.id,
        sellerId: seller.id,
        driverId: driver.id,
        orderNumber: `ORD-${crypto.randomBytes(4).toString('hex').toUpperCase()}`,
        status: 'assigned',
        productSubtotal: '10.00',
        deliveryFee: '10.00',
        total: '20.00',
        deliveryAddress: '1 Main St',
        sellerEarnings: '9.00',
        driverEarnings: '9.00',
        purchasePlatformFee: '1.00',
        deliveryPlatformFee: '1.00',
        platformFee: '2.00',
      })
      .returning();
    if (!order) throw new Error('no order');
    return order;
  }

  const me = async (user: TestUser) => (await as(t, user, { method: 'GET', url: '/api/auth/user' })).json();
  const rowOf = async (objectPath: string) =>
    (
      await t.database.db
        .select()
        .from(uploadedObjects)
        .where(eq(uploadedObjects.key, keyOf(objectPath)))
    )[0];

  describe('POST /api/objects/upload', () => {
    it('answers a presigned PUT URL and the object path, for a signed-in user only', async () => {
      const buyer = await signedInAs(t, 'buyer');
      const answer = await newUpload(buyer);
      expect(answer.objectPath).toMatch(/^\/objects\/uploads\/[0-9a-f-]{36}$/);
      const url = new URL(answer.uploadURL);
      if (kind === 'local') {
        expect(url.pathname).toBe(`/api/objects/local/${keyOf(answer.objectPath)}`);
        expect(url.searchParams.get('signature')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      } else {
        expect(url.pathname).toBe(`/marketplace-test/${keyOf(answer.objectPath)}`);
        expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
      }
      expect(await rowOf(answer.objectPath)).toMatchObject({
        ownerId: buyer.id,
        visibility: 'pending',
        uploadedAt: null,
      });

      const visitor = await t.app.inject({ method: 'POST', url: '/api/objects/upload' });
      expect(visitor.statusCode).toBe(401);
    });

    it('accepts a declared image type and size, and refuses other types and sizes above 10 MB', async () => {
      const buyer = await signedInAs(t, 'buyer');
      await newUpload(buyer, { contentType: 'image/png', size: PNG.length });
      const html = await as(t, buyer, {
        method: 'POST',
        url: '/api/objects/upload',
        payload: { contentType: 'text/html' },
      });
      expect(html.statusCode).toBe(400);
      expect(html.json().fields).toEqual({
        contentType: 'You can only upload: image/jpeg, image/png, image/gif, image/webp',
      });
      const big = await as(t, buyer, {
        method: 'POST',
        url: '/api/objects/upload',
        payload: { size: MAX_UPLOAD_BYTES + 1 },
      });
      expect(big.statusCode).toBe(400);
      expect(big.json().fields).toEqual({ size: 'File exceeds maximum allowed size' });
    });
  });

  describe('the whole flow', () => {
    it('uploads a PNG, sets it as profile picture, and shows it to a visitor', async () => {
      const buyer = await signedInAs(t, 'buyer');
      const answer = await newUpload(buyer, { contentType: 'image/png', size: PNG.length });
      const put = await h.put(answer.uploadURL, PNG);
      expect(put.status).toBe(200);
      expect(put.etag).toBe(`"${crypto.createHash('md5').update(PNG).digest('hex')}"`);

      const claimed = await claim(buyer, '/api/users/profile-image', answer.objectPath);
      expect(claimed.statusCode).toBe(200);
      expect(claimed.json()).toMatchObject({
        id: buyer.id,
        email: buyer.email,
        profileImageUrl: answer.objectPath,
      });
      // GET /api/auth/user adds the live cursor (docs/rules/live-updates.md, Live updates).
      expect({ ...claimed.json(), liveCursor: expect.any(Number) }).toEqual(await me(buyer));

      const image = await t.app.inject({ method: 'GET', url: answer.objectPath });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
      expect(image.headers['x-content-type-options']).toBe('nosniff');
      expect(image.headers['content-disposition']).toBe('inline');
      expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(image.rawPayload).toEqual(PNG);
      expect(await rowOf(answer.objectPath)).toMatchObject({
        visibility: 'public',
        size: PNG.length,
        contentType: 'image/png',
      });
    });

    it('serves the type read from the bytes, not the declared one', async () => {
      const buyer = await signedInAs(t, 'buyer');
      const answer = await newUpload(buyer);
      expect((await h.put(answer.uploadURL, GIF, 'image/png')).status).toBe(200);
      expect((await claim(buyer, '/api/users/profile-image', answer.objectPath)).statusCode).toBe(200);
      const image = await t.app.inject({ method: 'GET', url: answer.objectPath });
      expect(image.headers['content-type']).toBe('image/gif');
    });

    it('replaces an earlier profile picture', async () => {
      const buyer = await signedInAs(t, 'buyer');
      const first = await uploaded(buyer);
      const second = await uploaded(buyer);
      await claim(buyer, '/api/users/profile-image', first.objectPath);
      const response = await claim(buyer, '/api/users/profile-image', second.objectPath);
      expect(response.json().profileImageUrl).toBe(second.objectPath);
    });
  });

  describe('content checks (docs/rules/selling.md, Uploads and who sees a file)', () => {
    it('refuses text bytes declared as image/png and keeps nothing', async () => {
      const buyer = await signedInAs(t, 'buyer');
      const answer = await newUpload(buyer);
      const put = await h.put(answer.uploadURL, TEXT, 'image/png');
      if (kind === 'local') {
        expect(put.status).toBe(400);
        expect(JSON.parse(put.text).message).toBe('File is not an image');
      } else {
        // An S3 PUT cannot look at the bytes: the claim does.
        expect(put.status).toBe(200);
        const response = await claim(buyer, '/api/users/profile-image', answer.objectPath);
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toBe('File is not an image');
      }
      expect(await h.storage.head(keyOf(answer.objectPath))).toBeNull();
      expect(await rowOf(answer.objectPath)).toMatchObject({
        visibility: 'pending',
        uploadedAt: null,
        size: null,
      });
      expect((await me(buyer)).profileImageUrl).toBeNull();
      const read = await as(t, buyer, { method: 'GET', url: answer.objectPath });
      expect(read.statusCode).toBe(404);
    });

    it('refuses a file over 10 MB with 413 and keeps nothing', async () => {
      const buyer = await signedInAs(t, 'buyer');
      const answer = await newUpload(buyer);
      const big = Buffer.alloc(MAX_UPLOAD_BYTES + 1);
      PNG.copy(big);
      const put = await h.put(answer.uploadURL, big);
      if (kind === 'local') {
        expect(put.status).toBe(413);
      } else {
        expect(put.status).toBe(200);
        const response = await claim(buyer, '/api/users/profile-image', answer.objectPath);
        expect(response.statusCode).toBe(413);
        expect(response.json().message).toBe('File exceeds maximum allowed size');
      }
      expect(await h.storage.head(keyOf(answer.objectPath))).toBeNull();
      expect(await rowOf(answer.objectPath)).toMatchObject({ uploadedAt: null, size: null });
      expect((await me(buyer)).profileImageUrl).toBeNull();
    });

    it('takes a file of exactly 10 MB', async () => {
      const buyer = await signedInAs(t, 'buyer');
      const answer = await newUpload(buyer);
      const exact = Buffer.alloc(MAX_UPLOAD_BYTES);
      PNG.copy(exact);
      expect((await h.put(answer.uploadURL, exact)).status).toBe(200);
      expect((await claim(buyer, '/api/users/profile-image', answer.objectPath)).statusCode).toBe(200);
      expect(await rowOf(answer.objectPath)).toMatchObject({ size: MAX_UPLOAD_BYTES });
    });
  });

  describe('claims', () => {
    it('answers 400 Upload not finished for an object that was never sent', async () => {
      const buyer = await signedInAs(t, 'buyer');
      const answer = await newUpload(buyer);
      const response = await claim(buyer, '/api/users/profile-image', answer.objectPath);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Upload not finished');
      expect((await me(buyer)).profileImageUrl).toBeNull();
    });

    it('answers 400 for an imageUrl that is not an upload path, and for extra fields', async () => {
      const buyer = await signedInAs(t, 'buyer');
      for (const imageUrl of [
        'https://example.com/cat.png',
        '/objects/uploads/123',
        '../etc/passwd',
        42,
        null,
      ]) {
        const response = await claim(buyer, '/api/users/profile-image', imageUrl);
        expect(response.statusCode).toBe(400);
        expect(Object.keys(response.json().fields)).toEqual(['imageUrl']);
      }
      const answer = await uploaded(buyer);
      const extra = await as(t, buyer, {
        method: 'PUT',
        url: '/api/users/profile-image',
        payload: { imageUrl: answer.objectPath, userId: crypto.randomUUID() },
      });
      expect(extra.statusCode).toBe(400);
      expect((await me(buyer)).profileImageUrl).toBeNull();
    });

    it("refuses another user's upload with 404 and changes nothing", async () => {
      const owner = await signedInAs(t, 'driver');
      const thief = await signedInAs(t, 'driver');
      const answer = await uploaded(owner);
      const asProfile = await claim(thief, '/api/users/profile-image', answer.objectPath);
      expect(asProfile.statusCode).toBe(404);
      expect(asProfile.json().message).toBe('Upload not found');
      const asVehicle = await claim(thief, '/api/drivers/vehicle-image', answer.objectPath);
      expect(asVehicle.statusCode).toBe(404);
      expect(await me(thief)).toMatchObject({ profileImageUrl: null, vehicleImageUrl: null });
      expect(await rowOf(answer.objectPath)).toMatchObject({ ownerId: owner.id, visibility: 'pending' });
      // The owner still can.
      expect((await claim(owner, '/api/drivers/vehicle-image', answer.objectPath)).statusCode).toBe(200);
    });

    it('answers 404 for an upload that does not exist', async () => {
      const buyer = await signedInAs(t, 'buyer');
      const response = await claim(
        buyer,
        '/api/users/profile-image',
        `/objects/uploads/${crypto.randomUUID()}`,
      );
      expect(response.statusCode).toBe(404);
    });

    it('is idempotent for the same field, and refuses one object for two purposes', async () => {
      const driver = await signedInAs(t, 'driver');
      const answer = await uploaded(driver);
      const first = await claim(driver, '/api/drivers/vehicle-image', answer.objectPath);
      expect(first.statusCode).toBe(200);
      const again = await claim(driver, '/api/drivers/vehicle-image', answer.objectPath);
      expect(again.statusCode).toBe(200);
      expect(again.json().vehicleImageUrl).toBe(answer.objectPath);
      for (const url of [
        '/api/drivers/license-image',
        '/api/drivers/trailer-image',
        '/api/users/profile-image',
      ]) {
        const other = await claim(driver, url, answer.objectPath);
        expect(other.statusCode).toBe(409);
        expect(other.json().message).toBe('This upload is already in use');
      }
      expect(await me(driver)).toMatchObject({
        vehicleImageUrl: answer.objectPath,
        licenseImageUrl: null,
        trailerImageUrl: null,
        profileImageUrl: null,
      });
      expect((await rowOf(answer.objectPath))?.visibility).toBe('owner');
    });

    it('decodes every upload: a PNG header followed by HTML is refused on every route and its bytes deleted', async () => {
      // The signature and a whole IHDR chunk (a 1×1 picture), then a page instead of image data.
      const disguised = Buffer.concat([
        PNG.subarray(0, 33),
        Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>'),
      ]);
      const driver = await signedInAs(t, 'driver');
      const buyer = await signedInAs(t, 'buyer');
      const seller = await signedInAs(t, 'seller');
      const order = await assignedOrder(buyer, seller, driver);
      // Mark Delivered's drop-off photo: an order under way.
      const underWay = await assignedOrder(buyer, seller, driver);
      await t.database.db.update(orders).set({ status: 'in-transit' }).where(eq(orders.id, underWay.id));
      const routes: { method: 'PUT' | 'PATCH' | 'POST'; url: string; field: string }[] = [
        { method: 'PUT', url: '/api/users/profile-image', field: 'imageUrl' },
        { method: 'PUT', url: '/api/drivers/vehicle-image', field: 'imageUrl' },
        { method: 'PUT', url: '/api/drivers/license-image', field: 'imageUrl' },
        { method: 'PUT', url: '/api/drivers/trailer-image', field: 'imageUrl' },
        { method: 'PATCH', url: `/api/orders/${order.id}/delivery-photo`, field: 'deliveryPhotoUrl' },
        { method: 'POST', url: `/api/orders/${underWay.id}/deliver`, field: 'dropOffPhotoUrl' },
      ];
      for (const route of routes) {
        const answer = await uploaded(driver, disguised);
        const response = await as(t, driver, {
          method: route.method,
          url: route.url,
          payload: { [route.field]: answer.objectPath },
        });
        expect(response.statusCode, route.url).toBe(400);
        expect(response.json().message, route.url).toBe('File is not an image');
        expect(await h.storage.head(keyOf(answer.objectPath)), route.url).toBeNull();
        expect((await as(t, driver, { method: 'GET', url: answer.objectPath })).statusCode).toBe(404);
      }
      expect(await me(driver)).toMatchObject({
        profileImageUrl: null,
        vehicleImageUrl: null,
        licenseImageUrl: null,
        trailerImageUrl: null,
      });
      const [stored] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
      expect(stored?.deliveryPhotoUrl).toBeNull();
      const [notDelivered] = await t.database.db.select().from(orders).where(eq(orders.id, underWay.id));
      expect(notDelivered).toMatchObject({ status: 'in-transit', dropOffPhotoUrl: null });
    });

    it('lets only drivers save vehicle, licence and trailer images (403 otherwise)', async () => {
      const seller = await signedInAs(t, 'seller');
      const answer = await uploaded(seller);
      for (const url of [
        '/api/drivers/vehicle-image',
        '/api/drivers/license-image',
        '/api/drivers/trailer-image',
      ]) {
        const response = await claim(seller, url, answer.objectPath);
        expect(response.statusCode).toBe(403);
        expect(response.json().message).toBe('You need to be a driver to save driver images');
      }
      expect(await me(seller)).toMatchObject({
        vehicleImageUrl: null,
        licenseImageUrl: null,
        trailerImageUrl: null,
      });
      expect((await rowOf(answer.objectPath))?.visibility).toBe('pending');
      const visitor = await claim(undefined, '/api/drivers/vehicle-image', answer.objectPath);
      expect(visitor.statusCode).toBe(401);
    });

    it('lets a driver whose current role is buyer save driver images (granted roles count)', async () => {
      const driver = await signedInAs(t, 'driver');
      await as(t, driver, {
        method: 'PATCH',
        url: `/api/users/${driver.id}/role`,
        payload: { role: 'buyer' },
      });
      const answer = await uploaded(driver);
      const response = await claim(driver, '/api/drivers/trailer-image', answer.objectPath);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ role: 'buyer', trailerImageUrl: answer.objectPath });
    });
  });

  describe('a verified driver replacing a document (docs/rules/deliveries.md, Deliveries)', () => {
    it('goes back to review: unverified, no offers, first on the admin list, in the activity log, until approved again', async () => {
      const driver = await signedInAs(t, 'driver');
      const admin = await signedInAs(t, 'admin');
      const firstVehicle = await uploaded(driver);
      const license = await uploaded(driver);
      expect((await claim(driver, '/api/drivers/vehicle-image', firstVehicle.objectPath)).statusCode).toBe(
        200,
      );
      expect((await claim(driver, '/api/drivers/license-image', license.objectPath)).statusCode).toBe(200);
      const approve = () =>
        as(t, admin, {
          method: 'PATCH',
          url: `/api/admin/drivers/${driver.id}/verify`,
          payload: { isVerified: true },
        });
      expect((await approve()).statusCode).toBe(200);
      const offers = () => as(t, driver, { method: 'GET', url: '/api/orders/available' });
      expect((await offers()).statusCode).toBe(200);

      // Saving the same image again, or a trailer image, changes nothing of the review.
      expect((await claim(driver, '/api/drivers/license-image', license.objectPath)).statusCode).toBe(200);
      const trailer = await uploaded(driver);
      expect((await claim(driver, '/api/drivers/trailer-image', trailer.objectPath)).statusCode).toBe(200);
      expect(await me(driver)).toMatchObject({ isVerified: true });

      // Another vehicle image: back to review at once.
      const newVehicle = await uploaded(driver);
      const replaced = await claim(driver, '/api/drivers/vehicle-image', newVehicle.objectPath);
      expect(replaced.statusCode).toBe(200);
      expect(replaced.json()).toMatchObject({ isVerified: false, vehicleImageUrl: newVehicle.objectPath });
      const refused = await offers();
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toContain('admin approval');

      // The admin sees it first among those waiting, marked, and the activity log says who did what.
      const other = await signedInAs(t, 'driver');
      const otherVehicle = await uploaded(other);
      const otherLicense = await uploaded(other);
      await claim(other, '/api/drivers/vehicle-image', otherVehicle.objectPath);
      await claim(other, '/api/drivers/license-image', otherLicense.objectPath);
      const list = await as(t, admin, { method: 'GET', url: '/api/admin/drivers?status=pending' });
      expect(list.statusCode).toBe(200);
      const items = list.json<{ items: { id: string; documentsChangedAt: string | null }[] }>().items;
      expect(items[0]).toMatchObject({ id: driver.id });
      expect(items[0]?.documentsChangedAt).toEqual(expect.any(String));
      expect(items.find((item) => item.id === other.id)?.documentsChangedAt).toBeNull();
      const activity = await as(t, admin, { method: 'GET', url: '/api/admin/activity' });
      const entry = activity
        .json<{
          items: { action: string; targetId: string | null; after: Record<string, unknown> | null }[];
        }>()
        .items.find((item) => item.action === 'driver.documents_changed' && item.targetId === driver.id);
      expect(entry?.after).toMatchObject({ isVerified: false, document: 'vehicle' });

      // Approved again: offers, and no longer marked.
      expect((await approve()).json()).toMatchObject({ isVerified: true, documentsChangedAt: null });
      expect((await offers()).statusCode).toBe(200);

      // A license image replaced later sends them back again.
      const newLicense = await uploaded(driver);
      expect((await claim(driver, '/api/drivers/license-image', newLicense.objectPath)).json()).toMatchObject(
        {
          isVerified: false,
        },
      );
      expect((await offers()).statusCode).toBe(403);
    });
  });

  describe('who sees a file (docs/rules/selling.md, Uploads and who sees a file)', () => {
    it('shows a licence image to its driver and admins only; 404 to another driver and visitors', async () => {
      const driver = await signedInAs(t, 'driver');
      const otherDriver = await signedInAs(t, 'driver');
      const admin = await signedInAs(t, 'admin');
      const buyer = await signedInAs(t, 'buyer');
      const answer = await uploaded(driver);
      expect((await claim(driver, '/api/drivers/license-image', answer.objectPath)).statusCode).toBe(200);

      const byOwner = await as(t, driver, { method: 'GET', url: answer.objectPath });
      expect(byOwner.statusCode).toBe(200);
      expect(byOwner.headers['content-type']).toBe('image/png');
      expect(byOwner.headers['cache-control']).toBe('private, no-store');
      expect(byOwner.rawPayload).toEqual(PNG);
      const byAdmin = await as(t, admin, { method: 'GET', url: answer.objectPath });
      expect(byAdmin.statusCode).toBe(200);
      expect(byAdmin.rawPayload).toEqual(PNG);
      for (const user of [otherDriver, buyer, undefined]) {
        const response = await as(t, user, { method: 'GET', url: answer.objectPath });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ message: 'Not found', code: 'not_found' });
      }
    });

    it('treats vehicle and trailer images like the licence', async () => {
      const driver = await signedInAs(t, 'driver');
      const stranger = await signedInAs(t, 'seller');
      const admin = await signedInAs(t, 'admin');
      for (const url of ['/api/drivers/vehicle-image', '/api/drivers/trailer-image']) {
        const answer = await uploaded(driver);
        expect((await claim(driver, url, answer.objectPath)).statusCode).toBe(200);
        expect((await as(t, stranger, { method: 'GET', url: answer.objectPath })).statusCode).toBe(404);
        expect((await t.app.inject({ method: 'GET', url: answer.objectPath })).statusCode).toBe(404);
        expect((await as(t, admin, { method: 'GET', url: answer.objectPath })).statusCode).toBe(200);
      }
    });

    it('shows a pending upload only to its uploader, privately', async () => {
      const buyer = await signedInAs(t, 'buyer');
      const admin = await signedInAs(t, 'admin');
      const answer = await uploaded(buyer);
      const own = await as(t, buyer, { method: 'GET', url: answer.objectPath });
      expect(own.statusCode).toBe(200);
      expect(own.headers['cache-control']).toBe('private, no-store');
      expect((await as(t, admin, { method: 'GET', url: answer.objectPath })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: answer.objectPath })).statusCode).toBe(404);
    });

    it('shows a delivery photo to the parties of its order and admins (the generic claim)', async () => {
      const buyer = await signedInAs(t, 'buyer');
      const seller = await signedInAs(t, 'seller');
      const driver = await signedInAs(t, 'driver');
      const otherDriver = await signedInAs(t, 'driver');
      const admin = await signedInAs(t, 'admin');
      const order = await assignedOrder(buyer, seller, driver);
      const answer = await uploaded(driver);
      const [driverRow] = await t.database.db.select().from(users).where(eq(users.id, driver.id));
      if (!driverRow) throw new Error('no driver');
      await claimUpload(
        { db: t.database.db, storage: h.storage },
        { ...driverRow, role: 'driver', roles: ['buyer', 'driver'], primaryLocation: null },
        answer.objectPath,
        {
          purpose: 'delivery',
          orderId: order.id,
          alreadyHeld: false,
          assign: async (tx, objectPath) => {
            await tx.update(orders).set({ deliveryPhotoUrl: objectPath }).where(eq(orders.id, order.id));
          },
        },
      );
      expect(await rowOf(answer.objectPath)).toMatchObject({ visibility: 'order', orderId: order.id });
      const strangerBuyer = await signedInAs(t, 'buyer');
      for (const user of [buyer, seller, driver, admin]) {
        const response = await as(t, user, { method: 'GET', url: answer.objectPath });
        expect(response.statusCode).toBe(200);
        expect(response.headers['cache-control']).toBe('private, no-store');
      }
      for (const user of [otherDriver, strangerBuyer, undefined]) {
        expect((await as(t, user, { method: 'GET', url: answer.objectPath })).statusCode).toBe(404);
      }
      // An order photo without its order (deleted: order_id set null) is for the owner and admins.
      const object = { visibility: 'order', ownerId: driver.id };
      expect(canReadUpload({ id: buyer.id, roles: ['buyer'] }, object, undefined)).toBe(false);
      expect(canReadUpload({ id: admin.id, roles: ['buyer', 'admin'] }, object, undefined)).toBe(true);
    });

    it('answers 404 for an unknown id and 400 for a malformed one', async () => {
      expect(
        (await t.app.inject({ method: 'GET', url: `/objects/uploads/${crypto.randomUUID()}` })).statusCode,
      ).toBe(404);
      const malformed = await t.app.inject({ method: 'GET', url: '/objects/uploads/not-an-id' });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().fields).toEqual({ id: 'Must be a valid id' });
    });
  });
});

describe('the local store’s PUT URL', () => {
  let h: Harness;
  let t: TestApp;
  beforeAll(async () => {
    h = await localHarness();
    t = h.t;
  });
  afterAll(async () => {
    await h.close();
  });
  afterEach(() => {
    expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
    h.skew?.(0);
  });

  async function newUpload(): Promise<UploadAnswer & { user: TestUser }> {
    const user = await signedInAs(t, 'buyer');
    const response = await as(t, user, { method: 'POST', url: '/api/objects/upload' });
    return { ...response.json<UploadAnswer>(), user };
  }

  const putTo = (
    url: string,
    payload: Buffer | string,
    headers: Record<string, string> = { 'content-type': 'image/png' },
  ) => t.app.inject({ method: 'PUT', url, payload, headers });

  it('answers 403 Request has expired after the expiry (Uppy retries that one)', async () => {
    const answer = await newUpload();
    h.skew?.(6 * 60_000);
    const put = await h.put(answer.uploadURL, PNG);
    expect(put.status).toBe(403);
    expect(JSON.parse(put.text).message).toBe('Request has expired');
    expect(await h.storage.head(keyOf(answer.objectPath))).toBeNull();
  });

  it('answers 403 Invalid signature to a tampered signature, expiry or id, or none', async () => {
    const answer = await newUpload();
    const other = await newUpload();
    const url = new URL(answer.uploadURL);
    const signature = url.searchParams.get('signature') ?? '';
    const expires = Number(url.searchParams.get('expires'));
    const tampered = [
      `${url.pathname}?expires=${expires}&signature=${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`,
      `${url.pathname}?expires=${expires + 86_400}&signature=${signature}`,
      `/api/objects/local/${keyOf(other.objectPath)}${url.search}`,
      url.pathname,
      `${url.pathname}?expires=${expires}&signature=${signature}&signature=${signature}`,
    ];
    for (const target of tampered) {
      const response = await putTo(target, PNG);
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe('Invalid signature');
    }
    expect(await h.storage.head(keyOf(answer.objectPath))).toBeNull();
    expect(await h.storage.head(keyOf(other.objectPath))).toBeNull();
  });

  it('needs no session cookie, and passes the cross-origin check from the page itself', async () => {
    const answer = await newUpload();
    const url = new URL(answer.uploadURL);
    const response = await putTo(url.pathname + url.search, PNG, {
      'content-type': 'image/png',
      host: 'localhost',
      origin: 'http://localhost',
      'sec-fetch-site': 'same-origin',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
  });

  // (docs/rules/running.md, Bad input and failure)
  it('is refused from another site, like every other write', async () => {
    const answer = await newUpload();
    const url = new URL(answer.uploadURL);
    const response = await putTo(url.pathname + url.search, PNG, {
      'content-type': 'image/png',
      origin: 'https://evil.example',
    });
    expect(response.statusCode).toBe(403);
    expect(await h.storage.head(keyOf(answer.objectPath))).toBeNull();
  });

  it('takes image/* and application/octet-stream bodies only, and refuses an empty one', async () => {
    const answer = await newUpload();
    const url = new URL(answer.uploadURL);
    const target = url.pathname + url.search;
    const json = await putTo(target, JSON.stringify({ a: 1 }), { 'content-type': 'application/json' });
    expect(json.statusCode).toBe(415);
    const empty = await putTo(target, Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('The file is empty');
    const octets = await putTo(target, PNG, { 'content-type': 'application/octet-stream' });
    expect(octets.statusCode).toBe(200);
  });

  it('lets a retry replace a pending file, but not a claimed one', async () => {
    const answer = await newUpload();
    expect((await h.put(answer.uploadURL, GIF)).status).toBe(200);
    expect((await h.put(answer.uploadURL, PNG)).status).toBe(200);
    expect(
      (
        await as(t, answer.user, {
          method: 'PUT',
          url: '/api/users/profile-image',
          payload: { imageUrl: answer.objectPath },
        })
      ).statusCode,
    ).toBe(200);
    const late = await h.put(answer.uploadURL, GIF);
    expect(late.status).toBe(409);
    const image = await t.app.inject({ method: 'GET', url: answer.objectPath });
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload).toEqual(PNG);
  });
});

describe('storage chosen by the settings', () => {
  it('keeps files under DATA_DIR/objects and makes the upload URL absolute with PUBLIC_URL', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uploads-data-'));
    const t = await createTestApp({ env: { DATA_DIR: dataDir, PUBLIC_URL: 'https://market.example' } });
    try {
      const user = await signedInAs(t, 'buyer');
      const answer: UploadAnswer = (await as(t, user, { method: 'POST', url: '/api/objects/upload' })).json();
      expect(answer.uploadURL.startsWith('https://market.example/api/objects/local/uploads/')).toBe(true);
      const url = new URL(answer.uploadURL);
      const put = await t.app.inject({
        method: 'PUT',
        url: url.pathname + url.search,
        payload: PNG,
        headers: { 'content-type': 'image/png', origin: 'https://market.example' },
      });
      expect(put.statusCode).toBe(200);
      expect(fs.readFileSync(path.join(dataDir, 'objects', ...keyOf(answer.objectPath).split('/')))).toEqual(
        PNG,
      );
      expect((await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).statusCode).toBe(200);
      expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
    } finally {
      await t.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
