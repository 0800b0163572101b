import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { as, cookieFrom, createTestApp, createUser, type TestApp } from '../../testing/test-app';
import { eq } from 'drizzle-orm';
import { sessions, users } from '../../db/schema';
import { linkIn, mailsTo, signUpVerified } from '../../testing/accounts';
import { SIGN_UP_SENT } from '../../../domain/accounts';
import { DIRECTION_CONTROL_MESSAGE } from '../../../domain/visible-text';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: 'boss@example.com' } });
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

const form = (fields: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams(fields).toString(),
});

describe('the sign-in page', () => {
  it('serves a sign-in form with a link to create an account', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/login' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('<h1 id="title">Sign in</h1>');
    expect(response.body).toContain('action="/api/login"');
    expect(response.body).toContain('Create account');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('serves the create-account form with mode=signup and keeps the intent', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/login?mode=signup&intent=driver' });
    expect(response.body).toContain('Create your account');
    expect(response.body).toContain('name="intent" value="driver"');
    expect(response.body).toContain('start delivering as a driver');
  });

  it('escapes what it echoes back', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      ...form({ email: '"><script>alert(1)</script>', password: 'x' }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).not.toContain('<script>alert(1)</script>');
    expect(response.body).toContain('&lt;script&gt;');
  });
});

describe('sign-up', () => {
  it('creates an unverified buyer account and answers "Check your email"; the link signs it in (JSON)', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: {
        email: 'New.Person@Example.com',
        password: 'long enough',
        firstName: 'New',
        lastName: 'Person',
      },
    });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ message: SIGN_UP_SENT });
    expect(response.headers['set-cookie']).toBeUndefined();
    const [mail] = await mailsTo(t, 'new.person@example.com');
    expect(mail?.kind).toBe('account_verify');
    const verified = await t.app.inject({ method: 'GET', url: linkIn(mail!, '/api/verify-email') });
    const me = await as(t, { cookie: cookieFrom(verified) }, { method: 'GET', url: '/api/auth/user' });
    expect(me.json()).toMatchObject({
      email: 'new.person@example.com',
      firstName: 'New',
      lastName: 'Person',
      role: 'buyer',
      roles: ['buyer'],
      emailVerified: true,
    });
  });

  it('answers a second sign-up with the same email, whatever its case, like a new one and mails the owner', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: { email: 'NEW.PERSON@example.com', password: 'long enough', firstName: 'A', lastName: 'B' },
    });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ message: SIGN_UP_SENT });
    const [mail] = await mailsTo(t, 'new.person@example.com');
    expect(mail?.subject).toBe('Someone tried to create an account with this address');
  });

  it('answers 400 with a message per field', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: { email: 'not-an-email', password: 'short', firstName: '', lastName: 'X' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({
      email: 'Invalid email address',
      password: 'Password must be at least 8 characters',
      firstName: 'First name is required',
    });
  });

  it('refuses a name of invisible characters as missing and a right-to-left override in a name (docs/rules/running.md, Bad input and failure)', async () => {
    const email = 'invisible.names@example.com';
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: { email, password: 'long enough', firstName: '\u200B\u200B', lastName: 'Smith\u202Edcba' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({
      firstName: 'First name is required',
      lastName: DIRECTION_CONTROL_MESSAGE,
    });
    const cookie = await signUpVerified(t, {
      email,
      password: 'long enough',
      firstName: 'Zo\u200Be',
      lastName: 'Smith',
    });
    const me = await as(t, { cookie }, { method: 'GET', url: '/api/auth/user' });
    expect(me.json()).toMatchObject({ firstName: 'Zoe', lastName: 'Smith' });
  });

  it('re-renders the form with the problems for a browser form post', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/signup',
      ...form({ email: 'x@example.com', password: 'short', firstName: 'Xi', lastName: 'Yu' }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Password must be at least 8 characters');
    expect(response.body).toContain('value="Xi"');
  });

  it('grants the driver role when signing up from Become a Driver, and shows "Check your email" to the form', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/signup',
      ...form({
        email: 'wheels@example.com',
        password: 'long enough',
        firstName: 'W',
        lastName: 'D',
        intent: 'driver',
      }),
    });
    expect(response.statusCode).toBe(202);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('Check your email');
    expect(response.body).toContain(SIGN_UP_SENT);
    const [mail] = await mailsTo(t, 'wheels@example.com');
    const verified = await t.app.inject({ method: 'GET', url: linkIn(mail!, '/api/verify-email') });
    const me = await as(t, { cookie: cookieFrom(verified) }, { method: 'GET', url: '/api/auth/user' });
    expect(me.json()).toMatchObject({ role: 'driver', roles: ['buyer', 'driver'], isVerified: false });
  });

  it('makes an ADMIN_EMAILS address an admin at sign-up', async () => {
    const cookie = await signUpVerified(t, {
      email: 'Boss@example.com',
      password: 'long enough',
      firstName: 'B',
      lastName: 'O',
    });
    const me = await as(t, { cookie }, { method: 'GET', url: '/api/auth/user' });
    expect(me.json()).toMatchObject({ role: 'admin', roles: ['buyer', 'admin'] });
  });

  it('ignores roles and ids smuggled into the sign-up body', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: {
        email: 'sneaky@example.com',
        password: 'long enough',
        firstName: 'S',
        lastName: 'N',
        role: 'admin',
        roles: ['admin'],
        isVerified: true,
        emailVerified: true,
        id: '00000000-0000-4000-8000-000000000000',
      },
    });
    expect(response.statusCode).toBe(202);
    const [row] = await t.database.db.select().from(users).where(eq(users.email, 'sneaky@example.com'));
    expect(row).toMatchObject({ role: 'buyer', roles: ['buyer'], isVerified: false, emailVerifiedAt: null });
    expect(row?.id).not.toBe('00000000-0000-4000-8000-000000000000');
  });
});

