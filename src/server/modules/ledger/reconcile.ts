import type { Db } from '../../db/client';
import { formatCents, parseCents, type Cents } from '../../../domain/money';
import { isFulfilled } from '../../../domain/order-status';
import { PLATFORM_BALANCE_SIGNS } from './ledger.queries';
import { readReconcileFacts, type ReconcileFacts } from './reconcile.queries';

export interface Discrepancy {
  /** What disagrees: `payment <id>`, `order <number>`, `payout <id>`, `refund <id>` or `platform`. */
  subject: string;
  message: string;
}

export interface ReconcileReport {
  discrepancies: Discrepancy[];
  /** What the platform keeps: fees earned less fees given back and the provider's fees, disputes and losses (docs/decisions/0018-money-against-stripe.md). */
  platformBalance: Cents;
  /** Money held at the platform: charges less refunds less transfers plus reversals, less the provider's fees and disputes. */
  platformCash: Cents;
  payments: number;
  finishedOrders: number;
  /** Earnings recorded as payouts and not transferred yet (owed, pending, failed or refused). */
  owedPayouts: Cents;
  /** Refunds recorded and not made yet. */
  refundsInFlight: Cents;
  /** Shares of transfers refunds took back and still to be reversed. */
  reversalsInFlight: Cents;
  /** Funds the provider withdrew for disputes not decided yet (docs/decisions/0018-money-against-stripe.md, Disputes). */
  fundsInDispute: Cents;
  /**
   * Shares the provider refused to give back (`reversal_loss`): explicit and balanced, so reported
   * but not a discrepancy (docs/decisions/0018-money-against-stripe.md, Refunds).
   */
  lossesBorne: Cents;
  lossCount: number;
}

/** The states of a take-back that still take its share (docs/decisions/0022-money-in-combinations.md). */
const TAKING = new Set(['pending', 'reversed', 'unrecovered', 'cancelled']);
const NOT_TRANSFERRED = new Set(['owed', 'pending', 'failed', 'refused']);

const money = (cents: Cents) => `$${formatCents(cents)}`;

function sumsBy<K extends string>(
  rows: Array<{ total: string } & Record<K, string | null>>,
  key: K,
  kind?: { field: 'kind'; value: string },
): Map<string | null, Cents> {
  const sums = new Map<string | null, Cents>();
  for (const row of rows) {
    if (kind && (row as unknown as { kind: string }).kind !== kind.value) continue;
    const id = row[key];
    sums.set(id, (sums.get(id) ?? 0) + parseCents(row.total));
  }
  return sums;
}

/** `a − b` per key, keeping every key of either. */
function minus(a: Map<string | null, Cents>, b: Map<string | null, Cents>): Map<string | null, Cents> {
  const out = new Map(a);
  for (const [key, cents] of b) out.set(key, (out.get(key) ?? 0) - cents);
  return out;
}

/** Records a discrepancy. */
type Flag = (subject: string, message: string) => void;

/** The ledger's entries summed by what they belong to, and by kind. */
interface LedgerSums {
  charges: Map<string | null, Cents>;
  /** Refunds made less refunds that failed afterwards (`refund_failure`), per payment. */
  refundsMade: Map<string | null, Cents>;
  /** The same, per refund. */
  refundedById: Map<string | null, Cents>;
  transfersByPayout: Map<string | null, Cents>;
  /** Shares transferred back after their refund failed (docs/decisions/0022-money-in-combinations.md). */
  restoresByPayout: Map<string | null, Cents>;
  reversalsByPayout: Map<string | null, Cents>;
  /** Losses borne less losses cancelled when their refund failed. */
  lossesByPayout: Map<string | null, Cents>;
  feesByOrder: Map<string | null, Cents>;
  /** The fee given back less the fee earned again when a refund failed. */
  feeRefundsByOrder: Map<string | null, Cents>;
  /** The ledger's total of one kind of entry. */
  total: (kind: string) => Cents;
}

