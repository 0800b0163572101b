import { displayName, type Role } from '../../../domain/roles';
import type { OrderMessage, ProductMessage } from '../../../domain/messages';
import type { OrderParties } from '../../platform/policy';
import type { OrderMessageRow, ProductMessageRow } from './messages.queries';

export function toProductMessage(row: ProductMessageRow): ProductMessage {
  return {
    id: row.id,
    productId: row.productId,
    buyerId: row.buyerId,
    sellerId: row.sellerId,
    senderId: row.senderId,
    content: row.content,
    createdAt: row.createdAt.toISOString(),
  };
}

/** How the sender is linked to the order: buyer, seller, driver, or otherwise an admin. */
export function senderRoleOn(order: OrderParties, senderId: string): Role {
  if (senderId === order.buyerId) return 'buyer';
  if (senderId === order.sellerId) return 'seller';
  if (senderId === order.driverId) return 'driver';
  return 'admin';
}

export function toOrderMessage(row: OrderMessageRow, order: OrderParties): OrderMessage {
  return {
    id: row.id,
    orderId: row.orderId,
    senderId: row.senderId,
    content: row.content,
    createdAt: row.createdAt.toISOString(),
    sender: {
      firstName: row.senderFirstName,
      lastName: row.senderLastName,
      role: senderRoleOn(order, row.senderId),
    },
  };
}

/** "first last", otherwise the capitalised role word (docs/rules/screens-shared.md, Client behaviour). */
export function nameOf(person: { firstName: string | null; lastName: string | null }, role: Role): string {
  return displayName({ ...person, role });
}
