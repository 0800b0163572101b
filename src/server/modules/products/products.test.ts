import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ImageCopyMaker } from '../uploads/uploads.service';
import { eq } from 'drizzle-orm';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import { buy, createAddress, quote } from '../../testing/commerce';
import { orderItems, products, uploadedObjects, users } from '../../db/schema';
import type { AppError } from '../../platform/errors';
import type { Actor } from '../../platform/sessions';
import { addProductImage } from './product-images.service';
import {
  AMOUNT_FORMAT_MESSAGE,
  AMOUNT_NOT_NEGATIVE_MESSAGE,
  CATEGORY_REQUIRED_MESSAGE,
  MAX_PRODUCT_IMAGES,
  PRODUCT_ALREADY_CANCELLED_MESSAGE,
  PRODUCT_CANCELLED_MESSAGE,
  NEW_PRODUCT_AVAILABLE_MESSAGE,
  TOO_MANY_IMAGES_MESSAGE,
  UNKNOWN_CATEGORY_MESSAGE,
  type SellerProduct,
} from '../../../domain/listings';
import { DIRECTION_CONTROL_MESSAGE } from '../../../domain/visible-text';

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

const LAMP = {
  name: 'Brass Desk Lamp',
  description: 'Warm light, heavy base',
  price: '45.00',
  category: 'Furniture',
  stock: 4,
  offerPickup: true,
};

interface ErrorJson {
  message: string;
  fields?: Record<string, string>;
}

function createListing(user: TestUser | undefined, payload: Record<string, unknown> = LAMP) {
  return as(t, user, { method: 'POST', url: '/api/products', payload });
}

async function listed(user: TestUser, payload: Record<string, unknown> = LAMP): Promise<SellerProduct> {
  const response = await createListing(user, payload);
  if (response.statusCode !== 201) throw new Error(`create failed: ${response.statusCode} ${response.body}`);
  return response.json<SellerProduct>();
}

const patch = (user: TestUser, id: string, payload: Record<string, unknown>) =>
  as(t, user, { method: 'PATCH', url: `/api/products/${id}`, payload });
const cancel = (user: TestUser, id: string) => as(t, user, { method: 'DELETE', url: `/api/products/${id}` });
const setMain = (user: TestUser, id: string, imageUrl: string) =>
  as(t, user, { method: 'PUT', url: `/api/products/${id}/image`, payload: { imageUrl } });
const addImage = (user: TestUser, id: string, imageUrl: string, displayOrder?: number) =>
  as(t, user, {
    method: 'POST',
    url: `/api/products/${id}/images`,
    payload: displayOrder === undefined ? { imageUrl } : { imageUrl, displayOrder },
  });
const arrange = (user: TestUser, id: string, imageUrls: string[]) =>
  as(t, user, { method: 'PUT', url: `/api/products/${id}/images`, payload: { imageUrls } });

/** An image the user uploaded through a presigned URL, not claimed yet: its object path. */
async function uploadedImage(user: TestUser): Promise<string> {
  const answer = await as(t, user, { method: 'POST', url: '/api/objects/upload' });
  expect(answer.statusCode).toBe(200);
  const { uploadURL, objectPath } = answer.json<{ uploadURL: string; objectPath: string }>();
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
  expect(put.statusCode).toBe(200);
  return objectPath;
}

async function storedProduct(id: string) {
  const [row] = await t.database.db.select().from(products).where(eq(products.id, id));
  if (!row) throw new Error('no product row');
  return row;
}

async function publicIds(): Promise<string[]> {
  const response = await t.app.inject({ method: 'GET', url: '/api/products?limit=100' });
  return response.json<{ id: string }[]>().map((p) => p.id);
}

