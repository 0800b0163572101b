import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
// @ts-expect-error -- oidc-provider ships no type declarations; the part used here is typed below.
import ProviderModule from 'oidc-provider';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, createUser, type TestApp } from '../../testing/test-app';
import type { CurrentUser } from '../../../domain/users';
import type { PendingSignIn } from '../../adapters/identity/identity-provider';

/**
 * OpenID Connect sign-in, end to end: the marketplace (through app.inject) against a real
 * oidc-provider listening on loopback. The provider's own login and consent pages (its
 * devInteractions) are driven over HTTP with fetch, the way a browser would, cookies and all.
 */

// ---- the slice of oidc-provider's API this test uses ------------------------------------------

interface ProviderAccount {
  accountId: string;
  claims(): Promise<Record<string, unknown>>;
}

interface ProviderConfiguration {
  clients: Array<Record<string, unknown>>;
  findAccount(ctx: unknown, subject: string): Promise<ProviderAccount | undefined>;
  claims: Record<string, string[]>;
  cookies: { keys: string[] };
  features: Record<string, { enabled: boolean }>;
  pkce: { required(): boolean };
  ttl: Record<string, number>;
}

interface OidcProvider {
  callback(): http.RequestListener;
  on(event: string, listener: (ctx: unknown, error: Error) => void): void;
}

const Provider = ProviderModule as new (issuer: string, configuration: ProviderConfiguration) => OidcProvider;

// ---- the identity provider ---------------------------------------------------------------------

const PUBLIC_URL = 'http://127.0.0.1:5999';
const CALLBACK_URL = `${PUBLIC_URL}/api/callback`;
const CLIENT_ID = 'marketplace';
const CLIENT_SECRET = 'marketplace-client-secret-for-tests';

interface Person {
  email: string;
  email_verified?: boolean;
  given_name: string;
  family_name: string;
}

const PEOPLE: Record<string, Person> = {
  'alice-sub': { email: 'Alice.Buyer@Example.com', given_name: 'Alice', family_name: 'Liddell' },
  'boss-sub': { email: 'boss@example.com', given_name: 'Grace', family_name: 'Hopper' },
  'bob-sub': { email: 'bob@example.com', given_name: 'Bob', family_name: 'Builder' },
  'carol-sub': { email: 'carol@example.com', email_verified: false, given_name: 'Carol', family_name: 'C' },
  'dave-sub': { email: 'dave@example.com', email_verified: true, given_name: 'Dave', family_name: 'D' },
};

let server: http.Server;
let issuer: string;
const providerErrors: Error[] = [];
let t: TestApp;

beforeAll(async () => {
  let listener: http.RequestListener = (_request, response) => {
    response.statusCode = 503;
    response.end();
  };
  server = http.createServer((request, response) => listener(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [CALLBACK_URL],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        // openid-client sends the secret in the body when given one without a client auth method.
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    async findAccount(_ctx, subject) {
      const person = PEOPLE[subject];
      if (!person) return undefined;
      return { accountId: subject, claims: async () => ({ sub: subject, ...person }) };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    cookies: { keys: ['oidc-test-cookie-key-not-secret'] },
    features: { devInteractions: { enabled: true } },
    // A confidential client need not use PKCE by default; insist, so the verifier is really checked.
    pkce: { required: () => true },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 3600,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
    },
  });
  // The provider's own failures (refused requests are expected in some tests and are not these).
  provider.on('server_error', (_ctx, error) => providerErrors.push(error));
  listener = provider.callback();

  t = await createTestApp({
    env: {
      OIDC_ISSUER_URL: issuer,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      PUBLIC_URL,
      ADMIN_EMAILS: 'boss@example.com',
    },
  });
});

afterAll(async () => {
  await t?.close();
  if (server) {
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) =>
      server.close((error) => (error ? reject(error) : resolve())),
    );
  }
});

afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
  expect(providerErrors).toEqual([]);
});

// ---- a browser, for the provider's side ---------------------------------------------------------

