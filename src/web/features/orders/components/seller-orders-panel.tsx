import { useMemo } from 'react';
import type { Order } from '@domain/orders';
import { LoadFailed } from '../../../components/load-failed';
import { useOrders } from '../api/get-orders';
import { selectedOrderId } from '../order-view';
import { useChosenOrder, useOrderDetailsInView } from '../use-chosen-order';
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

/**
 * The orders of the seller's products (GET /api/orders?as=seller, polled every 60 s), those waiting for the
 * seller first and the first of them selected, with the shared order details viewed as Seller: the seller's
 * next step and Cancel while pending (docs/rules/catalog-and-orders.md, Order lifecycle).
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
  const selectedId = selectedOrderId(listed, chosenId, requestedId);
  const selected = listed?.find((order) => order.id === selectedId);

  const { detailsRef, showDetails } = useOrderDetailsInView(requestedId, selected?.id ?? null);

  const select = (orderId: string) => {
    setChosenId(orderId);
    showDetails();
  };

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