/** What the refunds leave for the other checks: who was refunded, and what is still to be paid back. */
interface RefundState {
  /** What each order's refunds (in any state) gave back to its buyer. */
  refundedByOrder: Map<string, Cents>;
  refundOwedByPayment: Map<string, Cents>;
  refundsInFlight: Cents;
}

/** What the finished orders' check leaves for the platform's: the money it holds for others. */
interface OrderTotals {
  finishedOrders: number;
  owedPayouts: Cents;
  reversalsInFlight: Cents;
  heldForOrders: Cents;
  lossCount: number;
}

/**
 * The three checks of reconcile (docs/decisions/0013-money-movement.md, Transfers and the ledger),
 * on facts read from the database:
 * 1. every charged payment's charge in the ledger is the payment's amount, and that charge less its
 *    refunds (made, or recorded and still to be made) is the sum of its orders that were not refunded;
 * 2. every finished order's payouts plus what refunds took back from them before they went out equal
 *    its stored earnings per party (payouts owed, pending or failed counted separately), the
 *    ledger's transfers, reversals and losses match each payout and its taken-back shares, its fee is
 *    in the ledger, and what its refunds gave back equals what was taken back from its payouts and
 *    fee, to the cent (docs/decisions/0018-money-against-stripe.md, Refunds);
 * 3. the platform's cash, less what it holds for others, is its fees less the fees it gave back and
 *    the losses it bore (reported by name, not a discrepancy).
 * Ledger entries that belong to nothing are discrepancies too. The refunds are checked first: the
 * three checks need to know which orders were refunded and what is still owed to buyers.
 */
export function findDiscrepancies(facts: ReconcileFacts): ReconcileReport {
  const discrepancies: Discrepancy[] = [];
  const flag: Flag = (subject, message) => discrepancies.push({ subject, message });
  const ledger = sumLedger(facts);
  const refunds = checkRefunds(facts, ledger, flag);
  const chargedPayments = checkPayments(facts, ledger, refunds, flag);
  const orders = checkFinishedOrders(facts, ledger, refunds.refundedByOrder, flag);
  const disputes = checkDisputes(facts, flag);
  const { platformCash, platformBalance } = checkPlatform(ledger, refunds, orders, disputes, flag);
  return {
    discrepancies,
    platformBalance,
    platformCash,
    payments: chargedPayments,
    finishedOrders: orders.finishedOrders,
    owedPayouts: orders.owedPayouts,
    refundsInFlight: refunds.refundsInFlight,
    reversalsInFlight: orders.reversalsInFlight,
    fundsInDispute: disputes.fundsInDispute,
    lossesBorne:
      ledger.total('reversal_loss') - ledger.total('loss_cancelled') + ledger.total('dispute_loss'),
    lossCount: orders.lossCount + disputes.lossCount,
  };
}

/** What the disputes leave for the platform's check. */
interface DisputeTotals {
  /** Withdrawn for disputes not lost and not reinstated yet: still the platform's, held by the provider. */
  fundsInDispute: Cents;
  /** Dispute fees withdrawn less those given back: the platform's cost. */
  disputeFees: Cents;
  /** Lost disputes that took money already refunded (`dispute_loss`). */
  lossCount: number;
}

/**
 * Disputes (docs/decisions/0018-money-against-stripe.md, Disputes): every dispute entry of the ledger
 * belongs to a known dispute; a lost dispute whose share was not taken back from the sellers and
 * drivers is named (its amount is then missing from the platform's cash).
 */
