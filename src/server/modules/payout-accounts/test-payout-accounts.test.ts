import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import { testPayoutAccounts, users } from '../../db/schema';
import { TestPayoutAccounts } from '../../adapters/payouts/test-payout-accounts';
import { makeAccountReady, moveOrder, orderInTransit, payoutsOf } from '../../testing/payout-scenes';
import { recordPayoutAccount } from './payout-accounts.service';

/** Payout accounts with the built-in test provider, whose onboarding is a page of this server. */
let t: TestApp;
let clock = new Date('2026-03-02T15:00:00Z');
const HOUR = 60 * 60 * 1000;

beforeAll(async () => {
  t = await createTestApp({ now: () => clock });
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

const statusOf = (user: TestUser) =>
  as(t, user, { method: 'GET', url: '/api/stripe/connect/account-status' });

interface OnboardingLink {
  accountId: string;
  token: string;
  url: URL;
}

/** A seller (or driver) with an account, and the onboarding link the card would follow. */
async function onboardingLinkOf(user: TestUser, dashboard?: 'seller' | 'driver'): Promise<OnboardingLink> {
  const created = await as(t, user, { method: 'POST', url: '/api/stripe/connect/account' });
  expect([200, 201]).toContain(created.statusCode);
  const response = await as(t, user, {
    method: 'POST',
    url: '/api/stripe/connect/onboarding-link',
    headers: { host: 'market.example' },
    ...(dashboard ? { payload: { dashboard } } : {}),
  });
  expect(response.statusCode).toBe(200);
  const url = new URL(response.json<{ url: string }>().url);
  const match = /^\/payouts\/test-onboarding\/(tacct_[0-9a-f]{24})$/.exec(url.pathname);
  const token = url.searchParams.get('token');
  if (!match?.[1] || !token) throw new Error(`not an onboarding link: ${url.href}`);
  return { accountId: match[1], token, url };
}

const viewOnboarding = (user: TestUser | undefined, link: { accountId: string; token: string }) =>
  as(t, user, {
    method: 'GET',
    url: `/api/payouts/test-accounts/${link.accountId}/onboarding?token=${encodeURIComponent(link.token)}`,
  });

const submit = (
  user: TestUser | undefined,
  link: { accountId: string; token: string },
  outcome: 'complete' | 'incomplete' | 'restricted',
) =>
  as(t, user, {
    method: 'POST',
    url: `/api/payouts/test-accounts/${link.accountId}/onboarding`,
    payload: { token: link.token, outcome },
  });

async function storedOf(userId: string) {
  const [row] = await t.database.db
    .select({ status: users.stripeAccountStatus, onboardingComplete: users.stripeOnboardingComplete })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

describe('creating the account', () => {
  it('makes one simulated account per user, however often asked', async () => {
    const seller = await signedInAs(t, 'seller');
    const first = await as(t, seller, { method: 'POST', url: '/api/stripe/connect/account' });
    const second = await as(t, seller, { method: 'POST', url: '/api/stripe/connect/account' });
    expect([first.statusCode, second.statusCode]).toEqual([201, 200]);
    expect(first.json()).toEqual({
      hasAccount: true,
      onboardingComplete: false,
      status: 'pending',
      chargesEnabled: false,
      payoutsEnabled: false,
    });
    const rows = await t.database.db
      .select()
      .from(testPayoutAccounts)
      .where(eq(testPayoutAccounts.userId, seller.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ email: seller.email, state: 'incomplete' });
  });
});

describe('the onboarding page', () => {
  it('shows the account to its user and returns to the dashboard the link was made for', async () => {
    const seller = await signedInAs(t, 'seller');
    const link = await onboardingLinkOf(seller, 'seller');
    expect(link.url.origin).toBe('http://market.example');
    const response = await viewOnboarding(seller, link);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      account: {
        accountId: link.accountId,
        email: seller.email,
        onboardingComplete: false,
        status: 'pending',
      },
      returnUrl: 'http://market.example/seller/dashboard?payouts=return',
    });
  });

  it('leaves the account incomplete, restricts it, or completes it, and the status follows', async () => {
    const driver = await signedInAs(t, 'driver');
    const link = await onboardingLinkOf(driver);

    const incomplete = await submit(driver, link, 'incomplete');
    expect(incomplete.statusCode).toBe(200);
    expect(incomplete.json()).toEqual({ returnUrl: 'http://market.example/driver/dashboard?payouts=return' });
    expect((await statusOf(driver)).json()).toEqual({
      hasAccount: true,
      onboardingComplete: false,
      status: 'pending',
      chargesEnabled: false,
      payoutsEnabled: false,
    });

    expect((await submit(driver, link, 'restricted')).statusCode).toBe(200);
    expect(await storedOf(driver.id)).toEqual({ status: 'restricted', onboardingComplete: true });
    expect((await statusOf(driver)).json()).toMatchObject({ onboardingComplete: true, status: 'restricted' });

    expect((await submit(driver, link, 'complete')).statusCode).toBe(200);
    // Stored by the page itself, before any status call.
    expect(await storedOf(driver.id)).toEqual({ status: 'active', onboardingComplete: true });
    expect((await statusOf(driver)).json()).toEqual({
      hasAccount: true,
      onboardingComplete: true,
      status: 'active',
      chargesEnabled: true,
      payoutsEnabled: true,
    });
  });

  it("refuses someone else's account, even with its link, and admins and visitors", async () => {
    const seller = await signedInAs(t, 'seller');
    const link = await onboardingLinkOf(seller);
    const other = await signedInAs(t, 'seller');
    for (const response of [await viewOnboarding(other, link), await submit(other, link, 'complete')]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ message: 'Payout account not found' });
    }
    const admin = await signedInAs(t, 'admin');
    expect((await submit(admin, link, 'complete')).statusCode).toBe(403);
    expect((await submit(undefined, link, 'complete')).statusCode).toBe(401);
    expect(await storedOf(seller.id)).toEqual({ status: 'pending', onboardingComplete: false });
  });

  it('refuses a forged, altered or borrowed token', async () => {
    const seller = await signedInAs(t, 'seller');
    const link = await onboardingLinkOf(seller);
    const [body = '', signature = ''] = link.token.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const altered = Buffer.from(JSON.stringify({ ...payload, returnUrl: 'https://evil.example/' })).toString(
      'base64url',
    );
    // The user's own token, for another user's account, is not a token for that account either.
    const other = await signedInAs(t, 'seller');
    const otherLink = await onboardingLinkOf(other);
    for (const token of [
      `${altered}.${signature}`,
      `${body}.${'A'.repeat(signature.length)}`,
      'nonsense',
      otherLink.token,
    ]) {
      const response = await submit(seller, { accountId: link.accountId, token }, 'complete');
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({
        message: 'This onboarding link is not valid. Start again from your dashboard.',
      });
    }
    expect(await storedOf(seller.id)).toEqual({ status: 'pending', onboardingComplete: false });
  });

  it('refuses a link older than an hour', async () => {
    const seller = await signedInAs(t, 'seller');
    const link = await onboardingLinkOf(seller);
    clock = new Date(clock.getTime() + HOUR + 1000);
    try {
      const response = await submit(seller, link, 'complete');
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({
        message: 'This onboarding link has expired. Start again from your dashboard.',
      });
      expect((await viewOnboarding(seller, link)).statusCode).toBe(409);
    } finally {
      clock = new Date(clock.getTime() - HOUR - 1000);
    }
  });

  it('refuses an outcome it does not know, and unknown fields', async () => {
    const seller = await signedInAs(t, 'seller');
    const link = await onboardingLinkOf(seller);
    const unknown = await as(t, seller, {
      method: 'POST',
      url: `/api/payouts/test-accounts/${link.accountId}/onboarding`,
      payload: { token: link.token, outcome: 'active' },
    });
    expect(unknown.statusCode).toBe(400);
    const extra = await as(t, seller, {
      method: 'POST',
      url: `/api/payouts/test-accounts/${link.accountId}/onboarding`,
      payload: { token: link.token, outcome: 'complete', userId: 'someone' },
    });
    expect(extra.statusCode).toBe(400);
  });
});

