import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInAs, type TestApp } from '../testing/test-app';
import { createProduct } from '../testing/commerce';
import { listenOnFreePort } from '../testing/event-stream';
import { chooseEncoding, COMPRESSION_THRESHOLD_BYTES } from './compression';

/**
 * Answers on the wire (docs/decisions/0014-first-load.md): built files and JSON above 1 KB come
 * back compressed when the request accepts it, and as the plain bytes when it does not.
 */

const SCRIPT = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word ${i}`))};\n`;
const SCRIPT_PATH = 'assets/app-Ab12Cd34.js';
/** A build's index.html, padded as the real one is by its tags. */
const TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <title>Local Delivery Marketplace</title>
    <meta name="marketplace-time-zone" content="America/Chicago" />
    ${'<link rel="modulepreload" crossorigin href="/assets/chunk-Ab12Cd34.js">\n    '.repeat(30)}
  </head>
  <body><div id="root"></div></body>
</html>`;

let t: TestApp;
let webRoot: string;
let baseUrl: string;

beforeAll(async () => {
  webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-web-'));
  fs.mkdirSync(path.join(webRoot, 'assets'));
  fs.writeFileSync(path.join(webRoot, 'index.html'), TEMPLATE);
  // What the build writes (vite.config.ts): the file and its brotli and gzip copies.
  const script = path.join(webRoot, SCRIPT_PATH);
  fs.writeFileSync(script, SCRIPT);
  fs.writeFileSync(`${script}.br`, zlib.brotliCompressSync(SCRIPT));
  fs.writeFileSync(`${script}.gz`, zlib.gzipSync(SCRIPT));
  t = await createTestApp({ webRoot });
  const seller = await signedInAs(t, 'seller');
  for (let i = 0; i < 12; i++) {
    await createProduct(t, seller.id, { description: `A sturdy thing, number ${i}, in good order.` });
  }
  baseUrl = await listenOnFreePort(t.app);
});
afterAll(async () => {
  await t.close();
  fs.rmSync(webRoot, { recursive: true, force: true });
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

function decode(encoding: string | undefined, body: Buffer): Buffer {
  if (encoding === 'br') return zlib.brotliDecompressSync(body);
  if (encoding === 'gzip') return zlib.gunzipSync(body);
  throw new Error(`not compressed: ${encoding}`);
}

function varyOf(headers: Record<string, unknown>): string[] {
  return String(headers.vary ?? '')
    .split(',')
    .map((token) => token.trim().toLowerCase());
}

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await t.app.inject({ method: 'GET', url, headers });
  return { ...response, bytes: response.rawPayload };
}

describe('built files', () => {
  it('come as the brotli or gzip copy the request accepts, and decode to the file', async () => {
    for (const encoding of ['br', 'gzip'] as const) {
      const response = await get(`/${SCRIPT_PATH}`, { 'accept-encoding': encoding });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers['content-type']).toMatch(/javascript/);
      expect(varyOf(response.headers)).toContain('accept-encoding');
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.bytes.length).toBeLessThan(Buffer.byteLength(SCRIPT));
      expect(decode(encoding, response.bytes).toString()).toBe(SCRIPT);
    }
  });

  it('prefer brotli when both are accepted, and honour a refusal', async () => {
    const both = await get(`/${SCRIPT_PATH}`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(both.headers['content-encoding']).toBe('br');
    const notBrotli = await get(`/${SCRIPT_PATH}`, { 'accept-encoding': 'br;q=0, gzip' });
    expect(notBrotli.headers['content-encoding']).toBe('gzip');
  });

  it('come plain without Accept-Encoding, still varying on it', async () => {
    const response = await get(`/${SCRIPT_PATH}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe(SCRIPT);
    expect(varyOf(response.headers)).toContain('accept-encoding');
  });

  it('keep their compressed copies from being addressed as files', async () => {
    const response = await get(`/${SCRIPT_PATH}.br`);
    expect(response.statusCode).toBe(404);
  });

  it('include index.html, filled in per request and compressed as it leaves', async () => {
    const plain = await get('/products');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('<div id="root">');
    const compressed = await get('/products', { 'accept-encoding': 'br' });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(varyOf(compressed.headers)).toContain('accept-encoding');
    expect(decode('br', compressed.bytes).toString()).toBe(plain.body);
  });
});

describe('JSON answers', () => {
  it('above 1 KB come compressed as asked, decoding to the plain answer', async () => {
    const plain = await get('/api/products');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.bytes.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    expect(varyOf(plain.headers)).toContain('accept-encoding');
    for (const encoding of ['br', 'gzip'] as const) {
      const response = await get('/api/products', { 'accept-encoding': encoding });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(Number(response.headers['content-length'])).toBe(response.bytes.length);
      expect(varyOf(response.headers)).toContain('accept-encoding');
      expect(response.bytes.length).toBeLessThan(plain.bytes.length);
      expect(decode(encoding, response.bytes).toString()).toBe(plain.body);
    }
  });

  it('below 1 KB go plain even when compression is accepted', async () => {
    const response = await get('/api/health', { 'accept-encoding': 'br, gzip' });
    expect(response.statusCode).toBe(200);
    expect(response.bytes.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(() => JSON.parse(response.body)).not.toThrow();
  });

  it('leave a HEAD without a body and without an encoding', async () => {
    const response = await t.app.inject({
      method: 'HEAD',
      url: '/api/products',
      headers: { 'accept-encoding': 'br' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.rawPayload.length).toBe(0);
  });
});

describe('the live event stream', () => {
  it('is never compressed: its first frame arrives at once, as written', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const url = new URL('/api/events', baseUrl);
    const { headers, firstChunk } = await new Promise<{
      headers: http.IncomingHttpHeaders;
      firstChunk: string;
    }>((resolve, reject) => {
      const request = http.get(
        url,
        {
          headers: { accept: 'text/event-stream', 'accept-encoding': 'br, gzip', cookie: buyer.cookie },
        },
        (response) => {
          response.once('data', (chunk: Buffer) => {
            resolve({ headers: response.headers, firstChunk: chunk.toString('utf8') });
            request.destroy();
          });
        },
      );
      request.on('error', reject);
    });
    expect(headers['content-type']).toMatch(/^text\/event-stream/);
    expect(headers['content-encoding']).toBeUndefined();
    expect(firstChunk).toMatch(/^retry: \d+/);
  });
});

describe('chooseEncoding', () => {
  it('reads Accept-Encoding by its weights', () => {
    expect(chooseEncoding(undefined)).toBeUndefined();
    expect(chooseEncoding('')).toBeUndefined();
    expect(chooseEncoding('identity')).toBeUndefined();
    expect(chooseEncoding('gzip')).toBe('gzip');
    expect(chooseEncoding('gzip, br')).toBe('br');
    expect(chooseEncoding('br;q=0.5, gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0')).toBeUndefined();
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('*;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('deflate')).toBeUndefined();
  });
});
