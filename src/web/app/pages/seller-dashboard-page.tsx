import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useSearch } from 'wouter';
import { useQueryClient } from '@tanstack/react-query';
import { Plus, RotateCw } from 'lucide-react';
import type { SellerProduct } from '@domain/listings';
import type { Order } from '@domain/orders';
import { PageHeading } from '../../components/page-heading';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { useSignedInUser } from '../../lib/use-auth';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useCategories } from '../../features/catalog/api/get-categories';
import { useOrders } from '../../features/orders/api/get-orders';
import { OrderDetails } from '../../features/orders/components/order-details';
import { RecentOrdersList } from '../../features/orders/components/recent-orders-list';
import { SellerOrderActions } from '../../features/orders/components/seller-order-actions';
import { selectedOrderId } from '../../features/orders/order-view';
import { EARNINGS_KEY } from '../../features/seller/api/get-earnings';
import { useSellerProducts } from '../../features/seller/api/get-seller-products';
import { CancelListingDialog } from '../../features/seller/components/cancel-listing-dialog';
import { CommissionStructure } from '../../features/seller/components/commission-structure';
import { EarningsChartCard } from '../../features/seller/components/earnings-chart-card';
import { EarningsSummary } from '../../features/seller/components/earnings-summary';
import {
  ListingFormDialog,
  type ListingDialogTarget,
  type ListingImagesFieldProps,
} from '../../features/seller/components/listing-form-dialog';
import { ListingStats } from '../../features/seller/components/listing-stats';
import { SellerProductList } from '../../features/seller/components/seller-product-list';
import { ImageListEditor } from '../../features/uploads/components/image-list-editor';
import { SellerMessagesPanel } from '../../features/messages/components/seller-messages-panel';
import { PayoutCard } from '../../features/payouts/components/payout-card';
import { PayoutsHistoryCard } from '../../features/payouts/components/payouts-history-card';
import { AppLayout } from '../layouts/app-layout';
import { RoleGate, SELLER_GATE } from '../role-gate';

/** The listing form's images field is the uploader's multi-image editor. */
function renderImagesField(props: ListingImagesFieldProps): ReactNode {
  return <ImageListEditor {...props} />;
}

