import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { addresses, products } from '../db/schema';
import type { FirstScreenRenderer } from './web-app';
import { createTestApp, signedInAs, type TestApp } from '../testing/test-app';
import { buy, createAddress, createProduct } from '../testing/commerce';
import { verifiedDriver } from '../testing/payout-scenes';
import { PRODUCT_PAGE_IMAGE_SIZES } from '../../domain/image-copies';

/**
 * The first screen in the HTML (docs/decisions/0014-first-load.md, The first screen in the HTML):
 * the server renders the browser app's first screen with the caller's own API answers.
 */

/** The built index.html in miniature: an empty #root and the app's script. */
const TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <title>Local Delivery Marketplace · Fast &amp; Reliable Delivery</title>
    <meta name="marketplace-time-zone" content="America/Chicago" />
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/assets/app.js"></script>
  </body>
</html>`;

const MANIFEST = {
  'main.tsx': { file: 'assets/index-1.js', isEntry: true },
  'app/pages/admin-page.tsx': { file: 'assets/admin-page-1.js', imports: ['_shared-1.js', 'main.tsx'] },
  '_shared-1.js': { file: 'assets/shared-1.js', imports: ['_icon-1.js'] },
  '_icon-1.js': { file: 'assets/icon-1.js' },
};

let t: TestApp;
let webRoot: string;
/** The paths the renderer was asked to render, in order. */
const rendered: string[] = [];
/** The renderer the build makes of src/web/entry-server.tsx, here from its source. */
let renderer: FirstScreenRenderer;
beforeAll(async () => {
  webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-web-'));
  fs.writeFileSync(path.join(webRoot, 'index.html'), TEMPLATE);
  // The build's manifest in miniature: the admin page's chunk and the two it imports.
  fs.mkdirSync(path.join(webRoot, '.vite'));
  fs.writeFileSync(path.join(webRoot, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
  const rendererSource = path.resolve(import.meta.dirname, '../../web/entry-server.tsx');
  renderer = (await import(rendererSource)) as FirstScreenRenderer;
  const firstScreen: FirstScreenRenderer = {
    renderFirstScreen: (request) => {
      rendered.push(request.path);
      return renderer.renderFirstScreen(request);
    },
  };
  t = await createTestApp({ webRoot, firstScreen });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(webRoot, { recursive: true, force: true });
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

/** What the page shows before any script runs: #root's markup, without the JSON of the answers. */
function firstScreenOf(html: string): string {
  const start = html.indexOf('<div id="root">');
  const end = html.indexOf('<script type="application/json"');
  expect(start, 'the page has #root').toBeGreaterThan(-1);
  expect(end, 'the page carries its answers').toBeGreaterThan(start);
  return html.slice(start, end);
}

/** The text a reader sees: tags and React's text separators removed, entities as written. */
function visibleText(markup: string): string {
  return markup
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');
}

/** The executable scripts of a page: only files, never inline code (the CSP allows 'self' only). */
function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\ssrc=)(?![^>]*type="application\/json")[^>]*>/g)].map(
    (m) => m[0],
  );
}

describe('the first screen in the HTML (docs/decisions/0014-first-load.md)', () => {
  it("puts a product's title and price in the page before any script runs, escaped", async () => {
    const seller = await signedInAs(t, 'seller', { firstName: 'Sam', lastName: 'Seller' });
    const product = await createProduct(t, seller.id, {
      name: 'Oak Table </script><script>alert(1)</script>',
      price: '1250.00',
      description: 'Solid oak & steel legs.',
    });
    const response = await t.app.inject({ method: 'GET', url: `/products/${product.id}` });
    expect(response.statusCode).toBe(200);
    const html = response.body;
    const screen = visibleText(firstScreenOf(html));
    expect(screen).toContain('Oak Table &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(screen).toContain('$1,250.00');
    expect(screen).toContain('Solid oak &amp; steel legs.');
    // Nothing the seller wrote can close the answers' element or run.
    expect(html).not.toContain('<script>alert(1)');
    expect(html.match(/<\/script>/g)?.length).toBe(html.match(/<script/g)?.length);
    expect(inlineScripts(html)).toEqual([]);
    // The answers are those the browser would have asked for, JSON it can read back.
    const data = /<script type="application\/json" id="first-screen-data">([\s\S]*?)<\/script>/.exec(
      html,
    )?.[1];
    const state = JSON.parse(data ?? 'null') as { queries: { queryKey: unknown[] }[] };
    const keys = state.queries.map((query) => query.queryKey.join('/'));
    expect(keys).toContain('/api/auth/user');
    expect(keys.some((key) => key.includes(product.id))).toBe(true);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it("never shows a signed-in caller another user's data, and is kept by no shared cache", async () => {
    const alice = await signedInAs(t, 'buyer', { firstName: 'Alicia', lastName: 'Alpha' });
    const bob = await signedInAs(t, 'buyer', { firstName: 'Roberto', lastName: 'Bravo' });
    const aliceAddress = await createAddress(t, alice.id);
    await t.database.db
      .update(addresses)
      .set({ addressLine1: '77 Alicia Lane' })
      .where(eq(addresses.id, aliceAddress.id));
    const bobAddress = await createAddress(t, bob.id);
    await t.database.db
      .update(addresses)
      .set({ addressLine1: '12 Roberto Road' })
      .where(eq(addresses.id, bobAddress.id));

    for (const url of ['/', '/checkout']) {
      // Alice first, so that anything kept from her page would show in Bob's.
      const aliceResponse = await t.app.inject({ method: 'GET', url, headers: { cookie: alice.cookie } });
      expect(aliceResponse.body, url).toContain('Alicia');
      const response = await t.app.inject({ method: 'GET', url, headers: { cookie: bob.cookie } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('private, no-store');
      expect(visibleText(firstScreenOf(response.body)), url).toContain('Roberto');
      for (const secret of ['Alicia', 'Alpha', alice.email, alice.id, '77 Alicia Lane', aliceAddress.id]) {
        expect(response.body, `${url} shows ${secret}`).not.toContain(secret);
      }
    }
    const checkout = await t.app.inject({ method: 'GET', url: '/checkout', headers: { cookie: bob.cookie } });
    expect(visibleText(firstScreenOf(checkout.body))).toContain('12 Roberto Road');

    // A visitor's landing holds no user at all, and a signed-out cookie is a visitor.
    for (const headers of [{}, { cookie: 'sid=forged' }]) {
      const landing = await t.app.inject({ method: 'GET', url: '/', headers });
      for (const secret of ['Alicia', 'Roberto', alice.email, bob.email])
        expect(landing.body).not.toContain(secret);
      expect(visibleText(firstScreenOf(landing.body))).toContain('Fast &amp; Reliable Delivery Marketplace');
    }
  });

  it('works without JavaScript for a visitor: the landing and a product are there, with their links', async () => {
    const seller = await signedInAs(t, 'seller', { firstName: 'Sam', lastName: 'Seller' });
    const product = await createProduct(t, seller.id, { name: 'Walnut Stool', price: '89.00' });
    // Made in the database directly, the product reaches kept catalog answers when the change
    // notice arrives, a moment after the commit (docs/decisions/0015-catalog-and-checkout-throughput.md).
    const landing = await vi.waitFor(
      async () => {
        const answer = await t.app.inject({ method: 'GET', url: '/' });
        expect(answer.body).toContain(`href="/products/${product.id}"`);
        return answer;
      },
      { timeout: 5_000, interval: 50 },
    );
    const landingScreen = firstScreenOf(landing.body);
    expect(inlineScripts(landing.body)).toEqual([]);
    expect(landingScreen).not.toContain('<template');
    expect(landingScreen).toContain('href="/products"');
    // The featured strip with its products, each a link to its page.
    expect(landingScreen).toContain(`href="/products/${product.id}"`);
    expect(visibleText(landingScreen)).toContain('Walnut Stool');

    const page = await t.app.inject({ method: 'GET', url: `/products/${product.id}` });
    const screen = visibleText(firstScreenOf(page.body));
    expect(screen).toContain('Walnut Stool');
    expect(screen).toContain('$89.00');
    expect(screen).toContain('Sam');
  });

  it("renders a visitor's page once for every visitor, and again as soon as its seller changes it", async () => {
    const seller = await signedInAs(t, 'seller', { firstName: 'Sam', lastName: 'Seller' });
    const product = await createProduct(t, seller.id, { name: 'Cherry Shelf', price: '39.00' });
    const url = `/products/${product.id}`;
    const setPrice = async (price: string) => {
      // A write answered by the server returns once its change notice is heard: no page from before
      // it is kept after it.
      const response = await t.app.inject({
        method: 'PATCH',
        url: `/api/products/${product.id}`,
        headers: { cookie: seller.cookie },
        payload: { price },
      });
      expect(response.statusCode).toBe(200);
    };
    // The seller and the product were made in the database directly: their change notices arrive a
    // moment later, and one arriving during a render keeps that page from being kept. Once a page
    // is kept, a write answered by the server waits for its own notice (`settle`).
    await vi.waitFor(
      async () => {
        const one = await t.app.inject({ method: 'GET', url });
        const two = await t.app.inject({ method: 'GET', url });
        expect(two.body).toBe(one.body);
      },
      { timeout: 5_000, interval: 50 },
    );
    await setPrice('40.00');
    const first = await t.app.inject({ method: 'GET', url });
    expect(visibleText(firstScreenOf(first.body))).toContain('$40.00');
    const rendersSoFar = rendered.length;

    // The next visitors are sent the same bytes without a render, and a browser holding them a 304.
    const again = await t.app.inject({ method: 'GET', url, headers: { 'x-forwarded-for': '10.9.8.7' } });
    expect(again.body).toBe(first.body);
    expect(again.headers.etag).toBe(first.headers.etag);
    const held = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(held.statusCode).toBe(304);
    expect(rendered.length).toBe(rendersSoFar);

    // A signed-in caller's page is their own, rendered for them.
    const buyer = await signedInAs(t, 'buyer', { firstName: 'Petra', lastName: 'Pine' });
    const own = await t.app.inject({ method: 'GET', url, headers: { cookie: buyer.cookie } });
    expect(own.headers.etag).toBeUndefined();
    expect(rendered.length).toBe(rendersSoFar + 1);

    await setPrice('45.00');
    const after = await t.app.inject({ method: 'GET', url });
    expect(visibleText(firstScreenOf(after.body))).toContain('$45.00');
    expect(after.headers.etag).not.toBe(first.headers.etag);
  });

  it("shows the product's whole picture in a 4:3 frame, with its size and the copy it preloads", async () => {
    const seller = await signedInAs(t, 'seller');
    const product = await createProduct(t, seller.id, { name: 'Framed Print' });
    const picture = '/objects/uploads/4f1c2a9e-8d1b-4c5e-9a7f-2b3c4d5e6f71';
    await t.database.db.update(products).set({ imageUrl: picture }).where(eq(products.id, product.id));
    const response = await t.app.inject({
      method: 'GET',
      url: `/products/${product.id}`,
      headers: { cookie: seller.cookie },
    });
    const screen = firstScreenOf(response.body);
    const frame = /<div class="([^"]*)" data-testid="product-main-image">(<img[^>]*>)/.exec(screen);
    expect(frame, 'the main picture is in the first screen').not.toBeNull();
    const [, frameClass = '', img = ''] = frame ?? [];
    // The frame has the pictures' shape, and the picture is contained in it, never cropped.
    expect(frameClass.split(' ')).toContain('aspect-[4/3]');
    expect(frameClass.split(' ')).not.toContain('aspect-square');
    expect(/\sclass="([^"]*)"/.exec(img)?.[1]?.split(' ')).toContain('object-contain');
    expect(img).not.toContain('object-cover');
    // Its size is reserved before the file arrives, and the preload names the copy it takes.
    expect(img).toContain('width="400"');
    expect(img).toContain('height="300"');
    expect(img).toContain(`sizes="${PRODUCT_PAGE_IMAGE_SIZES}"`);
    expect(PRODUCT_PAGE_IMAGE_SIZES).toBe('(min-width: 1024px) 592px, calc(100vw - 32px)');
    expect(response.body).toContain(`imagesizes="${PRODUCT_PAGE_IMAGE_SIZES}"`);
  });

  it('says "Payments secured by Stripe" only with Stripe; with the test provider, that no real money is taken', async () => {
    const landing = await t.app.inject({ method: 'GET', url: '/' });
    expect(landing.body).toContain('<meta name="payment-provider" content="test" />');
    const footer = visibleText(firstScreenOf(landing.body));
    expect(footer).toContain('Test payments: no real money is taken');
    expect(footer).not.toContain('Stripe');
    expect(landing.body).not.toContain('href="https://stripe.com"');

    const stripe = await createTestApp({
      webRoot,
      firstScreen: renderer,
      env: {
        STRIPE_SECRET_KEY: 'sk_test_abc123',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_abc123',
        STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
      },
    });
    try {
      const page = await stripe.app.inject({ method: 'GET', url: '/' });
      expect(page.body).toContain('<meta name="payment-provider" content="stripe" />');
      const screen = firstScreenOf(page.body);
      expect(visibleText(screen)).toContain('Payments secured by Stripe');
      expect(screen).toContain('href="https://stripe.com"');
      expect(visibleText(screen)).not.toContain('Test payments');
    } finally {
      await stripe.close();
    }
  });

  it("draws a driver's offers from the first answer, with Accept, and nobody else's page", async () => {
    const buyer = await signedInAs(t, 'buyer');
    const seller = await signedInAs(t, 'seller');
    await createAddress(t, seller.id);
    const address = await createAddress(t, buyer.id);
    const product = await createProduct(t, seller.id);
    const [order] = await buy(t, buyer, {
      items: [{ productId: product.id, quantity: 1 }],
      isPickup: false,
      deliveryAddressId: address.id,
    });
    if (!order) throw new Error('no order');
    const driver = await verifiedDriver(t);
    const response = await t.app.inject({
      method: 'GET',
      url: '/driver/dashboard',
      headers: { cookie: driver.cookie },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const screen = firstScreenOf(response.body);
    expect(screen).toContain(`data-testid="card-available-${order.id}"`);
    expect(screen).toContain(`data-testid="button-accept-${order.id}"`);
    expect(visibleText(screen)).toContain(order.orderNumber);
    // A buyer is refused the page: the server renders no offers for them.
    const refused = await t.app.inject({
      method: 'GET',
      url: '/driver/dashboard',
      headers: { cookie: buyer.cookie },
    });
    expect(refused.body).not.toContain(order.orderNumber);
  });

  it("draws a seller's own orders on the seller dashboard and the admin dashboard for an admin", async () => {
    const seller = await signedInAs(t, 'seller');
    const buyerOfIt = await signedInAs(t, 'buyer');
    const address = await createAddress(t, buyerOfIt.id);
    const product = await createProduct(t, seller.id);
    const [order] = await buy(t, buyerOfIt, {
      items: [{ productId: product.id, quantity: 1 }],
      isPickup: false,
      deliveryAddressId: address.id,
    });
    if (!order) throw new Error('no order');
    const sellerPage = await t.app.inject({
      method: 'GET',
      url: '/seller/dashboard',
      headers: { cookie: seller.cookie },
    });
    expect(sellerPage.statusCode).toBe(200);
    expect(sellerPage.headers['cache-control']).toBe('private, no-store');
    // The orders come first (docs/rules/screens-work.md, Seller screens); the products and earnings,
    // below a phone's first screen, are drawn when scrolled near (docs/decisions/0014-first-load.md).
    const sellerScreen = visibleText(firstScreenOf(sellerPage.body));
    expect(sellerScreen).toContain(order.orderNumber);
    expect(sellerScreen).toContain('Loading your products...');
    const admin = await signedInAs(t, 'admin');
    const adminPage = await t.app.inject({ method: 'GET', url: '/admin', headers: { cookie: admin.cookie } });
    expect(visibleText(firstScreenOf(adminPage.body))).toContain('Admin Dashboard');
    // A buyer is refused both: the server renders neither dashboard for them.
    const buyer = await signedInAs(t, 'buyer');
    for (const url of ['/seller/dashboard', '/admin']) {
      const refused = await t.app.inject({ method: 'GET', url, headers: { cookie: buyer.cookie } });
      expect(refused.body).not.toContain(order.orderNumber);
      expect(refused.body).not.toContain('Admin Dashboard');
    }
  });

  it("asks for the page's chunks after the page, at low priority, and for no other page's", async () => {
    const admin = await signedInAs(t, 'admin');
    const page = (await t.app.inject({ method: 'GET', url: '/admin', headers: { cookie: admin.cookie } }))
      .body;
    // After the page: in <head> they were fetched beside the styles and put off the first paint.
    const after = page.slice(page.indexOf(`id="first-screen-data"`));
    expect(after.match(/<link [^>]*>/g)).toEqual([
      '<link rel="prefetch" as="script" crossorigin href="/assets/admin-page-1.js">',
      '<link rel="prefetch" as="script" crossorigin href="/assets/shared-1.js">',
      '<link rel="prefetch" as="script" crossorigin href="/assets/icon-1.js">',
    ]);
    expect(page.slice(0, page.indexOf('</head>'))).not.toContain('rel="prefetch"');
    // Only the page they are for has them; the entry, which index.html has, none.
    const home = (await t.app.inject({ method: 'GET', url: '/', headers: { cookie: admin.cookie } })).body;
    expect(home).not.toContain('rel="prefetch"');
    expect(page).not.toContain('index-1.js');
  });

  it('leaves an unknown product and every other page to the browser, without an error', async () => {
    const missing = await t.app.inject({
      method: 'GET',
      url: '/products/00000000-0000-4000-8000-000000000000',
    });
    expect(missing.statusCode).toBe(200);
    // The product's answer (a 404) is left out: the browser asks again and shows "Product not found".
    expect(missing.body).not.toContain('/api/products/00000000-0000-4000-8000-000000000000"');
    for (const url of ['/products', '/support', '/buyer/orders']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('<div id="root"></div>');
      expect(response.body, url).not.toContain('first-screen-data');
    }
  });
});