describe('an account the provider does not know', () => {
  it('answers the stored status and refuses links with a 409, never a 5xx', async () => {
    // Data of another provider (the marketplace ran with Stripe before).
    const seller = await signedInAs(t, 'seller');
    await makeAccountReady(t, seller.id, 'acct_1FromStripeBefore');
    const status = await statusOf(seller);
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({ hasAccount: true, onboardingComplete: true, status: 'active' });
    for (const url of ['/api/stripe/connect/onboarding-link', '/api/stripe/connect/dashboard-link']) {
      const response = await as(t, seller, { method: 'POST', url });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({
        message: 'Your payout account is not known to the payout provider. Please contact support.',
      });
    }
  });
});

describe('the dashboard link', () => {
  it('opens the simulated account of its own user only, once onboarding is done', async () => {
    const seller = await signedInAs(t, 'seller');
    const link = await onboardingLinkOf(seller);
    expect(
      (await as(t, seller, { method: 'POST', url: '/api/stripe/connect/dashboard-link' })).statusCode,
    ).toBe(409);
    await submit(seller, link, 'complete');
    const response = await as(t, seller, { method: 'POST', url: '/api/stripe/connect/dashboard-link' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ url: `/payouts/test-dashboard/${link.accountId}` });

    const page = await as(t, seller, { method: 'GET', url: `/api/payouts/test-accounts/${link.accountId}` });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ accountId: link.accountId, email: seller.email, status: 'active' });
    const other = await signedInAs(t, 'driver');
    expect(
      (await as(t, other, { method: 'GET', url: `/api/payouts/test-accounts/${link.accountId}` })).statusCode,
    ).toBe(404);
  });
});

