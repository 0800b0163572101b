import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { OrderStepFollower } from './order-steps';

/**
 * What an operation that moves an order needs: the database, the clock, a log, and the money that
 * follows its steps (docs/ARCHITECTURE.md, Money flows one way).
 */
export interface OrderDeps {
  db: Db;
  now: () => Date;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  orderSteps: OrderStepFollower;
}
