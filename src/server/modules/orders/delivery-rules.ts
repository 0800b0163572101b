import { conflict } from '../../platform/errors';
import { isActiveDelivery, orderStatusSchema, STATUS_BADGE } from '../../../domain/order-status';
import type { OrderRow } from './orders.queries';

/**
 * The arrival time and the delivery photo change only while the driver works on the order
 * (assigned or in transit; docs/rules/deliveries.md, Deliveries): afterwards a 409 names the status.
 */
export function assertDeliveryInProgress(order: Pick<OrderRow, 'status'>, what: string): void {
  if (isActiveDelivery(order.status)) return;
  const status = orderStatusSchema.parse(order.status);
  throw conflict(`This order is ${STATUS_BADGE[status]}: ${what} can no longer change.`);
}
