import { useEffect, useMemo, useRef } from 'react';
import type { Order } from '@domain/orders';
import { LoadFailed } from '../../../components/load-failed';
import { useOrders } from '../api/get-orders';
import { selectedOrderId } from '../order-view';
import { useChosenOrder } from '../use-chosen-order';
import { OrderDetails } from './order-details';
import { RecentOrdersList } from './recent-orders-list';
import { SellerOrderActions, sellerStepOf } from './seller-order-actions';

/**
 * The orders waiting for the seller's own next step first (docs/rules/screens-work.md, Seller screens),
 * then the rest, each part in the list's own order (newest first).
 */
export function sellerOrdersInOrder<T extends Pick<Order, 'status' | 'isPickup' | 'sellerDelivery'>>(
  orders: readonly T[],
): T[] {
  const waiting = orders.filter((order) => sellerStepOf(order) !== null);
  return [...waiting, ...orders.filter((order) => sellerStepOf(order) === null)];
}

/** Below the lg breakpoint the details sit under the list: choosing an order scrolls to them. */
function isStacked(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(max-width: 1023px)').matches;
}

/**
 * The orders of the seller's products (GET /api/orders?as=seller, polled every 60 s), those waiting
 * for the seller first and the first of them selected, with the shared order details viewed as Seller: the seller's next step and Cancel while
 * pending (docs/rules/catalog-and-orders.md, Order lifecycle).
 */
export function SellerOrdersPanel({
  sellerId,
  requestedId = null,
  onChanged,
}: {
  sellerId: string;
  /** The order a link asked for (`?order=`), selected when it is the seller's. */
  requestedId?: string | null;
  /** After the seller moved an order on: what else the step changes (the earnings) is the page's. */
  onChanged: (order: Order) => void;
}) {
  const orders = useOrders('seller');
  const listed = useMemo(() => (orders.data ? sellerOrdersInOrder(orders.data) : undefined), [orders.data]);
  const waitingCount = listed?.filter((order) => sellerStepOf(order) !== null).length ?? 0;
  const [chosenId, setChosenId] = useChosenOrder(requestedId);
  const detailsRef = useRef<HTMLDivElement>(null);
  const selectedId = selectedOrderId(listed, chosenId, requestedId);
  const selected = listed?.find((order) => order.id === selectedId);

  const showDetails = () => {
    if (!isStacked()) return;
    const behavior = window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
    window.setTimeout(() => detailsRef.current?.scrollIntoView({ behavior, block: 'start' }), 0);
  };

  const select = (orderId: string) => {
    setChosenId(orderId);
    showDetails();
  };

  // A link to one order (a toast's View) is about that order: on a phone its details are brought
  // into view once it is shown.
  const shownRequestId = useRef<string | null>(null);
  const isRequestedShown = requestedId !== null && selected?.id === requestedId;
  useEffect(() => {
    if (!isRequestedShown || shownRequestId.current === requestedId) return;
    shownRequestId.current = requestedId;
    showDetails();
  });

  if (orders.isLoading)
    return (
      <p role="status" className="text-sm text-muted-foreground">
        Loading orders...
      </p>
    );
  if (orders.isError || !listed)
    return (
      <LoadFailed
        message="Your orders could not be loaded."
        onRetry={() => void orders.refetch()}
        isRetrying={orders.isFetching}
      />
    );
  if (listed.length === 0)
    return (
      <p
        className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground"
        data-testid="text-no-seller-orders"
      >
        No orders yet. Orders of your products show here as soon as they are paid.
      </p>
    );
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
      <div className="flex max-h-[48rem] min-w-0 flex-col gap-3 overflow-y-auto lg:pr-1">
        <p className="text-sm text-muted-foreground" role="status" data-testid="text-orders-waiting">
          {waitingCount === 0
            ? 'No order is waiting for you.'
            : `${waitingCount} ${waitingCount === 1 ? 'order is' : 'orders are'} waiting for your next step.`}
        </p>
        <RecentOrdersList orders={listed} selectedId={selectedId} onSelect={select} />
      </div>
      <div ref={detailsRef} className="min-w-0 scroll-mt-20 lg:col-span-2">
        {selected ? (
          <OrderDetails
            key={selected.id}
            order={selected}
            viewerRole="seller"
            viewerId={sellerId}
            actions={<SellerOrderActions order={selected} onChanged={onChanged} />}
          />
        ) : null}
      </div>
    </div>
  );
}
