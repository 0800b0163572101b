import { conflict, notFound } from '../../platform/errors';
import { canManageDelivery } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import { getOrder } from './get-order';
import { ORDER_CHANGED_MEANWHILE } from './record-status-change';
import { claimUpload } from '../uploads/uploads.service';
import type { DeliveryPhotoBody } from '../../../domain/deliveries';
import { ORDER_NOT_FOUND, type Order } from '../../../domain/orders';
import type { OrderDeps } from './order-deps';
import { findOrderRow, setDeliveryPhotoUrl } from './orders.queries';
import { assertDeliveryInProgress } from './delivery-rules';

/**
 * PATCH /api/orders/{id}/delivery-photo (docs/rules/deliveries.md, Deliveries; docs/rules/selling.md, Uploads
 * and who sees a file): the assigned driver sets a photo they uploaded, while the order is assigned or in
 * transit. Setting it claims the upload for this order, so from then on only the order's buyer, seller and
 * driver and admins may read it. A trailer order needs it before it goes in transit. Anyone else gets 404; a
 * finished order 409; another user's upload 404, one already used elsewhere 409.
 */
export async function setDeliveryPhoto(
  deps: OrderDeps,
  actor: Actor,
  id: string,
  body: DeliveryPhotoBody,
): Promise<Order> {
  const order = await findOrderRow(deps.db, id);
  if (!order || !canManageDelivery(actor, order)) throw notFound(ORDER_NOT_FOUND);
  assertDeliveryInProgress(order, 'its delivery photo');
  await claimUpload(deps, actor, body.deliveryPhotoUrl, {
    purpose: 'delivery',
    orderId: id,
    alreadyHeld: order.deliveryPhotoUrl === body.deliveryPhotoUrl,
    assign: async (tx, objectPath) => {
      const changed = await setDeliveryPhotoUrl(tx, {
        orderId: id,
        driverId: actor.id,
        objectPath,
        now: deps.now(),
      });
      // Rolls the claim back with it: the upload stays the driver's to use again.
      if (!changed) throw conflict(ORDER_CHANGED_MEANWHILE);
    },
  });
  return getOrder(deps.db, actor, id);
}
