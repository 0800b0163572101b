import type { Db } from '../../db/client';
import { notFound } from '../../platform/errors';
import { hasRole, isAdmin } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import { getPlatformBalance } from '../ledger/ledger.service';
import { formatCents, parseCents } from '../../../domain/money';
import type {
  AdminPayouts,
  FailedPayout,
  MyPayouts,
  PayoutStatus,
  PayoutView,
} from '../../../domain/payouts';
import {
  listDisputeLosses,
  type FailingPayoutRow,
  listFailingPayouts,
  listPayoutsOfUser,
  listReversalLosses,
  sumReversedOfUser,
  sumPayoutsOfUser,
  sumUnsentPayouts,
  type PayoutRow,
} from './payouts.queries';

const HISTORY_LENGTH = 200;

function toPayoutView(payout: PayoutRow, orderNumber: string): PayoutView {
  return {
    id: payout.id,
    orderId: payout.orderId,
    orderNumber,
    kind: payout.kind === 'driver' ? 'driver' : 'seller',
    amount: formatCents(parseCents(payout.amount)),
    status: payout.status as PayoutStatus, // the column's check constraint allows only these
    createdAt: payout.createdAt.toISOString(),
    paidAt: payout.paidAt?.toISOString() ?? null,
    reversedAt: payout.reversedAt?.toISOString() ?? null,
  };
}

/**
 * GET /api/payouts: a seller's or driver's own payouts per order and the sums the earnings screens
 * show (docs/decisions/0013-money-movement.md, Transfers and the ledger): owed (waiting for the
 * account, being sent, or refused), paid out, and reversed.
 */
export async function getMyPayouts(db: Db, actor: Actor): Promise<MyPayouts> {
  if (!hasRole(actor, 'seller') && !hasRole(actor, 'driver') && !isAdmin(actor)) throw notFound('Not found');
  const [rows, sums, reversedText] = await Promise.all([
    listPayoutsOfUser(db, actor.id, HISTORY_LENGTH),
    sumPayoutsOfUser(db, actor.id),
    sumReversedOfUser(db, actor.id),
  ]);
  // A transfer partly or wholly taken back by refunds counts as paid out only for what is left
  // (docs/decisions/0018-money-against-stripe.md, Refunds).
  const reversed = parseCents(reversedText);
  const centsOf = (statuses: string[]) =>
    sums
      .filter((row) => statuses.includes(row.status))
      .reduce((total, row) => total + parseCents(row.total), 0);
  const sumOf = (statuses: string[]) => formatCents(centsOf(statuses));
  return {
    owed: sumOf(['owed', 'pending', 'failed', 'refused']),
    paidOut: formatCents(centsOf(['paid', 'reversed']) - reversed),
    reversed: formatCents(reversed),
    payouts: rows.map((row) => toPayoutView(row.payout, row.orderNumber)),
  };
}

/** GET /api/admin/payouts: the platform's balance, the payouts that fail and the losses the platform bore. */
export async function getAdminPayouts(db: Db): Promise<AdminPayouts> {
  const [balance, failing, unsent, losses, disputeLosses] = await Promise.all([
    getPlatformBalance(db),
    listFailingPayouts(db, HISTORY_LENGTH),
    sumUnsentPayouts(db),
    listReversalLosses(db, HISTORY_LENGTH),
    listDisputeLossesForAdmin(db, HISTORY_LENGTH),
  ]);
  return {
    platformBalance: formatCents(balance),
    owedPayouts: formatCents(parseCents(unsent)),
    failed: failing.map(toFailedPayout),
    losses: [
      ...losses.map((row) => ({
        id: row.reversal.id,
        orderId: row.orderId,
        orderNumber: row.orderNumber,
        kind: row.kind === 'driver' ? ('driver' as const) : ('seller' as const),
        userName: [row.firstName, row.lastName].filter(Boolean).join(' ') || 'Unnamed user',
        amount: formatCents(parseCents(row.reversal.amount)),
        providerMessage: row.reversal.lastError,
        at: row.reversal.updatedAt.toISOString(),
      })),
      ...disputeLosses,
    ]
      .sort((a, b) => b.at.localeCompare(a.at))
      .slice(0, HISTORY_LENGTH),
  };
}

/** A failing payout as the admin sees it: who, which order, how often it was tried and refused, and what the provider said. */
export function toFailedPayout(row: FailingPayoutRow): FailedPayout {
  return {
    ...toPayoutView(row.payout, row.orderNumber),
    userName: [row.firstName, row.lastName].filter(Boolean).join(' ') || 'Unnamed user',
    attempts: row.payout.attempts,
    refusals: row.payout.refusals,
    nextAttemptAt: row.payout.nextAttemptAt?.toISOString() ?? null,
    lastError: row.payout.lastError ?? row.refusedShareError,
    refusedShare: row.refusedShare === null ? null : formatCents(parseCents(row.refusedShare)),
  };
}

/** Lost disputes that took money already refunded: the platform's losses, as the admin's Losses table lists them. */
async function listDisputeLossesForAdmin(db: Db, limit: number) {
  const rows = await listDisputeLosses(db, limit);
  return rows.map((row) => ({
    id: `dispute-loss-${row.id}`,
    orderId: row.orderId,
    orderNumber: row.orderNumbers,
    kind: 'dispute' as const,
    userName: [row.firstName, row.lastName].filter(Boolean).join(' ') || 'Unnamed user',
    amount: formatCents(parseCents(row.amount)),
    providerMessage: `Lost a dispute of $${formatCents(parseCents(row.disputeAmount))} (${row.reason}) after $${formatCents(parseCents(row.amount))} had been refunded`,
    at: row.at.toISOString(),
  }));
}
