import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import type { PayoutAccount } from '../../adapters/payouts/payout-provider';
import { isPayoutAccountReady } from '../../../domain/payout-accounts';
import type { Role } from '../../../domain/roles';

export type UserRow = typeof users.$inferSelect;

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0];
}

/** The row locked until the transaction ends (an admin's role change reads it before changing it). */
export async function findUserForUpdate(tx: Db, id: string): Promise<UserRow | undefined> {
  const rows = await tx.select().from(users).where(eq(users.id, id)).limit(1).for('update');
  return rows[0];
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const rows = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return rows[0];
}

export async function findUserByOidcIdentity(
  db: Db,
  issuer: string,
  subject: string,
): Promise<UserRow | undefined> {
  const rows = await db
    .select()
    .from(users)
    .where(sql`${users.oidcIssuer} = ${issuer} and ${users.oidcSubject} = ${subject}`)
    .limit(1);
  return rows[0];
}

export async function insertUser(
  db: Db,
  values: Pick<
    typeof users.$inferInsert,
    'email' | 'firstName' | 'lastName' | 'oidcIssuer' | 'oidcSubject' | 'profileImageUrl' | 'emailVerifiedAt'
  >,
): Promise<UserRow> {
  const rows = await db.insert(users).values(values).returning();
  const row = rows[0];
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function updateUser(
  db: Db,
  id: string,
  values: Partial<
    Pick<
      UserRow,
      | 'firstName'
      | 'lastName'
      | 'email'
      | 'role'
      | 'roles'
      | 'oidcIssuer'
      | 'oidcSubject'
      | 'isVerified'
      | 'emailVerifiedAt'
    >
  >,
): Promise<UserRow | undefined> {
  const rows = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return rows[0];
}

/** Adds a role to the granted set, atomically and without duplicates; optionally makes it current. */
export async function grantRole(
  db: Db,
  id: string,
  role: Role,
  makeCurrent: boolean,
): Promise<UserRow | undefined> {
  const rows = await db
    .update(users)
    .set({
      roles: sql`case when ${role} = any(${users.roles}) then ${users.roles} else array_append(${users.roles}, ${role}::text) end`,
      ...(makeCurrent ? { role } : {}),
      updatedAt: new Date(),
    })
    .where(eq(users.id, id))
    .returning();
  return rows[0];
}

/**
 * Takes a role away (never buyer): out of the granted set and into the withheld ones, and the
 * current role falls back to buyer when it was that one; in one statement.
 */
export async function removeRole(db: Db, id: string, role: Role): Promise<UserRow | undefined> {
  const rows = await db
    .update(users)
    .set({
      roles: sql`array_remove(${users.roles}, ${role}::text)`,
      role: sql`case when ${users.role} = ${role} then 'buyer' else ${users.role} end`,
      withheldRoles: sql`case when ${role} = any(${users.withheldRoles}) then ${users.withheldRoles} else array_append(${users.withheldRoles}, ${role}::text) end`,
      updatedAt: new Date(),
    })
    .where(eq(users.id, id))
    .returning();
  return rows[0];
}

/** An admin gave a role back: the user may also take it again by themself. */
export async function releaseWithheldRole(db: Db, id: string, role: Role): Promise<void> {
  await db
    .update(users)
    .set({ withheldRoles: sql`array_remove(${users.withheldRoles}, ${role}::text)` })
    .where(eq(users.id, id));
}

/**
 * How many users hold the admin role, their rows locked until the transaction ends: two admins
 * taking the role from each other at once queue up, and the second sees the first's change.
 */
export async function countAdminsForUpdate(tx: Db): Promise<number> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(sql`'admin' = any(${users.roles})`)
    .orderBy(users.id)
    .for('update');
  return rows.length;
}

/** Suspends (a time) or restores (null) a user. */
export async function setSuspendedAt(
  db: Db,
  id: string,
  suspendedAt: Date | null,
): Promise<UserRow | undefined> {
  const rows = await db
    .update(users)
    .set({ suspendedAt, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return rows[0];
}

/**
 * Turns two-factor sign-in on (a time) or off (null) on the user's row
 * (docs/decisions/0024-two-factor-sign-in.md); the auth module keeps the secret and the codes.
 */
export async function setTwoFactorEnabledAt(
  db: Db,
  id: string,
  enabledAt: Date | null,
): Promise<UserRow | undefined> {
  const rows = await db
    .update(users)
    .set({ twoFactorEnabledAt: enabledAt, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return rows[0];
}

/** Sets the current role only when it is one of the granted roles (checked in the same statement). */
export async function setCurrentRole(db: Db, id: string, role: Role): Promise<UserRow | undefined> {
  const rows = await db
    .update(users)
    .set({ role, updatedAt: new Date() })
    .where(sql`${users.id} = ${id} and ${role} = any(${users.roles})`)
    .returning();
  return rows[0];
}

/** Approves a driver or takes the approval back (an admin's decision, docs/rules/known-differences.md, Admin). */
export async function setUserVerified(tx: Db, id: string, isVerified: boolean, now: Date): Promise<void> {
  // An approval is a review of the documents on file: they are no longer "changed".
  await tx
    .update(users)
    .set({ isVerified, updatedAt: now, ...(isVerified ? { documentsChangedAt: null } : {}) })
    .where(eq(users.id, id));
}

/**
 * A verified driver who replaced a document goes back to review (docs/rules/deliveries.md,
 * Deliveries): one conditional statement, so only a driver verified at that moment is changed.
 * Answers the row when it was.
 */
export async function sendDriverBackToReview(tx: Db, id: string, now: Date): Promise<UserRow | undefined> {
  const rows = await tx
    .update(users)
    .set({ isVerified: false, documentsChangedAt: now, updatedAt: now })
    .where(and(eq(users.id, id), eq(users.isVerified, true)))
    .returning();
  return rows[0];
}

export type UserImageField = 'profileImageUrl' | 'vehicleImageUrl' | 'licenseImageUrl' | 'trailerImageUrl';

export async function setUserImage(
  db: Db,
  userId: string,
  field: UserImageField,
  objectPath: string,
): Promise<UserRow | undefined> {
  const values: Partial<Record<UserImageField, string>> = { [field]: objectPath };
  const rows = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning();
  return rows[0];
}

// Payout accounts are kept on the user's row (docs/rules/money.md, Payout accounts).

/** A user's payout account as stored on the user (docs/rules/money.md, Payout accounts). */
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
      wasReady: isPayoutAccountReady(row),
      isReady: isPayoutAccountReady(account),
    };
  });
}
