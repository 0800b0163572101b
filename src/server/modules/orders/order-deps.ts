import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { PaymentProvider } from '../../adapters/payments/payment-provider';

/** What an operation that changes an order needs: the database, the payment provider (refunds), the clock and a log. */
export interface OrderDeps {
  db: Db;
  payments: PaymentProvider;
  now: () => Date;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}
