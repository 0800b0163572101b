import type { Db } from '../../db/client';
import {
  RefundRefusedError,
  type PaymentProvider,
  type ProviderRefund,
} from '../../adapters/payments/payment-provider';
import type { PayoutDeps } from '../payouts/payout-deps';
import { undoTakeBack } from '../payouts/undo-take-back';
import { formatCents, parseCents, type Cents } from '../../../domain/money';
import type { RefundNeedingAttention } from '../../../domain/refunds';
import { recordMovement, recordRefundMade, sumRefundMovements } from '../ledger/ledger.service';
import {
  findPaymentOfRefund as findPaymentById,
  findRefundBlockingDispute,
  findRefundById,
  findRefundByProviderId,
  findRefundableQuantity as findRefundableQuantityRow,
  giveBackRefundedItems,
  takeRefundedItems as takeRefundedItemRows,
  listRefundsOfPayment,
  listUnsentRefundsOfPayment,
  lockRefund,
  markRefundUndone,
  setRefundRefused,
  insertRefund,
  listRefundsNeedingAttention,
  listUnfinishedRefunds,
  recordRefundAttempt,
  setPaymentRefundStatus as setPaymentStatus,
  setRefundLastError,
  setRefundState,
  sumRefundsOfPayment,
  sumTakenFromOrder,
  type PageCursor,
  type RefundRow,
} from './refunds.queries';

/**
 * What the money of a refund needs: the payouts' (a refund takes back and settles the order's
 * payouts, and its mail links to the order) and the payment provider that makes it. Each money
 * module's bag is the next one's and what it adds (docs/ARCHITECTURE.md, Money flows one way).
 */
export interface RefundDeps extends PayoutDeps {
  payments: PaymentProvider;
}

/**
 * Stripe keeps an idempotency key 24 hours. A retry later than this after the first call may reach
 * Stripe with a forgotten key, so it first looks for the refund among the payment's refunds
 * (docs/decisions/0013-money-movement.md, Payments and refunds).
 */
export const IDEMPOTENCY_WINDOW_MS = 23 * 60 * 60 * 1000;

const PAGE = 100;

export type { RefundRow };

/**
 * Whether a refund of the payment must wait: its charge is disputed and the funds withdrawn, which
 * Stripe refuses to refund (docs/decisions/0022-money-in-combinations.md, A refund while the payment
 * is disputed).
 */
export function isRefundHeldByDispute(db: Db, paymentId: string): Promise<boolean> {
  return findRefundBlockingDispute(db, paymentId);
}

/** What a refund held by a dispute says to the admin (docs/decisions/0022-money-in-combinations.md). */
export const REFUND_WAITS_FOR_DISPUTE = 'Waits until the dispute on this payment is decided.';

/**
 * Records the refund of one order (a cancellation) inside the caller's transaction, and sets the
 * payment to refunded or partially_refunded. The money moves afterwards, in `executeRefund`: the
 * row is written first so a crash between the two is finished later (`settleUnfinishedRefunds`).
 * `refunds.order_id` is unique, so an order is refunded at most once.
 */
export async function recordOrderRefund(
  tx: Db,
  input: {
    paymentId: string;
    orderId: string;
    amount: Cents;
    reason: string;
    now: Date;
    /** The items a refund by items gives back, kept so a failed refund gives them back again. */
    items?: Array<{ orderItemId: string; quantity: number }>;
  },
): Promise<RefundRow | undefined> {
  const payment = await findPaymentById(tx, input.paymentId);
  if (!payment || input.amount <= 0) return undefined;
  const refund = await insertRefund(tx, {
    paymentId: input.paymentId,
    orderId: input.orderId,
    amount: formatCents(input.amount),
    reason: input.reason,
    items: input.items ?? null,
    createdAt: input.now,
    updatedAt: input.now,
  });
  await updatePaymentRefundStatus(tx, input.paymentId, input.now);
  return refund;
}

/**
 * Records the refund of a whole payment that placed no order (its checkout changed before it
 * arrived), inside the caller's transaction; `executeRefund` makes it after the commit.
 */
export function recordPaymentRefund(
  tx: Db,
  input: { paymentId: string; amount: string; reason: string; now: Date },
): Promise<RefundRow> {
  return insertRefund(tx, {
    paymentId: input.paymentId,
    orderId: null,
    amount: input.amount,
    reason: input.reason,
    createdAt: input.now,
    updatedAt: input.now,
  });
}

/** Why a payment that placed no order was refunded (the message its buyer sees), or null. */
export async function findRefundReplacingOrders(db: Db, paymentId: string): Promise<string | null> {
  const refunds = await listRefundsOfPayment(db, paymentId);
  return refunds.find((refund) => refund.orderId === null)?.reason ?? null;
}

