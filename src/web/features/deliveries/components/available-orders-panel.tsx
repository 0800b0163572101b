import { useState } from 'react';
import { Inbox, RotateCw, ShieldAlert } from 'lucide-react';
import { DRIVER_DISTANCE, type VerificationStep } from '@domain/deliveries';
import type { Order } from '@domain/orders';
import { Button } from '../../../components/ui/button';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useErrorToast } from '../../../lib/use-error-toast';
import { FETCH_ORDERS_FAILED } from '../../orders/api/get-orders';
import { useAcceptOrder } from '../api/accept-order';
import { useDeclineOrder } from '../api/decline-order';
import { useAvailableOrders } from '../api/get-available-orders';
import { useUndoDecline } from '../api/undo-decline';
import { AvailableOrderCard } from './available-order-card';
import { DeclinedOrderRow } from './declined-order-row';
import {
  DriverDistanceSlider,
  driverDistanceLabel,
  type DriverLocationStatus,
} from './driver-distance-slider';
import { missingStepsText } from './driver-verification-card';

/** The slider asks the server once it rests, as the buyer's distance filter does (docs/rules/screens-shared.md, Constants). */
export const DRIVER_DISTANCE_DEBOUNCE_MS = 500;

/**
 * The "Available Orders" tab (docs/rules/deliveries.md, Deliveries): the distance slider and the
 * orders offered to the driver, nearest pickup first, each with Accept and Decline; a declined one
 * shows as a row with Undo until the list is read again. A driver who is not verified yet is told
 * what is missing instead (the server would refuse the list).
 */
export function AvailableOrdersPanel({
  missing,
  locationStatus,
  onAccepted,
}: {
  /** What the driver still needs before orders are offered; empty when they may take orders. */
  missing: readonly VerificationStep[];
  locationStatus: DriverLocationStatus;
  onAccepted: (order: Order) => void;
}) {
  const [miles, setMiles] = useState<number>(DRIVER_DISTANCE.default);
  const askedMiles = useDebouncedValue(miles, DRIVER_DISTANCE_DEBOUNCE_MS);
  const mayTakeOrders = missing.length === 0;
  const offers = useAvailableOrders(askedMiles, mayTakeOrders);
  const [busyId, setBusyId] = useState<string | null>(null);
  const accept = useAcceptOrder({
    onAccepted,
    onFailed: (error) => toastMutationError(error, 'Failed to accept order', { appendServerMessage: true }),
  });
  // Each declined order, with the list's read it was declined in: its card gives way to a row
  // with Undo until the list is read again (docs/rules/screens-work.md, Driver dashboard).
  const [declined, setDeclined] = useState<Record<string, number>>({});
  const decline = useDeclineOrder({
    onDeclined: (orderId) => setDeclined((now) => ({ ...now, [orderId]: offers.dataUpdatedAt })),
    onFailed: (error) => toastMutationError(error, 'Failed to decline order', { appendServerMessage: true }),
  });
  const undo = useUndoDecline({
    onUndone: (orderId) =>
      setDeclined((now) => Object.fromEntries(Object.entries(now).filter(([id]) => id !== orderId))),
    onFailed: (error) => toastMutationError(error, 'Failed to undo decline', { appendServerMessage: true }),
  });
  useErrorToast(offers.error, FETCH_ORDERS_FAILED);

  if (!mayTakeOrders) {
    return (
      <div
        className="flex flex-col gap-2 rounded-xl border border-dashed p-6 text-sm"
        data-testid="text-offers-locked"
      >
        <p className="flex items-center gap-2 font-medium">
          <ShieldAlert className="size-4 text-amber-600 dark:text-amber-400" aria-hidden="true" />
          Orders appear here once you are verified
        </p>
        <p className="text-muted-foreground">
          Still needed: {missingStepsText(missing)}. Your verification card above shows how.
        </p>
      </div>
    );
  }

  const run = (
    orderId: string,
    action: typeof accept.mutate | typeof decline.mutate | typeof undo.mutate,
  ) => {
    setBusyId(orderId);
    action(orderId, { onSettled: () => setBusyId(null) });
  };

  return (
    <div className="flex flex-col gap-4">
      <DriverDistanceSlider miles={miles} onMilesChange={setMiles} locationStatus={locationStatus} />
      {offers.isLoading ? (
        <p role="status" className="text-sm text-muted-foreground">
          Loading orders...
        </p>
      ) : offers.isError || !offers.data ? (
        <div role="alert" className="flex flex-col items-start gap-3 rounded-xl border p-4 text-sm">
          <span>{FETCH_ORDERS_FAILED}</span>
          <Button
            variant="outline"
            size="sm"
            onClick={() => void offers.refetch()}
            disabled={offers.isFetching}
          >
            <RotateCw aria-hidden="true" />
            Try Again
          </Button>
        </div>
      ) : offers.data.length === 0 ? (
        <div
          className="flex flex-col items-center gap-2 rounded-xl border border-dashed p-8 text-center text-sm text-muted-foreground"
          data-testid="text-no-offers"
        >
          <Inbox className="size-6" aria-hidden="true" />
          <p>
            {askedMiles >= DRIVER_DISTANCE.max
              ? 'No orders are waiting for a driver right now.'
              : `No orders within ${driverDistanceLabel(askedMiles)}. Try a larger distance.`}
          </p>
        </div>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Available orders">
          {offers.data.map((order) => (
            <li key={order.id}>
              {declined[order.id] === offers.dataUpdatedAt ? (
                <DeclinedOrderRow
                  order={order}
                  isBusy={busyId === order.id}
                  onUndo={() => run(order.id, undo.mutate)}
                />
              ) : (
                <AvailableOrderCard
                  order={order}
                  isBusy={busyId === order.id}
                  onAccept={() => run(order.id, accept.mutate)}
                  onDecline={() => run(order.id, decline.mutate)}
                />
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