/** The provider's cookies, by name (one provider, so paths and domains can be ignored). */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = attributes.some((a) => {
        const [key = '', val = ''] = a.split('=').map((s) => s.trim());
        if (key.toLowerCase() === 'max-age') return Number(val) <= 0;
        if (key.toLowerCase() === 'expires') return Date.parse(val) <= Date.now();
        return false;
      });
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async fetch(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = { cookie: this.header() };
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(url, { method: init.method ?? 'GET', headers, body, redirect: 'manual' });
    this.store(response);
    return response;
  }
}

function locationOf(response: Response): string {
  const location = response.headers.get('location');
  if (response.status < 300 || response.status >= 400 || !location) {
    throw new Error(`expected a redirect from the provider, got ${response.status}`);
  }
  return new URL(location, response.url).href;
}

/**
 * Follows the provider from its authorization URL to the marketplace's callback URL: signs in as
 * `subject` on the login page and confirms the consent page when they are shown.
 */
async function throughProvider(
  authorizationUrl: string,
  subject: string,
  jar: CookieJar,
): Promise<{ returned: URL; pagesSeen: string[] }> {
  let location = authorizationUrl;
  const pagesSeen: string[] = [];
  for (let step = 0; step < 12; step += 1) {
    if (location.startsWith(`${CALLBACK_URL}?`)) return { returned: new URL(location), pagesSeen };
    expect(new URL(location).origin, `redirected away from the provider to ${location}`).toBe(issuer);
    const page = await jar.fetch(location);
    if (page.status !== 200) {
      location = locationOf(page);
      continue;
    }
    const html = await page.text();
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!prompt || !action)
      throw new Error(`unexpected provider page at ${location}:\n${html.slice(0, 500)}`);
    pagesSeen.push(prompt);
    const form: Record<string, string> =
      prompt === 'login'
        ? { prompt, login: subject, password: 'not checked by devInteractions' }
        : { prompt };
    location = locationOf(
      await jar.fetch(new URL(action.replace(/&amp;/g, '&'), location).href, { method: 'POST', form }),
    );
  }
  throw new Error(`the provider never returned to the marketplace (pages: ${pagesSeen.join(', ')})`);
}

// ---- the marketplace's side ----------------------------------------------------------------------

function setCookie(response: LightMyRequestResponse, name: string): string | undefined {
  const cookie = response.cookies.find((c) => c.name === name);
  return cookie && cookie.value !== '' ? `${name}=${cookie.value}` : undefined;
}

async function startLogin(
  query = '',
): Promise<{ response: LightMyRequestResponse; authorizationUrl: URL; txCookie: string }> {
  const response = await t.app.inject({ method: 'GET', url: `/api/login${query}` });
  expect(response.statusCode, response.body).toBe(302);
  const txCookie = setCookie(response, 'oidc_tx');
  if (!txCookie) throw new Error('GET /api/login set no oidc_tx cookie');
  return { response, authorizationUrl: new URL(String(response.headers.location)), txCookie };
}

function callback(callbackUrl: URL, cookie: string | undefined): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'GET',
    url: callbackUrl.pathname + callbackUrl.search,
    headers: cookie ? { cookie } : {},
  });
}

async function currentUser(sid: string): Promise<CurrentUser> {
  const response = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: sid } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<CurrentUser>();
}

/** The whole sign-in, as a browser does it; returns where the marketplace sent the user and the session. */
async function signInWithProvider(
  subject: string,
  query = '',
  jar = new CookieJar(),
): Promise<{ landing: string; sid: string; pagesSeen: string[] }> {
  const { authorizationUrl, txCookie } = await startLogin(query);
  const { returned, pagesSeen } = await throughProvider(authorizationUrl.href, subject, jar);
  const response = await callback(returned, txCookie);
  expect(response.statusCode, response.body).toBe(302);
  const sid = setCookie(response, 'sid');
  if (!sid) throw new Error(`the callback set no session cookie: ${response.body}`);
  return { landing: String(response.headers.location), sid, pagesSeen };
}

