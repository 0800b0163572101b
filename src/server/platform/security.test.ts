import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
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
    const response = await t.app.inject({ method: 'GET', url: '/api/__boom' });
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
      expect(csp).toContain("script-src 'self' https://js.stripe.com");
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
