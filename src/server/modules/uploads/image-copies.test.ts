import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { IMAGE_COPY_WIDTHS, imageCopyUrl } from '../../../domain/image-copies';
import type { SellerProduct } from '../../../domain/listings';
import { IMAGE_UNREADABLE_MESSAGE } from '../../../domain/uploads';
import { products, uploadedObjects } from '../../db/schema';
import { startTestS3Server, type TestS3Server } from '../../testing/s3-server';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import { copyKeyOf, IMAGE_TOO_LARGE_MESSAGE, ImageRefusedError, makeImageCopies } from './image-copies';

/**
 * Resized copies of product pictures (docs/decisions/0014-first-load.md, Resized copies): made after a
 * picture is attached to a product, in the background, read at `<objectPath>/w<width>`, the original when
 * missing; a picture the decoder refuses is refused with a 400 and leaves nothing behind.
 */

/** A photo-like JPEG of this size: a gradient, so it does not compress to nothing. */
async function jpeg(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = (x * 255) / width;
      pixels[i + 1] = (y * 255) / height;
      pixels[i + 2] = ((x ^ y) & 0xff) / 2;
    }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a PNG of a few hundred bytes whose header says 30000 × 30000 pixels (2.7 GB
 * once decoded).
 */
function pngBomb(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(30_000, 0);
  header.writeUInt32BE(30_000, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', zlib.deflateSync(Buffer.alloc(30_001 * 4))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Starts like a JPEG (so it passes the byte check of docs/decisions/0007-uploads.md), and is not one. */
const FAKE_JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]);

