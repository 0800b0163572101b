import { and, asc, eq, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orders, payments, payouts, refunds, users } from '../../db/schema';

export type PayoutRow = typeof payouts.$inferSelect;
export type NewPayoutRow = typeof payouts.$inferInsert;

/**
 * A payout account is ready to receive money (the contract with the payout accounts): it exists,
 * its onboarding is complete and the provider reports it active.
 */
const accountReady = sql`${users.stripeAccountId} is not null and ${users.stripeOnboardingComplete} and ${users.stripeAccountStatus} = 'active'`;

/** The ready payout account of a user, or null while it is missing, incomplete or not active. */
export async function findReadyAccount(db: Db, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ accountId: users.stripeAccountId })
    .from(users)
    .where(and(eq(users.id, userId), accountReady));
  return row?.accountId ?? null;
}

/** Which of these users have a ready payout account. */
export async function listReadyUsers(db: Db, userIds: string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, userIds), accountReady));
  return new Set(rows.map((row) => row.id));
}

/** Writes an order's payouts; a second report of the same finish finds them there and writes nothing. */
export async function insertPayouts(db: Db, rows: NewPayoutRow[]): Promise<PayoutRow[]> {
  if (rows.length === 0) return [];
  return db
    .insert(payouts)
    .values(rows)
    .onConflictDoNothing({ target: [payouts.orderId, payouts.kind] })
    .returning();
}

export async function listPayoutsOfOrder(db: Db, orderId: string): Promise<PayoutRow[]> {
  return db.select().from(payouts).where(eq(payouts.orderId, orderId)).orderBy(asc(payouts.kind));
}

/** What a transfer of an order's payout names: the buyer's charge, its transfer group and currency. */
export async function findChargeOfOrder(
  db: Db,
  orderId: string,
): Promise<
  { paymentId: string; chargeId: string | null; transferGroup: string | null; currency: string } | undefined
> {
  const [row] = await db
    .select({
      paymentId: payments.id,
      chargeId: payments.providerChargeId,
      transferGroup: payments.transferGroup,
      currency: payments.currency,
    })
    .from(orders)
    .innerJoin(payments, eq(payments.id, orders.paymentId))
    .where(eq(orders.id, orderId));
  return row;
}

/**
 * Takes a pending payout for one attempt: a conditional update on the attempt count it was read
 * with, so two workers never call the provider for it at once, and a lease so a worker that died
 * mid-call leaves it to the retry job after `leaseUntil`.
 */
export async function claimPayout(
  db: Db,
  payout: PayoutRow,
  now: Date,
  leaseUntil: Date,
): Promise<PayoutRow | undefined> {
  const [row] = await db
    .update(payouts)
    .set({
      attempts: sql`${payouts.attempts} + 1`,
      // The provider's key window is counted from the first call, however many follow it.
      firstAttemptAt: sql`coalesce(${payouts.firstAttemptAt}, ${now.toISOString()}::timestamptz)`,
      lastAttemptAt: now,
      lockedUntil: leaseUntil,
      updatedAt: now,
    })
    .where(
      and(
        eq(payouts.id, payout.id),
        eq(payouts.status, 'pending'),
        eq(payouts.attempts, payout.attempts),
        or(isNull(payouts.lockedUntil), lt(payouts.lockedUntil, now)),
      ),
    )
    .returning();
  return row;
}

export async function markPayoutPaid(
  db: Db,
  id: string,
  providerTransferId: string,
  now: Date,
): Promise<PayoutRow | undefined> {
  const [row] = await db
    .update(payouts)
    .set({
      status: 'paid',
      providerTransferId,
      paidAt: now,
      lastError: null,
      refusals: 0,
      nextAttemptAt: null,
      lockedUntil: null,
      updatedAt: now,
    })
    .where(and(eq(payouts.id, id), eq(payouts.status, 'pending')))
    .returning();
  return row;
}

/** Ends an attempt without a transfer: still pending (try again) or owed (the account is not ready). */
export async function endPayoutAttempt(
  db: Db,
  id: string,
  outcome: { status: 'pending' | 'owed'; error: string | null },
  now: Date,
): Promise<void> {
  await db
    .update(payouts)
    .set({ status: outcome.status, lastError: outcome.error, lockedUntil: null, updatedAt: now })
    .where(and(eq(payouts.id, id), eq(payouts.status, 'pending')));
}

/**
 * The provider refused the transfer: failed, to be tried again at `nextAttemptAt` while the account
 * is ready, or refused for good after `finalAfter` refusals in a row (an admin may send it again).
 */
export async function refusePayoutAttempt(
  db: Db,
  id: string,
  outcome: { error: string; backoffMs: (refusals: number) => number; finalAfter: number },
  now: Date,
): Promise<PayoutRow | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ refusals: payouts.refusals })
      .from(payouts)
      .where(and(eq(payouts.id, id), eq(payouts.status, 'pending')))
      .for('update');
    if (!row) return undefined;
    const refusals = row.refusals + 1;
    const final = refusals >= outcome.finalAfter;
    const [updated] = await tx
      .update(payouts)
      .set({
        status: final ? 'refused' : 'failed',
        refusals,
        nextAttemptAt: final ? null : new Date(now.getTime() + outcome.backoffMs(refusals)),
        lastError: outcome.error,
        lockedUntil: null,
        updatedAt: now,
      })
      .where(and(eq(payouts.id, id), eq(payouts.status, 'pending')))
      .returning();
    return updated;
  });
}