describe('an account becoming ready', () => {
  it('pays what a seller was owed when they complete the onboarding page', async () => {
    const s = await orderInTransit(t);
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    expect((await payoutsOf(t, s.order.id)).seller?.status).toBe('owed');
    const link = await onboardingLinkOf(s.seller);
    expect((await submit(s.seller, link, 'restricted')).statusCode).toBe(200);
    expect((await payoutsOf(t, s.order.id)).seller?.status).toBe('owed');
    expect((await submit(s.seller, link, 'complete')).statusCode).toBe(200);
    expect((await payoutsOf(t, s.order.id)).seller?.status).toBe('paid');
  });

  it('settles what the user is owed once, after the commit, and a failure there fails nobody', async () => {
    const seller = await signedInAs(t, 'seller');
    const link = await onboardingLinkOf(seller);
    const accounts = new TestPayoutAccounts(t.database.db, {
      signingKey: Buffer.alloc(32),
      now: () => clock,
    });
    const settled: string[] = [];
    const errors: unknown[] = [];
    const deps = {
      db: t.database.db,
      accounts,
      log: { info: () => {}, warn: () => {}, error: (entry: unknown) => errors.push(entry) },
      settleOwed: async (userId: string) => {
        // The account is committed as ready before payouts look for it.
        expect(await storedOf(userId)).toEqual({ status: 'active', onboardingComplete: true });
        settled.push(userId);
        if (settled.length > 1) throw new Error('the provider is down');
      },
      testAccounts: accounts,
    };
    await recordPayoutAccount(deps, seller.id, await accounts.recordOnboarding(link.accountId, 'restricted'));
    expect(settled).toEqual([]);
    await recordPayoutAccount(deps, seller.id, await accounts.recordOnboarding(link.accountId, 'complete'));
    expect(settled).toEqual([seller.id]);
    // Already ready: not again.
    await recordPayoutAccount(deps, seller.id, await accounts.retrieveAccount(link.accountId));
    expect(settled).toEqual([seller.id]);
    // Ready again after a restriction: settled again; its failure is logged, not thrown.
    await recordPayoutAccount(deps, seller.id, await accounts.recordOnboarding(link.accountId, 'restricted'));
    await recordPayoutAccount(deps, seller.id, await accounts.recordOnboarding(link.accountId, 'complete'));
    expect(settled).toEqual([seller.id, seller.id]);
    expect(errors).toHaveLength(1);
  });

  it("stores nothing for an account that is not the user's", async () => {
    const seller = await signedInAs(t, 'seller');
    const link = await onboardingLinkOf(seller);
    const other = await signedInAs(t, 'seller');
    const accounts = new TestPayoutAccounts(t.database.db, { signingKey: Buffer.alloc(32) });
    const deps = {
      db: t.database.db,
      accounts,
      log: { info: () => {}, warn: () => {}, error: () => {} },
      settleOwed: async () => {},
      testAccounts: accounts,
    };
    await recordPayoutAccount(deps, other.id, await accounts.recordOnboarding(link.accountId, 'complete'));
    expect(await storedOf(other.id)).toEqual({ status: null, onboardingComplete: false });
  });
});
