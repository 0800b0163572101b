import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import { startFakeStripe, type FakeStripeServer } from '../../testing/stripe-server';
import { createFakeConnectAccounts, type FakeConnectAccounts } from '../../testing/stripe-connect-accounts';
import { StripePayoutAccounts } from '../../adapters/payouts/stripe-payout-accounts';
import { users } from '../../db/schema';

/** Payout accounts with Stripe Connect, against the local server that speaks Stripe's API. */
let t: TestApp;
let fake: FakeStripeServer;
let connect: FakeConnectAccounts;
const webhookSecret = 'whsec_paymentsonly';
const connectSecret = 'whsec_connectaccounts';
const signer = new Stripe('sk_test_signeronly');

beforeAll(async () => {
  connect = createFakeConnectAccounts();
  fake = await startFakeStripe({ routes: [connect.route] });
  t = await createTestApp({
    env: {
      STRIPE_SECRET_KEY: fake.secretKey,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_payouts',
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_CONNECT_WEBHOOK_SECRET: connectSecret,
      STRIPE_API_BASE: fake.url,
    },
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

const createAccount = (user: TestUser) => as(t, user, { method: 'POST', url: '/api/stripe/connect/account' });
const statusOf = (user: TestUser) =>
  as(t, user, { method: 'GET', url: '/api/stripe/connect/account-status' });

async function stored(userId: string) {
  const [row] = await t.database.db
    .select({
      accountId: users.stripeAccountId,
      status: users.stripeAccountStatus,
      onboardingComplete: users.stripeOnboardingComplete,
      chargesEnabled: users.chargesEnabled,
      payoutsEnabled: users.payoutsEnabled,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

async function accountOf(user: TestUser): Promise<string> {
  const response = await createAccount(user);
  expect([200, 201]).toContain(response.statusCode);
  const row = await stored(user.id);
  if (!row?.accountId) throw new Error('no account stored');
  return row.accountId;
}

function webhook(object: unknown, options: { secret?: string; type?: string } = {}) {
  const payload = JSON.stringify(fake.event(options.type ?? 'account.updated', object));
  const signature = signer.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? connectSecret,
  });
  return t.app.inject({
    method: 'POST',
    url: '/api/stripe/connect/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
}

describe('POST /api/stripe/connect/account', () => {
  it('creates one Express account per user with transfers requested, even when asked twice', async () => {
    const seller = await signedInAs(t, 'seller');
    const first = await createAccount(seller);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({
      hasAccount: true,
      onboardingComplete: false,
      status: 'pending',
      chargesEnabled: false,
      payoutsEnabled: false,
    });
    const second = await createAccount(seller);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());

    const made = [...connect.accounts.values()].filter((a) => a.metadata.userId === seller.id);
    expect(made).toHaveLength(1);
    const [account] = made;
    expect(account).toMatchObject({
      type: 'express',
      email: seller.email,
      capabilities: { transfers: 'inactive' },
    });
    expect((await stored(seller.id))?.accountId).toBe(account?.id);
    const creates = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/accounts');
    expect(creates.filter((r) => r.idempotencyKey === `payout-account-${seller.id}`)).toHaveLength(1);
  });

  it('makes one account when two requests race', async () => {
    const driver = await signedInAs(t, 'driver');
    const answers = await Promise.all([createAccount(driver), createAccount(driver), createAccount(driver)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 201]);
    // The same idempotency key makes Stripe answer the first account to every racing call.
    expect([...connect.accounts.values()].filter((a) => a.metadata.userId === driver.id)).toHaveLength(1);
  });

  it('answers 503 with a sentence to retry when Stripe fails, and stores nothing', async () => {
    const seller = await signedInAs(t, 'seller');
    fake.failNext(3); // the adapter tries three times (two retries)
    const response = await createAccount(seller);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ code: 'unavailable' });
    expect((await stored(seller.id))?.accountId).toBeNull();
    t.statuses.length = 0; // the 503 was the point
  });
});

describe('GET /api/stripe/connect/account-status', () => {
  it('answers no account before one is made', async () => {
    const seller = await signedInAs(t, 'seller');
    const response = await statusOf(seller);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      hasAccount: false,
      onboardingComplete: false,
      status: null,
      chargesEnabled: false,
      payoutsEnabled: false,
    });
  });

  it('maps Stripe to pending, then active, then restricted, and stores each on the user', async () => {
    const seller = await signedInAs(t, 'seller');
    const accountId = await accountOf(seller);

    // A new account: the form's fields are past due at Stripe, which is onboarding, not a restriction.
    expect((await statusOf(seller)).json()).toMatchObject({ onboardingComplete: false, status: 'pending' });

    connect.submitForVerification(accountId);
    expect((await statusOf(seller)).json()).toEqual({
      hasAccount: true,
      onboardingComplete: true,
      status: 'pending',
      chargesEnabled: false,
      payoutsEnabled: false,
    });

    connect.complete(accountId);
    expect((await statusOf(seller)).json()).toEqual({
      hasAccount: true,
      onboardingComplete: true,
      status: 'active',
      chargesEnabled: true,
      payoutsEnabled: true,
    });
    expect(await stored(seller.id)).toEqual({
      accountId,
      status: 'active',
      onboardingComplete: true,
      chargesEnabled: true,
      payoutsEnabled: true,
    });

    connect.restrict(accountId);
    expect((await statusOf(seller)).json()).toMatchObject({ status: 'restricted', payoutsEnabled: false });
    expect((await stored(seller.id))?.status).toBe('restricted');
  });

  it('answers the stored status when Stripe cannot be reached', async () => {
    const driver = await signedInAs(t, 'driver');
    const accountId = await accountOf(driver);
    connect.complete(accountId);
    expect((await statusOf(driver)).json()).toMatchObject({ status: 'active' });
    fake.failNext(3);
    const response = await statusOf(driver);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ hasAccount: true, onboardingComplete: true, status: 'active' });
  });
});