// ---- the tests -----------------------------------------------------------------------------------

describe('OpenID Connect sign-in', () => {
  it('sends the visitor to the provider with PKCE (S256) and a state, keeping both in a signed cookie', async () => {
    const { response, authorizationUrl } = await startLogin('?returnTo=%2Fbuyer%2Forders');
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(`${issuer}/auth`);
    const params = authorizationUrl.searchParams;
    expect(params.get('client_id')).toBe(CLIENT_ID);
    expect(params.get('response_type')).toBe('code');
    expect(params.get('redirect_uri')).toBe(CALLBACK_URL);
    expect(params.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['openid', 'email', 'profile']));
    expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('state')).toMatch(/^[A-Za-z0-9_-]{16,}$/);

    const tx = response.cookies.find((c) => c.name === 'oidc_tx');
    expect(tx).toMatchObject({ path: '/api/callback', httpOnly: true, sameSite: 'Lax' });
    // Signed with the app's secret; inside, the state sent and the verifier behind the challenge.
    const unsigned = t.app.unsignCookie(decodeURIComponent(tx?.value ?? ''));
    expect(unsigned.valid).toBe(true);
    const pending = JSON.parse(unsigned.value ?? '{}') as Partial<PendingSignIn>;
    expect(pending).toMatchObject({ state: params.get('state'), returnTo: '/buyer/orders' });
    const challenge = crypto
      .createHash('sha256')
      .update(pending.codeVerifier ?? '')
      .digest('base64url');
    expect(challenge).toBe(params.get('code_challenge'));
  });

  it('signs the user in with the provider’s claims and returns to the page asked for', async () => {
    const { landing, sid, pagesSeen } = await signInWithProvider('alice-sub', '?returnTo=%2Fbuyer%2Forders');
    expect(pagesSeen).toEqual(['login', 'consent']);
    expect(landing).toBe('/buyer/orders');
    const user = await currentUser(sid);
    expect(user).toMatchObject({
      email: 'alice.buyer@example.com',
      firstName: 'Alice',
      lastName: 'Liddell',
      role: 'buyer',
      roles: ['buyer'],
      // The provider answers for the address; no password to change here
      // (docs/decisions/0019-reaching-people.md, Accounts).
      emailVerified: true,
      localAccount: false,
    });
    const change = await t.app.inject({
      method: 'POST',
      url: '/api/auth/password',
      headers: { cookie: sid },
      payload: { currentPassword: 'anything', newPassword: 'something new' },
    });
    expect(change.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/forgot-password' })).statusCode).toBe(404);
  });

  it('finds the same user on the next sign-in of the same subject, without a duplicate', async () => {
    const jar = new CookieJar();
    const first = await signInWithProvider('bob-sub', '', jar);
    // Same browser: the provider remembers the login and the consent and answers at once.
    const second = await signInWithProvider('bob-sub', '', jar);
    // A new browser: signs in (and consents) at the provider again.
    const third = await signInWithProvider('bob-sub');
    expect(first.pagesSeen).toEqual(['login', 'consent']);
    expect(second.pagesSeen).toEqual([]);
    expect(third.pagesSeen).toEqual(['login', 'consent']);
    expect(second.sid).not.toBe(first.sid);
    const ids = await Promise.all([first, second, third].map(async ({ sid }) => (await currentUser(sid)).id));
    expect(new Set(ids).size).toBe(1);
    const users = await t.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { cookie: third.sid },
    });
    expect(users.json<CurrentUser>()).toMatchObject({ email: 'bob@example.com', firstName: 'Bob' });
  });

  it('makes an email listed in ADMIN_EMAILS an admin at sign-in', async () => {
    const { sid } = await signInWithProvider('boss-sub');
    const user = await currentUser(sid);
    expect(user.email).toBe('boss@example.com');
    expect(user.roles).toContain('admin');
    expect(user.role).toBe('admin');
  });

  it('keeps the intent: Become a Driver lands on the driver dashboard with the driver role', async () => {
    const { landing, sid } = await signInWithProvider('alice-sub', '?intent=driver');
    expect(landing).toBe('/driver/dashboard');
    expect((await currentUser(sid)).roles).toEqual(expect.arrayContaining(['buyer', 'driver']));
  });

  it('does not follow an external returnTo', async () => {
    for (const returnTo of ['https://evil.example', '//evil.example/path', '/\\evil.example']) {
      const { landing } = await signInWithProvider('alice-sub', `?returnTo=${encodeURIComponent(returnTo)}`);
      expect(landing, returnTo).toBe('/');
    }
  });
});