/** An admin sends a failed or refused payout again: pending, its refusals forgotten. */
export async function releaseRefusedPayout(db: Db, id: string, now: Date): Promise<PayoutRow | undefined> {
  const [row] = await db
    .update(payouts)
    .set({ status: 'pending', refusals: 0, nextAttemptAt: null, lastError: null, updatedAt: now })
    .where(
      and(
        eq(payouts.id, id),
        inArray(payouts.status, ['failed', 'refused']),
        isNull(payouts.reversalRequestedAt),
      ),
    )
    .returning();
  return row;
}

export async function findPayout(db: Db, id: string): Promise<PayoutRow | undefined> {
  const [row] = await db.select().from(payouts).where(eq(payouts.id, id));
  return row;
}

/** A failed payout whose backoff has passed (or that has none) may be tried again. */
const dueAgain = (now: Date) =>
  and(eq(payouts.status, 'failed'), or(isNull(payouts.nextAttemptAt), lte(payouts.nextAttemptAt, now)));

/**
 * Owed payouts of a user whose account is now ready, and failed ones whose backoff has passed (or
 * every failed and refused one, when the account has just become ready again), go back to pending;
 * the error is kept until a transfer is made, so the admin still sees it.
 */
export async function releaseOwedPayouts(
  db: Db,
  userId: string,
  now: Date,
  options: { includeRefused: boolean },
): Promise<PayoutRow[]> {
  return db
    .update(payouts)
    .set({
      status: 'pending',
      updatedAt: now,
      ...(options.includeRefused ? { refusals: 0, nextAttemptAt: null } : {}),
    })
    .where(
      and(
        eq(payouts.userId, userId),
        options.includeRefused
          ? inArray(payouts.status, ['owed', 'failed', 'refused'])
          : or(eq(payouts.status, 'owed'), dueAgain(now)),
        isNull(payouts.reversalRequestedAt),
      ),
    )
    .returning();
}

/**
 * The users with owed payouts, or failed ones due again, whose accounts are ready (the retry job
 * settles them).
 */
export async function listUsersOwedAndReady(db: Db, limit: number, now: Date): Promise<string[]> {
  const rows = await db
    .selectDistinct({ userId: payouts.userId })
    .from(payouts)
    .innerJoin(users, eq(users.id, payouts.userId))
    .where(
      and(or(eq(payouts.status, 'owed'), dueAgain(now)), isNull(payouts.reversalRequestedAt), accountReady),
    )
    .limit(limit);
  return rows.map((row) => row.userId);
}

/** Pending payouts of a user, oldest first. */
export async function listPendingPayoutsOfUser(db: Db, userId: string): Promise<PayoutRow[]> {
  return db
    .select()
    .from(payouts)
    .where(and(eq(payouts.userId, userId), eq(payouts.status, 'pending')))
    .orderBy(asc(payouts.createdAt), asc(payouts.id));
}

/**
 * The retry job's next page of work after (createdAt, id): pending payouts free to claim and paid
 * ones whose reversal was asked for and has not happened.
 */
