import { Check, MapPin, Navigation, Package, StickyNote, X } from 'lucide-react';
import type { AvailableOrder } from '@domain/deliveries';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent } from '../../../components/ui/card';
import { formatAddressLine, formatDateTime, formatOneDecimal, formatPrice } from '../../../lib/format';

/** "2.0 mi away", "10.4 mi trip": distances with 1 decimal (docs/product-rules.md, Client behaviour). */
const miles = (value: number) => `${formatOneDecimal(value)} mi`;

function Stop({
  icon,
  label,
  distance,
  place,
  testId,
}: {
  icon: typeof MapPin;
  label: string;
  distance: string | null;
  place: string;
  testId: string;
}) {
  const Icon = icon;
  return (
    <div className="flex gap-3">
      <Icon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-baseline justify-between gap-x-2 text-xs text-muted-foreground">
          <span className="font-medium uppercase tracking-wide">{label}</span>
          {distance ? (
            <span className="tabular-nums" data-testid={`${testId}-distance`}>
              {distance}
            </span>
          ) : null}
        </p>
        <p className="break-words text-sm" data-testid={testId}>
          {place}
        </p>
      </div>
    </div>
  );
}

/**
 * One offer of "Available Orders" (docs/product-rules.md, Deliveries): what the driver earns, where
 * to collect and how far, the delivery area and the trip, the number of items, and Accept /
 * Decline. No prices of the purchase.
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
  return (
    <Card role="article" aria-labelledby={titleId} data-testid={`card-available-${order.id}`}>
      <CardContent className="flex flex-col gap-4 p-4">
        <div className="flex items-start justify-between gap-3">
          <div className="flex min-w-0 flex-col">
            <h3 id={titleId} className="font-semibold" data-testid={`text-available-number-${order.id}`}>
              {order.orderNumber}
            </h3>
            {placed ? <p className="text-xs text-muted-foreground">Placed {placed}</p> : null}
          </div>
          <div className="flex shrink-0 flex-col items-end gap-1">
            <span
              className="text-lg font-bold tabular-nums"
              data-testid={`text-available-earnings-${order.id}`}
            >
              {formatPrice(order.driverEarnings)}
            </span>
            <span className="text-xs text-muted-foreground">Your earnings</span>
          </div>
        </div>
        {order.requiresTrailer ? (
          <Badge variant="warning" className="self-start" data-testid={`badge-trailer-${order.id}`}>
            Trailer required
          </Badge>
        ) : null}
        <div className="flex flex-col gap-3">
          <Stop
            icon={MapPin}
            label="Pickup"
            distance={order.pickupDistance === null ? null : `${miles(order.pickupDistance)} away`}
            place={pickup}
            testId={`text-available-pickup-${order.id}`}
          />
          <Stop
            icon={Navigation}
            label="Deliver to"
            distance={order.deliveryDistance === null ? null : `${miles(order.deliveryDistance)} trip`}
            place={area}
            testId={`text-available-area-${order.id}`}
          />
          <p className="flex items-center gap-3 text-sm">
            <Package className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
            {order.itemCount === 1 ? '1 item' : `${order.itemCount} items`}
          </p>
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
            onClick={onDecline}
            disabled={isBusy}
            aria-describedby={titleId}
            data-testid={`button-decline-${order.id}`}
          >
            <X aria-hidden="true" />
            Decline
          </Button>
          <Button
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
