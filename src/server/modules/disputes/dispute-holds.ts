import type { Db } from '../../db/client';
import { findHoldingDispute } from './disputes.queries';

/**
 * Whether an order's payouts are held by a dispute on its payment
 * (docs/decisions/0018-money-against-stripe.md, Disputes): while the dispute is open, and once lost
 * until the sellers' and drivers' share has been taken back, nothing more goes out. A won or
 * closed dispute lets the retry job pay them.
 */
export function hasOpenDispute(db: Db, orderId: string): Promise<boolean> {
  return findHoldingDispute(db, orderId);
}