/**
 * What is left of an order (docs/decisions/0022-money-in-combinations.md, What is left of an order):
 * its total less its refunds not undone and its parts of lost disputes, in cents. Inside the
 * caller's transaction, with the order's row locked when a refund is to be recorded from it.
 */
export async function findWhatIsLeftOfOrder(tx: Db, order: { id: string; total: string }): Promise<Cents> {
  return parseCents(order.total) - parseCents(await sumTakenFromOrder(tx, order.id));
}

/** The payment's status after its refunds changed: refunded, partially refunded, or succeeded again. */
async function updatePaymentRefundStatus(tx: Db, paymentId: string, now: Date): Promise<void> {
  const payment = await findPaymentById(tx, paymentId);
  if (!payment) return;
  const refunded = parseCents(await sumRefundsOfPayment(tx, paymentId));
  const status =
    refunded >= parseCents(payment.amount) ? 'refunded' : refunded > 0 ? 'partially_refunded' : 'succeeded';
  await setPaymentStatus(tx, paymentId, status, now);
}

/**
 * A refund that failed, or that the provider refused, is undone inside the caller's transaction
 * (docs/decisions/0022-money-in-combinations.md, A refund that fails): it no longer counts against
 * what is left of its order, its items may be refunded again, the money a refund that had succeeded
 * took comes back (`refund_failure`), and what it took back from the seller, the driver and the
 * fee is given back. Once: a refund already undone is left as it is.
 */
async function undoRefund(tx: Db, refund: RefundRow, now: Date): Promise<boolean> {
  if (!(await markRefundUndone(tx, refund.id, now))) return false;
  for (const line of refund.items ?? []) await giveBackRefundedItems(tx, line.orderItemId, line.quantity);
  const made = await sumRefundMovements(tx, refund.id, 'refund');
  if (made > 0) {
    const current = await findRefundById(tx, refund.id);
    const payment = await findPaymentById(tx, refund.paymentId);
    await recordMovement(tx, {
      kind: 'refund_failure',
      key: refund.id,
      amount: made,
      currency: payment?.currency ?? 'usd',
      paymentId: refund.paymentId,
      orderId: refund.orderId,
      userId: payment?.buyerId ?? null,
      refundId: refund.id,
      providerReference: current?.providerRefundId ?? refund.providerRefundId,
      at: now,
    });
  }
  await undoTakeBack(tx, { refundId: refund.id, orderId: refund.orderId }, now);
  await updatePaymentRefundStatus(tx, refund.paymentId, now);
  return true;
}

function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 500);
}

async function applyProviderRefund(
  deps: RefundDeps,
  refund: RefundRow,
  found: ProviderRefund,
): Promise<void> {
  const now = deps.now();
  // A refund that succeeded goes to the ledger with its state, once (docs/decisions/0013-money-movement.md,
  // Transfers and the ledger); one that failed is final and undone
  // (docs/decisions/0022-money-in-combinations.md).
  const applied = await deps.db.transaction(async (tx) => {
    const current = await lockRefund(tx, refund.id);
    if (!current || current.undoneAt) return false;
    // Events come in any order: a succeeded refund only ever fails afterwards, it is never pending again.
    if (current.status === 'succeeded' && found.status !== 'failed' && found.status !== 'canceled')
      return false;
    await setRefundState(tx, refund.id, {
      providerRefundId: found.providerRefundId,
      status: found.status,
      failureReason: found.failureReason,
      now,
    });
    if (found.status === 'succeeded') await recordRefundMade(tx, current, found.providerRefundId, now);
    if (found.status === 'failed' || found.status === 'canceled')
      await undoRefund(tx, { ...current, providerRefundId: found.providerRefundId }, now);
    return true;
  });
  if (!applied) {
    deps.log.info(
      { refundId: refund.id, status: found.status },
      'refund already failed and undone; state ignored',
    );
    return;
  }
  const log = found.status === 'failed' ? deps.log.error.bind(deps.log) : deps.log.info.bind(deps.log);
  log(
    {
      refundId: refund.id,
      paymentId: refund.paymentId,
      providerRefundId: found.providerRefundId,
      status: found.status,
    },
    found.status === 'failed' ? 'refund failed at the provider' : 'refund state',
  );
}

/**
 * Moves the money back through the provider, once. The first call, and any retry within Stripe's
 * key window, carries the key `refund-<refunds.id>`, so asking twice refunds once. A retry after
 * the window first looks for a refund with our id in its metadata at the provider and adopts it;
 * only when there is none is the refund made (docs/decisions/0013-money-movement.md). A provider
 * that cannot be reached leaves the refund pending with its error; the timer tries again. Answers
 * whether the provider now knows the refund.
 */