describe('onboarding and dashboard links', () => {
  it('asks Stripe for an onboarding link that returns to the dashboard the user came from', async () => {
    const seller = await signedInAs(t, 'seller');
    const accountId = await accountOf(seller);
    const response = await as(t, seller, {
      method: 'POST',
      url: '/api/stripe/connect/onboarding-link',
      headers: { host: 'market.example' },
      payload: { dashboard: 'seller' },
    });
    expect(response.statusCode).toBe(200);
    const { url } = response.json<{ url: string }>();
    const link = connect.accountLinks.find((l) => l.url === url);
    expect(link).toEqual({
      account: accountId,
      url,
      returnUrl: 'http://market.example/seller/dashboard?payouts=return',
      refreshUrl: 'http://market.example/seller/dashboard?payouts=refresh',
    });
  });

  it('returns a driver to the driver dashboard by their current role, and refuses a dashboard of a role not held', async () => {
    const driver = await signedInAs(t, 'driver');
    await accountOf(driver);
    const response = await as(t, driver, { method: 'POST', url: '/api/stripe/connect/onboarding-link' });
    expect(response.statusCode).toBe(200);
    const link = connect.accountLinks.find((l) => l.url === response.json<{ url: string }>().url);
    expect(link?.returnUrl).toMatch(/\/driver\/dashboard\?payouts=return$/);
    const other = await as(t, driver, {
      method: 'POST',
      url: '/api/stripe/connect/onboarding-link',
      payload: { dashboard: 'seller' },
    });
    expect(other.statusCode).toBe(403);
  });

  it('wants an account before an onboarding link, and a finished onboarding before a dashboard link', async () => {
    const seller = await signedInAs(t, 'seller');
    const noAccount = await as(t, seller, { method: 'POST', url: '/api/stripe/connect/onboarding-link' });
    expect(noAccount.statusCode).toBe(409);
    expect(noAccount.json()).toMatchObject({ message: 'Set up payouts first.' });
    const accountId = await accountOf(seller);
    const early = await as(t, seller, { method: 'POST', url: '/api/stripe/connect/dashboard-link' });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ message: 'Complete your payout setup first.' });

    connect.complete(accountId);
    await statusOf(seller);
    const response = await as(t, seller, { method: 'POST', url: '/api/stripe/connect/dashboard-link' });
    expect(response.statusCode).toBe(200);
    expect(response.json<{ url: string }>().url).toMatch(/^https:\/\/connect\.stripe\.com\/express\//);
    expect(fake.requests.some((r) => r.path === `/v1/accounts/${accountId}/login_links`)).toBe(true);
  });
});