function checkDisputes(facts: ReconcileFacts, flag: Flag): DisputeTotals {
  const byDispute = new Map<string, Map<string, Cents>>();
  for (const row of facts.ledgerByDispute) {
    const key = row.disputeId ?? '';
    const kinds = byDispute.get(key) ?? new Map<string, Cents>();
    kinds.set(row.kind, (kinds.get(row.kind) ?? 0) + parseCents(row.total));
    byDispute.set(key, kinds);
  }
  const known = new Set(facts.disputeRows.map((dispute) => dispute.id));
  for (const [disputeId, kinds] of byDispute)
    if (!known.has(disputeId))
      flag(
        `dispute ${disputeId || '(none)'}`,
        `the ledger has ${money([...kinds.values()].reduce((a, b) => a + b, 0))} of dispute entries no dispute explains`,
      );
  let fundsInDispute = 0;
  let disputeFees = 0;
  let lossCount = 0;
  for (const dispute of facts.disputeRows) {
    const kinds = byDispute.get(dispute.id);
    const of = (kind: string) => kinds?.get(kind) ?? 0;
    disputeFees += of('dispute_fee') - of('dispute_fee_reinstated');
    if (of('dispute_loss') - of('loss_cancelled') > 0) lossCount += 1;
    const lost = dispute.status === 'lost' || dispute.status === 'prevented';
    if (!lost) fundsInDispute += of('dispute') - of('dispute_reinstated');
    else if (!dispute.outcomeHandledAt)
      flag(
        `dispute ${dispute.providerDisputeId}`,
        `${dispute.status} ${money(parseCents(dispute.amount))}, not taken back from the sellers and drivers yet`,
      );
  }
  return { fundsInDispute, disputeFees, lossCount };
}

/** The ledger's entries summed once, for every check. */
function sumLedger(facts: ReconcileFacts): LedgerSums {
  const totals = new Map(facts.ledgerByKind.map((row) => [row.kind, parseCents(row.total)]));
  const of = <K extends string>(
    rows: Array<{ total: string; kind: string } & Record<K, string | null>>,
    key: K,
    kind: string,
  ) => sumsBy(rows, key, { field: 'kind', value: kind });
  return {
    charges: of(facts.ledgerByPayment, 'paymentId', 'charge'),
    refundsMade: minus(
      of(facts.ledgerByPayment, 'paymentId', 'refund'),
      of(facts.ledgerByPayment, 'paymentId', 'refund_failure'),
    ),
    refundedById: minus(
      of(facts.ledgerByRefund, 'refundId', 'refund'),
      of(facts.ledgerByRefund, 'refundId', 'refund_failure'),
    ),
    transfersByPayout: of(facts.ledgerByPayout, 'payoutId', 'transfer'),
    restoresByPayout: of(facts.ledgerByPayout, 'payoutId', 'restore_transfer'),
    reversalsByPayout: of(facts.ledgerByPayout, 'payoutId', 'reversal'),
    lossesByPayout: minus(
      of(facts.ledgerByPayout, 'payoutId', 'reversal_loss'),
      of(facts.ledgerByPayout, 'payoutId', 'loss_cancelled'),
    ),
    feesByOrder: of(facts.ledgerByOrder, 'orderId', 'platform_fee'),
    feeRefundsByOrder: minus(
      of(facts.ledgerByOrder, 'orderId', 'platform_fee_refund'),
      of(facts.ledgerByOrder, 'orderId', 'platform_fee_restored'),
    ),
    total: (kind: string) => totals.get(kind) ?? 0,
  };
}

/** Refunds: a refund made is in the ledger at its amount; one still to be made is owed to the buyer. */
function checkRefunds(facts: ReconcileFacts, { refundedById }: LedgerSums, flag: Flag): RefundState {
  const refundedByOrder = new Map<string, Cents>();
  const refundOwedByPayment = new Map<string, Cents>();
  let refundsInFlight = 0;
  const refundIds = new Set<string>();
  for (const refund of facts.refundRows) {
    refundIds.add(refund.id);
    const amount = parseCents(refund.amount);
    const inLedger = refundedById.get(refund.id) ?? 0;
    // A refund that failed is undone: no money went back (docs/decisions/0022-money-in-combinations.md).
    if (refund.undoneAt) {
      if (inLedger !== 0)
        flag(`refund ${refund.id}`, `failed and was undone, yet the ledger has ${money(inLedger)} refunded`);
      continue;
    }
    if (refund.orderId)
      refundedByOrder.set(refund.orderId, (refundedByOrder.get(refund.orderId) ?? 0) + amount);
    if (refund.status === 'succeeded') {
      if (inLedger !== amount)
        flag(`refund ${refund.id}`, `refunded ${money(amount)}, the ledger has ${money(inLedger)}`);
    } else {
      if (inLedger !== 0)
        flag(`refund ${refund.id}`, `is ${refund.status}, yet the ledger has ${money(inLedger)} refunded`);
      refundsInFlight += amount;
      refundOwedByPayment.set(refund.paymentId, (refundOwedByPayment.get(refund.paymentId) ?? 0) + amount);
    }
  }
  for (const [refundId, amount] of refundedById)
    if (amount !== 0 && (!refundId || !refundIds.has(refundId)))
      flag(
        `refund ${refundId ?? '(none)'}`,
        `the ledger has a refund of ${money(amount)} no refund record explains`,
      );
  return { refundedByOrder, refundOwedByPayment, refundsInFlight };
}

