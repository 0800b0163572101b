import { useId } from 'react';
import { CheckCircle2, ExternalLink, KeyRound, MapPin } from 'lucide-react';
import { dropOffMapUrl } from '@domain/delivery-proof';
import { isActiveDelivery } from '@domain/order-status';
import type { Order } from '@domain/orders';
import { formatDateTime } from '../../../lib/format';

/**
 * The buyer's delivery code while the driver is on the way (docs/rules/deliveries.md, Deliveries): the
 * server sends it only to the buyer and admins, so nothing shows for the driver or the seller.
 */
export function DeliveryCodeNotice({ order }: { order: Order }) {
  const titleId = useId();
  if (!order.deliveryCode || !isActiveDelivery(order.status)) return null;
  return (
    <div
      role="group"
      aria-labelledby={titleId}
      className="mt-4 rounded-lg border border-primary/40 bg-accent px-3 py-2"
    >
      <p id={titleId} className="flex items-center gap-2 text-sm font-medium">
        <KeyRound className="size-4" aria-hidden="true" />
        Delivery code
      </p>
      <p className="font-mono text-2xl font-semibold tracking-[0.4em]">{order.deliveryCode}</p>
      <p className="text-xs text-muted-foreground">Give this code to your driver at drop-off.</p>
    </div>
  );
}

/** Whether the order has proof of delivery to show: a driver delivered it. */
export function hasDeliveryProof(order: Order): boolean {
  return order.status === 'delivered' && order.deliveredAt !== null;
}

/**
 * What Mark Delivered recorded (docs/rules/screens-buyer.md, Order screens): the time, the drop-off photo
 * (a thumbnail that opens the full picture), "Code confirmed" and the place on OpenStreetMap.
 */
export function DeliveryProof({ order }: { order: Order }) {
  const delivered = formatDateTime(order.deliveredAt);
  return (
    <div className="flex flex-col gap-3 text-sm">
      {delivered ? (
        <p>
          Delivered <span className="font-medium">{delivered}</span>
        </p>
      ) : null}
      {order.dropOffPhotoUrl ? (
        <a href={order.dropOffPhotoUrl} target="_blank" rel="noopener noreferrer" className="block w-fit">
          <img
            src={order.dropOffPhotoUrl}
            alt={`Drop-off photo of ${order.orderNumber}`}
            className="max-h-40 rounded-lg border object-cover"
            loading="lazy"
          />
          <span className="sr-only"> (opens the full photo in a new tab)</span>
        </a>
      ) : null}
      {order.deliveryCodeConfirmed ? (
        <p className="flex items-center gap-2">
          <CheckCircle2 className="size-4 text-green-600" aria-hidden="true" />
          Code confirmed
        </p>
      ) : null}
      {order.dropOffPlace ? (
        <a
          href={dropOffMapUrl(order.dropOffPlace)}
          target="_blank"
          rel="noopener noreferrer"
          className="flex w-fit items-center gap-2 underline underline-offset-4"
        >
          <MapPin className="size-4" aria-hidden="true" />
          Drop-off place
          <ExternalLink className="size-3" aria-hidden="true" />
          <span className="sr-only"> (opens OpenStreetMap in a new tab)</span>
        </a>
      ) : null}
    </div>
  );
}