export async function listUnfinishedPayouts(
  db: Db,
  after: { createdAt: Date; id: string } | null,
  now: Date,
  limit: number,
): Promise<PayoutRow[]> {
  const free = or(isNull(payouts.lockedUntil), lt(payouts.lockedUntil, now));
  return db
    .select()
    .from(payouts)
    .where(
      and(
        or(
          and(eq(payouts.status, 'pending'), free),
          and(eq(payouts.status, 'paid'), isNotNull(payouts.reversalRequestedAt), free),
        ),
        after
          ? sql`(${payouts.createdAt}, ${payouts.id}) > (${after.createdAt.toISOString()}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(asc(payouts.createdAt), asc(payouts.id))
    .limit(limit);
}

/**
 * A refund of the order takes its payouts back (inside the refund's transaction): ones that never
 * went out are cancelled; paid ones, and pending ones a worker may be paying this moment, are marked
 * for reversal.
 */
export async function markOrderPayoutsForReversal(db: Db, orderId: string, now: Date): Promise<PayoutRow[]> {
  await db
    .update(payouts)
    .set({ status: 'cancelled', lockedUntil: null, updatedAt: now })
    .where(
      and(
        eq(payouts.orderId, orderId),
        or(
          inArray(payouts.status, ['owed', 'failed', 'refused']),
          and(
            eq(payouts.status, 'pending'),
            eq(payouts.attempts, 0),
            or(isNull(payouts.lockedUntil), lt(payouts.lockedUntil, now)),
          ),
        ),
      ),
    );
  return db
    .update(payouts)
    .set({ reversalRequestedAt: now, updatedAt: now })
    .where(
      and(
        eq(payouts.orderId, orderId),
        inArray(payouts.status, ['pending', 'paid']),
        isNull(payouts.reversalRequestedAt),
      ),
    )
    .returning();
}

/** Takes a paid payout for one reversal attempt (conditional on the count it was read with). */
export async function claimReversal(
  db: Db,
  payout: PayoutRow,
  now: Date,
  leaseUntil: Date,
): Promise<PayoutRow | undefined> {
  const [row] = await db
    .update(payouts)
    .set({ reversalAttempts: sql`${payouts.reversalAttempts} + 1`, lockedUntil: leaseUntil, updatedAt: now })
    .where(
      and(
        eq(payouts.id, payout.id),
        eq(payouts.status, 'paid'),
        isNotNull(payouts.reversalRequestedAt),
        eq(payouts.reversalAttempts, payout.reversalAttempts),
        or(isNull(payouts.lockedUntil), lt(payouts.lockedUntil, now)),
      ),
    )
    .returning();
  return row;
}

export async function markPayoutReversed(
  db: Db,
  id: string,
  providerReversalId: string,
  now: Date,
): Promise<PayoutRow | undefined> {
  const [row] = await db
    .update(payouts)
    .set({
      status: 'reversed',
      providerReversalId,
      reversedAt: now,
      lastError: null,
      lockedUntil: null,
      updatedAt: now,
    })
    .where(and(eq(payouts.id, id), eq(payouts.status, 'paid')))
    .returning();
  return row;
}

export async function endReversalAttempt(db: Db, id: string, error: string, now: Date): Promise<void> {
  await db
    .update(payouts)
    .set({ lastError: error, lockedUntil: null, updatedAt: now })
    .where(and(eq(payouts.id, id), eq(payouts.status, 'paid')));
}

/** A pending payout marked for reversal that never went out is cancelled (the retry job found no transfer). */
export async function cancelUnsentPayout(db: Db, id: string, now: Date): Promise<void> {
  await db
    .update(payouts)
    .set({ status: 'cancelled', lockedUntil: null, updatedAt: now })
    .where(and(eq(payouts.id, id), eq(payouts.status, 'pending')));
}

/** Whether the order has been refunded already (refunds are unique per order). */
export async function hasRefund(db: Db, orderId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: refunds.id })
    .from(refunds)
    .where(eq(refunds.orderId, orderId))
    .limit(1);
  return row !== undefined;
}

/** A user's payouts, newest first, with their orders' numbers. */
export async function listPayoutsOfUser(db: Db, userId: string, limit: number) {
  return db
    .select({ payout: payouts, orderNumber: orders.orderNumber })
    .from(payouts)
    .innerJoin(orders, eq(orders.id, payouts.orderId))
    .where(eq(payouts.userId, userId))
    .orderBy(sql`${payouts.createdAt} desc`, sql`${payouts.id} desc`)
    .limit(limit);
}

/** A user's payouts summed per status. */
export async function sumPayoutsOfUser(
  db: Db,
  userId: string,
): Promise<Array<{ status: string; total: string }>> {
  return db
    .select({ status: payouts.status, total: sql<string>`sum(${payouts.amount})::text` })
    .from(payouts)
    .where(eq(payouts.userId, userId))
    .groupBy(payouts.status);
}

const failingColumns = {
  payout: payouts,
  orderNumber: orders.orderNumber,
  firstName: users.firstName,
  lastName: users.lastName,
};
export type FailingPayoutRow = {
  payout: PayoutRow;
  orderNumber: string;
  firstName: string | null;
  lastName: string | null;
};

/** One payout with its order's number and its party's name, as the admin's failing list shows it. */
export async function findFailingPayout(db: Db, id: string): Promise<FailingPayoutRow | undefined> {
  const [row] = await db
    .select(failingColumns)
    .from(payouts)
    .innerJoin(orders, eq(orders.id, payouts.orderId))
    .innerJoin(users, eq(users.id, payouts.userId))
    .where(eq(payouts.id, id));
  return row;
}

/** Payouts the provider refused, and pending ones whose attempts keep failing, oldest first. */
export async function listFailingPayouts(db: Db, limit: number): Promise<FailingPayoutRow[]> {
  return db
    .select(failingColumns)
    .from(payouts)
    .innerJoin(orders, eq(orders.id, payouts.orderId))
    .innerJoin(users, eq(users.id, payouts.userId))
    .where(
      or(
        inArray(payouts.status, ['failed', 'refused']),
        and(inArray(payouts.status, ['pending', 'paid']), isNotNull(payouts.lastError)),
      ),
    )
    .orderBy(asc(payouts.createdAt), asc(payouts.id))
    .limit(limit);
}

/** What is owed to sellers and drivers and not sent yet. */
export async function sumUnsentPayouts(db: Db): Promise<string> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${payouts.amount}), 0)::text` })
    .from(payouts)
    .where(
      and(
        inArray(payouts.status, ['owed', 'pending', 'failed', 'refused']),
        isNull(payouts.reversalRequestedAt),
      ),
    );
  return row?.total ?? '0';
}