/** 1. Payments. Answers how many were charged. */
function checkPayments(
  facts: ReconcileFacts,
  { charges, refundsMade }: LedgerSums,
  { refundedByOrder, refundOwedByPayment }: RefundState,
  flag: Flag,
): number {
  // What each payment's orders keep once their refunds, whole or partial, are taken off.
  const liveTotalByPayment = new Map<string, Cents>();
  for (const order of facts.orderRows) {
    if (!order.paymentId) continue;
    const kept = parseCents(order.total) - (refundedByOrder.get(order.id) ?? 0);
    liveTotalByPayment.set(order.paymentId, (liveTotalByPayment.get(order.paymentId) ?? 0) + kept);
  }
  const paymentIds = new Set<string>();
  let chargedPayments = 0;
  for (const payment of facts.paymentRows) {
    paymentIds.add(payment.id);
    const charged = charges.get(payment.id) ?? 0;
    if (!payment.processedAt) {
      if (charged !== 0)
        flag(`payment ${payment.id}`, `is not processed, yet the ledger has a charge of ${money(charged)}`);
      continue;
    }
    chargedPayments += 1;
    const amount = parseCents(payment.amount);
    if (charged !== amount)
      flag(`payment ${payment.id}`, `charged ${money(amount)}, the ledger has ${money(charged)}`);
    const refunded = refundsMade.get(payment.id) ?? 0;
    const owed = refundOwedByPayment.get(payment.id) ?? 0;
    const orders = liveTotalByPayment.get(payment.id) ?? 0;
    if (charged - refunded - owed !== orders)
      flag(
        `payment ${payment.id}`,
        `charge ${money(charged)} less refunds ${money(refunded + owed)} is ${money(charged - refunded - owed)}, its orders less their refunds total ${money(orders)}`,
      );
  }
  for (const [paymentId, amount] of [...charges, ...refundsMade])
    if (amount !== 0 && (!paymentId || !paymentIds.has(paymentId)))
      flag(
        `payment ${paymentId ?? '(none)'}`,
        `the ledger has ${money(amount)} of charges or refunds no payment explains`,
      );
  return chargedPayments;
}

