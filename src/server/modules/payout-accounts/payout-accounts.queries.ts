import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import type { PayoutAccount } from '../../adapters/payouts/payout-provider';

/** A user's payout account as stored on the user (docs/product-rules.md, Payout accounts). */
export interface StoredPayoutAccount {
  userId: string;
  email: string;
  accountId: string | null;
  status: string | null;
  onboardingComplete: boolean;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
}

const storedColumns = {
  userId: users.id,
  email: users.email,
  accountId: users.stripeAccountId,
  status: users.stripeAccountStatus,
  onboardingComplete: users.stripeOnboardingComplete,
  chargesEnabled: users.chargesEnabled,
  payoutsEnabled: users.payoutsEnabled,
};

export async function findStoredPayoutAccount(
  db: Db,
  userId: string,
): Promise<StoredPayoutAccount | undefined> {
  const rows = await db.select(storedColumns).from(users).where(eq(users.id, userId)).limit(1);
  return rows[0];
}

export async function findUserIdByPayoutAccount(db: Db, accountId: string): Promise<string | undefined> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.stripeAccountId, accountId))
    .limit(1);
  return rows[0]?.id;
}

/**
 * Keeps the provider's account on the user unless one is there already (a racing request stored
 * it first); answers whether this call stored it.
 */
export async function attachPayoutAccount(db: Db, userId: string, accountId: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({
      stripeAccountId: accountId,
      stripeAccountStatus: 'pending',
      stripeOnboardingComplete: false,
      chargesEnabled: false,
      payoutsEnabled: false,
      updatedAt: sql`now()`,
    })
    .where(and(eq(users.id, userId), isNull(users.stripeAccountId)))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** The contract with payouts (docs/product-rules.md, Payout accounts): what makes an account ready. */
export function isReady(
  stored: Pick<StoredPayoutAccount, 'accountId' | 'status' | 'onboardingComplete'>,
): boolean {
  return stored.accountId !== null && stored.onboardingComplete && stored.status === 'active';
}

/**
 * Stores what the provider says of the user's account, in one transaction with the row locked, and
 * answers whether the account was ready before and is now. Nothing is stored when the user's
 * account is another one by now.
 */
export async function storePayoutAccountState(
  db: Db,
  userId: string,
  account: PayoutAccount,
): Promise<{ wasReady: boolean; isReady: boolean } | undefined> {
  return db.transaction(async (tx) => {
    const before = await tx
      .select(storedColumns)
      .from(users)
      .where(eq(users.id, userId))
      .limit(1)
      .for('update');
    const row = before[0];
    if (!row || row.accountId !== account.accountId) return undefined;
    await tx
      .update(users)
      .set({
        stripeAccountStatus: account.status,
        stripeOnboardingComplete: account.onboardingComplete,
        chargesEnabled: account.chargesEnabled,
        payoutsEnabled: account.payoutsEnabled,
        updatedAt: sql`now()`,
      })
      .where(eq(users.id, userId));
    return {
      wasReady: isReady(row),
      isReady: isReady(account),
    };
  });
}
