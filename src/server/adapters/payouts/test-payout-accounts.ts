import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { testPayoutAccounts } from '../../db/schema';
import { UnknownPayoutAccountError } from './payout-account-errors';
import type { PayoutAccount, PayoutAccounts } from './payout-provider';

/** What the person chose on the simulated onboarding page (docs/rules/money.md, Payout accounts). */
export type TestOnboardingOutcome = 'complete' | 'incomplete' | 'restricted';

export interface TestPayoutAccountsOptions {
  /** The server's signing key (AppContext.signingKey); the link key is derived from it. */
  signingKey: Buffer;
  /** The clock; links expire. */
  now?: () => Date;
}

/** An onboarding link is good for an hour, as a link is short-lived at Stripe (minutes there). */
const LINK_LIFETIME_MS = 60 * 60 * 1000;

/** The onboarding page and the dashboard page of this server (src/web/app/routes). */
export const TEST_ONBOARDING_PATH = '/payouts/test-onboarding/';
export const TEST_DASHBOARD_PATH = '/payouts/test-dashboard/';

const linkPayloadSchema = z.object({
  accountId: z.string(),
  returnUrl: z.string(),
  refreshUrl: z.string(),
  expiresAt: z.number().int(),
});

export type TestOnboardingLink = z.infer<typeof linkPayloadSchema>;

export type TestLinkCheck = { result: 'valid'; link: TestOnboardingLink } | { result: 'invalid' | 'expired' };

export interface TestPayoutAccountRow {
  accountId: string;
  userId: string;
  email: string;
  account: PayoutAccount;
  updatedAt: Date;
}

function toPayoutAccount(accountId: string, state: string): PayoutAccount {
  switch (state) {
    case 'complete':
      return {
        accountId,
        onboardingComplete: true,
        status: 'active',
        chargesEnabled: true,
        payoutsEnabled: true,
      };
    case 'restricted':
      // Details were given but the simulated review found a problem: nothing may be paid out.
      return {
        accountId,
        onboardingComplete: true,
        status: 'restricted',
        chargesEnabled: false,
        payoutsEnabled: false,
      };
    default:
      return {
        accountId,
        onboardingComplete: false,
        status: 'pending',
        chargesEnabled: false,
        payoutsEnabled: false,
      };
  }
}

/**
 * The built-in payout provider (docs/rules/money.md, Payout accounts): a simulated connected
 * account per user, kept in `test_payout_accounts`. Its onboarding link opens a page of this server
 * where the user completes the account, leaves it incomplete or has it restricted; the link carries a
 * signed token (account, where to return, expiry), and the page also wants the account's own user
 * signed in, so nobody else can finish someone's onboarding.
 */
export class TestPayoutAccounts implements PayoutAccounts {
  private readonly linkKey: Buffer;
  private readonly now: () => Date;

  constructor(
    private readonly db: Db,
    options: TestPayoutAccountsOptions,
  ) {
    // Derived, so an onboarding token never doubles as another signature of the server.
    this.linkKey = crypto
      .createHmac('sha256', options.signingKey)
      .update('test payout onboarding link v1')
      .digest();
    this.now = options.now ?? (() => new Date());
  }

  /** One account per user: a second call (or a racing one) answers the account made first. */
  async createAccount(input: { userId: string; email: string }): Promise<{ accountId: string }> {
    await this.db
      .insert(testPayoutAccounts)
      .values({
        id: `tacct_${crypto.randomBytes(12).toString('hex')}`,
        userId: input.userId,
        email: input.email,
      })
      .onConflictDoNothing({ target: testPayoutAccounts.userId });
    const rows = await this.db
      .select({ id: testPayoutAccounts.id })
      .from(testPayoutAccounts)
      .where(eq(testPayoutAccounts.userId, input.userId))
      .limit(1);
    const row = rows[0];
    if (!row) throw new Error(`The test payout account of user ${input.userId} was not stored`);
    return { accountId: row.id };
  }

  async retrieveAccount(accountId: string): Promise<PayoutAccount> {
    const row = await this.findAccount(accountId);
    if (!row) throw new UnknownPayoutAccountError(accountId);
    return row.account;
  }

  /** A page of this server, on the origin the user returns to. */
  async createOnboardingLink(input: {
    accountId: string;
    returnUrl: string;
    refreshUrl: string;
  }): Promise<{ url: string }> {
    if (!(await this.findAccount(input.accountId))) throw new UnknownPayoutAccountError(input.accountId);
    const payload: TestOnboardingLink = { ...input, expiresAt: this.now().getTime() + LINK_LIFETIME_MS };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    const url = new URL(`${TEST_ONBOARDING_PATH}${encodeURIComponent(input.accountId)}`, input.returnUrl);
    url.searchParams.set('token', `${body}.${this.sign(body)}`);
    return { url: url.toString() };
  }

  /** The simulated account's page of this server; it shows the account to its own user only. */
  async createDashboardLink(accountId: string): Promise<{ url: string }> {
    if (!(await this.findAccount(accountId))) throw new UnknownPayoutAccountError(accountId);
    return { url: `${TEST_DASHBOARD_PATH}${encodeURIComponent(accountId)}` };
  }

  /** Checks an onboarding token: the signature first, then that it names this account, then its age. */
  checkOnboardingToken(accountId: string, token: string): TestLinkCheck {
    const [body, signature, extra] = token.split('.');
    if (!body || !signature || extra !== undefined) return { result: 'invalid' };
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected))
      return { result: 'invalid' };
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      return { result: 'invalid' };
    }
    const link = linkPayloadSchema.safeParse(decoded);
    if (!link.success || link.data.accountId !== accountId) return { result: 'invalid' };
    if (link.data.expiresAt < this.now().getTime()) return { result: 'expired' };
    return { result: 'valid', link: link.data };
  }

  async findAccount(accountId: string): Promise<TestPayoutAccountRow | undefined> {
    const rows = await this.db
      .select()
      .from(testPayoutAccounts)
      .where(eq(testPayoutAccounts.id, accountId))
      .limit(1);
    const row = rows[0];
    if (!row) return undefined;
    return {
      accountId: row.id,
      userId: row.userId,
      email: row.email,
      account: toPayoutAccount(row.id, row.state),
      updatedAt: row.updatedAt,
    };
  }

  /** What the onboarding page records: the simulated account's new state. */
  async recordOnboarding(accountId: string, outcome: TestOnboardingOutcome): Promise<PayoutAccount> {
    const rows = await this.db
      .update(testPayoutAccounts)
      .set({ state: outcome, updatedAt: sql`now()` })
      .where(eq(testPayoutAccounts.id, accountId))
      .returning({ id: testPayoutAccounts.id, state: testPayoutAccounts.state });
    const row = rows[0];
    if (!row) throw new Error(`Unknown test payout account ${accountId}`);
    return toPayoutAccount(row.id, row.state);
  }

  private sign(body: string): string {
    return crypto.createHmac('sha256', this.linkKey).update(body).digest('base64url');
  }
}