/** 2. Finished orders, their payouts and fees; an unfinished order's total (less refunds) is held for it. */
function checkFinishedOrders(
  facts: ReconcileFacts,
  ledger: LedgerSums,
  refundedByOrder: Map<string, Cents>,
  flag: Flag,
): OrderTotals {
  const {
    feesByOrder,
    feeRefundsByOrder,
    transfersByPayout,
    reversalsByPayout,
    lossesByPayout,
    restoresByPayout,
  } = ledger;
  const partsByOrder = new Map<string, ReconcileFacts['disputePartRows']>();
  // A part undone (its prevented dispute's refund failed) took nothing and gave everything back.
  for (const part of facts.disputePartRows.filter((row) => row.undoneAt === null)) {
    const list = partsByOrder.get(part.orderId) ?? [];
    list.push(part);
    partsByOrder.set(part.orderId, list);
  }
  const payoutsByOrder = new Map<string, ReconcileFacts['payoutRows']>();
  for (const payout of facts.payoutRows) {
    const list = payoutsByOrder.get(payout.orderId) ?? [];
    list.push(payout);
    payoutsByOrder.set(payout.orderId, list);
  }
  const sharesByPayout = new Map<string, ReconcileFacts['reversalRows']>();
  for (const share of facts.reversalRows) {
    const list = sharesByPayout.get(share.payoutId) ?? [];
    list.push(share);
    sharesByPayout.set(share.payoutId, list);
  }
  const disputeFeeBack = new Map(facts.disputeFeeBackRows.map((row) => [row.orderId, parseCents(row.total)]));
  const totals: OrderTotals = {
    finishedOrders: 0,
    owedPayouts: 0,
    reversalsInFlight: 0,
    heldForOrders: 0,
    lossCount: 0,
  };
  const payoutIds = new Set(facts.payoutRows.map((payout) => payout.id));
  for (const order of facts.orderRows) {
    const subject = `order ${order.orderNumber}`;
    const refunded = refundedByOrder.get(order.id) ?? 0;
    const fee = feesByOrder.get(order.id) ?? 0;
    const feeBack = feeRefundsByOrder.get(order.id) ?? 0;
    const orderPayouts = payoutsByOrder.get(order.id) ?? [];
    const parts = partsByOrder.get(order.id) ?? [];
    const lostToDisputes = parts.reduce((sum, part) => sum + parseCents(part.amount), 0);
    if (!isFulfilled(order.status)) {
      // What is left of it is held for it: for a cancelled order, what a failed refund did not give back.
      totals.heldForOrders += parseCents(order.total) - refunded - lostToDisputes;
      if (fee !== 0 || feeBack !== 0)
        flag(subject, `is ${order.status}, yet the ledger has its platform fee`);
      if (orderPayouts.length > 0) flag(subject, `is ${order.status}, yet it has payouts`);
      continue;
    }
    totals.finishedOrders += 1;
    const platformFee = parseCents(order.platformFee);
    if (fee !== platformFee)
      flag(subject, `platform fee ${money(platformFee)}, the ledger has ${money(fee)} earned`);
    if (feeBack > platformFee)
      flag(subject, `the ledger gives back ${money(feeBack)} of its fee of ${money(platformFee)}`);
    const parties: Party[] = [
      { kind: 'seller', userId: order.sellerId, earnings: parseCents(order.sellerEarnings) },
    ];
    if (order.driverId)
      parties.push({ kind: 'driver', userId: order.driverId, earnings: parseCents(order.driverEarnings) });
    // Each refund, and each part of a lost dispute, is taken back from the seller, the driver and
    // the fee, to the cent (an undone take-back no longer counts).
    const feeBackForDisputes = disputeFeeBack.get(order.id) ?? 0;
    let takenForRefunds = feeBack - feeBackForDisputes;
    let takenForDisputes = feeBackForDisputes;
    for (const party of parties) {
      const payout = orderPayouts.find((row) => row.kind === party.kind);
      const shares = payout ? (sharesByPayout.get(payout.id) ?? []) : [];
      const taking = shares.filter((share) => TAKING.has(share.status));
      takenForRefunds += taking
        .filter((share) => share.disputeId === null)
        .reduce((sum, share) => sum + parseCents(share.amount), 0);
      takenForDisputes += taking
        .filter((share) => share.disputeId !== null)
        .reduce((sum, share) => sum + parseCents(share.amount), 0);
      const inFlight = checkPayout({ subject, party, payout, shares, ledger, flag });
      totals.owedPayouts += inFlight.owedPayouts;
      totals.reversalsInFlight += inFlight.reversalsInFlight;
      totals.lossCount += inFlight.losses;
    }
    if (takenForRefunds !== refunded)
      flag(
        subject,
        `refunded ${money(refunded)}, yet ${money(takenForRefunds)} was taken back from its payouts and fee`,
      );
    if (takenForDisputes !== lostToDisputes || parts.some((part) => part.takenBackAt === null))
      flag(
        subject,
        `lost ${money(lostToDisputes)} to disputes, yet ${money(takenForDisputes)} was taken back from its payouts and fee`,
      );
  }
  for (const [payoutId, amount] of [
    ...transfersByPayout,
    ...reversalsByPayout,
    ...lossesByPayout,
    ...restoresByPayout,
  ])
    if (amount !== 0 && (!payoutId || !payoutIds.has(payoutId)))
      flag(`payout ${payoutId ?? '(none)'}`, `the ledger moves ${money(amount)} for no payout`);
  return totals;
}