describe('listing a product (docs/rules/selling.md, Seller listings)', () => {
  it("lists it as the signed-in seller's, available, and shows it to visitors", async () => {
    const seller = await signedInAs(t, 'seller');
    const created = await createListing(seller);
    expect(created.statusCode).toBe(201);
    const product = created.json<SellerProduct>();
    expect(product).toMatchObject({
      ...LAMP,
      sellerId: seller.id,
      available: true,
      requiresTrailer: false,
      sellerDelivery: false,
      sellerDeliveryFee: null,
      imageUrl: null,
      imageUrls: [],
    });
    expect(await publicIds()).toContain(product.id);
    const mine = await as(t, seller, { method: 'GET', url: '/api/seller/products' });
    expect(mine.json<SellerProduct[]>().map((p) => p.id)).toEqual([product.id]);
  });

  it('refuses visitors (401) and buyers (403), and creates nothing', async () => {
    const buyer = await signedInAs(t, 'buyer');
    expect((await createListing(undefined)).statusCode).toBe(401);
    const refused = await createListing(buyer);
    expect(refused.statusCode).toBe(403);
    expect(refused.json<ErrorJson>().message).toBe('You need the seller or admin role for this.');
    const rows = await t.database.db.select().from(products).where(eq(products.sellerId, buyer.id));
    expect(rows).toEqual([]);
  });

  it('never lets the body set the seller, the id, the timestamps or the availability', async () => {
    const seller = await signedInAs(t, 'seller');
    const other = await signedInAs(t, 'seller');
    const forged = {
      sellerId: other.id,
      id: '00000000-0000-4000-8000-000000000001',
      createdAt: '2020-01-01T00:00:00.000Z',
      updatedAt: '2020-01-01T00:00:00.000Z',
      available: false,
      imageUrl: '/objects/uploads/00000000-0000-4000-8000-000000000002',
    };
    // The main picture of a new product is the spec form's own field (the next test), checked as a claim.
    const { imageUrl: _claimedOnCreate, ...forgedOnCreate } = forged;
    for (const [key, value] of Object.entries(forgedOnCreate)) {
      const response = await createListing(seller, { ...LAMP, [key]: value });
      expect(response.statusCode, key).toBe(400);
      expect(Object.keys(response.json<ErrorJson>().fields ?? {}), key).toContain(key);
    }
    const product = await listed(seller);
    for (const [key, value] of Object.entries(forged)) {
      const response = await patch(seller, product.id, { stock: 9, [key]: value });
      expect(response.statusCode, key).toBe(400);
    }
    const row = await storedProduct(product.id);
    expect(row).toMatchObject({ sellerId: seller.id, available: true, stock: LAMP.stock });
    expect(await t.database.db.select().from(products).where(eq(products.sellerId, other.id))).toEqual([]);
  });

  it("takes the spec form's body: available true and the seller's own upload as the main picture, in one go", async () => {
    const seller = await signedInAs(t, 'seller');
    const image = await uploadedImage(seller);
    const created = await createListing(seller, { ...LAMP, available: true, imageUrl: image });
    expect(created.statusCode, created.body).toBe(201);
    const product = created.json<SellerProduct>();
    expect(product).toMatchObject({ ...LAMP, sellerId: seller.id, available: true, imageUrl: image });
    expect(product.imageUrls).toEqual([image]);
    expect(await publicIds()).toContain(product.id);
    // Claimed for the product: public now, and not to be used again.
    expect((await t.app.inject({ method: 'GET', url: image })).statusCode).toBe(200);
    const again = await createListing(seller, { ...LAMP, imageUrl: image });
    expect(again.statusCode).toBe(409);

    // Someone else's upload is not confirmed to exist, and no product is left behind.
    const stranger = await signedInAs(t, 'seller');
    const theirs = await uploadedImage(stranger);
    const refused = await createListing(seller, { ...LAMP, name: 'Not mine', imageUrl: theirs });
    expect(refused.statusCode).toBe(404);
    const rows = await t.database.db.select().from(products).where(eq(products.sellerId, seller.id));
    expect(rows.map((row) => row.name)).toEqual([LAMP.name]);

    // Still refused: a new product that is not available, and a seller named in the body.
    const unavailable = await createListing(seller, { ...LAMP, available: false });
    expect(unavailable.statusCode).toBe(400);
    expect(unavailable.json<ErrorJson>().fields?.available).toBe(NEW_PRODUCT_AVAILABLE_MESSAGE);
    const forged = await createListing(seller, { ...LAMP, available: true, sellerId: stranger.id });
    expect(forged.statusCode).toBe(400);
    expect(Object.keys(forged.json<ErrorJson>().fields ?? {})).toContain('sellerId');
  });

  it('answers a bad price, stock or category with a 400 naming the field', async () => {
    const seller = await signedInAs(t, 'seller');
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...LAMP, price: '12.345' }, 'price', AMOUNT_FORMAT_MESSAGE],
      [{ ...LAMP, price: '-1' }, 'price', AMOUNT_NOT_NEGATIVE_MESSAGE],
      [{ ...LAMP, price: 'abc' }, 'price', AMOUNT_FORMAT_MESSAGE],
      [{ ...LAMP, price: 12 }, 'price', AMOUNT_FORMAT_MESSAGE],
      [{ ...LAMP, price: '100000.01' }, 'price', 'Must be at most 100000.00'],
      [{ ...LAMP, stock: -1 }, 'stock', 'Must be a whole number of 0 or more'],
      [{ ...LAMP, stock: 1.5 }, 'stock', 'Must be a whole number of 0 or more'],
      [{ ...LAMP, sellerDelivery: true, sellerDeliveryFee: '5' }, 'sellerDeliveryFee', AMOUNT_FORMAT_MESSAGE],
      [
        { ...LAMP, sellerDelivery: true, sellerDeliveryFee: '-5.00' },
        'sellerDeliveryFee',
        AMOUNT_NOT_NEGATIVE_MESSAGE,
      ],
      [{ ...LAMP, category: undefined }, 'category', CATEGORY_REQUIRED_MESSAGE],
      [{ ...LAMP, category: '  ' }, 'category', CATEGORY_REQUIRED_MESSAGE],
      [{ ...LAMP, category: 'Spaceships' }, 'category', UNKNOWN_CATEGORY_MESSAGE],
      [{ ...LAMP, name: '' }, 'name', 'Required'],
    ];
    for (const [payload, field, message] of cases) {
      const response = await createListing(seller, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      const body = response.json<ErrorJson>();
      expect(body.fields?.[field], JSON.stringify(payload)).toBe(message);
      expect(body.message).toContain(`${field}: ${message}`);
    }
    expect(await t.database.db.select().from(products).where(eq(products.sellerId, seller.id))).toEqual([]);
  });

  it('takes a name of invisible characters as no name, and stores names without them (docs/rules/running.md, Bad input and failure)', async () => {
    const seller = await signedInAs(t, 'seller');
    const invisible = await createListing(seller, { ...LAMP, name: '\u200B\u200B' });
    expect(invisible.statusCode).toBe(400);
    expect(invisible.json<ErrorJson>().fields).toEqual({ name: 'Required' });
    const overridden = await createListing(seller, { ...LAMP, description: 'Warm \u202Etfos' });
    expect(overridden.statusCode).toBe(400);
    expect(overridden.json<ErrorJson>().fields).toEqual({ description: DIRECTION_CONTROL_MESSAGE });
    expect(await t.database.db.select().from(products).where(eq(products.sellerId, seller.id))).toEqual([]);

    const product = await listed(seller, {
      ...LAMP,
      name: ' Brass\u200B Lamp\u2060 ',
      description: '\uFEFF',
    });
    expect(product).toMatchObject({ name: 'Brass Lamp', description: null });
    const renamed = await patch(seller, product.id, { name: '\u200B' });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json<ErrorJson>().fields).toEqual({ name: 'Required' });
    expect((await storedProduct(product.id)).name).toBe('Brass Lamp');
  });

  it('stores the category as the marketplace spells it, and the delivery fee only with seller delivery', async () => {
    const seller = await signedInAs(t, 'seller');
    const product = await listed(seller, {
      ...LAMP,
      category: 'furniture',
      sellerDelivery: true,
      sellerDeliveryFee: '7.50',
    });
    expect(product).toMatchObject({ category: 'Furniture', sellerDelivery: true, sellerDeliveryFee: '7.50' });
    const withoutDelivery = await patch(seller, product.id, { sellerDelivery: false });
    expect(withoutDelivery.json<SellerProduct>()).toMatchObject({
      sellerDelivery: false,
      sellerDeliveryFee: null,
    });
    const fee = await listed(seller, { ...LAMP, sellerDeliveryFee: '3.00' });
    expect(fee.sellerDeliveryFee).toBeNull();
  });
});

