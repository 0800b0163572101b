import { Check, MapPin, Navigation, Package, StickyNote, Truck, X } from 'lucide-react';
import type { AvailableOrder } from '@domain/deliveries';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent } from '../../../components/ui/card';
import { formatAddressLine, formatDateTime, formatOneDecimal, formatPrice } from '../../../lib/format';

/** "2.0 mi away", "10.4 mi trip": distances with 1 decimal (docs/rules/screens-shared.md, Client behaviour). */
const miles = (value: number) => `${formatOneDecimal(value)} mi`;

/** The first lines of an offer's items: at most this many, then "+N more". */
export const OFFER_ITEM_LINES = 3;

/** "2 × Oak Table" for the first {@link OFFER_ITEM_LINES} items, and how many more there are. */
export function offerItemLines(items: AvailableOrder['items']): { lines: string[]; more: number } {
  return {
    lines: items.slice(0, OFFER_ITEM_LINES).map((item) => `${item.quantity} × ${item.name}`),
    more: Math.max(0, items.length - OFFER_ITEM_LINES),
  };
}

function Stop({
  icon,
  label,
  city,
  distance,
  place,
  testId,
}: {
  icon: typeof MapPin;
  label: string;
  city: string | null;
  distance: string | null;
  place: string;
  testId: string;
}) {
  const Icon = icon;
  return (
    <div className="flex gap-3">
      <Icon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p className="text-sm font-medium">
          {label}: {city ?? 'not given'}
          {distance ? (
            <>
              {' · '}
              <span className="tabular-nums" data-testid={`${testId}-distance`}>
                {distance}
              </span>
            </>
          ) : null}
        </p>
        <p className="break-words text-xs text-muted-foreground" data-testid={testId}>
          {place}
        </p>
      </div>
    </div>
  );
}

/**
 * One offer of "Available Orders" (docs/rules/deliveries.md, Deliveries; docs/rules/screens-work.md, Driver
 * dashboard): what the driver earns, the pickup city and how far it is, the drop-off area and the trip, the
 * items to carry (names and counts), the trailer need, and Accept / Decline, each a tap target of 44 px. No
 * prices of the purchase.
 */
export function AvailableOrderCard({
  order,
  onAccept,
  onDecline,
  isBusy,
}: {
  order: AvailableOrder;
  onAccept: () => void;
  onDecline: () => void;
  /** Accepting or declining this order is under way. */
  isBusy: boolean;
}) {
  const pickup = order.pickupAddress
    ? formatAddressLine(order.pickupAddress)
    : 'Pickup address not available';
  const area = order.deliveryArea
    ? `${order.deliveryArea.city}, ${order.deliveryArea.state} ${order.deliveryArea.zipCode}`
    : 'Location not available';
  const placed = formatDateTime(order.createdAt);
  const titleId = `available-order-${order.id}`;
  const { lines, more } = offerItemLines(order.items);
  return (
    <Card role="article" aria-labelledby={titleId} data-testid={`card-available-${order.id}`}>
      <CardContent className="flex flex-col gap-4 p-4">
        <div className="flex items-start justify-between gap-3">
          <div className="flex min-w-0 flex-col gap-1">
            <h3 id={titleId} className="font-semibold">
              {order.orderNumber}
            </h3>
            {placed ? <p className="text-xs text-muted-foreground">Placed {placed}</p> : null}
            {order.requiresTrailer ? (
              <Badge variant="warning" className="self-start" data-testid={`badge-trailer-${order.id}`}>
                <Truck aria-hidden="true" />
                Trailer required
              </Badge>
            ) : null}
          </div>
          <p className="flex shrink-0 flex-col items-end">
            <span className="text-xs text-muted-foreground">You earn</span>
            <span className="text-2xl font-bold tabular-nums text-primary">
              {formatPrice(order.driverEarnings)}
            </span>
          </p>
        </div>
        <div className="flex flex-col gap-3">
          <Stop
            icon={MapPin}
            label="Pickup"
            city={order.pickupAddress?.city ?? null}
            distance={order.pickupDistance === null ? null : `${miles(order.pickupDistance)} away`}
            place={pickup}
            testId={`text-available-pickup-${order.id}`}
          />
          <Stop
            icon={Navigation}
            label="Drop-off"
            city={order.deliveryArea?.city ?? null}
            distance={order.deliveryDistance === null ? null : `${miles(order.deliveryDistance)} trip`}
            place={area}
            testId={`text-available-area-${order.id}`}
          />
          <div className="flex gap-3 text-sm">
            <Package className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
            <div className="min-w-0 flex-1">
              <p className="font-medium">{order.itemCount === 1 ? '1 item' : `${order.itemCount} items`}</p>
              <ul className="flex flex-col" data-testid={`list-available-items-${order.id}`}>
                {lines.map((line, index) => (
                  // Two lines may read the same (the same product bought at two prices).
                  <li key={`${index}-${line}`} className="break-words">
                    {line}
                  </li>
                ))}
                {more > 0 ? <li className="text-muted-foreground">+{more} more</li> : null}
              </ul>
            </div>
          </div>
          {order.deliveryNotes ? (
            <p className="flex gap-3 text-sm">
              <StickyNote className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              <span className="break-words">{order.deliveryNotes}</span>
            </p>
          ) : null}
        </div>
        <div className="grid grid-cols-2 gap-2">
          <Button
            variant="outline"
            size="lg"
            onClick={onDecline}
            disabled={isBusy}
            aria-describedby={titleId}
            data-testid={`button-decline-${order.id}`}
          >
            <X aria-hidden="true" />
            Decline
          </Button>
          <Button
            size="lg"
            onClick={onAccept}
            disabled={isBusy}
            aria-describedby={titleId}
            data-testid={`button-accept-${order.id}`}
          >
            <Check aria-hidden="true" />
            Accept
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