describe('sign-in', () => {
  it('signs in with the right password and rotates the session id', async () => {
    const user = await createUser(t);
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: user.email, password: user.password },
    });
    expect(first.statusCode).toBe(200);
    const firstCookie = cookieFrom(first);
    const second = await as(
      t,
      { cookie: firstCookie },
      {
        method: 'POST',
        url: '/api/login',
        payload: { email: user.email, password: user.password },
      },
    );
    const secondCookie = cookieFrom(second);
    expect(secondCookie).not.toBe(firstCookie);
    const old = await as(t, { cookie: firstCookie }, { method: 'GET', url: '/api/auth/user' });
    expect(old.statusCode).toBe(401);
  });

  it('sets an HttpOnly, SameSite=Lax session cookie', async () => {
    const user = await createUser(t);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: user.email, password: user.password },
    });
    const header = String(response.headers['set-cookie']);
    expect(header).toContain('HttpOnly');
    expect(header).toContain('SameSite=Lax');
  });

  it('says "Invalid email or password" for a wrong password and for an unknown email alike', async () => {
    const user = await createUser(t);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: user.email, password: 'nope' },
    });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'nobody@example.com', password: 'nope' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().message).toBe('Invalid email or password');
    expect(unknown.json().message).toBe('Invalid email or password');
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('redirects a form sign-in back to a relative returnTo, never to another site', async () => {
    const user = await createUser(t);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      ...form({ email: user.email, password: user.password, returnTo: '/buyer/orders' }),
    });
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe('/buyer/orders');
    const evil = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      ...form({ email: user.email, password: user.password, returnTo: '//evil.example/x' }),
    });
    expect(evil.headers.location).toBe('/');
  });

  it('takes a returnTo of any text without a 500: what is outside ASCII is encoded (docs/rules/accounts.md, Sessions and sign-in)', async () => {
    const user = await createUser(t);
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      ...form({ email: user.email, password: user.password, returnTo: '/?search=żółw' }),
    });
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe('/?search=%C5%BC%C3%B3%C5%82w');
    const cookie = cookieFrom(signedIn);
    for (const [returnTo, location] of [
      ['/%E2%80%A8', '/%E2%80%A8'],
      ['/%F0%9F%90%A2', '/%F0%9F%90%A2'],
      ['/%7F', '/'],
      // Bytes that are not UTF-8 stay as they came, percent-encoded.
      ['/%ED%A0%80', '/%ED%A0%80'],
    ]) {
      const response = await as(t, { cookie }, { method: 'GET', url: `/api/login?returnTo=${returnTo}` });
      expect(response.statusCode, returnTo).toBe(302);
      expect(response.headers.location, returnTo).toBe(location);
    }
    // A NUL anywhere in a request is refused before any route (docs/rules/running.md, Bad input and failure).
    expect((await as(t, { cookie }, { method: 'GET', url: '/api/login?returnTo=/a%00b' })).statusCode).toBe(
      400,
    );
    const page = await t.app.inject({ method: 'GET', url: '/api/login?returnTo=/%E2%80%A8' });
    expect(page.statusCode).toBe(200);
  });

  it("refuses line breaks in a new account's names, with a message per field", async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: {
        email: 'two-lines@example.com',
        password: 'correct horse battery',
        firstName: 'Ana\r\nBcc: x@example.com',
        lastName: 'Li\u2028Lo',
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({
      firstName: 'First name must be on one line',
      lastName: 'Last name must be on one line',
    });
  });

  it('sends a signed-in visitor of the sign-in page on to where they were going', async () => {
    const user = await createUser(t);
    const cookie = await (async () => {
      const r = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: user.email, password: user.password },
      });
      return cookieFrom(r);
    })();
    const response = await as(t, { cookie }, { method: 'GET', url: '/api/login?returnTo=/profile' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/profile');
  });

  it('refuses a forged session cookie', async () => {
    const response = await as(
      t,
      { cookie: 'sid=forged.signature' },
      { method: 'GET', url: '/api/auth/user' },
    );
    expect(response.statusCode).toBe(401);
  });
});