describe('changing a product', () => {
  it('lets its seller and admins change name, price, stock, category and delivery options', async () => {
    const seller = await signedInAs(t, 'seller');
    const admin = await signedInAs(t, 'admin');
    const product = await listed(seller);
    const changed = await patch(seller, product.id, {
      name: 'Brass Lamp',
      description: '',
      price: '39.50',
      stock: 0,
      category: 'Home & Garden',
      requiresTrailer: true,
      offerPickup: false,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<SellerProduct>()).toMatchObject({
      name: 'Brass Lamp',
      description: null,
      price: '39.50',
      stock: 0,
      category: 'Home & Garden',
      requiresTrailer: true,
      offerPickup: false,
      available: true,
    });
    const byAdmin = await patch(admin, product.id, { stock: 12 });
    expect(byAdmin.statusCode).toBe(200);
    expect((await storedProduct(product.id)).stock).toBe(12);
    expect((await patch(seller, product.id, {})).statusCode).toBe(400);
  });

  it('answers 404 to another seller, a buyer and a driver for every change, and changes nothing', async () => {
    const seller = await signedInAs(t, 'seller');
    const product = await listed(seller);
    const before = await storedProduct(product.id);
    for (const role of ['seller', 'buyer', 'driver'] as const) {
      const stranger = await signedInAs(t, role);
      const image = await uploadedImage(stranger);
      const attempts = [
        await patch(stranger, product.id, { price: '1.00' }),
        await cancel(stranger, product.id),
        await setMain(stranger, product.id, image),
        await addImage(stranger, product.id, image),
        await arrange(stranger, product.id, [image]),
      ];
      for (const response of attempts) {
        expect(response.statusCode, `${role}: ${response.body}`).toBe(404);
        expect(response.json<ErrorJson>().message).toBe('Product not found');
      }
      // The stranger's upload was not claimed by the refused calls.
      const [object] = await t.database.db
        .select()
        .from(uploadedObjects)
        .where(eq(uploadedObjects.key, image.replace('/objects/', '')));
      expect(object?.visibility).toBe('pending');
    }
    expect(await storedProduct(product.id)).toEqual(before);
  });

  it('never changes what existing orders were charged; new checkouts see the new price', async () => {
    const seller = await signedInAs(t, 'seller');
    const buyer = await signedInAs(t, 'buyer');
    const address = await createAddress(t, buyer.id);
    await createAddress(t, seller.id);
    const product = await listed(seller, { ...LAMP, price: '20.00', stock: 10 });
    const checkout = {
      items: [{ productId: product.id, quantity: 2 }],
      isPickup: false,
      deliveryAddressId: address.id,
    };
    const [order] = await buy(t, buyer, checkout);
    if (!order) throw new Error('no order');
    expect((await patch(seller, product.id, { price: '35.00' })).statusCode).toBe(200);

    const items = await as(t, buyer, { method: 'GET', url: `/api/orders/${order.id}/items` });
    expect(items.json<{ price: string; lineTotal: string }[]>()).toMatchObject([
      { price: '20.00', lineTotal: '40.00' },
    ]);
    const stored = await t.database.db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
    expect(stored.map((item) => item.price)).toEqual(['20.00']);
    const afterwards = await as(t, buyer, { method: 'GET', url: `/api/orders/${order.id}` });
    expect(afterwards.json()).toMatchObject({ productSubtotal: '40.00' });
    const priced = await quote(t, buyer, checkout);
    expect(priced.json<{ orders: { productSubtotal: string }[] }>().orders[0]?.productSubtotal).toBe('70.00');
  });
});

describe('cancelling a product', () => {
  it('takes it off the public list for good, keeps it on its orders, and refuses further changes', async () => {
    const seller = await signedInAs(t, 'seller');
    const buyer = await signedInAs(t, 'buyer');
    const address = await createAddress(t, buyer.id);
    await createAddress(t, seller.id);
    const product = await listed(seller, { ...LAMP, name: 'Walnut Tray', stock: 5 });
    const [order] = await buy(t, buyer, {
      items: [{ productId: product.id, quantity: 1 }],
      isPickup: false,
      deliveryAddressId: address.id,
    });
    if (!order) throw new Error('no order');
    expect(await publicIds()).toContain(product.id);

    const cancelled = await cancel(seller, product.id);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json<SellerProduct>()).toMatchObject({ available: false, stock: 4 });
    expect(await publicIds()).not.toContain(product.id);

    // Its row stays: the order still shows the item, and the product page still answers.
    const items = await as(t, buyer, { method: 'GET', url: `/api/orders/${order.id}/items` });
    expect(items.json<{ productName: string }[]>().map((item) => item.productName)).toEqual(['Walnut Tray']);
    const page = await t.app.inject({ method: 'GET', url: `/api/products/${product.id}` });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ available: false });
    const mine = await as(t, seller, { method: 'GET', url: '/api/seller/products' });
    expect(mine.json<SellerProduct[]>()).toMatchObject([{ id: product.id, available: false }]);

    // Irreversible: no edit brings it back, and it cannot be bought.
    const again = await cancel(seller, product.id);
    expect(again.statusCode).toBe(409);
    expect(again.json<ErrorJson>().message).toBe(PRODUCT_ALREADY_CANCELLED_MESSAGE);
    const edit = await patch(seller, product.id, { stock: 3 });
    expect(edit.statusCode).toBe(409);
    expect(edit.json<ErrorJson>().message).toBe(PRODUCT_CANCELLED_MESSAGE);
    expect((await storedProduct(product.id)).available).toBe(false);
    const priced = await quote(t, buyer, {
      items: [{ productId: product.id, quantity: 1 }],
      isPickup: false,
      deliveryAddressId: address.id,
    });
    expect(priced.json<{ canPay: boolean }>().canPay).toBe(false);
  });

  it("lists the seller's available products first, newest first, and the cancelled ones after them", async () => {
    const seller = await signedInAs(t, 'seller');
    const names = ['Oldest', 'Old cancelled', 'Middle', 'New cancelled', 'Newest'];
    const made: Record<string, string> = {};
    for (const [index, name] of names.entries()) {
      const product = await listed(seller, { ...LAMP, name });
      made[name] = product.id;
      await t.database.db
        .update(products)
        .set({ createdAt: new Date(Date.UTC(2026, 0, 1 + index)) })
        .where(eq(products.id, product.id));
    }
    for (const name of ['Old cancelled', 'New cancelled'])
      expect((await cancel(seller, made[name] ?? '')).statusCode).toBe(200);
    const mine = await as(t, seller, { method: 'GET', url: '/api/seller/products' });
    expect(mine.json<SellerProduct[]>().map((p) => [p.name, p.available])).toEqual([
      ['Newest', true],
      ['Middle', true],
      ['Oldest', true],
      ['New cancelled', false],
      ['Old cancelled', false],
    ]);
  });
});