describe('OpenID Connect callback refusals', () => {
  async function providerCallback(): Promise<{ returned: URL; txCookie: string }> {
    const { authorizationUrl, txCookie } = await startLogin('?returnTo=%2Fbuyer%2Forders');
    const { returned } = await throughProvider(authorizationUrl.href, 'alice-sub', new CookieJar());
    expect(returned.searchParams.get('code')).toMatch(/^\S{10,}$/);
    return { returned, txCookie };
  }

  const FAILED = 'Sign-in failed. Please try again.';
  const EXPIRED = 'This sign-in link has expired. Please sign in again.';

  function expectRefused(response: LightMyRequestResponse, status: number, message: string): void {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json<{ message: string }>().message).toBe(message);
    expect(setCookie(response, 'sid')).toBeUndefined();
    expect(response.headers.location).toBeUndefined();
  }

  it('refuses a callback whose state was tampered with', async () => {
    const { returned, txCookie } = await providerCallback();
    const tampered = new URL(returned);
    tampered.searchParams.set('state', `${returned.searchParams.get('state') ?? ''}x`);
    expectRefused(await callback(tampered, txCookie), 401, FAILED);
  });

  it('refuses a callback without the oidc_tx cookie', async () => {
    const { returned } = await providerCallback();
    expectRefused(await callback(returned, undefined), 400, EXPIRED);
  });

  it('refuses a callback whose oidc_tx cookie was altered', async () => {
    const { returned, txCookie } = await providerCallback();
    const [name, value = ''] = txCookie.split('=');
    const raw = decodeURIComponent(value);
    const forged = encodeURIComponent(raw.replace(/"returnTo":"[^"]*"/, '"returnTo":"/admin"'));
    expect(forged).not.toBe(value);
    expectRefused(await callback(returned, `${name}=${forged}`), 400, EXPIRED);
  });

  it('refuses a callback that carries another sign-in’s oidc_tx cookie', async () => {
    const { returned } = await providerCallback();
    const { txCookie: otherTx } = await startLogin();
    expectRefused(await callback(returned, otherTx), 401, FAILED);
  });

  it('refuses a code used a second time', async () => {
    const { returned, txCookie } = await providerCallback();
    const first = await callback(returned, txCookie);
    expect(first.statusCode).toBe(302);
    expect(setCookie(first, 'sid')).toBeDefined();
    expectRefused(await callback(returned, txCookie), 401, FAILED);
  });
});

describe('OpenID Connect and existing accounts', () => {
  it('links to an existing account only when the provider has verified the email', async () => {
    const carol = await createUser(t, { email: 'carol@example.com' });
    const { authorizationUrl, txCookie } = await startLogin();
    const { returned } = await throughProvider(authorizationUrl.href, 'carol-sub', new CookieJar());
    const refused = await callback(returned, txCookie);
    expect(refused.statusCode).toBe(409);
    expect(setCookie(refused, 'sid')).toBeUndefined();

    const dave = await createUser(t, { email: 'dave@example.com' });
    const { sid } = await signInWithProvider('dave-sub');
    expect((await currentUser(sid)).id).toBe(dave.id);
    expect(carol.id).not.toBe(dave.id);
  });

  it('returns a person who cancels at the provider to the marketplace, signed out', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/callback?error=access_denied&state=x' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/');
    expect(setCookie(response, 'sid')).toBeUndefined();
  });
});
