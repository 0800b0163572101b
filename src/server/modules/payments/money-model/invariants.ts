import { inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { disputes, ledgerEntries, payoutReversals, payouts, refunds, orders } from '../../../db/schema';
import { isFulfilled } from '../../../../domain/order-status';
import { as } from '../../../testing/test-app';
import { findDiscrepancies } from '../../ledger/reconcile';
import { matchProviderTransactions, PROVIDER_KINDS } from '../../ledger/provider-reconcile';
import { cents, dollars, type MoneyModel, type Sequence } from './model';
import { HOUR_MS } from './world';

/**
 * What must hold after every command of the money model, and after the sequence settles
 * (docs/decisions/0018-money-against-stripe.md, docs/decisions/0022-money-in-combinations.md). Every
 * check reads only the current sequence's payments, orders and what hangs off them, in the app's
 * database and at the local Stripe, so one sequence's failure never shows up in the next one's.
 */

type ReconcileFacts = Parameters<typeof findDiscrepancies>[0];

/** The ledger module's readers (its queries are its own, so the test file hands them in). */
export interface Readers {
  reconcileFacts(db: Db): Promise<ReconcileFacts>;
  providerLedger(
    db: Db,
    window: { from: Date; to: Date },
    kinds: readonly string[],
  ): Promise<{
    entries: { entryKey: string; kind: string; amount: string; reference: string | null; createdAt: Date }[];
    refundsInFlight: string[];
  }>;
}

export class MoneyViolation extends Error {
  constructor(
    readonly where: string,
    readonly violations: string[],
  ) {
    super(`${where}:\n  - ${violations.join('\n  - ')}`);
    this.name = 'MoneyViolation';
  }
}

/**
 * A payout_reversals row counts as taken back from the payee in these states (migration 0015); one
 * undone because its refund failed (`void`, `restoring`, `restored`, migration 0027) does not.
 */
const TAKEN = new Set(['pending', 'reversed', 'unrecovered', 'cancelled']);
const LOST = new Set(['lost', 'prevented']);
const OPEN_DISPUTE = new Set([
  'warning_needs_response',
  'warning_under_review',
  'needs_response',
  'under_review',
]);
/** Refunds that count against what is left of an order (docs/decisions/0022-money-in-combinations.md). */
const refundCounts = (status: string) => status !== 'failed' && status !== 'canceled';

async function readRows(db: Db, m: MoneyModel) {
  const paymentIds = m.payments.map((p) => p.id);
  const orderIds = m.orders.map((o) => o.id);
  if (paymentIds.length === 0) return undefined;
  const orderRows = await db.select().from(orders).where(inArray(orders.id, orderIds));
  const refundRows = await db.select().from(refunds).where(inArray(refunds.paymentId, paymentIds));
  const payoutRows = await db.select().from(payouts).where(inArray(payouts.orderId, orderIds));
  const reversalRows = payoutRows.length
    ? await db
        .select()
        .from(payoutReversals)
        .where(
          inArray(
            payoutReversals.payoutId,
            payoutRows.map((p) => p.id),
          ),
        )
    : [];
  const ledgerRows = await db
    .select()
    .from(ledgerEntries)
    .where(or(inArray(ledgerEntries.paymentId, paymentIds), inArray(ledgerEntries.orderId, orderIds)));
  const disputeRows = await db.select().from(disputes).where(inArray(disputes.paymentId, paymentIds));
  return {
    orderRows,
    refundRows,
    payoutRows,
    reversalRows,
    ledgerRows,
    disputeRows,
    disputeParts: await readDisputeParts(db, orderIds),
  };
}
type Rows = NonNullable<Awaited<ReturnType<typeof readRows>>>;

/**
 * docs/decisions/0022-money-in-combinations.md records an unfinished order's part of a lost dispute in
 * `dispute_parts` (migration 0027, being written): read when the table exists, by its
 * (order_id, dispute_id, amount), so the formula below keeps holding once it does.
 */
async function readDisputeParts(db: Db, orderIds: string[]) {
  const found = await db.execute(sql`select to_regclass('public.dispute_parts') is not null as exists`);
  if (!rowsOf<{ exists: boolean }>(found)[0]?.exists) return [];
  const parts = await db.execute(
    sql`select * from dispute_parts where order_id in (${sql.join(
      orderIds.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
  return rowsOf<Record<string, unknown>>(parts).flatMap((row) =>
    typeof row.order_id === 'string' && typeof row.dispute_id === 'string' && row.amount !== undefined
      ? [
          {
            orderId: row.order_id,
            disputeId: row.dispute_id,
            amount: cents(String(row.amount)),
            // Undone when a prevented dispute's refund failed (migration 0031): it no longer counts.
            isUndone: row.undone_at !== null && row.undone_at !== undefined,
          },
        ]
      : [],
  );
}

function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  const rows = (result as { rows?: T[] }).rows;
  return rows ?? [];
}

const sumOf = <T>(items: readonly T[], value: (item: T) => number) =>
  items.reduce((total, item) => total + value(item), 0);

/**
 * 1. Every order's money (docs/decisions/0022-money-in-combinations.md, What is left of an order):
 *
 *    left     = total − Σ its refunds not failed or cancelled − Σ its parts of lost disputes
 *    seller   = seller_earnings − Σ payout_reversals of the seller's payout (pending, reversed,
 *               unrecovered or cancelled: what was taken back from it, made or not, recovered or not;
 *               a take-back undone by its failed refund — void, restoring, restored — no longer counts)
 *    driver   = the same for the driver's payout (its earnings when it has none: 0 for a seller delivery)
 *    platform = platform_fee − Σ platform_fee_refund + Σ platform_fee_restored ledger entries of the order
 *
 *    where an order's part of a lost dispute is what that dispute took back from it: its
 *    payout_reversals and platform_fee_refund naming the dispute (or its dispute_parts row, whichever
 *    is larger, once that table exists). For a finished order (its payouts recorded)
 *    seller + driver + platform = left, each ≥ 0; for every order left ≥ 0; a cancelled order keeps
 *    nothing unless one of its refunds failed, or its part of a prevented dispute was undone because
 *    Stripe's refund failed (then the rest is the buyer's, for the admin to refund).
 *    A loss the platform bore (`unrecovered`) counts as taken back from the payee: the payee's share
 *    is what it is owed, the loss is checked against Stripe in 5.
 */
function checkOrders(rows: Rows, violations: string[]) {
  const lostDisputes = new Set(rows.disputeRows.filter((d) => LOST.has(d.status)).map((d) => d.id));
  for (const order of rows.orderRows) {
    const subject = `order ${order.orderNumber}`;
    const total = cents(order.total);
    const orderRefunds = rows.refundRows.filter((r) => r.orderId === order.id);
    const refunded = sumOf(
      orderRefunds.filter((r) => refundCounts(r.status)),
      (r) => cents(r.amount),
    );
    const orderPayouts = rows.payoutRows.filter((p) => p.orderId === order.id);
    const takenFrom = (kind: 'seller' | 'driver', onlyDispute?: string) => {
      const payout = orderPayouts.find((p) => p.kind === kind);
      if (!payout) return 0;
      return sumOf(
        rows.reversalRows.filter(
          (r) =>
            r.payoutId === payout.id &&
            TAKEN.has(r.status) &&
            (onlyDispute === undefined || r.disputeId === onlyDispute),
        ),
        (r) => cents(r.amount),
      );
    };
    const feeOf = (kind: string, onlyDispute?: string) =>
      sumOf(
        rows.ledgerRows.filter(
          (e) =>
            e.kind === kind &&
            e.orderId === order.id &&
            (onlyDispute === undefined || e.disputeId === onlyDispute),
        ),
        (e) => cents(e.amount),
      );
    // The fee given back, less what a failed refund earned again (`platform_fee_restored`, migration 0027).
    // A dispute's fee part is earned again when its prevented dispute's refund failed (migration 0031).
    const feeBack = (onlyDispute?: string) =>
      feeOf('platform_fee_refund', onlyDispute) - feeOf('platform_fee_restored', onlyDispute);
    let disputeParts = 0;
    for (const disputeId of lostDisputes) {
      const takenBack = takenFrom('seller', disputeId) + takenFrom('driver', disputeId) + feeBack(disputeId);
      const recorded = sumOf(
        rows.disputeParts.filter((p) => p.orderId === order.id && p.disputeId === disputeId && !p.isUndone),
        (p) => p.amount,
      );
      disputeParts += Math.max(takenBack, recorded);
    }
    const left = total - refunded - disputeParts;
    const formula = `total ${dollars(total)} − refunds ${dollars(refunded)} − lost dispute parts ${dollars(disputeParts)}`;
    if (left < 0) violations.push(`${subject}: what is left is negative: ${formula} = ${dollars(left)}`);
    if (isFulfilled(order.status)) {
      const hasDriverPayout = orderPayouts.some((p) => p.kind === 'driver');
      const seller = cents(order.sellerEarnings) - takenFrom('seller');
      const driver = hasDriverPayout
        ? cents(order.driverEarnings) - takenFrom('driver')
        : cents(order.driverEarnings);
      const platform = cents(order.platformFee) - feeBack();
      const shares = `seller ${dollars(seller)} + driver ${dollars(driver)} + platform ${dollars(platform)}`;
      if (seller < 0 || driver < 0 || platform < 0)
        violations.push(`${subject}: a negative share: ${shares}`);
      if (seller + driver + platform !== left)
        violations.push(
          `${subject} (${order.status}): ${shares} = ${dollars(seller + driver + platform)}, but what is left is ${formula} = ${dollars(left)}`,
        );
    } else if (
      order.status === 'cancelled' &&
      left !== 0 &&
      !orderRefunds.some((r) => !refundCounts(r.status)) &&
      // …or its part of a prevented dispute was undone: Stripe's refund to the card failed (0022).
      !rows.disputeParts.some((p) => p.orderId === order.id && p.isUndone)
    )
      violations.push(`cancelled ${subject} keeps ${dollars(left)}: ${formula}`);
  }
}

/**
 * 2. A lost dispute is accounted for whole, at once (docs/decisions/0022-money-in-combinations.md, A
 * lost dispute): once the app records it lost, the orders' parts plus the `dispute_loss` the platform
 * bears equal the disputed amount, and the platform bears only what exceeds what is left of the
 * payment's orders (their total less their refunds that did not fail).
 */
function checkLostDisputes(rows: Rows, violations: string[]) {
  for (const dispute of rows.disputeRows.filter((d) => LOST.has(d.status))) {
    const taken =
      sumOf(
        rows.reversalRows.filter((r) => r.disputeId === dispute.id && TAKEN.has(r.status)),
        (r) => cents(r.amount),
      ) +
      sumOf(
        rows.ledgerRows.filter((e) => e.kind === 'platform_fee_refund' && e.disputeId === dispute.id),
        (e) => cents(e.amount),
      ) -
      sumOf(
        rows.ledgerRows.filter((e) => e.kind === 'platform_fee_restored' && e.disputeId === dispute.id),
        (e) => cents(e.amount),
      );
    const recorded = sumOf(
      rows.disputeParts.filter((p) => p.disputeId === dispute.id && !p.isUndone),
      (p) => p.amount,
    );
    const parts = Math.max(taken, recorded);
    // A loss cancelled when the prevented dispute's refund failed (by the dispute, no payout) is not borne.
    const borne =
      sumOf(
        rows.ledgerRows.filter((e) => (e.kind as string) === 'dispute_loss' && e.disputeId === dispute.id),
        (e) => cents(e.amount),
      ) -
      sumOf(
        rows.ledgerRows.filter(
          (e) => e.kind === 'loss_cancelled' && e.disputeId === dispute.id && e.payoutId === null,
        ),
        (e) => cents(e.amount),
      );
    // A prevented dispute took what Stripe refunded the cardholder to resolve it (recorded as its
    // `dispute` entries, by the refund's id): nothing when the charge had been refunded in full, and
    // nothing once that refund failed (its money came back: `dispute_reinstated`, by the same id).
    const ofDispute = (kind: string) =>
      sumOf(
        rows.ledgerRows.filter((e) => e.kind === kind && e.disputeId === dispute.id),
        (e) => cents(e.amount),
      );
    const amount =
      dispute.status === 'prevented'
        ? ofDispute('dispute') - ofDispute('dispute_reinstated')
        : cents(dispute.amount);
    if (parts + borne !== amount)
      violations.push(
        `dispute ${dispute.providerDisputeId} is ${dispute.status} for ${dollars(amount)}: the orders gave back ${dollars(parts)} and the platform bore ${dollars(borne)}; ${dollars(amount - parts - borne)} is accounted nowhere`,
      );
    // Only what exceeds what is left of the payment's orders (their refunds that did not fail) is
    // the platform's loss; the rest is taken back from the orders.
    const left = sumOf(
      rows.orderRows.filter((o) => o.paymentId === dispute.paymentId),
      (o) =>
        cents(o.total) -
        sumOf(
          rows.refundRows.filter((r) => r.orderId === o.id && refundCounts(r.status)),
          (r) => cents(r.amount),
        ),
    );
    const excess = Math.max(0, amount - left);
    if (parts + borne === amount && borne !== excess)
      violations.push(
        `dispute ${dispute.providerDisputeId} is ${dispute.status} for ${dollars(amount)} and its payment's orders have ${dollars(left)} left (their refunds that did not fail taken off): the platform should bear ${dollars(excess)}, it bears ${dollars(borne)}`,
      );
  }
}