describe('product images (docs/rules/selling.md, Seller listings; Uploads and who sees a file)', () => {
  it('sets the main image and adds more, makes them public, and shows them in order', async () => {
    const seller = await signedInAs(t, 'seller');
    const product = await listed(seller);
    const [first, second, third] = [
      await uploadedImage(seller),
      await uploadedImage(seller),
      await uploadedImage(seller),
    ];
    if (!first || !second || !third) throw new Error('no uploads');
    // Not claimed yet: only the uploader reads it.
    expect((await t.app.inject({ method: 'GET', url: first })).statusCode).toBe(404);

    expect((await setMain(seller, product.id, first)).statusCode).toBe(200);
    expect((await addImage(seller, product.id, second, 1)).statusCode).toBe(201);
    const added = await addImage(seller, product.id, third, 2);
    expect(added.statusCode).toBe(201);
    expect(added.json<SellerProduct>()).toMatchObject({ imageUrl: first, imageUrls: [first, second, third] });

    const detail = await t.app.inject({ method: 'GET', url: `/api/products/${product.id}` });
    expect(detail.json()).toMatchObject({
      imageUrl: first,
      images: [{ imageUrl: second }, { imageUrl: third }],
    });
    for (const url of [first, second, third]) {
      const image = await t.app.inject({ method: 'GET', url });
      expect(image.statusCode, url).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
    }
    // Setting the image it already has changes nothing; using it a second time elsewhere is refused.
    expect((await setMain(seller, product.id, first)).statusCode).toBe(200);
    const other = await listed(seller);
    const reused = await addImage(seller, other.id, second);
    expect(reused.statusCode).toBe(409);
  });

  it('reorders and removes images in one call; the first becomes the main image', async () => {
    const seller = await signedInAs(t, 'seller');
    const product = await listed(seller);
    const [a, b, c] = [await uploadedImage(seller), await uploadedImage(seller), await uploadedImage(seller)];
    if (!a || !b || !c) throw new Error('no uploads');
    await setMain(seller, product.id, a);
    await addImage(seller, product.id, b);

    // c is new: the same call claims it.
    const reordered = await arrange(seller, product.id, [c, a, b]);
    expect(reordered.statusCode).toBe(200);
    expect(reordered.json<SellerProduct>()).toMatchObject({ imageUrl: c, imageUrls: [c, a, b] });
    const detail = await t.app.inject({ method: 'GET', url: `/api/products/${product.id}` });
    expect(detail.json<{ images: { imageUrl: string }[] }>().images.map((i) => i.imageUrl)).toEqual([a, b]);

    const removed = await arrange(seller, product.id, [b]);
    expect(removed.json<SellerProduct>()).toMatchObject({ imageUrl: b, imageUrls: [b] });
    const none = await arrange(seller, product.id, []);
    expect(none.json<SellerProduct>()).toMatchObject({ imageUrl: null, imageUrls: [] });

    // Someone else's upload is not confirmed to exist, and the whole call changes nothing.
    const stranger = await signedInAs(t, 'seller');
    const theirs = await uploadedImage(stranger);
    const mine = await uploadedImage(seller);
    const refused = await arrange(seller, product.id, [mine, theirs]);
    expect(refused.statusCode).toBe(404);
    expect(refused.json<ErrorJson>().message).toBe('Upload not found');
    expect((await storedProduct(product.id)).imageUrl).toBeNull();
    const [object] = await t.database.db
      .select()
      .from(uploadedObjects)
      .where(eq(uploadedObjects.key, mine.replace('/objects/', '')));
    expect(object?.visibility).toBe('pending');
  });

  it(`refuses the ${MAX_PRODUCT_IMAGES + 1}th image with a 400 on the field`, async () => {
    const seller = await signedInAs(t, 'seller');
    const product = await listed(seller);
    const images: string[] = [];
    for (let i = 0; i < MAX_PRODUCT_IMAGES + 1; i++) images.push(await uploadedImage(seller));
    const ten = images.slice(0, MAX_PRODUCT_IMAGES);
    expect((await arrange(seller, product.id, ten)).statusCode).toBe(200);
    const eleventh = images[MAX_PRODUCT_IMAGES] ?? '';

    const added = await addImage(seller, product.id, eleventh);
    expect(added.statusCode).toBe(400);
    expect(added.json<ErrorJson>().fields).toEqual({ imageUrl: TOO_MANY_IMAGES_MESSAGE });
    const all = await arrange(seller, product.id, images);
    expect(all.statusCode).toBe(400);
    expect(all.json<ErrorJson>().fields).toEqual({ imageUrls: TOO_MANY_IMAGES_MESSAGE });

    // Replacing the main image keeps the count at 10, so it is allowed.
    expect((await setMain(seller, product.id, eleventh)).statusCode).toBe(200);
    const after = await as(t, seller, { method: 'GET', url: '/api/seller/products' });
    expect(after.json<SellerProduct[]>()[0]?.imageUrls).toHaveLength(MAX_PRODUCT_IMAGES);
  });

  it('lets only one of two images added at the same moment take the last place', async () => {
    const seller = await signedInAs(t, 'seller');
    const product = await listed(seller);
    const images: string[] = [];
    for (let i = 0; i < MAX_PRODUCT_IMAGES + 1; i++) images.push(await uploadedImage(seller));
    await arrange(seller, product.id, images.slice(0, MAX_PRODUCT_IMAGES - 1));
    // Called side by side below the HTTP layer, so both see 9 images before either saves.
    const [row] = await t.database.db.select().from(users).where(eq(users.id, seller.id));
    if (!row) throw new Error('no seller row');
    const actor = {
      ...row,
      role: 'seller',
      roles: ['buyer', 'seller'],
      primaryLocation: null,
    } satisfies Actor;
    const deps = {
      db: t.database.db,
      storage: t.storage,
      now: () => new Date(),
      imageCopies: new ImageCopyMaker(t.storage, { warn: () => undefined }),
    };
    const racing = await Promise.allSettled([
      addProductImage(deps, actor, product.id, { imageUrl: images[MAX_PRODUCT_IMAGES - 1] ?? '' }),
      addProductImage(deps, actor, product.id, { imageUrl: images[MAX_PRODUCT_IMAGES] ?? '' }),
    ]);
    expect(racing.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = racing.find((result) => result.status === 'rejected');
    expect(refused?.status === 'rejected' && (refused.reason as AppError).fields).toEqual({
      imageUrl: TOO_MANY_IMAGES_MESSAGE,
    });
    const after = await as(t, seller, { method: 'GET', url: '/api/seller/products' });
    expect(after.json<SellerProduct[]>()[0]?.imageUrls).toHaveLength(MAX_PRODUCT_IMAGES);
  });

  it('changes no image of a cancelled product', async () => {
    const seller = await signedInAs(t, 'seller');
    const product = await listed(seller);
    await cancel(seller, product.id);
    const image = await uploadedImage(seller);
    for (const response of [
      await setMain(seller, product.id, image),
      await addImage(seller, product.id, image),
      await arrange(seller, product.id, [image]),
    ]) {
      expect(response.statusCode).toBe(409);
      expect(response.json<ErrorJson>().message).toBe(PRODUCT_CANCELLED_MESSAGE);
    }
  });
});
