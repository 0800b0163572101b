import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecurityHeaders } from './security';
import { THEME_INIT_SCRIPT } from '../../domain/first-screen';
import { as, createTestApp, signedInAs, type TestApp } from '../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: { PUBLIC_URL: 'http://market.test' },
    // A route that fails unexpectedly, to see what a client learns from a 500.
    extend: (app) =>
      app.get('/api/__boom', async () => {
        throw new Error('secret database detail at /srv/app.ts:42');
      }),
  });
});
afterAll(async () => {
  await t.close();
});

describe('security headers', () => {
  it('sends a content security policy and the usual hardening headers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    // index.html's one inline script, the theme applied before the first paint, by its hash: the
    // browser runs no other inline script (e2e/support/fixtures.ts fails a page on any violation).
    const hash = createHash('sha256').update(THEME_INIT_SCRIPT).digest('base64');
    const scriptSources = /script-src ([^;]*)/.exec(csp)?.[1]?.split(' ');
    expect(scriptSources).toEqual(["'self'", `'sha256-${hash}'`]);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });
});

describe('security headers computed once', () => {
  it('are on every answer exactly as helmet sets them, whatever the request', async () => {
    // helmet run on a request unlike any below: its headers do not depend on the request.
    const expected: Record<string, string> = {};
    const response = {
      setHeader: (name: string, value: unknown) => {
        expected[name.toLowerCase()] = String(value);
      },
      removeHeader: (name: string) => {
        delete expected[name.toLowerCase()];
      },
    };
    const request = { method: 'POST', url: '/api/contact?x=1', headers: { origin: 'https://evil.example' } };
    createSecurityHeaders({ publicUrl: 'http://market.test' })(
      request as IncomingMessage,
      response as unknown as ServerResponse,
      () => {},
    );
    expect(Object.keys(expected).length).toBeGreaterThan(8);
    const buyer = await signedInAs(t, 'buyer');
    for (const answer of [
      await t.app.inject({ method: 'GET', url: '/api/health' }),
      await t.app.inject({ method: 'GET', url: '/api/products' }),
      await t.app.inject({ method: 'GET', url: '/api/nothing-here' }),
      await as(t, buyer, { method: 'GET', url: '/api/auth/user' }),
      await as(t, buyer, {
        method: 'PATCH',
        url: '/api/auth/user',
        headers: { origin: 'https://evil.example' },
      }),
    ]) {
      for (const [name, value] of Object.entries(expected)) expect(answer.headers[name], name).toBe(value);
    }
  });
});

describe('cross-origin writes', () => {
  it('refuses a state-changing request from another origin', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const response = await as(t, buyer, {
      method: 'PATCH',
      url: '/api/auth/user',
      headers: { origin: 'https://evil.example' },
      payload: { firstName: 'Hacked', lastName: 'Name' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('Cross-origin request refused');
    const me = await as(t, buyer, { method: 'GET', url: '/api/auth/user' });
    expect(me.json().firstName).toBe('Test');
  });

  it('refuses a cross-site form post that carries no Origin', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'sec-fetch-site': 'cross-site' },
      payload: { name: 'Ada', email: 'a@example.com', subject: 'Hello', message: 'Hello there friend' },
    });
    expect(response.statusCode).toBe(403);
  });

  it('accepts the same origin, and reads from anywhere', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const same = await as(t, buyer, {
      method: 'PATCH',
      url: '/api/auth/user',
      headers: { origin: 'http://market.test', 'sec-fetch-site': 'same-origin' },
      payload: { firstName: 'Real', lastName: 'Name' },
    });
    expect(same.statusCode).toBe(200);
    const read = await as(t, buyer, {
      method: 'GET',
      url: '/api/auth/user',
      headers: { origin: 'https://evil.example' },
    });
    expect(read.statusCode).toBe(200);
  });
});

describe('errors', () => {
  it('hides the details of a server failure and gives the request id', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const response = await as(t, buyer, { method: 'GET', url: '/api/__boom' });
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body).toEqual({
      message: 'Something went wrong on our side',
      code: 'internal',
      requestId: expect.any(String),
    });
    expect(response.body).not.toContain('secret');
    expect(response.headers['x-request-id']).toBe(body.requestId);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'not_found', message: 'Not found' });
  });
});

describe('content security policy with Stripe', () => {
  it('lets the payment page load Stripe.js, its frames and its API only when Stripe is configured', async () => {
    const stripe = await createTestApp({
      env: {
        STRIPE_SECRET_KEY: 'sk_test_abc123',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_abc123',
        STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
      },
    });
    try {
      const csp = String(
        (await stripe.app.inject({ method: 'GET', url: '/api/health' })).headers['content-security-policy'],
      );
      expect(/script-src ([^;]*)/.exec(csp)?.[1]?.split(' ')).toContain('https://js.stripe.com');
      expect(csp).toContain('frame-src https://js.stripe.com https://hooks.stripe.com');
      expect(csp).toContain('https://api.stripe.com');
    } finally {
      await stripe.close();
    }
    const plain = String(
      (await t.app.inject({ method: 'GET', url: '/api/health' })).headers['content-security-policy'],
    );
    expect(plain).not.toContain('stripe');
    expect(plain).toContain("frame-src 'none'");
  });
});

