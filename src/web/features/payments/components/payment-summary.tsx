import { CalendarClock, StickyNote, Store, Truck } from 'lucide-react';
import type { CheckoutOrder, PaymentIntent } from '@domain/checkout';
// Pickup times in the marketplace time zone, as the slot was labelled (docs/rules/running.md, Dates and
// times).
import { formatPickupTime, formatPrice } from '../../../lib/format';

function OrderLine({ order }: { order: CheckoutOrder }) {
  const units = order.items.reduce((sum, item) => sum + item.quantity, 0);
  return (
    <li className="flex flex-col gap-2 py-3 first:pt-0" data-testid={`payment-order-${order.sellerId}`}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-medium">{order.sellerName}</p>
          <p className="text-xs text-muted-foreground">{units === 1 ? '1 item' : `${units} items`}</p>
        </div>
        <span className="shrink-0 font-medium tabular-nums">{formatPrice(order.total)}</span>
      </div>
      <ul className="flex flex-col gap-1 text-sm text-muted-foreground">
        {order.items.map((item) => (
          <li key={item.productId} className="flex justify-between gap-3">
            <span className="min-w-0 break-words">
              {item.name} × {item.quantity}
            </span>
            <span className="shrink-0 tabular-nums">{formatPrice(item.lineTotal)}</span>
          </li>
        ))}
        <li className="flex justify-between gap-3">
          <span>Delivery fee</span>
          <span className="tabular-nums">{formatPrice(order.deliveryFee)}</span>
        </li>
      </ul>
      {order.isPickup && order.scheduledPickupTime ? (
        <p
          className="flex items-center gap-2 text-xs text-muted-foreground"
          data-testid={`text-payment-pickup-time-${order.sellerId}`}
        >
          <CalendarClock className="size-3.5" aria-hidden="true" />
          Pickup {formatPickupTime(order.scheduledPickupTime)}
        </p>
      ) : null}
    </li>
  );
}

/** What is being paid: the orders of the checkout (one per seller) as the server priced them. */
export function PaymentSummary({ intent }: { intent: PaymentIntent }) {
  const { quote } = intent;
  return (
    <div className="flex flex-col gap-4">
      <p className="flex items-start gap-2 text-sm">
        {quote.isPickup ? (
          <>
            <Store className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
            <span>Pickup from the seller</span>
          </>
        ) : (
          <>
            <Truck className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
            <span>
              Delivery to <span className="font-medium">{quote.deliveryAddress ?? 'your address'}</span>
            </span>
          </>
        )}
      </p>
      {quote.deliveryNotes ? (
        <p className="flex items-start gap-2 text-sm text-muted-foreground">
          <StickyNote className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>Notes: {quote.deliveryNotes}</span>
        </p>
      ) : null}
      <ul className="flex flex-col divide-y">
        {quote.orders.map((order) => (
          <OrderLine key={order.sellerId} order={order} />
        ))}
      </ul>
      <dl className="flex flex-col gap-2 border-t pt-4 text-sm">
        <div className="flex justify-between gap-3">
          <dt>Subtotal</dt>
          <dd className="tabular-nums">{formatPrice(quote.productSubtotal)}</dd>
        </div>
        <div className="flex justify-between gap-3">
          <dt>{quote.orders.length > 1 ? 'Delivery fees' : 'Delivery fee'}</dt>
          <dd className="tabular-nums">{formatPrice(quote.deliveryFee)}</dd>
        </div>
        <div className="flex justify-between gap-3 border-t pt-3 text-lg font-semibold">
          <dt>Amount to pay</dt>
          <dd className="tabular-nums" data-testid="text-payment-amount">
            {formatPrice(intent.amount)}
          </dd>
        </div>
      </dl>
    </div>
  );
}