describe('making the copies', () => {
  it('makes one WebP per width, never wider than the original, upright and without metadata', async () => {
    const copies = await makeImageCopies(await jpeg(2000, 1500));
    expect(copies.map((copy) => copy.width)).toEqual([...IMAGE_COPY_WIDTHS]);
    for (const copy of copies) {
      const meta = await sharp(copy.bytes).metadata();
      expect(meta.format).toBe('webp');
      expect([meta.width, meta.height]).toEqual([copy.width, (copy.width * 3) / 4]);
      expect(meta.exif).toBeUndefined();
    }
    // A narrower picture: its copies up to the first width it does not reach, which holds it whole.
    const small = await makeImageCopies(await jpeg(400, 300));
    expect(small.map((copy) => copy.width)).toEqual([160, 320, 640]);
    expect(await Promise.all(small.map(async (copy) => (await sharp(copy.bytes).metadata()).width))).toEqual([
      160, 320, 400,
    ]);
  });

  it('refuses what is not an image, and a decompression bomb from its header', async () => {
    await expect(makeImageCopies(FAKE_JPEG)).rejects.toThrow(new ImageRefusedError(IMAGE_UNREADABLE_MESSAGE));
    await expect(makeImageCopies(pngBomb())).rejects.toThrow(new ImageRefusedError(IMAGE_TOO_LARGE_MESSAGE));
    // An SVG is never decoded, even when handed over directly.
    await expect(
      makeImageCopies(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>')),
    ).rejects.toThrow(ImageRefusedError);
  });
});

interface Store {
  t: TestApp;
  close(): Promise<void>;
  /** Sends the file to the presigned URL as a browser would. */
  put(uploadURL: string, bytes: Buffer, contentType: string): Promise<number>;
}

async function localStore(): Promise<Store> {
  const t = await createTestApp();
  return {
    t,
    close: () => t.close(),
    put: async (uploadURL, bytes, contentType) => {
      const url = new URL(uploadURL);
      const response = await t.app.inject({
        method: 'PUT',
        url: url.pathname + url.search,
        payload: bytes,
        headers: {
          'content-type': contentType,
          host: url.host,
          origin: url.origin,
          'sec-fetch-site': 'same-origin',
        },
      });
      return response.statusCode;
    },
  };
}

async function s3Store(): Promise<Store> {
  const s3: TestS3Server = await startTestS3Server();
  const t = await createTestApp({ env: s3.env });
  return {
    t,
    close: async () => {
      await t.close();
      await s3.close();
    },
    put: async (uploadURL, bytes, contentType) =>
      (
        await fetch(uploadURL, {
          method: 'PUT',
          body: new Uint8Array(bytes),
          headers: { 'content-type': contentType },
        })
      ).status,
  };
}

describe.each([
  ['local', localStore],
  ['s3', s3Store],
] as const)('copies of product pictures with the %s store', (_kind, makeStore) => {
  let store: Store;
  let t: TestApp;
  let seller: TestUser;
  let product: SellerProduct;
  beforeAll(async () => {
    store = await makeStore();
    t = store.t;
    seller = await signedInAs(t, 'seller');
    const created = await as(t, seller, {
      method: 'POST',
      url: '/api/products',
      payload: { name: 'Brass Desk Lamp', price: '45.00', category: 'Furniture', stock: 4 },
    });
    expect(created.statusCode).toBe(201);
    product = created.json<SellerProduct>();
  });
  afterAll(async () => {
    await store.close();
  });
  afterEach(() => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
  });

  async function uploaded(bytes: Buffer, contentType = 'image/jpeg'): Promise<string> {
    const answer = await as(t, seller, { method: 'POST', url: '/api/objects/upload' });
    expect(answer.statusCode).toBe(200);
    const { uploadURL, objectPath } = answer.json<{ uploadURL: string; objectPath: string }>();
    expect(await store.put(uploadURL, bytes, contentType)).toBe(200);
    return objectPath;
  }
  const keyOf = (objectPath: string) => `uploads/${objectPath.split('/').pop() ?? ''}`;
  const read = (url: string) => t.app.inject({ method: 'GET', url });

  it('makes the copies when a picture is attached, and serves each at its address to anyone', async () => {
    const original = await jpeg(2000, 1500);
    const imageUrl = await uploaded(original);
    const attached = await as(t, seller, {
      method: 'PUT',
      url: `/api/products/${product.id}/image`,
      payload: { imageUrl },
    });
    expect(attached.statusCode).toBe(200);
    await t.app.imageCopies.idle();
    // The API names the picture; its copies are at the addresses derived from it.
    const detail = await read(`/api/products/${product.id}`);
    expect(detail.json<{ imageUrl: string }>().imageUrl).toBe(imageUrl);
    for (const width of IMAGE_COPY_WIDTHS) {
      const url = imageCopyUrl(imageUrl, width) ?? '';
      const copy = await read(url);
      expect(copy.statusCode, url).toBe(200);
      expect(copy.headers['content-type']).toBe('image/webp');
      expect(copy.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(copy.headers['x-content-type-options']).toBe('nosniff');
      expect((await sharp(copy.rawPayload).metadata()).width).toBe(width);
      expect(copy.rawPayload.length).toBeLessThan(original.length);
    }
    // A card on a phone (the 640 copy) weighs a fraction of the original.
    const card = await read(`${imageUrl}/w640`);
    expect(card.rawPayload.length).toBeLessThan(original.length / 4);
    const whole = await read(imageUrl);
    expect(whole.headers['content-type']).toBe('image/jpeg');
    expect(whole.rawPayload.equals(original)).toBe(true);
  });

  it('adds copies for a picture added or arranged in, too', async () => {
    const added = await uploaded(await jpeg(800, 600));
    expect(
      (
        await as(t, seller, {
          method: 'POST',
          url: `/api/products/${product.id}/images`,
          payload: { imageUrl: added },
        })
      ).statusCode,
    ).toBe(201);
    const arranged = await uploaded(await jpeg(800, 600));
    const current = (await read(`/api/products/${product.id}`)).json<{ imageUrl: string }>().imageUrl;
    expect(
      (
        await as(t, seller, {
          method: 'PUT',
          url: `/api/products/${product.id}/images`,
          payload: { imageUrls: [current, added, arranged] },
        })
      ).statusCode,
    ).toBe(200);
    await t.app.imageCopies.idle();
    for (const imageUrl of [added, arranged]) {
      const copy = await read(`${imageUrl}/w320`);
      expect(copy.headers['content-type']).toBe('image/webp');
      expect(await t.storage.head(copyKeyOf(keyOf(imageUrl), 1280))).not.toBeNull();
    }
  });

  it('answers a width a narrow picture has no copy of with its widest copy', async () => {
    const imageUrl = await uploaded(await jpeg(600, 450));
    expect(
      (
        await as(t, seller, {
          method: 'PUT',
          url: `/api/products/${product.id}/image`,
          payload: { imageUrl },
        })
      ).statusCode,
    ).toBe(200);
    await t.app.imageCopies.idle();
    expect(await t.storage.head(copyKeyOf(keyOf(imageUrl), 1280))).toBeNull();
    const widest = await read(`${imageUrl}/w1280`);
    expect(widest.headers['content-type']).toBe('image/webp');
    expect(widest.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await sharp(widest.rawPayload).metadata()).width).toBe(600);
  });

  it('answers a picture without copies with the original, cached a day only', async () => {
    const original = await jpeg(600, 450);
    const imageUrl = await uploaded(original);
    expect(
      (
        await as(t, seller, {
          method: 'PUT',
          url: `/api/products/${product.id}/image`,
          payload: { imageUrl },
        })
      ).statusCode,
    ).toBe(200);
    await t.app.imageCopies.idle();
    // As for an upload made before copies existed, or one whose resize failed.
    for (const width of IMAGE_COPY_WIDTHS) await t.storage.delete(copyKeyOf(keyOf(imageUrl), width));
    for (const width of IMAGE_COPY_WIDTHS) {
      const fallback = await read(`${imageUrl}/w${width}`);
      expect(fallback.statusCode).toBe(200);
      expect(fallback.headers['content-type']).toBe('image/jpeg');
      expect(fallback.headers['cache-control']).toBe('public, max-age=86400');
      expect(fallback.rawPayload.equals(original)).toBe(true);
    }
  });

  it('saves without waiting for the copies: the original answers, cached a minute, until they are made', async () => {
    const original = await jpeg(1600, 1200);
    const imageUrl = await uploaded(original);
    const key = keyOf(imageUrl);
    // The copy maker's read of the picture (the second; the first is the check before the claim)
    // waits until released, so the copies cannot be made before the save answers.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const storageRead = t.storage.read.bind(t.storage);
    let reads = 0;
    const spy = vi.spyOn(t.storage, 'read').mockImplementation(async (readKey) => {
      if (readKey === key && ++reads === 2) await released;
      return storageRead(readKey);
    });
    try {
      const attached = await as(t, seller, {
        method: 'POST',
        url: `/api/products/${product.id}/images`,
        payload: { imageUrl },
      });
      expect(attached.statusCode).toBe(201);
      expect(t.app.imageCopies.isPending(key)).toBe(true);
      const meanwhile = await read(`${imageUrl}/w640`);
      expect(meanwhile.statusCode).toBe(200);
      expect(meanwhile.headers['content-type']).toBe('image/jpeg');
      expect(meanwhile.headers['cache-control']).toBe('public, max-age=60');
      expect(meanwhile.rawPayload.equals(original)).toBe(true);
    } finally {
      release();
      await t.app.imageCopies.idle();
      spy.mockRestore();
    }
    expect(t.app.imageCopies.isPending(key)).toBe(false);
    const card = await read(`${imageUrl}/w640`);
    expect(card.headers['content-type']).toBe('image/webp');
    expect(card.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('names the refused picture of a list by its place in it', async () => {
    const current = (await read(`/api/products/${product.id}`)).json<{ imageUrl: string }>().imageUrl;
    const good = await uploaded(await jpeg(300, 200));
    const bad = await uploaded(FAKE_JPEG);
    const refused = await as(t, seller, {
      method: 'PUT',
      url: `/api/products/${product.id}/images`,
      payload: { imageUrls: [current, good, bad] },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      message: IMAGE_UNREADABLE_MESSAGE,
      fields: { 'imageUrls.2': IMAGE_UNREADABLE_MESSAGE },
    });
    // All or nothing: the good one was not claimed either.
    const [object] = await t.database.db
      .select()
      .from(uploadedObjects)
      .where(eq(uploadedObjects.key, keyOf(good)));
    expect(object?.visibility).toBe('pending');
  });

  it('keeps copies to those who may see the picture: a pending upload is its uploader’s only', async () => {
    const imageUrl = await uploaded(await jpeg(300, 200));
    expect((await read(`${imageUrl}/w160`)).statusCode).toBe(404);
    const own = await as(t, seller, { method: 'GET', url: `${imageUrl}/w160` });
    expect(own.statusCode).toBe(200);
    expect((await read(`${imageUrl}/w999`)).statusCode).toBe(400);
  });

  it.each([
    ['not an image after all', FAKE_JPEG, 'image/jpeg', IMAGE_UNREADABLE_MESSAGE],
    ['a decompression bomb', pngBomb(), 'image/png', IMAGE_TOO_LARGE_MESSAGE],
  ])(
    'refuses a picture that is %s: 400, nothing attached, nothing written',
    async (_what, bytes, type, message) => {
      const before = (await read(`/api/products/${product.id}`)).json<{ imageUrl: string | null }>();
      const imageUrl = await uploaded(bytes, type);
      const refused = await as(t, seller, {
        method: 'PUT',
        url: `/api/products/${product.id}/image`,
        payload: { imageUrl },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ message: string }>().message).toBe(message);
      const [row] = await t.database.db.select().from(products).where(eq(products.id, product.id));
      expect(row?.imageUrl).toBe(before.imageUrl);
      // The refused bytes are gone, and no copy was written.
      const key = keyOf(imageUrl);
      expect(await t.storage.head(key)).toBeNull();
      for (const width of IMAGE_COPY_WIDTHS) expect(await t.storage.head(copyKeyOf(key, width))).toBeNull();
      const [object] = await t.database.db.select().from(uploadedObjects).where(eq(uploadedObjects.key, key));
      expect(object).toMatchObject({ visibility: 'pending', uploadedAt: null });
      // Adding it or arranging it in is refused the same way.
      const again = await as(t, seller, {
        method: 'POST',
        url: `/api/products/${product.id}/images`,
        payload: { imageUrl },
      });
      expect(again.statusCode).toBe(400);
    },
  );

  it("neither resizes nor reveals another seller's upload", async () => {
    const imageUrl = await uploaded(await jpeg(300, 200));
    const other = await signedInAs(t, 'seller');
    const created = await as(t, other, {
      method: 'POST',
      url: '/api/products',
      payload: { name: 'Other Lamp', price: '5.00', category: 'Furniture', stock: 1 },
    });
    const refused = await as(t, other, {
      method: 'PUT',
      url: `/api/products/${created.json<SellerProduct>().id}/image`,
      payload: { imageUrl },
    });
    expect(refused.statusCode).toBe(404);
    expect(await t.storage.head(copyKeyOf(keyOf(imageUrl), 160))).toBeNull();
  });
});