/**
 * 3. Each transfer, reversal and refund is made at most once at Stripe: one transfer per metadata
 * key (and per order and party, but for a `restore-…` transfer giving back a failed refund's
 * reversal), one reversal per key, one refund per metadata refundId; no payee ever holds more of an
 * order than it earned.
 */
function checkAtStripe(s: Sequence, m: MoneyModel, rows: Rows, violations: string[]) {
  const { world } = s.mw;
  const orderIds = new Set(m.orders.map((o) => o.id));
  const transfers = world.transfers.transfers.filter((tr) => orderIds.has(tr.metadata.orderId ?? ''));
  const byKey = new Map<string, string[]>();
  for (const transfer of transfers) {
    const key = transfer.metadata.key ?? '(no key)';
    byKey.set(key, [...(byKey.get(key) ?? []), transfer.id]);
  }
  for (const [key, ids] of byKey)
    if (ids.length > 1)
      violations.push(`Stripe made ${ids.length} transfers with key ${key}: ${ids.join(', ')}`);
  for (const order of rows.orderRows)
    for (const kind of ['seller', 'driver'] as const) {
      const made = transfers.filter((tr) => tr.metadata.orderId === order.id && tr.metadata.party === kind);
      const first = made.filter((tr) => !(tr.metadata.key ?? '').startsWith('restore-'));
      if (first.length > 1)
        violations.push(
          `order ${order.orderNumber}: the ${kind} was transferred ${first.length} times: ${first.map((tr) => `${tr.id} ${dollars(tr.amount)} (${tr.metadata.key})`).join(', ')}`,
        );
      const kept = sumOf(made, (tr) => tr.amount - tr.amount_reversed);
      const earned = cents(kind === 'seller' ? order.sellerEarnings : order.driverEarnings);
      if (kept > earned)
        violations.push(
          `order ${order.orderNumber}: the ${kind} holds ${dollars(kept)} at Stripe, more than the ${dollars(earned)} it earned`,
        );
    }
  const reversalKeys = new Map<string, string[]>();
  for (const reversal of transfers.flatMap((tr) => tr.reversals.data)) {
    const key = reversal.metadata.key ?? `(no key: ${reversal.id})`;
    reversalKeys.set(key, [...(reversalKeys.get(key) ?? []), reversal.id]);
  }
  for (const [key, ids] of reversalKeys)
    if (ids.length > 1)
      violations.push(`Stripe made ${ids.length} reversals with key ${key}: ${ids.join(', ')}`);
  const intents = new Set(m.payments.map((p) => p.intentId));
  const refundIds = new Map<string, string[]>();
  for (const refund of world.server.refunds.filter((r) => intents.has(r.payment_intent))) {
    const id = refund.metadata.refundId ?? `(no refundId: ${refund.id})`;
    refundIds.set(id, [
      ...(refundIds.get(id) ?? []),
      `${refund.id} ${dollars(refund.amount)} ${refund.status}`,
    ]);
  }
  for (const [id, made] of refundIds)
    if (made.length > 1)
      violations.push(`Stripe made ${made.length} refunds for refund ${id}: ${made.join(', ')}`);
}

