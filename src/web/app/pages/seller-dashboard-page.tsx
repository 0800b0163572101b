import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearch } from 'wouter';
import { useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import type { SellerProduct } from '@domain/listings';
import { PageHeading } from '../../components/page-heading';
import { SectionHeading } from '../../components/section-heading';
import { Button } from '../../components/ui/button';
import { useSignedInUser } from '../../lib/use-auth';
import { useHasHydrated } from '../../lib/use-has-hydrated';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useCategories } from '../../features/catalog/api/get-categories';
import { SellerOrdersPanel } from '../../features/orders/components/seller-orders-panel';
import { EARNINGS_KEY } from '../../features/seller/api/earnings-keys';
import { useSellerProducts } from '../../features/seller/api/get-seller-products';
import { CancelListingDialog } from '../../features/seller/components/cancel-listing-dialog';
import { CommissionStructure } from '../../features/seller/components/commission-structure';
import { EarningsChartCard } from '../../features/seller/components/earnings-chart-card';
import { EarningsSummary } from '../../features/seller/components/earnings-summary';
import type { ListingDialogTarget } from '../../features/seller/components/listing-form-dialog';
import { ListingStats } from '../../features/seller/components/listing-stats';
import { ListingsCard } from '../../features/seller/components/listings-card';
import { SellerMessagesPanel } from '../../features/messages/components/seller-messages-panel';
import { PayoutCard } from '../../features/payouts/components/payout-card';
import { PayoutsHistoryCard } from '../../features/payouts/components/payouts-history-card';
import { AppLayout } from '../layouts/app-layout';
import { RoleGate, SELLER_GATE } from '../role-gate';
import { LazyListingDialog, preloadListingDialog } from './lazy-listing-dialog';

/**
 * /seller/dashboard (docs/rules/screens-work.md, Dashboards; Seller screens), for sellers and admins:
 * the seller's orders (those waiting for the seller first), the buyers' messages, the listing stat
 * cards and products with the create-listing and cancel dialogs, then the earnings, the commission
 * structure, the weekly earnings chart and the payouts.
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
  const queryClient = useQueryClient();
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
  // What needs the seller comes first: the orders, in the page the server renders, then the buyers'
  // questions, the products and the earnings (docs/rules/screens-work.md, Seller screens). The messages
  // are drawn right after the page runs, in small slices (docs/decisions/0014-first-load.md).
  const showBelowFold = useHasHydrated();
  const messagesRef = useRef<HTMLElement>(null);
  const ordersRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!showBelowFold) return;
    const target = wantsMessages ? messagesRef.current : requestedOrderId ? ordersRef.current : null;
    target?.scrollIntoView({ block: 'start' });
  }, [wantsMessages, requestedOrderId, showBelowFold]);
  // The listing form's code comes once the page is up, ready for Create Listing and Edit.
  useEffect(() => {
    if (showBelowFold) void preloadListingDialog();
  }, [showBelowFold]);
  // A step that finishes an order changes the earnings; every step changes the 30-day view too.
  const refreshEarnings = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: EARNINGS_KEY }),
    [queryClient],
  );

  return (
    <>
      <PageHeading
        title="Seller Dashboard"
        subtitle="Manage your products, orders and earnings"
        actions={
          <Button onClick={openCreate}>
            <Plus aria-hidden="true" />
            Create Listing
          </Button>
        }
      />
      <div className="flex flex-col gap-10">
        <section
          ref={ordersRef}
          aria-labelledby="orders-heading"
          className="flex scroll-mt-20 flex-col gap-4"
        >
          <SectionHeading
            id="orders-heading"
            title="Orders"
            description="Orders waiting for your next step first, then the rest, newest first. Move pickup and self-delivered orders forward here."
          />
          <SellerOrdersPanel
            key={requestedOrderId ?? 'latest'}
            sellerId={user.id}
            requestedId={requestedOrderId}
            onChanged={refreshEarnings}
          />
        </section>
        <section
          ref={messagesRef}
          aria-labelledby="messages-heading"
          className="flex scroll-mt-20 flex-col gap-4"
        >
          <SectionHeading
            id="messages-heading"
            title="Messages"
            description="Questions buyers asked about your products, by product and buyer. Answer them here."
          />
          {showBelowFold ? (
            <SellerMessagesPanel
              key={requestedThread ? `${requestedThread.productId}:${requestedThread.buyerId}` : 'latest'}
              sellerId={user.id}
              initial={requestedThread}
            />
          ) : null}
        </section>

        <section aria-labelledby="products-heading" className="flex flex-col gap-4">
          <SectionHeading id="products-heading" title="My Products" />
          <ListingStats products={products.data} />
          <ListingsCard
            onCreate={openCreate}
            onEdit={(product) => setListingTarget({ mode: 'edit', product })}
            onCancel={setCancelTarget}
          />
        </section>

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
      </div>

      <LazyListingDialog
        target={listingTarget}
        onClose={() => setListingTarget(null)}
        categories={categories.data ?? []}
        categoriesFailed={categories.isError}
      />
      <CancelListingDialog product={cancelTarget} onClose={() => setCancelTarget(null)} />
    </>
  );
}
