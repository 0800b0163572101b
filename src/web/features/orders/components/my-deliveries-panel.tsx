import { useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { LoadFailed } from '../../../components/load-failed';
import { Card, CardContent } from '../../../components/ui/card';
import { useErrorToast } from '../../../lib/use-error-toast';
import { useHasHydrated } from '../../../lib/use-has-hydrated';
import { orderItemsQueryOptions } from '../api/get-order-items';
import { FETCH_ORDERS_FAILED, useOrders } from '../api/get-orders';
import { deliveriesInOrder } from '../order-view';
import { ArrivalTimeEditor, canEditArrival } from './arrival-time-editor';
import type { PhotoUploader } from './delivery-photo-dialog';
import { DirectionsPanel } from './directions-panel';
import { DriverOrderActions } from './driver-order-actions';
import { canHandBack, HandBackDialog } from './hand-back-dialog';
import { OrderDetails } from './order-details';
import { RecentOrdersList } from './recent-orders-list';

/**
 * The tab My Deliveries (docs/rules/screens-work.md, Driver dashboard): the driver's orders, those under
 * way first; the selected one with its next step, Hand Back before Start Delivery, and the arrival
 * time editor while it is under way, then the shared order details viewed as Driver.
 */
export function MyDeliveriesPanel({
  driverId,
  chosenId,
  onChoose,
  onDelivered,
  uploader,
}: {
  driverId: string;
  /** The delivery chosen (a click, an accepted offer, `?order=`); the first one otherwise. */
  chosenId: string | null;
  onChoose: (orderId: string) => void;
  /** A delivery was marked delivered: the page refreshes the driver's earnings. */
  onDelivered: () => void;
  /** The delivery photo's uploader (another feature's), passed in by the page. */
  uploader: PhotoUploader;
}) {
  const orders = useOrders('driver');
  // The details (timeline, people, items, messages) lie below a phone's first screen: a page the
  // server rendered shows the next step and the list first, and draws the details right after it
  // runs, in small slices (docs/decisions/0014-first-load.md).
  const showDetails = useHasHydrated();
  const detailsRef = useRef<HTMLDivElement>(null);
  useErrorToast(orders.error, FETCH_ORDERS_FAILED);

  const list = orders.data ? deliveriesInOrder(orders.data) : undefined;
  const selected = list?.find((order) => order.id === chosenId) ?? list?.[0];
  // The same query as the details' item list: no second request, but the driver's own toast.
  const items = useQuery({ ...orderItemsQueryOptions(selected?.id ?? ''), enabled: Boolean(selected) });
  useErrorToast(items.error, 'Failed to fetch order items');

  if (orders.isLoading)
    return (
      <p role="status" className="text-sm text-muted-foreground">
        Loading orders...
      </p>
    );
  if (orders.isError || !list)
    return (
      <LoadFailed
        message={FETCH_ORDERS_FAILED}
        onRetry={() => void orders.refetch()}
        isRetrying={orders.isFetching}
        className="rounded-xl"
      />
    );
  if (list.length === 0)
    return (
      <p
        className="rounded-xl border border-dashed p-8 text-center text-sm text-muted-foreground"
        data-testid="text-no-deliveries"
      >
        No deliveries yet. Accept an order from Available Orders to start.
      </p>
    );

  const select = (orderId: string) => {
    onChoose(orderId);
    // On a phone the details sit under the list: bring them into view.
    window.setTimeout(() => detailsRef.current?.scrollIntoView({ block: 'start' }), 0);
  };

  // On a phone the selected delivery's next step comes first, then the list, then its details; on a
  // wide screen the list is a column of its own beside them.
  return (
    <div className="grid grid-cols-1 gap-4 sm:gap-6 lg:grid-cols-3 lg:items-start">
      {selected && canEditArrival(selected) ? (
        // Keyed by the order: another one starts with its own step and arrival time.
        <Card
          key={`actions-${selected.id}`}
          className="scroll-mt-20 lg:col-span-2 lg:col-start-2 lg:row-start-1"
          data-testid="card-delivery-actions"
        >
          <CardContent className="flex flex-col gap-4 p-4 sm:p-6">
            <h2 className="font-semibold">{selected.orderNumber}</h2>
            <DriverOrderActions
              order={selected}
              uploader={uploader}
              onChanged={(changed) => {
                if (changed.status === 'delivered') onDelivered();
              }}
            />
            {canHandBack(selected, driverId) ? <HandBackDialog order={selected} /> : null}
            <DirectionsPanel order={selected} />
            <ArrivalTimeEditor order={selected} />
          </CardContent>
        </Card>
      ) : null}
      <section
        aria-label="Your deliveries"
        className="flex flex-col gap-3 lg:col-start-1 lg:row-span-2 lg:row-start-1"
      >
        <RecentOrdersList
          orders={list}
          selectedId={selected?.id ?? null}
          onSelect={select}
          showTotals={false}
          showPickup
        />
      </section>
      {/* Below a phone's first screen: laid out when scrolled near, not with the page. */}
      <div
        ref={detailsRef}
        className="flex scroll-mt-20 flex-col gap-4 [contain-intrinsic-size:auto_1200px] [content-visibility:auto] lg:col-span-2 lg:col-start-2"
      >
        {selected && showDetails ? (
          <OrderDetails key={selected.id} order={selected} viewerRole="driver" viewerId={driverId} />
        ) : null}
      </div>
    </div>
  );
}