describe('sign-out', () => {
  it('destroys the session and returns to /', async () => {
    const user = await createUser(t);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: user.email, password: user.password },
    });
    const cookie = cookieFrom(login);
    const before = await t.database.db.select().from(sessions);
    const out = await as(t, { cookie }, { method: 'GET', url: '/api/logout' });
    expect(out.statusCode).toBe(302);
    expect(out.headers.location).toBe('/');
    expect(String(out.headers['set-cookie'])).toMatch(/sid=;/);
    const after = await t.database.db.select().from(sessions);
    expect(after.length).toBe(before.length - 1);
    const me = await as(t, { cookie }, { method: 'GET', url: '/api/auth/user' });
    expect(me.statusCode).toBe(401);
  });
});

describe('rate limits', () => {
  it('slows the tries after ten wrong passwords down instead of refusing the right one', async () => {
    const pauses: number[] = [];
    const limited = await createTestApp({
      rateLimits: {
        signInFreeFailuresPerAccount: 10,
        signInFreeFailuresPerAccountAndAddress: 3,
        pause: async (ms) => void pauses.push(ms),
      },
    });
    try {
      const user = await createUser(limited);
      const signInFrom = (remoteAddress: string, password: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/login',
          remoteAddress,
          payload: { email: user.email.toUpperCase(), password },
        });
      // A stranger fails ten times, from ten addresses.
      for (let i = 0; i < 10; i++) expect((await signInFrom(`203.0.113.${i}`, 'bad')).statusCode).toBe(401);
      expect(pauses).toEqual([]);
      // The owner, after the wait, is let in with the right password.
      const owner = await signInFrom('198.51.100.7', user.password);
      expect(owner.statusCode).toBe(200);
      expect(pauses).toEqual([500]);

      // From one address, the waits grow with each failure past the third, and still end in a sign-in.
      const other = await createUser(limited);
      const tryOther = (password: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/login',
          remoteAddress: '192.0.2.1',
          payload: { email: other.email, password },
        });
      pauses.length = 0;
      for (let i = 0; i < 6; i++) expect((await tryOther('bad')).statusCode).toBe(401);
      expect(pauses).toEqual([1_000, 2_000, 4_000]);
      pauses.length = 0;
      expect((await tryOther(other.password)).statusCode).toBe(200);
      expect(pauses).toEqual([8_000]);
      // Signed in from there: that address starts afresh.
      pauses.length = 0;
      expect((await tryOther(other.password)).statusCode).toBe(200);
      expect(pauses).toEqual([]);
    } finally {
      await limited.close();
    }
  });

  it('limits sign-ins per network address, and another address still gets through', async () => {
    const limited = await createTestApp({ rateLimits: { signInPerIpPerMinute: 3 } });
    try {
      const user = await createUser(limited);
      const signInFrom = (remoteAddress: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/login',
          remoteAddress,
          payload: { email: user.email, password: user.password },
        });
      // Successful sign-ins: the per-account failure limit has nothing to count.
      for (let i = 0; i < 3; i++) expect((await signInFrom('203.0.113.7')).statusCode).toBe(200);

      const blocked = await signInFrom('203.0.113.7');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual({
        message: 'Too many sign-in attempts. Please try again in a minute.',
        code: 'rate_limited',
        requestId: expect.any(String),
      });
      expect(blocked.headers['set-cookie']).toBeUndefined();

      expect((await signInFrom('198.51.100.20')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('limits sign-ups per network address', async () => {
    const limited = await createTestApp({ rateLimits: { signUpPerIpPerHour: 1 } });
    try {
      const body = (n: number) => ({
        email: `p${n}@example.com`,
        password: 'long enough',
        firstName: 'P',
        lastName: 'Q',
      });
      expect(
        (await limited.app.inject({ method: 'POST', url: '/api/signup', payload: body(1) })).statusCode,
      ).toBe(202);
      const second = await limited.app.inject({ method: 'POST', url: '/api/signup', payload: body(2) });
      expect(second.statusCode).toBe(429);
      expect(second.json().message).toMatch(/^Too many accounts created from this network/);
    } finally {
      await limited.close();
    }
  });
});