function SectionHeading({ id, title, description }: { id: string; title: string; description?: string }) {
  return (
    <div className="flex flex-col gap-1">
      <h2 id={id} className="text-xl font-semibold tracking-tight">
        {title}
      </h2>
      {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
    </div>
  );
}

function LoadFailed({
  what,
  onRetry,
  isRetrying,
}: {
  what: string;
  onRetry: () => void;
  isRetrying: boolean;
}) {
  return (
    <div role="alert" className="flex flex-col items-start gap-3 rounded-lg border p-4 text-sm">
      <span>{what} could not be loaded.</span>
      <Button variant="outline" size="sm" onClick={onRetry} disabled={isRetrying}>
        <RotateCw aria-hidden="true" />
        Try Again
      </Button>
    </div>
  );
}

/** Below the lg breakpoint the details sit under the list: choosing an order scrolls to them. */
function isStacked(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(max-width: 1023px)').matches;
}

/**
 * The orders of the seller's products (GET /api/orders?as=seller, polled every 60 s), the first
 * selected, with the shared order details viewed as Seller: the seller's next step and Cancel while
 * pending (docs/product-rules.md, Order lifecycle).
 */
function SellerOrders({ sellerId, requestedId = null }: { sellerId: string; requestedId?: string | null }) {
  const orders = useOrders('seller');
  const queryClient = useQueryClient();
  const [chosenId, setChosenId] = useState<string | null>(null);
  const detailsRef = useRef<HTMLDivElement>(null);
  const selectedId = selectedOrderId(orders.data, chosenId, requestedId);
  const selected = orders.data?.find((order) => order.id === selectedId);
  // A step that finishes an order changes the earnings; every step changes the 30-day view too.
  const onChanged = useCallback(
    (_order: Order) => void queryClient.invalidateQueries({ queryKey: EARNINGS_KEY }),
    [queryClient],
  );

  const select = (orderId: string) => {
    setChosenId(orderId);
    if (isStacked()) {
      const behavior = window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
      window.setTimeout(() => detailsRef.current?.scrollIntoView({ behavior, block: 'start' }), 0);
    }
  };

  if (orders.isLoading)
    return (
      <p role="status" className="text-sm text-muted-foreground">
        Loading orders...
      </p>
    );
  if (orders.isError || !orders.data)
    return (
      <LoadFailed what="Your orders" onRetry={() => void orders.refetch()} isRetrying={orders.isFetching} />
    );
  if (orders.data.length === 0)
    return (
      <p
        className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground"
        data-testid="text-no-seller-orders"
      >
        No orders yet. Orders of your products show here as soon as they are paid.
      </p>
    );
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <div className="flex max-h-[48rem] flex-col gap-3 overflow-y-auto lg:pr-1">
        <RecentOrdersList orders={orders.data} selectedId={selectedId} onSelect={select} />
      </div>
      <div ref={detailsRef} className="scroll-mt-20 lg:col-span-2">
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

function SellerProducts({
  onCreate,
  onEdit,
  onCancel,
}: {
  onCreate: () => void;
  onEdit: (product: SellerProduct) => void;
  onCancel: (product: SellerProduct) => void;
}) {
  const products = useSellerProducts();
  if (products.isLoading)
    return (
      <p role="status" className="text-sm text-muted-foreground">
        Loading your products...
      </p>
    );
  if (products.isError || !products.data)
    return (
      <LoadFailed
        what="Your products"
        onRetry={() => void products.refetch()}
        isRetrying={products.isFetching}
      />
    );
  return (
    <SellerProductList products={products.data} onCreate={onCreate} onEdit={onEdit} onCancel={onCancel} />
  );
}

/**
 * /seller/dashboard (docs/product-rules.md, Dashboards; Seller screens), for sellers and admins:
 * earnings, the commission structure, the weekly earnings chart, the listing stat cards, the
 * seller's products with the create-listing and cancel dialogs, and the seller's orders.
 */
export function SellerDashboardPage() {
  useDocumentTitle('Seller Dashboard');
  return (
    <RoleGate {...SELLER_GATE}>
      <AppLayout>
        <SellerDashboard />
      </AppLayout>
    </RoleGate>
  );
}

function SellerDashboard() {
  const user = useSignedInUser();
  const categories = useCategories();
  const products = useSellerProducts();
  const [listingTarget, setListingTarget] = useState<ListingDialogTarget | null>(null);
  const [cancelTarget, setCancelTarget] = useState<SellerProduct | null>(null);
  const openCreate = () => setListingTarget({ mode: 'create' });
  // A link to a conversation or an order (the header's unread messages) opens it here.
  const search = new URLSearchParams(useSearch());
  const requestedOrderId = search.get('order');
  const requestedProduct = search.get('product');
  const requestedBuyer = search.get('buyer');
  const requestedThread =
    requestedProduct && requestedBuyer ? { productId: requestedProduct, buyerId: requestedBuyer } : null;
  const wantsMessages = search.get('tab') === 'messages';
  const messagesRef = useRef<HTMLElement>(null);
  const ordersRef = useRef<HTMLElement>(null);
  useEffect(() => {
    const target = wantsMessages ? messagesRef.current : requestedOrderId ? ordersRef.current : null;
    target?.scrollIntoView({ block: 'start' });
  }, [wantsMessages, requestedOrderId]);

  return (
    <>
      <PageHeading
        title="Seller Dashboard"
        subtitle="Manage your products, orders and earnings"
        actions={
          <Button onClick={openCreate} data-testid="button-create-listing">
            <Plus aria-hidden="true" />
            Create Listing
          </Button>
        }
      />
      <div className="flex flex-col gap-10">
        <section aria-labelledby="earnings-heading" className="flex flex-col gap-4">
          <SectionHeading
            id="earnings-heading"
            title="Earnings"
            description="From orders that were delivered or picked up; cancelled orders never count."
          />
          <EarningsSummary sellerId={user.id} />
          <EarningsChartCard />
          <CommissionStructure sellerId={user.id} />
          {/* Payouts go to sellers; an admin without the seller role has no payout account here. */}
          {user.roles.includes('seller') ? <PayoutCard dashboard="seller" /> : null}
          {user.roles.includes('seller') ? <PayoutsHistoryCard /> : null}
        </section>

        <section aria-labelledby="products-heading" className="flex flex-col gap-4">
          <SectionHeading id="products-heading" title="My Products" />
          <ListingStats products={products.data} />
          <Card>
            <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
              <div className="flex flex-col gap-1.5">
                <CardTitle as="h3">Listings</CardTitle>
                <CardDescription>
                  Active listings are on sale; a cancelled listing stays on its orders but can no longer be
                  bought.
                </CardDescription>
              </div>
            </CardHeader>
            <CardContent>
              <SellerProducts
                onCreate={openCreate}
                onEdit={(product) => setListingTarget({ mode: 'edit', product })}
                onCancel={setCancelTarget}
              />
            </CardContent>
          </Card>
        </section>

        <section
          ref={messagesRef}
          aria-labelledby="messages-heading"
          className="flex scroll-mt-20 flex-col gap-4"
          data-testid="section-seller-messages"
        >
          <SectionHeading
            id="messages-heading"
            title="Messages"
            description="Questions buyers asked about your products, by product and buyer. Answer them here."
          />
          <SellerMessagesPanel
            key={requestedThread ? `${requestedThread.productId}:${requestedThread.buyerId}` : 'latest'}
            sellerId={user.id}
            initial={requestedThread}
          />
        </section>

        <section
          ref={ordersRef}
          aria-labelledby="orders-heading"
          className="flex scroll-mt-20 flex-col gap-4"
        >
          <SectionHeading
            id="orders-heading"
            title="Orders"
            description="Orders of your products, newest first. Move pickup and self-delivered orders forward here."
          />
          <SellerOrders
            key={requestedOrderId ?? 'latest'}
            sellerId={user.id}
            requestedId={requestedOrderId}
          />
        </section>
      </div>

      <ListingFormDialog
        target={listingTarget}
        onClose={() => setListingTarget(null)}
        categories={categories.data ?? []}
        categoriesFailed={categories.isError}
        renderImagesField={renderImagesField}
      />
      <CancelListingDialog product={cancelTarget} onClose={() => setCancelTarget(null)} />
    </>
  );
}
