import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { products } from '../db/schema';
import { createTestApp, signedInAs, type TestApp } from '../testing/test-app';
import { createProduct } from '../testing/commerce';
import { PRODUCT_PAGE_IMAGE_SIZES } from '../../domain/image-copies';
import { escapeHtml, preloadOfFirstPicture, renderIndexHtml, summarise } from './index-html';

/** The built index.html in miniature: what serveWebApp fills in. */
const TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <title>Local Delivery Marketplace · Fast &amp; Reliable Delivery</title>
    <meta
      name="description"
      content="Shop from local sellers."
    />
    <meta name="marketplace-time-zone" content="America/Chicago" />
  </head>
  <body><div id="root"></div></body>
</html>`;

let t: TestApp;
let webRoot: string;
beforeAll(async () => {
  webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-web-'));
  fs.writeFileSync(path.join(webRoot, 'index.html'), TEMPLATE);
  t = await createTestApp({ webRoot, env: { MARKETPLACE_TZ: 'America/Denver' } });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(webRoot, { recursive: true, force: true });
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

function metaContent(html: string, key: string): string | undefined {
  const match = new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)"`).exec(html);
  return match?.[1];
}

describe('index.html as served (docs/rules/screens-buyer.md, Routes and headers; docs/rules/running.md, Dates and times)', () => {
  it('tells every page the marketplace time zone', async () => {
    for (const url of ['/', '/products', '/checkout', '/index.html']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(metaContent(response.body, 'marketplace-time-zone'), url).toBe('America/Denver');
      // The built-in test provider runs here: the footer must not claim Stripe.
      expect(metaContent(response.body, 'payment-provider'), url).toBe('test');
      expect(response.body).not.toContain('og:title');
    }
  });

  it("gives a shared product link the product's title, description and picture, escaped", async () => {
    const seller = await signedInAs(t, 'seller', { firstName: 'Sam', lastName: 'Seller' });
    const product = await createProduct(t, seller.id, {
      name: 'Oak "Table" <script>alert(1)</script>',
      price: '1250.00',
      description: 'Solid oak & steel legs.\nSeats six.',
    });
    // A main picture, as the seller's upload sets it.
    await t.database.db
      .update(products)
      .set({ imageUrl: '/objects/uploads/abc' })
      .where(eq(products.id, product.id));
    const response = await t.app.inject({
      method: 'GET',
      url: `/products/${product.id}`,
      headers: { host: 'shop.example:8080' },
    });
    expect(response.statusCode).toBe(200);
    const html = response.body;
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain(
      '<title>Oak &quot;Table&quot; &lt;script&gt;alert(1)&lt;/script&gt; · Local Delivery Marketplace</title>',
    );
    expect(metaContent(html, 'og:title')).toBe(
      'Oak &quot;Table&quot; &lt;script&gt;alert(1)&lt;/script&gt; · Local Delivery Marketplace',
    );
    expect(metaContent(html, 'og:description')).toBe(
      '$1,250.00 from Sam Seller. Solid oak &amp; steel legs. Seats six.',
    );
    expect(metaContent(html, 'description')).toBe(metaContent(html, 'og:description'));
    expect(metaContent(html, 'og:image')).toBe('http://shop.example:8080/objects/uploads/abc');
    expect(metaContent(html, 'og:url')).toBe(`http://shop.example:8080/products/${product.id}`);
    expect(metaContent(html, 'og:type')).toBe('product');
    expect(metaContent(html, 'marketplace-time-zone')).toBe('America/Denver');
    // One title and one description, not the template's as well.
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html.match(/name="description"/g)).toHaveLength(1);
  });

  it('serves the plain page for an unknown or malformed product id', async () => {
    for (const url of ['/products/00000000-0000-4000-8000-000000000000', '/products/not-an-id']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).not.toContain('og:title');
      expect(response.body).toContain(
        '<title>Local Delivery Marketplace · Fast &amp; Reliable Delivery</title>',
      );
    }
  });
});