export async function executeRefund(deps: RefundDeps, refund: RefundRow): Promise<boolean> {
  const payment = await findPaymentById(deps.db, refund.paymentId);
  if (!payment) return false;
  const now = deps.now();
  // Stripe refuses to refund a charge whose dispute withdrew the funds: the refund waits for the
  // dispute's outcome (docs/decisions/0022-money-in-combinations.md, A refund while the payment is disputed).
  if (!refund.providerRefundId && (await isRefundHeldByDispute(deps.db, payment.id))) {
    await setRefundLastError(deps.db, refund.id, REFUND_WAITS_FOR_DISPUTE, now);
    return false;
  }
  // The first call was made at or after the row was written, so its key is surely alive within the window.
  const pastKeyWindow =
    refund.attempts > 0 && now.getTime() - refund.createdAt.getTime() > IDEMPOTENCY_WINDOW_MS;
  await recordRefundAttempt(deps.db, refund.id, now);
  try {
    const earlier = pastKeyWindow
      ? await deps.payments.findRefund(payment.providerPaymentId, refund.id)
      : undefined;
    const made =
      earlier ??
      (await deps.payments.refund({
        providerPaymentId: payment.providerPaymentId,
        amount: parseCents(refund.amount),
        refundId: refund.id,
        idempotencyKey: `refund-${refund.id}`,
        reason: refund.reason,
      }));
    await setRefundLastError(deps.db, refund.id, null, now);
    await applyProviderRefund(deps, refund, made);
    return true;
  } catch (error) {
    if (error instanceof RefundRefusedError) {
      // Final: Stripe answers the same refusal to the same key
      // (docs/decisions/0022-money-in-combinations.md).
      await deps.db.transaction(async (tx) => {
        const current = await lockRefund(tx, refund.id);
        if (!current || current.undoneAt || current.providerRefundId) return;
        await setRefundRefused(tx, refund.id, {
          status: 'failed',
          failureReason: error.code ?? 'refused',
          error: describeError(error),
          now,
        });
        await undoRefund(tx, current, now);
      });
      deps.log.error(
        { err: error, refundId: refund.id, paymentId: payment.id, code: error.code },
        'refund refused by the provider; undone',
      );
      return false;
    }
    await setRefundLastError(deps.db, refund.id, describeError(error), now);
    deps.log.error({ err: error, refundId: refund.id, paymentId: payment.id }, 'refund not made; will retry');
    return false;
  }
}

/** A refund the provider already knows and that has not finished: ask again how it stands. */
async function recheckRefund(
  deps: RefundDeps,
  refund: RefundRow & { providerRefundId: string },
): Promise<void> {
  const now = deps.now();
  await recordRefundAttempt(deps.db, refund.id, now);
  try {
    const found = await deps.payments.retrieveRefund(refund.providerRefundId);
    await setRefundLastError(deps.db, refund.id, null, now);
    if (found.status !== refund.status) await applyProviderRefund(deps, refund, found);
  } catch (error) {
    await setRefundLastError(deps.db, refund.id, describeError(error), now);
    deps.log.error({ err: error, refundId: refund.id }, 'could not ask how a refund stands; will retry');
  }
}

export interface RefundSweep {
  /** Refunds made at the provider now (their first call had not completed). */
  made: number;
  /** Refunds already at the provider asked about again (pending, requires_action). */
  rechecked: number;
}

/**
 * Finishes every unfinished refund (start-up and the timer): makes those whose provider call never
 * completed and asks again about pending ones. Pages through all of them by keyset.
 */
export async function settleUnfinishedRefunds(deps: RefundDeps): Promise<RefundSweep> {
  const sweep: RefundSweep = { made: 0, rechecked: 0 };
  let cursor: PageCursor | undefined;
  for (;;) {
    const page = await listUnfinishedRefunds(deps.db, cursor, PAGE);
    for (const refund of page) {
      const payment = await findPaymentById(deps.db, refund.paymentId);
      // A refund of a payment taken by another provider (the settings changed) cannot be made here.
      if (!payment || payment.provider !== deps.payments.name) continue;
      if (refund.providerRefundId) {
        await recheckRefund(deps, { ...refund, providerRefundId: refund.providerRefundId });
        sweep.rechecked += 1;
      } else if (await executeRefund(deps, refund)) sweep.made += 1;
    }
    const last = page.at(-1);
    if (!last || page.length < PAGE) return sweep;
    cursor = { createdAt: last.createdAt, id: last.id };
  }
}

