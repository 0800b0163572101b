import { MapPin, Store } from 'lucide-react';
import { PICKUP_ADDRESS_NOT_AVAILABLE } from '@domain/address-messages';
import type { Order } from '@domain/orders';
import { formatPrice } from '../../../lib/format';
import { formatPickupAddress } from '../order-view';
import { cn } from '../../../lib/utils';
import { OrderRefundBadge, OrderStatusBadge } from './order-status-badge';
import { OrderDisputeBadge } from './order-dispute-badge';

export const NO_ORDERS_TEXT = 'No orders yet. Start shopping to place your first order!';

/** The first characters of an id: enough to tell orders apart, short enough for a card. */
function shortId(id: string): string {
  return id.slice(0, 8);
}

/**
 * "Recent Orders" (docs/rules/screens-buyer.md, Order screens): a card per order with its id, order
 * number, status, total and delivery address; the selected card is highlighted. A driver's cards
 * (`showPickup`) show where to collect the order too (docs/rules/screens-work.md, Driver dashboard).
 */
export function RecentOrdersList({
  orders,
  selectedId,
  onSelect,
  showTotals = true,
  showPickup = false,
}: {
  orders: readonly Order[];
  selectedId: string | null;
  onSelect: (orderId: string) => void;
  showTotals?: boolean;
  showPickup?: boolean;
}) {
  if (orders.length === 0) {
    return (
      <p
        className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground"
        data-testid="text-no-orders"
      >
        {NO_ORDERS_TEXT}
      </p>
    );
  }
  return (
    <ul className="flex flex-col gap-3" data-testid="list-orders">
      {orders.map((order) => {
        const selected = order.id === selectedId;
        return (
          <li key={order.id}>
            <button
              type="button"
              onClick={() => onSelect(order.id)}
              aria-pressed={selected}
              className={cn(
                'flex w-full flex-col gap-2 rounded-xl border bg-card p-4 text-left text-card-foreground shadow-sm transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background',
                selected ? 'border-primary bg-accent/60 ring-1 ring-primary' : 'hover:bg-accent/40',
              )}
              data-testid={`card-order-${order.id}`}
              data-selected={selected}
            >
              <span className="flex items-start justify-between gap-2">
                <span className="flex min-w-0 flex-col">
                  <span className="font-semibold">{order.orderNumber}</span>
                  <span className="font-mono text-xs text-muted-foreground" title={order.id}>
                    <span className="sr-only">Order id </span>#{shortId(order.id)}
                  </span>
                </span>
                <span className="flex shrink-0 flex-wrap justify-end gap-1">
                  <OrderStatusBadge status={order.status} />
                  <OrderRefundBadge state={order.refundState} />
                  <OrderDisputeBadge dispute={order.dispute} />
                </span>
              </span>
              {showTotals && order.total ? (
                <span className="text-sm font-medium tabular-nums">{formatPrice(order.total)}</span>
              ) : null}
              {showPickup ? (
                <span className="flex items-start gap-1.5 text-xs text-muted-foreground">
                  <Store className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
                  <span className="line-clamp-2 break-words" data-testid={`text-card-pickup-${order.id}`}>
                    <span className="font-medium text-foreground">Pickup: </span>
                    {formatPickupAddress(order.pickupAddress) ?? PICKUP_ADDRESS_NOT_AVAILABLE}
                  </span>
                </span>
              ) : null}
              <span className="flex items-start gap-1.5 text-xs text-muted-foreground">
                <MapPin className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
                <span className="line-clamp-2 break-words" data-testid={`text-card-dropoff-${order.id}`}>
                  {showPickup ? <span className="font-medium text-foreground">Drop-off: </span> : null}
                  {order.deliveryAddress}
                </span>
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