/**
 * 4. `reconcile` (src/server/modules/ledger/reconcile.ts) finds no discrepancy. Its checks run on the
 * facts of this sequence only: `readReconcileFacts` filtered to the rows naming the sequence's
 * payments, orders, refunds, payouts or disputes, and the ledger's totals by kind summed over the
 * sequence's entries, so an earlier sequence's failure is not this one's.
 */
async function checkReconcile(
  s: Sequence,
  readers: Readers,
  rows: Rows,
  m: MoneyModel,
  violations: string[],
) {
  const scope = new Set<string>([
    ...m.payments.map((p) => p.id),
    ...m.orders.map((o) => o.id),
    ...rows.refundRows.map((r) => r.id),
    ...rows.payoutRows.map((p) => p.id),
    ...rows.disputeRows.map((d) => d.id),
  ]);
  const facts = await readers.reconcileFacts(s.mw.t.database.db);
  const byKind = new Map<string, number>();
  for (const entry of rows.ledgerRows)
    byKind.set(entry.kind, (byKind.get(entry.kind) ?? 0) + cents(entry.amount));
  const ID_FIELDS = ['id', 'paymentId', 'orderId', 'refundId', 'payoutId', 'disputeId'];
  const scoped = Object.fromEntries(
    Object.entries(facts).map(([name, list]) => {
      if (name === 'ledgerByKind')
        return [name, [...byKind].map(([kind, total]) => ({ kind, total: (total / 100).toFixed(2) }))];
      if (!Array.isArray(list)) return [name, list];
      const rowsOfList = list as Record<string, unknown>[];
      if (!rowsOfList.some((row) => ID_FIELDS.some((field) => field in row))) return [name, list];
      return [
        name,
        rowsOfList.filter((row) =>
          ID_FIELDS.some((field) => typeof row[field] === 'string' && scope.has(row[field])),
        ),
      ];
    }),
  ) as ReconcileFacts;
  for (const d of findDiscrepancies(scoped).discrepancies)
    violations.push(`reconcile: ${d.subject}: ${d.message}`);
}

