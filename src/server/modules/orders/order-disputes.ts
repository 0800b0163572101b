import type { Db } from '../../db/client';
import { disputeStatusSchema, type OrderDispute } from '../../../domain/disputes';
import { formatCents, parseCents } from '../../../domain/money';
import { listDisputesOfPayments } from './orders.queries';

/** A dispute as an order shows it, before the viewer's prices are decided. */
export interface OrderDisputeFacts {
  status: OrderDispute['status'];
  amount: string;
  evidenceDueBy: string | null;
}

/**
 * The disputes of these orders' payments, by payment id (the newest when there were several), for
 * the orders' views (docs/decisions/0018-money-against-stripe.md, Disputes).
 */
export async function findOrderDisputes(
  db: Db,
  paymentIds: ReadonlyArray<string | null>,
): Promise<Map<string, OrderDisputeFacts>> {
  const ids = [...new Set(paymentIds.filter((id): id is string => id !== null))];
  const byPayment = new Map<string, OrderDisputeFacts>();
  for (const row of await listDisputesOfPayments(db, ids)) {
    byPayment.set(row.paymentId, {
      status: disputeStatusSchema.parse(row.status),
      amount: formatCents(parseCents(row.amount)),
      evidenceDueBy: row.evidenceDueBy?.toISOString() ?? null,
    });
  }
  return byPayment;
}

/** The order's `dispute` field: no amount for a viewer who may not see prices (a driver). */
export function toOrderDispute(
  facts: OrderDisputeFacts | undefined,
  showPrices: boolean,
): OrderDispute | null {
  if (!facts) return null;
  return showPrices
    ? { status: facts.status, amount: facts.amount, evidenceDueBy: facts.evidenceDueBy }
    : { status: facts.status };
}
