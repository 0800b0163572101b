import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { ObjectStorage } from '../../adapters/storage/object-storage';
import type { OrderStepFollower } from './order-steps';

/**
 * What the order operations need, the driver's among them: the database, the clock, a log, the
 * money that follows their steps (docs/ARCHITECTURE.md, Money flows one way), and the object store
 * for the delivery and drop-off photos they claim.
 */
export interface OrderDeps {
  db: Db;
  now: () => Date;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  orderSteps: OrderStepFollower;
  storage: ObjectStorage;
}