/** A party paid for a finished order: its seller, or its driver. */
interface Party {
  kind: 'seller' | 'driver';
  userId: string;
  earnings: Cents;
}

const sumShares = (shares: ReconcileFacts['reversalRows'], status: string) =>
  shares.filter((share) => share.status === status).reduce((sum, share) => sum + parseCents(share.amount), 0);

/**
 * One party's payout of a finished order against its stored earnings (less the shares taken back
 * before it went out) and the ledger's transfers, reversals and losses. Answers what of it is still
 * owed, still to be reversed, and how many shares were lost.
 */
function checkPayout({
  subject,
  party,
  payout,
  shares,
  ledger: { transfersByPayout, reversalsByPayout, lossesByPayout, restoresByPayout },
  flag,
}: {
  subject: string;
  party: Party;
  payout: ReconcileFacts['payoutRows'][number] | undefined;
  shares: ReconcileFacts['reversalRows'];
  ledger: LedgerSums;
  flag: Flag;
}): { owedPayouts: Cents; reversalsInFlight: Cents; losses: number } {
  let owedPayouts = 0;
  if (!payout) {
    if (party.earnings > 0)
      flag(subject, `the ${party.kind} earned ${money(party.earnings)} and has no payout`);
    return { owedPayouts, reversalsInFlight: 0, losses: 0 };
  }
  const amount = parseCents(payout.amount);
  const reduced = sumShares(shares, 'cancelled');
  if (amount + reduced !== party.earnings || payout.userId !== party.userId)
    flag(
      subject,
      `the ${party.kind}'s payout is ${money(amount)} after ${money(reduced)} taken back before it went out, the stored earnings ${money(party.earnings)}`,
    );
  const transferred = transfersByPayout.get(payout.id) ?? 0;
  const reversed = reversalsByPayout.get(payout.id) ?? 0;
  const lost = lossesByPayout.get(payout.id) ?? 0;
  const restoredInLedger = restoresByPayout.get(payout.id) ?? 0;
  const reversalsInFlight = sumShares(shares, 'pending');
  // Shares given back after their refund failed (docs/decisions/0022-money-in-combinations.md): one
  // that had been reversed was reversed, one that had been a reduction grew the payout back after
  // its transfer went out at the reduced amount; either is owed until transferred back, refused
  // (until an admin sends it again) or not.
  const givenBack = shares.filter(
    (share) => share.status === 'restoring' || share.status === 'refused' || share.status === 'restored',
  );
  const wasReversed = (share: (typeof shares)[number]) => share.providerReversalId !== null;
  const restoring = sumShares(shares, 'restoring') + sumShares(shares, 'refused');
  const expected = {
    transferred: 0,
    reversed:
      sumShares(shares, 'reversed') +
      givenBack.filter(wasReversed).reduce((sum, share) => sum + parseCents(share.amount), 0),
    lost: sumShares(shares, 'unrecovered'),
    restored: sumShares(shares, 'restored'),
  };
  const grownBack = givenBack
    .filter((share) => !wasReversed(share))
    .reduce((sum, share) => sum + parseCents(share.amount), 0);
  owedPayouts += restoring;
  switch (payout.status) {
    case 'paid':
      expected.transferred = amount - grownBack;
      break;
    case 'reversed': {
      expected.transferred = amount - grownBack;
      // Everything that went out came back: its transfer and any that gave a share back.
      const sent = expected.transferred + expected.restored;
      if (expected.reversed !== sent)
        flag(
          subject,
          `the ${party.kind}'s transfer is reversed, yet only ${money(expected.reversed)} of ${money(sent)} was taken back`,
        );
      break;
    }
    case 'cancelled':
      if (amount !== 0) flag(subject, `the ${party.kind}'s payout was cancelled with ${money(amount)} left`);
      break;
    default:
      if (NOT_TRANSFERRED.has(payout.status)) owedPayouts += amount;
  }
  if (
    transferred !== expected.transferred ||
    reversed !== expected.reversed ||
    lost !== expected.lost ||
    restoredInLedger !== expected.restored
  )
    flag(
      subject,
      `the ${party.kind}'s payout is ${payout.status}: the ledger has ${money(transferred)} transferred, ${money(reversed)} reversed, ${money(lost)} lost and ${money(restoredInLedger)} transferred back, expected ${money(expected.transferred)}, ${money(expected.reversed)}, ${money(expected.lost)} and ${money(expected.restored)}`,
    );
  const losses = shares.filter((share) => share.status === 'unrecovered').length;
  return { owedPayouts, reversalsInFlight, losses };
}

