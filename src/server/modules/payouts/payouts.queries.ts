import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows-of';
import { disputes, ledgerEntries, orders, payments, payoutReversals, payouts, users } from '../../db/schema';

export type PayoutRow = typeof payouts.$inferSelect;
export type NewPayoutRow = typeof payouts.$inferInsert;
export type PayoutReversalRow = typeof payoutReversals.$inferSelect;

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
        or(isNull(payouts.heldUntil), lte(payouts.heldUntil, now)),
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
      isUncertain: false,
      updatedAt: now,
    })
    .where(and(eq(payouts.id, id), eq(payouts.status, 'pending')))
    .returning();
  return row;
}

/**
 * Ends an attempt without a transfer: still pending (try again; its answer was lost, so the transfer
 * may exist) or owed (the account is not ready; no call was made).
 */
export async function endPayoutAttempt(
  db: Db,
  id: string,
  outcome: { status: 'pending'; error: string } | { status: 'owed'; error: null },
  now: Date,
): Promise<void> {
  await db
    .update(payouts)
    .set({
      status: outcome.status,
      lastError: outcome.error,
      lockedUntil: null,
      ...(outcome.status === 'pending' ? { isUncertain: true } : {}),
      updatedAt: now,
    })
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
        // Nothing was made under this key, and Stripe answers the refusal to it again: a new key, whose
        // window starts with its first use (docs/decisions/0022-money-in-combinations.md).
        keyGeneration: sql`${payouts.keyGeneration} + 1`,
        firstAttemptAt: null,
        isUncertain: false,
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
    .where(and(eq(payouts.id, id), inArray(payouts.status, ['failed', 'refused']), gt(payouts.amount, '0')))
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
        gt(payouts.amount, '0'),
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
    .where(and(or(eq(payouts.status, 'owed'), dueAgain(now)), gt(payouts.amount, '0'), accountReady))
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
 * The retry job's next page of pending payouts after (createdAt, id): free to claim and past their
 * hold (docs/decisions/0018-money-against-stripe.md, Refunds).
 */
export async function listUnfinishedPayouts(
  db: Db,
  after: { createdAt: Date; id: string } | null,
  now: Date,
  limit: number,
): Promise<PayoutRow[]> {
  return db
    .select()
    .from(payouts)
    .where(
      and(
        eq(payouts.status, 'pending'),
        or(isNull(payouts.lockedUntil), lt(payouts.lockedUntil, now)),
        or(isNull(payouts.heldUntil), lte(payouts.heldUntil, now)),
        after
          ? sql`(${payouts.createdAt}, ${payouts.id}) > (${after.createdAt.toISOString()}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(asc(payouts.createdAt), asc(payouts.id))
    .limit(limit);
}

/** The retry job's next page of reversals still to make: pending, of a paid payout, free to claim. */
export async function listPendingReversals(
  db: Db,
  after: { createdAt: Date; id: string } | null,
  now: Date,
  limit: number,
): Promise<PayoutReversalRow[]> {
  const rows = await db
    .select({ reversal: payoutReversals })
    .from(payoutReversals)
    .innerJoin(payouts, eq(payouts.id, payoutReversals.payoutId))
    .where(
      and(
        eq(payoutReversals.status, 'pending'),
        eq(payouts.status, 'paid'),
        or(isNull(payoutReversals.lockedUntil), lt(payoutReversals.lockedUntil, now)),
        after
          ? sql`(${payoutReversals.createdAt}, ${payoutReversals.id}) > (${after.createdAt.toISOString()}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(asc(payoutReversals.createdAt), asc(payoutReversals.id))
    .limit(limit);
  return rows.map((row) => row.reversal);
}

/** The order's money figures a take-back splits, its row locked so two take-backs run one after the other. */
export async function lockOrderMoney(db: Db, orderId: string) {
  const [row] = await db
    .select({
      id: orders.id,
      total: orders.total,
      sellerEarnings: orders.sellerEarnings,
      driverEarnings: orders.driverEarnings,
      platformFee: orders.platformFee,
    })
    .from(orders)
    .where(eq(orders.id, orderId))
    .for('update');
  return row;
}

/**
 * The states of a take-back that still take its share: reduced, to reverse, reversed or lost. An
 * undone one (its refund failed) no longer does (docs/decisions/0022-money-in-combinations.md).
 */
export const TAKING_STATES = ['pending', 'reversed', 'unrecovered', 'cancelled'] as const;

/** What has been taken back from each payout of the order so far (undone take-backs aside), as numeric text. */
export async function sumTakenBackByPayout(db: Db, orderId: string): Promise<Map<string, string>> {
  const rows = await db
    .select({ payoutId: payoutReversals.payoutId, total: sql<string>`sum(${payoutReversals.amount})::text` })
    .from(payoutReversals)
    .innerJoin(payouts, eq(payouts.id, payoutReversals.payoutId))
    .where(and(eq(payouts.orderId, orderId), inArray(payoutReversals.status, [...TAKING_STATES])))
    .groupBy(payoutReversals.payoutId);
  return new Map(rows.map((row) => [row.payoutId, row.total]));
}

/**
 * Takes a share back from a payout that has not gone out (owed, failed, refused, or pending and not
 * being paid): its amount is reduced, and cancelled when nothing is left. Conditional on the state
 * it was read in, so a worker that claimed it meanwhile wins and the share is reversed instead.
 */
export async function reduceUnsentPayout(
  db: Db,
  payout: PayoutRow,
  share: string,
  now: Date,
): Promise<PayoutRow | undefined> {
  const [row] = await db
    .update(payouts)
    .set({
      amount: sql`${payouts.amount} - ${share}::numeric`,
      status: sql`case when ${payouts.amount} - ${share}::numeric = 0 then 'cancelled' else ${payouts.status} end`,
      updatedAt: now,
    })
    .where(
      and(
        eq(payouts.id, payout.id),
        sql`${payouts.amount} >= ${share}::numeric`,
        // A transfer whose answer was lost may exist: never reduced
        // (docs/decisions/0022-money-in-combinations.md).
        eq(payouts.isUncertain, false),
        or(
          inArray(payouts.status, ['owed', 'failed', 'refused']),
          and(eq(payouts.status, 'pending'), or(isNull(payouts.lockedUntil), lt(payouts.lockedUntil, now))),
        ),
      ),
    )
    .returning();
  return row;
}

export async function insertPayoutReversal(
  db: Db,
  row: typeof payoutReversals.$inferInsert,
): Promise<PayoutReversalRow | undefined> {
  const [inserted] = await db.insert(payoutReversals).values(row).onConflictDoNothing().returning();
  return inserted;
}

export async function listPendingReversalsOfPayout(db: Db, payoutId: string): Promise<PayoutReversalRow[]> {
  return db
    .select()
    .from(payoutReversals)
    .where(and(eq(payoutReversals.payoutId, payoutId), eq(payoutReversals.status, 'pending')))
    .orderBy(asc(payoutReversals.createdAt), asc(payoutReversals.id));
}

/**
 * Takes a reversal for one attempt (conditional on the count it was read with), counting its first
 * attempt: a `pending` one to reverse, or a `restoring` share to transfer back.
 */
export async function claimPayoutReversal(
  db: Db,
  reversal: PayoutReversalRow,
  now: Date,
  leaseUntil: Date,
  status: 'pending' | 'restoring' = 'pending',
): Promise<PayoutReversalRow | undefined> {
  const [row] = await db
    .update(payoutReversals)
    .set({
      attempts: sql`${payoutReversals.attempts} + 1`,
      firstAttemptAt: sql`coalesce(${payoutReversals.firstAttemptAt}, ${now.toISOString()}::timestamptz)`,
      lastAttemptAt: now,
      lockedUntil: leaseUntil,
      updatedAt: now,
    })
    .where(
      and(
        eq(payoutReversals.id, reversal.id),
        eq(payoutReversals.status, status),
        eq(payoutReversals.attempts, reversal.attempts),
        or(isNull(payoutReversals.lockedUntil), lt(payoutReversals.lockedUntil, now)),
      ),
    )
    .returning();
  return row;
}

/** Ends a reversal: made (`reversed`) or refused for good (`unrecovered`, the platform bears it). */
export async function endPayoutReversal(
  db: Db,
  id: string,
  outcome: { status: 'reversed'; providerReversalId: string } | { status: 'unrecovered'; error: string },
  now: Date,
): Promise<PayoutReversalRow | undefined> {
  const [row] = await db
    .update(payoutReversals)
    .set(
      outcome.status === 'reversed'
        ? {
            status: 'reversed',
            providerReversalId: outcome.providerReversalId,
            reversedAt: now,
            lastError: null,
            lockedUntil: null,
            updatedAt: now,
          }
        : { status: 'unrecovered', lastError: outcome.error, lockedUntil: null, updatedAt: now },
    )
    .where(and(eq(payoutReversals.id, id), eq(payoutReversals.status, 'pending')))
    .returning();
  if (row || outcome.status !== 'reversed') return row;
  // Its refund failed while the reversal was on its way: the money came back all the same and
  // goes out again (docs/decisions/0022-money-in-combinations.md, A refund that fails).
  const [voided] = await db
    .update(payoutReversals)
    .set({
      status: 'restoring',
      providerReversalId: outcome.providerReversalId,
      reversedAt: now,
      lastError: null,
      lockedUntil: null,
      attempts: 0,
      firstAttemptAt: null,
      updatedAt: now,
    })
    .where(and(eq(payoutReversals.id, id), eq(payoutReversals.status, 'void')))
    .returning();
  return voided;
}

/** An attempt that did not reach an answer (network, provider 5xx): the retry job tries again. */
export async function endReversalAttempt(db: Db, id: string, error: string, now: Date): Promise<void> {
  await db
    .update(payoutReversals)
    .set({ lastError: error, lockedUntil: null, updatedAt: now })
    .where(and(eq(payoutReversals.id, id), eq(payoutReversals.status, 'pending')));
}

/** A paid payout whose reversals took all of it back becomes reversed. */
export async function markPayoutReversedWhenWhole(
  db: Db,
  payoutId: string,
  providerReversalId: string,
  now: Date,
): Promise<void> {
  await db
    .update(payouts)
    .set({ status: 'reversed', providerReversalId, reversedAt: now, lastError: null, updatedAt: now })
    .where(
      and(
        eq(payouts.id, payoutId),
        eq(payouts.status, 'paid'),
        sql`${payouts.amount} = (select coalesce(sum(${payoutReversals.amount}), 0) from ${payoutReversals} where ${payoutReversals.payoutId} = ${payoutId} and ${payoutReversals.status} = 'reversed')`,
      ),
    );
}

/**
 * A pending payout whose pending reversals take all of it, and whose transfer was never made: the
 * reversals become cancelled (nothing moved) and the payout is cancelled with nothing left.
 */
export async function cancelUnsentPayout(db: Db, id: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(payoutReversals)
      .set({ status: 'cancelled', lockedUntil: null, updatedAt: now })
      .where(and(eq(payoutReversals.payoutId, id), eq(payoutReversals.status, 'pending')));
    await tx
      .update(payouts)
      .set({ amount: '0', status: 'cancelled', lockedUntil: null, updatedAt: now })
      .where(and(eq(payouts.id, id), eq(payouts.status, 'pending')));
  });
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

/** What the payout's shares refused for good would give back (null when none is). */
const refusedShareSql = sql<
  string | null
>`(select sum(r.amount)::text from payout_reversals r where r.payout_id = ${payouts.id} and r.status = 'refused')`;
const failingColumns = {
  payout: payouts,
  orderNumber: orders.orderNumber,
  firstName: users.firstName,
  lastName: users.lastName,
  refusedShare: refusedShareSql,
  refusedShareError: sql<
    string | null
  >`(select r.last_error from payout_reversals r where r.payout_id = ${payouts.id} and r.status in ('refused','restoring') and r.last_error is not null order by r.updated_at desc limit 1)`,
};
export type FailingPayoutRow = {
  payout: PayoutRow;
  orderNumber: string;
  firstName: string | null;
  lastName: string | null;
  refusedShare: string | null;
  refusedShareError: string | null;
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
        isNotNull(refusedShareSql),
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
    .where(inArray(payouts.status, ['owed', 'pending', 'failed', 'refused']));
  return row?.total ?? '0';
}

/** Shares the provider refused to give back (unrecovered): losses the platform bore, newest first. */
export async function listReversalLosses(db: Db, limit: number) {
  return db
    .select({
      reversal: payoutReversals,
      orderId: payouts.orderId,
      kind: payouts.kind,
      orderNumber: orders.orderNumber,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(payoutReversals)
    .innerJoin(payouts, eq(payouts.id, payoutReversals.payoutId))
    .innerJoin(orders, eq(orders.id, payouts.orderId))
    .innerJoin(users, eq(users.id, payouts.userId))
    .where(eq(payoutReversals.status, 'unrecovered'))
    .orderBy(sql`${payoutReversals.updatedAt} desc`, sql`${payoutReversals.id} desc`)
    .limit(limit);
}

/** What reversals took back from a user's transferred payouts, as numeric text. */
export async function sumReversedOfUser(db: Db, userId: string): Promise<string> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${payoutReversals.amount}), 0)::text` })
    .from(payoutReversals)
    .innerJoin(payouts, eq(payouts.id, payoutReversals.payoutId))
    .where(and(eq(payouts.userId, userId), eq(payoutReversals.status, 'reversed')));
  return row?.total ?? '0';
}

/** The take-backs a refund made, each with its payout as it stands now, the rows locked. */
export async function lockTakeBacksOfRefund(db: Db, refundId: string) {
  return db
    .select({ reversal: payoutReversals, payout: payouts })
    .from(payoutReversals)
    .innerJoin(payouts, eq(payouts.id, payoutReversals.payoutId))
    .where(eq(payoutReversals.refundId, refundId))
    .orderBy(asc(payoutReversals.createdAt), asc(payoutReversals.id))
    .for('update');
}

/** The take-backs a lost dispute made from one order's payouts, locked (its prevention refund failed). */
export async function lockTakeBacksOfDispute(db: Db, disputeId: string, orderId: string) {
  return db
    .select({ reversal: payoutReversals, payout: payouts })
    .from(payoutReversals)
    .innerJoin(payouts, eq(payouts.id, payoutReversals.payoutId))
    .where(and(eq(payoutReversals.disputeId, disputeId), eq(payouts.orderId, orderId)))
    .orderBy(asc(payoutReversals.createdAt), asc(payoutReversals.id))
    .for('update');
}

/** Sets a take-back's state when its refund is undone (docs/decisions/0022-money-in-combinations.md). */
export async function setTakeBackState(
  db: Db,
  id: string,
  status: 'void' | 'restoring',
  now: Date,
): Promise<void> {
  await db
    .update(payoutReversals)
    .set({ status, lockedUntil: null, attempts: 0, firstAttemptAt: null, lastError: null, updatedAt: now })
    .where(eq(payoutReversals.id, id));
}

/**
 * Gives a reduced share back to a payout that has not gone out (its refund failed): the amount grows
 * again and a payout cancelled for nothing left is pending again. Answers false when the payout went
 * out (or is going out) meanwhile: the share must then be transferred.
 */
export async function restoreUnsentPayout(
  db: Db,
  payoutId: string,
  share: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(payouts)
    .set({
      amount: sql`${payouts.amount} + ${share}::numeric`,
      status: sql`case when ${payouts.status} = 'cancelled' then 'pending' else ${payouts.status} end`,
      updatedAt: now,
    })
    .where(
      and(
        eq(payouts.id, payoutId),
        isNull(payouts.providerTransferId),
        or(
          inArray(payouts.status, ['owed', 'failed', 'refused', 'cancelled']),
          and(eq(payouts.status, 'pending'), or(isNull(payouts.lockedUntil), lt(payouts.lockedUntil, now))),
        ),
      ),
    )
    .returning({ id: payouts.id });
  return rows.length > 0;
}

/**
 * A payout that went out at a reduced amount, or whose share was reversed, owes that share again: its
 * amount grows by a reduction given back, and a payout reversed in whole is paid again.
 */
export async function reopenPaidPayout(
  db: Db,
  payoutId: string,
  addToAmount: string,
  now: Date,
): Promise<void> {
  await db
    .update(payouts)
    .set({
      amount: sql`${payouts.amount} + ${addToAmount}::numeric`,
      status: sql`case when ${payouts.status} = 'reversed' then 'paid' else ${payouts.status} end`,
      updatedAt: now,
    })
    .where(eq(payouts.id, payoutId));
}

/** The retry job's next page of shares to transfer back (their refund failed), free to claim. */
export async function listRestoringShares(
  db: Db,
  after: { createdAt: Date; id: string } | null,
  now: Date,
  limit: number,
) {
  return db
    .select({ reversal: payoutReversals, payout: payouts })
    .from(payoutReversals)
    .innerJoin(payouts, eq(payouts.id, payoutReversals.payoutId))
    .where(
      and(
        eq(payoutReversals.status, 'restoring'),
        or(isNull(payoutReversals.lockedUntil), lt(payoutReversals.lockedUntil, now)),
        // A reduction given back to a payout still being sent waits until it is paid.
        inArray(payouts.status, ['paid', 'reversed']),
        after
          ? sql`(${payoutReversals.createdAt}, ${payoutReversals.id}) > (${after.createdAt.toISOString()}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(asc(payoutReversals.createdAt), asc(payoutReversals.id))
    .limit(limit);
}

/** Ends an attempt to transfer a share back: made (`restored`), or not (tried again after `retryAt`). */
export async function endRestoringShare(
  db: Db,
  id: string,
  outcome: { restored: true; transferId: string } | { restored: false; error: string; retryAt: Date | null },
  now: Date,
): Promise<PayoutReversalRow | undefined> {
  const [row] = await db
    .update(payoutReversals)
    .set(
      outcome.restored
        ? {
            status: 'restored',
            restoreTransferId: outcome.transferId,
            lastError: null,
            lockedUntil: null,
            updatedAt: now,
          }
        : { lastError: outcome.error, lockedUntil: outcome.retryAt, updatedAt: now },
    )
    .where(and(eq(payoutReversals.id, id), eq(payoutReversals.status, 'restoring')))
    .returning();
  return row;
}

/**
 * The transfers a paid payout made, with what each moved, and what reversals took or hold of each
 * (docs/decisions/0022-money-in-combinations.md, A refund that fails): the payout's own transfer
 * (the ledger's `transfer`), then each transfer that gave a share back (`restore_transfer`).
 */
export async function listTransfersWithRoom(
  db: Db,
  payout: { id: string; providerTransferId: string | null },
  exceptReversalId: string,
): Promise<Array<{ transferId: string; room: number }>> {
  if (!payout.providerTransferId) return [];
  const own = payout.providerTransferId;
  const rows = await rowsOf<{ transfer_id: string; moved: string; taken: string }>(
    db,
    sql`
    with moved as (
      select ${own}::text as transfer_id,
        coalesce((select sum(amount) from ledger_entries where payout_id = ${payout.id} and kind = 'transfer'), 0) as amount,
        0 as position
      union all
      select restore_transfer_id, amount, 1 from payout_reversals
        where payout_id = ${payout.id} and status = 'restored' and restore_transfer_id is not null
    ),
    taken as (
      select coalesce(provider_transfer_id, ${own}) as transfer_id, sum(amount) as amount from payout_reversals
        where payout_id = ${payout.id} and id <> ${exceptReversalId}::uuid
          and (status in ('reversed','restoring','restored') or (status = 'pending' and provider_transfer_id is not null))
        group by 1
    )
    select moved.transfer_id, moved.amount::text as moved, coalesce(taken.amount, 0)::text as taken
      from moved left join taken on taken.transfer_id = moved.transfer_id
      order by moved.position, moved.transfer_id`,
  );
  return rows.map((row) => ({
    transferId: row.transfer_id,
    room: Math.round(Number(row.moved) * 100) - Math.round(Number(row.taken) * 100),
  }));
}

/** Records which transfer a reversal takes from, before its first call (its key then always names the same transfer). */
export async function setReversalTransfer(db: Db, id: string, transferId: string): Promise<void> {
  await db
    .update(payoutReversals)
    .set({ providerTransferId: transferId })
    .where(and(eq(payoutReversals.id, id), isNull(payoutReversals.providerTransferId)));
}

/**
 * Does a dispute on the order's payment hold its payouts: one not closed yet, or one lost (or
 * prevented, `isDisputeLost`) whose share has not been taken back from the sellers and drivers yet.
 */
export async function findHoldingDispute(db: Db, orderId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: disputes.id })
    .from(disputes)
    .innerJoin(orders, eq(orders.paymentId, disputes.paymentId))
    .where(
      and(
        eq(orders.id, orderId),
        or(
          sql`${disputes.status} not in ('won','lost','warning_closed','prevented')`,
          and(inArray(disputes.status, ['lost', 'prevented']), isNull(disputes.outcomeHandledAt)),
        ),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Money already refunded that lost disputes took again (`dispute_loss`), newest first, with the buyer and the orders. */
export async function listDisputeLosses(db: Db, limit: number) {
  return (
    db
      .select({
        id: ledgerEntries.id,
        amount: ledgerEntries.amount,
        at: ledgerEntries.createdAt,
        disputeAmount: disputes.amount,
        reason: disputes.reason,
        firstName: users.firstName,
        lastName: users.lastName,
        orderId: sql<string>`(select o.id::text from orders o where o.payment_id = ${disputes.paymentId} order by o.created_at, o.order_number limit 1)`,
        orderNumbers: sql<string>`(select string_agg(o.order_number, ', ' order by o.created_at, o.order_number) from orders o where o.payment_id = ${disputes.paymentId})`,
      })
      .from(ledgerEntries)
      .innerJoin(disputes, eq(disputes.id, ledgerEntries.disputeId))
      .innerJoin(payments, eq(payments.id, disputes.paymentId))
      .innerJoin(users, eq(users.id, payments.buyerId))
      // A loss cancelled when its prevented dispute's refund failed is no loss
      // (docs/decisions/0022-money-in-combinations.md).
      .where(
        and(
          eq(ledgerEntries.kind, 'dispute_loss'),
          sql`not exists (select 1 from ledger_entries c where c.kind = 'loss_cancelled' and c.payout_id is null and c.dispute_id = ${ledgerEntries.disputeId})`,
        ),
      )
      .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.id))
      .limit(limit)
  );
}

/**
 * A transfer giving a share back was refused (docs/decisions/0022-money-in-combinations.md,
 * Transfers and their keys): the next try takes a new key (Stripe answers a refused key's refusal
 * again for 24 hours), after the payouts' backoff; at the last refusal in a row the share is
 * `refused` until an admin sends it again or the account becomes ready again.
 */
export async function refuseRestoringShare(
  db: Db,
  id: string,
  outcome: { error: string; final: boolean; retryAt: Date },
  now: Date,
): Promise<PayoutReversalRow | undefined> {
  const [row] = await db
    .update(payoutReversals)
    .set({
      status: outcome.final ? 'refused' : 'restoring',
      refusals: sql`${payoutReversals.refusals} + 1`,
      keyGeneration: sql`${payoutReversals.keyGeneration} + 1`,
      firstAttemptAt: null,
      lastError: outcome.error,
      lockedUntil: outcome.final ? null : outcome.retryAt,
      updatedAt: now,
    })
    .where(and(eq(payoutReversals.id, id), eq(payoutReversals.status, 'restoring')))
    .returning();
  return row;
}

/** Shares refused for good, of one payout or of every payout of a user, go back to `restoring` with their refusals forgotten. */
export async function releaseRefusedShares(
  db: Db,
  of: { payoutId: string } | { userId: string },
  now: Date,
): Promise<PayoutReversalRow[]> {
  return db
    .update(payoutReversals)
    .set({ status: 'restoring', refusals: 0, lockedUntil: null, updatedAt: now })
    .where(
      and(
        eq(payoutReversals.status, 'refused'),
        'payoutId' in of
          ? eq(payoutReversals.payoutId, of.payoutId)
          : sql`${payoutReversals.payoutId} in (select id from payouts where user_id = ${of.userId})`,
      ),
    )
    .returning();
}
