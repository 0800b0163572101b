import type { Db } from '../../db/client';
import { recordMovement } from '../ledger/ledger.service';
import { parseCents } from '../../../domain/money';
import { findChargeOfOrder, insertPayouts, listReadyUsers, type NewPayoutRow } from './payouts.queries';

interface FinishedOrder {
  id: string;
  sellerId: string;
  driverId: string | null;
  sellerEarnings: string;
  driverEarnings: string;
  platformFee: string;
}

/**
 * When an order is delivered or completed, inside the status change's transaction
 * (docs/rules/catalog-and-orders.md, Order lifecycle; docs/decisions/0013-money-movement.md, Transfers and
 * the ledger): the seller's stored earnings, and the driver's when a driver delivered and earned something,
 * become payouts — pending when the party's account is ready, owed otherwise — and the platform's fee is
 * earned in the ledger. The transfers are made after the commit, and not before `holdMs` has passed (the
 * return window, PAYOUT_HOLD_HOURS: a refund within it moves no money;
 * docs/decisions/0018-money-against-stripe.md, Refunds).
 */
export async function recordOrderPayouts(
  tx: Db,
  order: FinishedOrder,
  now: Date,
  holdMs: number,
): Promise<void> {
  const charge = await findChargeOfOrder(tx, order.id);
  const currency = charge?.currency ?? 'usd';
  const parties: Array<{ kind: 'seller' | 'driver'; userId: string; amount: number }> = [
    { kind: 'seller', userId: order.sellerId, amount: parseCents(order.sellerEarnings) },
  ];
  if (order.driverId)
    parties.push({ kind: 'driver', userId: order.driverId, amount: parseCents(order.driverEarnings) });
  const owedTo = parties.filter((party) => party.amount > 0);
  const ready = await listReadyUsers(
    tx,
    owedTo.map((party) => party.userId),
  );
  const rows: NewPayoutRow[] = owedTo.map((party) => ({
    orderId: order.id,
    userId: party.userId,
    kind: party.kind,
    amount: order[party.kind === 'seller' ? 'sellerEarnings' : 'driverEarnings'],
    currency,
    status: ready.has(party.userId) ? 'pending' : 'owed',
    heldUntil: holdMs > 0 ? new Date(now.getTime() + holdMs) : null,
    createdAt: now,
    updatedAt: now,
  }));
  await insertPayouts(tx, rows);
  await recordMovement(tx, {
    kind: 'platform_fee',
    key: order.id,
    amount: parseCents(order.platformFee),
    currency,
    paymentId: charge?.paymentId ?? null,
    orderId: order.id,
    at: now,
  });
}