describe('POST /api/stripe/connect/webhook', () => {
  it('refuses a bad signature, a missing one, and one made with the payments secret', async () => {
    const seller = await signedInAs(t, 'seller');
    const accountId = await accountOf(seller);
    const account = connect.complete(accountId);
    expect((await webhook(account, { secret: 'whsec_wrong' })).statusCode).toBe(400);
    // The Connect endpoint has a secret of its own when STRIPE_CONNECT_WEBHOOK_SECRET is set.
    expect((await webhook(account, { secret: webhookSecret })).statusCode).toBe(400);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/connect/webhook',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(fake.event('account.updated', account)),
    });
    expect(unsigned.statusCode).toBe(400);
    expect((await stored(seller.id))?.status).toBe('pending');
  });

  it('stores the account of a signed account.updated on its user, read again from Stripe', async () => {
    const seller = await signedInAs(t, 'seller');
    const accountId = await accountOf(seller);
    const response = await webhook(connect.complete(accountId));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: true });
    expect(await stored(seller.id)).toMatchObject({
      status: 'active',
      onboardingComplete: true,
      payoutsEnabled: true,
    });

    // An older event arriving late does not undo what Stripe says now.
    const restricted = connect.restrict(accountId);
    connect.complete(accountId);
    expect((await webhook(restricted)).statusCode).toBe(200);
    expect((await stored(seller.id))?.status).toBe('active');
  });

  it('acknowledges an account.updated for an account Stripe no longer knows', async () => {
    const seller = await signedInAs(t, 'seller');
    const accountId = await accountOf(seller);
    const account = connect.complete(accountId);
    connect.accounts.delete(accountId);
    expect((await webhook(account)).statusCode).toBe(200);
    expect(await stored(seller.id)).toMatchObject({ status: 'pending', onboardingComplete: false });
    // The status call answers what is stored.
    expect((await statusOf(seller)).json()).toMatchObject({ hasAccount: true, status: 'pending' });
  });

  it('acknowledges other events and accounts of no user without changing anything', async () => {
    expect(
      (await webhook({ id: 'acct_nobody' }, { type: 'account.application.deauthorized' })).statusCode,
    ).toBe(200);
    expect((await webhook({ id: 'acct_nobody', details_submitted: true })).statusCode).toBe(200);
  });
});

describe('the Stripe adapter alone', () => {
  it('signs with STRIPE_WEBHOOK_SECRET when no Connect secret is set', () => {
    const adapter = new StripePayoutAccounts({
      secretKey: fake.secretKey,
      publishableKey: 'pk_test_x',
      webhookSecret,
      apiBase: fake.url,
    });
    const payload = JSON.stringify(fake.event('account.updated', { id: 'acct_1', details_submitted: false }));
    const signature = signer.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
    expect(adapter.parseAccountWebhook(Buffer.from(payload), signature)).toEqual({
      type: 'account_updated',
      account: {
        accountId: 'acct_1',
        onboardingComplete: false,
        status: 'pending',
        chargesEnabled: false,
        payoutsEnabled: false,
      },
    });
  });
});

describe('who may call', () => {
  it('keeps buyers and admins out and reaches only the caller’s own account', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const admin = await signedInAs(t, 'admin');
    for (const user of [buyer, admin]) {
      const response = await createAccount(user);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ message: 'You need the seller or driver role for this.' });
      expect((await statusOf(user)).statusCode).toBe(403);
    }
    const seller = await signedInAs(t, 'seller');
    const accountId = await accountOf(seller);
    connect.complete(accountId);
    await statusOf(seller);
    // Another seller sees their own (absent) account, never this one.
    const other = await signedInAs(t, 'seller');
    expect((await statusOf(other)).json()).toMatchObject({ hasAccount: false });
    expect(
      (await as(t, other, { method: 'POST', url: '/api/stripe/connect/dashboard-link' })).statusCode,
    ).toBe(409);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/stripe/connect/account-status' })).statusCode,
    ).toBe(401);
  });

  it('has no test provider pages while Stripe runs', async () => {
    const seller = await signedInAs(t, 'seller');
    const response = await as(t, seller, {
      method: 'GET',
      url: `/api/payouts/test-accounts/tacct_${'0'.repeat(24)}`,
    });
    expect(response.statusCode).toBe(404);
  });
});