describe('text the database cannot store', () => {
  it.each([
    ['GET', '/api/products?search=%00'],
    ['GET', '/api/products?category=a%00'],
    ['GET', '/api/products/%00'],
    ['GET', '/api/users/%00'],
    ['GET', '/api/availability/slots/a%00b'],
  ])('answers %s %s with a 400 that names the field', async (method, url) => {
    const response = await t.app.inject({ method: method as 'GET', url });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'bad_request', requestId: expect.any(String) });
    expect(response.json().message).toContain('NUL character or an unpaired surrogate');
  });

  it('refuses a NUL or a lone surrogate in a body field, writing nothing', async () => {
    const buyer = await signedInAs(t, 'buyer');
    for (const firstName of ['Ann\u0000', 'Ann\uD800']) {
      const response = await as(t, buyer, {
        method: 'PATCH',
        url: '/api/auth/user',
        payload: { firstName, lastName: 'Lee' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toEqual({
        firstName: 'Text cannot contain a NUL character or an unpaired surrogate',
      });
    }
    const contact = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { name: 'Ada', email: 'a@example.com', subject: 'Hello', message: 'Hi \u0000 there friend' },
    });
    expect(contact.statusCode).toBe(400);
    const me = await as(t, buyer, { method: 'GET', url: '/api/auth/user' });
    expect(me.json().firstName).toBe('Test');
  });
});

describe('personal answers', () => {
  it('are never kept by a shared cache; public reads may be', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const me = await as(t, buyer, { method: 'GET', url: '/api/auth/user' });
    expect(me.headers['cache-control']).toBe('no-store');
    const orders = await as(t, buyer, { method: 'GET', url: '/api/orders' });
    expect(orders.headers['cache-control']).toBe('no-store');
    const refused = await t.app.inject({ method: 'GET', url: '/api/auth/user' });
    expect(refused.headers['cache-control']).toBe('no-store');
    // Kept, and asked for again each time with its ETag
    // (docs/decisions/0015-catalog-and-checkout-throughput.md).
    const products = await t.app.inject({ method: 'GET', url: '/api/products' });
    expect(products.headers['cache-control']).toBe('no-cache');
  });
});

describe('sign-out', () => {
  it('works by POST from this site and ends the session', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const response = await as(t, buyer, {
      method: 'POST',
      url: '/api/logout',
      headers: { origin: 'http://market.test' },
    });
    expect(response.statusCode).toBe(204);
    const after = await as(t, buyer, { method: 'GET', url: '/api/auth/user' });
    expect(after.statusCode).toBe(401);
  });

  it('refuses a POST from another site, keeping the session', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const response = await as(t, buyer, {
      method: 'POST',
      url: '/api/logout',
      headers: { origin: 'https://evil.example' },
    });
    expect(response.statusCode).toBe(403);
    expect((await as(t, buyer, { method: 'GET', url: '/api/auth/user' })).statusCode).toBe(200);
  });

  it('keeps the GET for a navigation from this site, and refuses one started by another site', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const crossSite = await as(t, buyer, {
      method: 'GET',
      url: '/api/logout',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json().message).toBe('Sign out from a page of this site.');
    const foreignReferer = await as(t, buyer, {
      method: 'GET',
      url: '/api/logout',
      headers: { referer: 'https://evil.example/page' },
    });
    expect(foreignReferer.statusCode).toBe(403);
    expect((await as(t, buyer, { method: 'GET', url: '/api/auth/user' })).statusCode).toBe(200);
    const sameOrigin = await as(t, buyer, {
      method: 'GET',
      url: '/api/logout',
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(sameOrigin.statusCode).toBe(302);
    expect((await as(t, buyer, { method: 'GET', url: '/api/auth/user' })).statusCode).toBe(401);
  });
});

describe('errors the router and Node raise', () => {
  const expectErrorFormat = (
    status: number,
    headers: Record<string, unknown>,
    body: string,
    code: string,
  ) => {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    expect(parsed).toEqual({ message: expect.any(String), code, requestId: expect.any(String) });
    expect(headers['x-request-id']).toBe(parsed.requestId);
    expect(String(headers['content-security-policy'])).toContain("default-src 'self'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['cache-control']).toBe('no-store');
    return status;
  };

  it('answers a URL that is not valid percent-encoding with a 400 in the error format', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/products/%E0%A4%A' });
    expect(expectErrorFormat(response.statusCode, response.headers, response.body, 'bad_request')).toBe(400);
  });

  it('answers a path id over 100 characters with a 414 in the error format', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/api/products/${'a'.repeat(150)}` });
    expect(expectErrorFormat(response.statusCode, response.headers, response.body, 'uri_too_long')).toBe(414);
  });

  it('answers headers that are too large with a 431, and a body over the limit with a 413', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const tooLarge = await fetch(`${address}/api/health`, { headers: { 'x-padding': 'x'.repeat(20_000) } });
    expect(
      expectErrorFormat(
        tooLarge.status,
        Object.fromEntries(tooLarge.headers),
        await tooLarge.text(),
        'headers_too_large',
      ),
    ).toBe(431);
    const bigBody = await fetch(`${address}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'x'.repeat(1_100_000) }),
    });
    expect(
      expectErrorFormat(
        bigBody.status,
        Object.fromEntries(bigBody.headers),
        await bigBody.text(),
        'payload_too_large',
      ),
    ).toBe(413);
  });
});
