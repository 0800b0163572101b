import { Link, useSearch } from 'wouter';
import { RotateCw, ShoppingBag } from 'lucide-react';
import { PageHeading } from '../../components/page-heading';
import { Button } from '../../components/ui/button';
import { useSignedInUser } from '../../lib/use-auth';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useOrders } from '../../features/orders/api/get-orders';
import { OrderDetails } from '../../features/orders/components/order-details';
import { RecentOrdersList } from '../../features/orders/components/recent-orders-list';
import { selectedOrderId } from '../../features/orders/order-view';
import { useChosenOrder, useOrderDetailsInView } from '../../features/orders/use-chosen-order';
import { BuyerOrdersLayout } from '../layouts/buyer-orders-layout';

/**
 * /buyer/orders (docs/rules/screens-buyer.md, Order screens): the buyer's orders, polled every 60 s, the
 * first (or the one just paid, `?order=`) selected automatically, and the shared order details
 * viewed as Buyer whatever the role switcher says.
 */
export function BuyerOrdersPage() {
  useDocumentTitle('My Orders');
  const user = useSignedInUser();
  const requestedId = new URLSearchParams(useSearch()).get('order');
  const orders = useOrders('buyer');
  const [chosenId, setChosenId] = useChosenOrder(requestedId);

  const selectedId = selectedOrderId(orders.data, chosenId, requestedId);
  const selected = orders.data?.find((order) => order.id === selectedId);

  const { detailsRef, showDetails } = useOrderDetailsInView(requestedId, selected?.id ?? null);

  const select = (orderId: string) => {
    setChosenId(orderId);
    showDetails();
  };

  return (
    <BuyerOrdersLayout>
      <PageHeading title="My Orders" subtitle="Track and manage your orders" />
      <div className="grid grid-cols-1 gap-8 lg:grid-cols-3">
        <section aria-labelledby="recent-orders-heading" className="flex flex-col gap-4">
          <h2 id="recent-orders-heading" className="text-lg font-semibold">
            Recent Orders
          </h2>
          {orders.isLoading ? (
            <p role="status" className="text-sm text-muted-foreground" data-testid="text-loading-orders">
              Loading orders...
            </p>
          ) : orders.isError || !orders.data ? (
            <div role="alert" className="flex flex-col items-start gap-3 rounded-lg border p-4 text-sm">
              <span>Your orders could not be loaded.</span>
              <Button
                variant="outline"
                size="sm"
                onClick={() => void orders.refetch()}
                disabled={orders.isFetching}
              >
                <RotateCw aria-hidden="true" />
                Try Again
              </Button>
            </div>
          ) : (
            <>
              <RecentOrdersList orders={orders.data} selectedId={selectedId} onSelect={select} />
              {orders.data.length === 0 ? (
                <Button asChild className="self-start">
                  <Link href="/">
                    <ShoppingBag aria-hidden="true" />
                    Start Shopping
                  </Link>
                </Button>
              ) : null}
            </>
          )}
        </section>
        <div ref={detailsRef} className="scroll-mt-20 lg:col-span-2">
          {selected ? (
            <OrderDetails key={selected.id} order={selected} viewerRole="buyer" viewerId={user.id} />
          ) : null}
        </div>
      </div>
    </BuyerOrdersLayout>
  );
}