/** The sequence's movements at Stripe are all known to the app: no event undelivered, no answer in doubt. */
export function isQuiescent(m: MoneyModel): boolean {
  if (m.events.some((e) => e.money && e.deliveries === 0)) return false;
  return m.doubts.every((doubt) => {
    const ran = doubt.on === 'refund' ? m.jobsRanAt.payments : m.jobsRanAt.payouts;
    return ran !== null && ran >= doubt.at + 24 * HOUR_MS;
  });
}

/**
 * 5. Losses. Always: the admin's Losses (GET /api/admin/payouts `losses`) list exactly the
 * sequence's shares Stripe refused to give back (`unrecovered`) and its dispute losses (`dispute_loss`
 * ledger entries: money already refunded that a lost dispute took again). When the app can know everything
 * Stripe did (see `isQuiescent`): reconcile against the provider (src/server/modules/ledger/
 * provider-reconcile.ts, its matching run on the sequence's balance transactions and ledger entries)
 * is clean, and what each payee keeps of an order at Stripe (transfers less reversals) is its share
 * plus the losses the admin sees for it (plus a take-back still under way): so Stripe shows exactly
 * the losses the admin sees, no more.
 */
async function checkLosses(s: Sequence, m: MoneyModel, readers: Readers, rows: Rows, violations: string[]) {
  const view = await as(s.mw.t, s.admin, { method: 'GET', url: '/api/admin/payouts' });
  if (view.statusCode !== 200) {
    violations.push(`GET /api/admin/payouts answered ${view.statusCode}: ${view.body}`);
    return;
  }
  const listed = view.json<{ losses: { id: string; orderId: string; amount: string }[] }>().losses;
  const orderIds = new Set(m.orders.map((o) => o.id));
  const shown = listed
    .filter((l) => orderIds.has(l.orderId))
    .map((l) => `${l.id} ${dollars(cents(l.amount))}`)
    .sort();
  // What the platform bore: shares Stripe refused to give back, and money already refunded that a
  // lost dispute took again (`dispute_loss`, listed as dispute-loss-<ledger entry>; 0022).
  const unrecovered = [
    ...rows.reversalRows
      .filter((r) => r.status === 'unrecovered')
      .map((r) => `${r.id} ${dollars(cents(r.amount))}`),
    // …but for one cancelled when its prevented dispute's refund failed (0022).
    ...rows.ledgerRows
      .filter(
        (e) =>
          (e.kind as string) === 'dispute_loss' &&
          !rows.ledgerRows.some(
            (c) => c.kind === 'loss_cancelled' && c.payoutId === null && c.disputeId === e.disputeId,
          ),
      )
      .map((e) => `dispute-loss-${e.id} ${dollars(cents(e.amount))}`),
  ].sort();
  // The list holds the 200 newest; a longer one may have dropped this sequence's oldest.
  const complete = listed.length < 200;
  if (complete ? shown.join() !== unrecovered.join() : shown.some((l) => !unrecovered.includes(l)))
    violations.push(
      `the admin's losses [${shown.join(', ')}] are not what the platform bore: the shares Stripe refused to give back and the dispute losses [${unrecovered.join(', ')}]`,
    );
  if (!isQuiescent(m)) return;

  const { world } = s.mw;
  const intents = new Set(m.payments.map((p) => p.intentId));
  const transfers = world.transfers.transfers.filter((tr) => orderIds.has(tr.metadata.orderId ?? ''));
  const disputeIds = new Set(m.disputes.map((d) => d.id));
  const sources = new Set<string>([
    ...m.payments.map((p) => p.chargeId),
    ...world.server.refunds.filter((r) => intents.has(r.payment_intent)).map((r) => r.id),
    ...transfers.map((tr) => tr.id),
    ...transfers.flatMap((tr) => tr.reversals.data.map((r) => r.id)),
    ...disputeIds,
  ]);
  const provider = world.balances
    .transactionsOf()
    .filter((txn) => txn.source !== null && sources.has(txn.source))
    .map((txn) => ({
      id: txn.id,
      type: txn.type,
      amount: txn.amount,
      fee: txn.fee,
      currency: txn.currency,
      source: txn.source,
      created: new Date(txn.created * 1000),
    }));
  const references = new Set([...sources, ...provider.map((txn) => txn.id)]);
  const ids = [
    ...m.payments.map((p) => p.id),
    ...m.orders.map((o) => o.id),
    ...rows.payoutRows.map((p) => p.id),
  ];
  const period = { from: new Date('2000-01-01T00:00:00Z'), to: new Date('2100-01-01T00:00:00Z') };
  const { entries, refundsInFlight } = await readers.providerLedger(
    s.mw.t.database.db,
    period,
    PROVIDER_KINDS,
  );
  const ledger = entries
    .filter((e) =>
      e.reference !== null ? references.has(e.reference) : ids.some((id) => e.entryKey.includes(id)),
    )
    .map((e) => ({ ...e, amount: cents(e.amount) }));
  const report = matchProviderTransactions({
    provider,
    ledger,
    period,
    refundsInFlight: new Set(refundsInFlight),
  });
  for (const d of report.discrepancies) violations.push(`reconcile --provider: ${d}`);

  for (const payout of rows.payoutRows) {
    const order = rows.orderRows.find((o) => o.id === payout.orderId);
    if (!order) continue;
    const kept = sumOf(
      transfers.filter((tr) => tr.metadata.orderId === payout.orderId && tr.metadata.party === payout.kind),
      (tr) => tr.amount - tr.amount_reversed,
    );
    const shares = rows.reversalRows.filter((r) => r.payoutId === payout.id);
    const ofStatus = (status: string) =>
      sumOf(
        shares.filter((r) => r.status === status),
        (r) => cents(r.amount),
      );
    const earned = cents(payout.kind === 'seller' ? order.sellerEarnings : order.driverEarnings);
    const share =
      earned -
      sumOf(
        shares.filter((r) => TAKEN.has(r.status)),
        (r) => cents(r.amount),
      );
    const transferred = payout.status === 'paid' || payout.status === 'reversed';
    // A share being given back (`restoring`: reversed, its restore transfer not made yet; `refused`:
    // refused five times, until an admin sends it again) is still out of the payee's hands.
    const expected = transferred
      ? share + ofStatus('unrecovered') + ofStatus('pending') - ofStatus('restoring') - ofStatus('refused')
      : 0;
    if (kept !== expected)
      violations.push(
        `order ${order.orderNumber}: the ${payout.kind} keeps ${dollars(kept)} at Stripe; its payout is ${payout.status}, its share ${dollars(share)}, the losses the admin sees for it ${dollars(ofStatus('unrecovered'))}, still to take back ${dollars(ofStatus('pending'))}, still to give back ${dollars(ofStatus('restoring'))}: expected ${dollars(expected)}`,
      );
  }
}

