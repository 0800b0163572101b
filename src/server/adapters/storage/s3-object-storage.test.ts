import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { S3ObjectStorage, s3UploadOrigin } from './s3-object-storage';
import { startTestS3Server, type TestS3Server } from '../../testing/s3-server';
import { as, createTestApp, signedInAs, type TestApp } from '../../testing/test-app';
import type { S3Config } from '../../config';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

let s3: TestS3Server;
let storage: S3ObjectStorage;
beforeAll(async () => {
  s3 = await startTestS3Server();
  storage = new S3ObjectStorage(s3.config);
});
afterAll(async () => {
  await storage.close();
  await s3.close();
});

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

describe('S3ObjectStorage against a real S3-compatible server (s3rver)', () => {
  it('gives a presigned URL that takes a PUT from fetch, and reads the object back', async () => {
    const url = await storage.presignPut('uploads/round-trip', {
      contentType: 'image/png',
      expiresInSeconds: 300,
    });
    expect(new URL(url).origin).toBe(storage.uploadOrigin);
    const put = await fetch(url, { method: 'PUT', body: PNG, headers: { 'content-type': 'image/png' } });
    expect(put.status).toBe(200);
    expect(put.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);

    expect(await storage.head('uploads/round-trip')).toEqual({ size: PNG.length });
    expect(Buffer.from((await storage.readStart('uploads/round-trip', 8)) ?? [])).toEqual(PNG.subarray(0, 8));
    const read = await storage.read('uploads/round-trip');
    expect(read?.size).toBe(PNG.length);
    expect(await readAll(read!.body)).toEqual(PNG);
  });

  it('binds a known type and size into the signature, and never an empty-body checksum', async () => {
    const url = new URL(
      await storage.presignPut('uploads/bound', {
        contentType: 'image/png',
        contentLength: 67,
        expiresInSeconds: 300,
      }),
    );
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toEqual([
      'content-length',
      'content-type',
      'host',
    ]);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    // The SDK's default would sign a CRC32 of an empty body, which real S3 refuses for any file.
    expect([...url.searchParams.keys()].some((k) => k.toLowerCase().startsWith('x-amz-checksum'))).toBe(
      false,
    );
    const unbound = new URL(await storage.presignPut('uploads/unbound', { expiresInSeconds: 300 }));
    expect(unbound.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
  });

  it('has an expired presigned URL refused by the server', async () => {
    const past = new S3ObjectStorage(s3.config, { now: () => new Date(Date.now() - 10 * 60_000) });
    const url = await past.presignPut('uploads/expired', { expiresInSeconds: 300 });
    const put = await fetch(url, { method: 'PUT', body: PNG, headers: { 'content-type': 'image/png' } });
    expect(put.status).toBe(403);
    expect(await put.text()).toContain('Request has expired');
    expect(await storage.head('uploads/expired')).toBeNull();
    await past.close();
  });

  // s3rver 3.7 checks the expiry and the access key of a V4 presigned URL but does not recompute
  // its signature, so a tampered X-Amz-Signature cannot be tested against it; a real S3 refuses
  // one with 403 SignatureDoesNotMatch. What it does check: a credential it does not know.
  it('has a URL with a forged credential refused by the server', async () => {
    const url = new URL(await storage.presignPut('uploads/forged', { expiresInSeconds: 300 }));
    const credential = url.searchParams.get('X-Amz-Credential') ?? '';
    url.searchParams.set('X-Amz-Credential', credential.replace(/^[^/]+/, 'SOMEONE-ELSE'));
    const put = await fetch(url, { method: 'PUT', body: PNG, headers: { 'content-type': 'image/png' } });
    expect(put.status).toBe(403);
    expect(await put.text()).toContain('InvalidAccessKeyId');
    expect(await storage.head('uploads/forged')).toBeNull();
  });

  it('stores new objects given together', async () => {
    const keys = Array.from({ length: 20 }, (_, index) => `uploads/new-${index}`);
    await storage.putNew(keys.map((key) => ({ key, bytes: PNG, contentType: 'image/png' })));
    for (const key of keys) expect(await storage.head(key)).toEqual({ size: PNG.length });
  });

  it('answers null for a missing object and deletes idempotently', async () => {
    expect(await storage.head('uploads/missing')).toBeNull();
    expect(await storage.readStart('uploads/missing', 12)).toBeNull();
    expect(await storage.read('uploads/missing')).toBeNull();
    await storage.put('uploads/to-delete', PNG, 'image/png');
    expect(await storage.head('uploads/to-delete')).toEqual({ size: PNG.length });
    await storage.delete('uploads/to-delete');
    await storage.delete('uploads/to-delete');
    expect(await storage.head('uploads/to-delete')).toBeNull();
  });
});

describe('s3UploadOrigin (CSP connect-src)', () => {
  const base: S3Config = {
    bucket: 'market-images',
    endpoint: undefined,
    region: 'eu-west-1',
    accessKeyId: 'id',
    secretAccessKey: 'secret',
    forcePathStyle: false,
  };
  it.each([
    ['AWS, virtual-hosted', base, 'https://market-images.s3.eu-west-1.amazonaws.com'],
    ['AWS, path style', { ...base, forcePathStyle: true }, 'https://s3.eu-west-1.amazonaws.com'],
    [
      'an endpoint, path style',
      { ...base, endpoint: 'http://127.0.0.1:9000', forcePathStyle: true },
      'http://127.0.0.1:9000',
    ],
    [
      'an endpoint, virtual-hosted',
      { ...base, endpoint: 'https://r2.example' },
      'https://market-images.r2.example',
    ],
  ])('is the origin of the presigned URLs for %s', async (_name, config, origin) => {
    expect(s3UploadOrigin(config)).toBe(origin);
    const offline = new S3ObjectStorage(config);
    const url = await offline.presignPut('uploads/x', { expiresInSeconds: 60 });
    expect(new URL(url).origin).toBe(origin);
    await offline.close();
  });
});

describe('the claim-time byte check with S3 (an S3 PUT cannot look at the bytes)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: s3.env });
  });
  afterAll(async () => {
    await t.close();
  });
  afterEach(() => {
    expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
  });

  it('refuses a non-image at claim and deletes it from the bucket', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const answer = await as(t, buyer, { method: 'POST', url: '/api/objects/upload' });
    expect(answer.statusCode).toBe(200);
    const { uploadURL, objectPath } = answer.json();
    expect(new URL(uploadURL).origin).toBe(s3.endpoint);
    const text = Buffer.from('<html><script>alert(1)</script></html>');
    expect(
      (await fetch(uploadURL, { method: 'PUT', body: text, headers: { 'content-type': 'image/png' } }))
        .status,
    ).toBe(200);
    const key = `uploads/${String(objectPath).split('/').pop()}`;
    expect(await storage.head(key)).toEqual({ size: text.length });

    const claim = await as(t, buyer, {
      method: 'PUT',
      url: '/api/users/profile-image',
      payload: { imageUrl: objectPath },
    });
    expect(claim.statusCode).toBe(400);
    expect(claim.json().message).toBe('File is not an image');
    expect(await storage.head(key)).toBeNull();
    const me = await as(t, buyer, { method: 'GET', url: '/api/auth/user' });
    expect(me.json().profileImageUrl).toBeNull();
  });

  it('lets the pages connect to the bucket (CSP connect-src)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(String(response.headers['content-security-policy'])).toContain(
      `connect-src 'self' ${s3.endpoint}`,
    );
  });
});