/** 3. The platform. Answers its cash and its balance. */
function checkPlatform(
  { total }: LedgerSums,
  { refundsInFlight }: RefundState,
  { heldForOrders, owedPayouts, reversalsInFlight }: OrderTotals,
  { fundsInDispute }: DisputeTotals,
  flag: Flag,
): { platformCash: Cents; platformBalance: Cents } {
  // The provider's fees and disputes leave the platform's cash (docs/decisions/0018-money-against-stripe.md).
  const platformCash =
    total('charge') -
    total('refund') +
    total('refund_failure') -
    total('transfer') -
    total('restore_transfer') +
    total('reversal') -
    total('provider_fee') -
    total('dispute') -
    total('dispute_fee') +
    total('dispute_reinstated') +
    total('dispute_fee_reinstated');
  const platformBalance = Object.entries(PLATFORM_BALANCE_SIGNS).reduce(
    (sum, [kind, sign]) => sum + sign * total(kind),
    0,
  );
  const held = heldForOrders + refundsInFlight + owedPayouts - reversalsInFlight;
  // Funds in dispute are still the platform's until the dispute is lost; the dispute fees are its cost.
  // The platform's balance already counts the dispute fees (PLATFORM_BALANCE_SIGNS).
  const kept = platformCash - held + fundsInDispute;
  if (kept !== platformBalance)
    flag(
      'platform',
      `holds ${money(platformCash)} and ${money(fundsInDispute)} in disputes, of which ${money(held)} is owed to others, leaving ${money(kept)}; its fees less fees given back, the provider's fees, dispute fees and losses borne are ${money(platformBalance)}`,
    );
  return { platformCash, platformBalance };
}

/** Reads the ledger and the records it must agree with, and answers every discrepancy. */
export async function reconcile(db: Db): Promise<ReconcileReport> {
  return findDiscrepancies(await readReconcileFacts(db));
}

/** The report as the command prints it: one line per discrepancy, then the figures. */
export function formatReconcileReport(report: ReconcileReport): string {
  const lines = report.discrepancies.map((d) => `DISCREPANCY ${d.subject}: ${d.message}`);
  // Explicit and balanced, so not a discrepancy; named so nobody mistakes it for money in flight.
  if (report.lossesBorne > 0)
    lines.push(
      `loss borne by the platform: ${money(report.lossesBorne)} (${report.lossCount} ${report.lossCount === 1 ? 'loss' : 'losses'}: shares of refunded orders the provider refused to reverse, and money already refunded that lost disputes took again)`,
    );
  lines.push(
    `${report.discrepancies.length === 0 ? 'OK' : `${report.discrepancies.length} discrepancies`}: ` +
      `${report.payments} charged payments, ${report.finishedOrders} finished orders; ` +
      `platform balance ${money(report.platformBalance)} (cash ${money(report.platformCash)}); ` +
      `owed payouts ${money(report.owedPayouts)}, refunds in flight ${money(report.refundsInFlight)}, ` +
      `reversals in flight ${money(report.reversalsInFlight)}, in disputes ${money(report.fundsInDispute)}`,
  );
  return lines.join('\n');
}
