import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';

/** What follows a step once its transaction has committed: the money moved at the providers. */
export type AfterCommit = (log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>) => Promise<void>;

/** An order as its steps announce it to the money. */
export interface SteppedOrder {
  id: string;
  paymentId: string | null;
  total: string;
  sellerId: string;
  driverId: string | null;
  sellerEarnings: string;
  driverEarnings: string;
  platformFee: string;
}

/**
 * Money follows orders, never the reverse (docs/ARCHITECTURE.md, Money flows one way): an order
 * announces the steps money cares about inside the transaction that records them, and the money
 * modules answer in that transaction (a refund recorded, payouts owed) with the work to do after the
 * commit. The orders module knows only this interface; the refunds module implements it and the app
 * hands it to the order operations in their bag (`OrderDeps.orderSteps`, built by
 * `src/server/platform/operations.ts`).
 */
export interface OrderStepFollower {
  /** The order was cancelled: what is left of it goes back to the buyer. */
  cancelled(tx: Db, order: SteppedOrder, now: Date): Promise<AfterCommit>;
  /** The order was delivered or completed: its earnings become payouts. */
  finished(tx: Db, order: SteppedOrder, now: Date): Promise<AfterCommit>;
}