/**
 * 6. Once the sequence has settled (its events delivered, Stripe's pending refunds settled, the jobs
 * run past every key window and the payout hold): every refund is final unless its payment's dispute
 * is still open (a cancellation's refund waits for it), no take-back is still pending (nor a share
 * still being given back to a payee Stripe lets receive it), and every
 * payout of a finished order went out (or was cancelled or reversed) unless its payee is restricted
 * at Stripe or its payment's dispute is open.
 */
function checkSettled(s: Sequence, m: MoneyModel, rows: Rows, violations: string[]) {
  const openDispute = new Set(
    rows.disputeRows.filter((d) => OPEN_DISPUTE.has(d.status)).map((d) => d.paymentId),
  );
  for (const refund of rows.refundRows)
    if (!['succeeded', 'failed', 'canceled'].includes(refund.status) && !openDispute.has(refund.paymentId))
      violations.push(
        `refund ${refund.id} of ${dollars(cents(refund.amount))} is still ${refund.status} (${refund.attempts} attempts; last error: ${refund.lastError ?? 'none'})`,
      );
  const restricted = new Set(
    [...m.restricted].map(
      (name) => (name === 'driver' ? s.driver : s.sellers[Number(name.slice(6)) - 1])?.user.id,
    ),
  );
  for (const reversal of rows.reversalRows.filter(
    (r) => r.status === 'pending' || r.status === 'restoring',
  )) {
    const payout = rows.payoutRows.find((p) => p.id === reversal.payoutId);
    if (reversal.status === 'restoring' && payout && restricted.has(payout.userId)) continue;
    violations.push(
      `a take-back of ${dollars(cents(reversal.amount))} (payout_reversals ${reversal.id}) is still ${reversal.status} (last error: ${reversal.lastError ?? 'none'})`,
    );
  }
  for (const payout of rows.payoutRows) {
    const order = rows.orderRows.find((o) => o.id === payout.orderId);
    if (!order || !isFulfilled(order.status)) continue;
    if (['paid', 'reversed', 'cancelled'].includes(payout.status)) continue;
    if (restricted.has(payout.userId) || (order.paymentId && openDispute.has(order.paymentId))) continue;
    violations.push(
      `order ${order.orderNumber}: the ${payout.kind}'s payout of ${dollars(cents(payout.amount))} is still ${payout.status} (${payout.attempts} attempts, ${payout.refusals} refusals; last error: ${payout.lastError ?? 'none'})`,
    );
  }
}

/** Every invariant; throws a MoneyViolation naming each one broken. */
export async function checkInvariants(
  s: Sequence,
  m: MoneyModel,
  readers: Readers,
  options: { where: string; statusesFrom: number; settled?: boolean; extra?: string[] },
): Promise<void> {
  const violations = [...(options.extra ?? [])];
  const fives = s.mw.t.statuses.slice(options.statusesFrom).filter((status) => status >= 500);
  if (fives.length > 0)
    violations.push(`the app answered ${fives.join(', ')} (see the trace for the request)`);
  const rows = await readRows(s.mw.t.database.db, m);
  if (rows) {
    checkOrders(rows, violations);
    checkLostDisputes(rows, violations);
    checkAtStripe(s, m, rows, violations);
    await checkReconcile(s, readers, rows, m, violations);
    await checkLosses(s, m, readers, rows, violations);
    if (options.settled) checkSettled(s, m, rows, violations);
  }
  if (violations.length > 0) throw new MoneyViolation(options.where, violations);
}