/**
 * A refund event of the provider (Stripe: refund.updated, refund.failed, charge.refund.updated):
 * the refund is found by its provider id, or by our id in its metadata when the answer of the
 * create call never arrived. Answers false for a refund that is not ours (made by the provider for a
 * prevented dispute, or from the Dashboard): the caller asks the disputes about it.
 */
export async function applyRefundEvent(deps: RefundDeps, event: ProviderRefund): Promise<boolean> {
  const refund =
    (await findRefundByProviderId(deps.db, event.providerRefundId)) ??
    (event.refundId ? await findRefundById(deps.db, event.refundId) : undefined);
  if (!refund) return false;
  await applyProviderRefund(deps, refund, event);
  return true;
}

/** GET /api/admin/refunds: refunds that failed or still wait, oldest first. */
export async function listRefundsForAdmin(db: Db): Promise<RefundNeedingAttention[]> {
  const rows = await listRefundsNeedingAttention(db, 500);
  return rows.map((row) => ({
    ...row,
    status: row.status as RefundNeedingAttention['status'], // the column's check constraint allows only these
    amount: formatCents(parseCents(row.amount)),
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  }));
}

/**
 * A lost dispute gave the buyer money back through the card network: refunds of the payment never
 * made at the provider (a cancellation's that waited for the dispute, an admin's whose call did not
 * get through: Stripe refuses to refund a charge whose dispute is lost) are cancelled and undone,
 * inside the caller's transaction (docs/decisions/0022-money-in-combinations.md, A lost dispute).
 * Answers what each order was owed by them, in cents; the dispute's handler covers that first.
 */
export async function cancelRefundsHeldByDispute(
  tx: Db,
  paymentId: string,
  now: Date,
): Promise<Map<string, Cents>> {
  const owed = new Map<string, Cents>();
  for (const refund of await listUnsentRefundsOfPayment(tx, paymentId, { lock: true })) {
    if (!refund.orderId) continue;
    await setRefundRefused(tx, refund.id, {
      status: 'canceled',
      failureReason: 'dispute_lost',
      error: 'The buyer got this money back through the lost dispute.',
      now,
    });
    if (await undoRefund(tx, refund, now))
      owed.set(refund.orderId, (owed.get(refund.orderId) ?? 0) + parseCents(refund.amount));
  }
  return owed;
}

/** After a dispute is decided: refunds of the payment that waited for it are made now. */
export async function settleRefundsOfPayment(deps: RefundDeps, paymentId: string): Promise<void> {
  for (const refund of await listUnsentRefundsOfPayment(deps.db, paymentId))
    await executeRefund(deps, refund);
}

/**
 * Refunded quantities per order item (docs/decisions/0022-money-in-combinations.md, What is left of
 * an order): a refund by items takes them inside its transaction, with the order's row locked; a
 * failed refund gives them back.
 */

/** Takes `quantity` more of the item as refunded when that many are left; answers whether it did. */
export async function takeRefundedItems(
  tx: Db,
  orderId: string,
  orderItemId: string,
  quantity: number,
): Promise<boolean> {
  return (await takeRefundedItemRows(tx, orderId, orderItemId, quantity)) !== undefined;
}

/** How many of the item are left to refund (undefined for an item not of this order). */
export function findRefundableQuantity(
  tx: Db,
  orderId: string,
  orderItemId: string,
): Promise<number | undefined> {
  return findRefundableQuantityRow(tx, orderId, orderItemId);
}

/** What the payment's refunds not undone gave back, in cents. */
export async function sumRefundedOfPayment(db: Db, paymentId: string): Promise<Cents> {
  return parseCents(await sumRefundsOfPayment(db, paymentId));
}

/**
 * Brings the payment's refunds known to the provider up to date before a lost dispute is split
 * (docs/decisions/0022-money-in-combinations.md, A lost dispute): Stripe fails a refund still
 * pending when the charge is disputed, and its event may arrive after the dispute's.
 */
export async function refreshRefundsOfPayment(deps: RefundDeps, paymentId: string): Promise<void> {
  const payment = await findPaymentById(deps.db, paymentId);
  if (!payment) return;
  for (const refund of await listRefundsOfPayment(deps.db, paymentId)) {
    if (refund.undoneAt || refund.status === 'failed' || refund.status === 'canceled') continue;
    if (refund.providerRefundId) {
      const found = await deps.payments.retrieveRefund(refund.providerRefundId);
      if (found.status !== refund.status) await applyProviderRefund(deps, refund, found);
    } else if (refund.attempts > 0) {
      // Tried, its answer lost: made at the provider or not; a lost dispute cancels it only if not.
      const found = await deps.payments.findRefund(payment.providerPaymentId, refund.id);
      if (found) await applyProviderRefund(deps, refund, found);
    }
  }
}
