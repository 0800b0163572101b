import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orders } from '../../db/schema';

/** The order's number and people, all a conversation needs of it. */
export async function findOrderParties(db: Db, orderId: string) {
  const rows = await db
    .select({
      id: orders.id,
      orderNumber: orders.orderNumber,
      buyerId: orders.buyerId,
      sellerId: orders.sellerId,
      driverId: orders.driverId,
    })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  return rows[0];
}