describe('an address the app has no page for (docs/ARCHITECTURE.md, Requests and errors)', () => {
  it('answers 404 with the app, which shows its not-found page; a page of the app answers 200', async () => {
    for (const url of ['/no-such-page', '/products/1/reviews', '/admin/x']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.body, url).toContain('<div id="root">');
    }
    for (const url of ['/cart', '/support?x=1', '/Products/', '/payouts/test-dashboard/acct_1']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
    }
    const api = await t.app.inject({ method: 'GET', url: '/api/no-such-call' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 'not_found' });
  });
});

describe('renderIndexHtml', () => {
  it('escapes what it puts in and adds the zone to a page without one', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    const html = renderIndexHtml('<html><head><title>x</title></head></html>', { timeZone: 'Asia/Tokyo' });
    expect(html).toContain('<meta name="marketplace-time-zone" content="Asia/Tokyo" />');
  });

  it('names the payment provider once, in place of a tag the template has', () => {
    const added = renderIndexHtml('<html><head><title>x</title></head></html>', {
      timeZone: 'UTC',
      paymentProvider: 'stripe',
    });
    expect(added).toContain('<meta name="payment-provider" content="stripe" />');
    const replaced = renderIndexHtml(
      '<html><head><meta name="payment-provider" content="stripe" /></head></html>',
      { timeZone: 'UTC', paymentProvider: 'test' },
    );
    expect(replaced.match(/name="payment-provider"/g)).toHaveLength(1);
    expect(replaced).toContain('<meta name="payment-provider" content="test" />');
  });

  it("asks for the page's largest picture from the start, escaped (docs/decisions/0014-first-load.md)", () => {
    const meta = { title: 't', description: 'd', imageUrl: null, url: null, type: 'product' };
    const html = renderIndexHtml('<html><head><title>x</title></head></html>', {
      timeZone: 'UTC',
      meta: { ...meta, preloadImage: '/objects/a"b.png' },
    });
    expect(html).toContain(
      '<link rel="preload" as="image" href="/objects/a&quot;b.png" fetchpriority="high" />',
    );
    const none = renderIndexHtml('<html><head><title>x</title></head></html>', { timeZone: 'UTC', meta });
    expect(none).not.toContain('rel="preload"');
  });

  it('preloads the resized copy the product picture takes, not the original beside it', () => {
    const meta = { title: 't', description: 'd', imageUrl: null, url: null, type: 'product' };
    const picture = '/objects/uploads/4f1c2a9e-8d1b-4c5e-9a7f-2b3c4d5e6f70';
    const html = renderIndexHtml('<html><head><title>x</title></head></html>', {
      timeZone: 'UTC',
      meta: { ...meta, preloadImage: picture },
    });
    expect(html).toContain(`imagesrcset="${picture}/w160 160w, ${picture}/w320 320w,`);
    expect(html).toContain(`imagesizes="${PRODUCT_PAGE_IMAGE_SIZES}"`);
  });

  it("preloads the first screen's high-priority picture with the srcset and sizes React wrote", () => {
    const img =
      '<img src="/objects/uploads/a" srcSet="/objects/uploads/a/w160 160w, /objects/uploads/a/w320 320w" ' +
      'sizes="100vw" alt="" loading="eager" fetchPriority="high"/>';
    expect(preloadOfFirstPicture(`<div><img src="/x" fetchPriority="auto"/>${img}</div>`)).toBe(
      '<link rel="preload" as="image" href="/objects/uploads/a" ' +
        'imagesrcset="/objects/uploads/a/w160 160w, /objects/uploads/a/w320 320w" imagesizes="100vw" ' +
        'fetchpriority="high" />',
    );
  });

  it('keeps a description to one line of at most 200 characters', () => {
    const long = `${'word '.repeat(80)}end`;
    const short = summarise(long);
    expect(short.length).toBeLessThanOrEqual(200);
    expect(short.endsWith('…')).toBe(true);
    expect(summarise('  two\n lines ')).toBe('two lines');
  });
});
