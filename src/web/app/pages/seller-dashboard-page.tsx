import { lazy, useCallback, useEffect, useRef, useState } from 'react';
import { useSearch } from 'wouter';
import { useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import type { SellerProduct } from '@domain/listings';
import { PAYOUT_RETURN_PARAM } from '@domain/payout-accounts';
import { ErrorBoundary } from '../../components/error-boundary';
import { WhenScrolledNear } from '../../components/when-scrolled-near';
import { PageHeading } from '../../components/page-heading';
import { SectionHeading } from '../../components/section-heading';
import { Button } from '../../components/ui/button';
import { useSignedInUser } from '../../lib/use-auth';
import { useHasHydrated } from '../../lib/use-has-hydrated';
import { keepInView } from '../../lib/keep-in-view';
import { useNearViewport } from '../../lib/use-near-viewport';
import { whenIdle } from '../../lib/when-idle';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useCategories } from '../../features/catalog/api/get-categories';
import { SellerOrdersPanel } from '../../features/orders/components/seller-orders-panel';
import { EARNINGS_KEY } from '../../features/seller/api/earnings-keys';
import { CancelListingDialog } from '../../features/seller/components/cancel-listing-dialog';
import type { ListingDialogTarget } from '../../features/seller/components/listing-form-dialog';
import { AppLayout } from '../layouts/app-layout';
import { RoleGate, SELLER_GATE } from '../role-gate';
import { LazyListingDialog, preloadListingDialog } from './lazy-listing-dialog';
import { Suspense } from '../../components/suspense';

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

/** What a section below the first screen shows until it is drawn. */
function Coming({ text }: { text: string }) {
  return <p className="text-sm text-muted-foreground">{text}</p>;
}

// Below the first screen: their code loads when they are first drawn, not with the page.
const MyProducts = lazy(async () => ({ default: (await import('./seller-dashboard-later')).MyProducts }));
const SellerEarnings = lazy(async () => ({
  default: (await import('./seller-dashboard-later')).SellerEarnings,
}));
const SellerMessagesPanel = lazy(async () => ({
  default: (await import('../../features/messages/components/seller-messages-panel')).SellerMessagesPanel,
}));

function SellerDashboard() {
  const user = useSignedInUser();
  const queryClient = useQueryClient();
  const categories = useCategories();
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
  // Back from the payout provider: the earnings, where the payout card is, at once and in view.
  const payoutsReturn = search.has(PAYOUT_RETURN_PARAM);
  // What needs the seller comes first: the orders, in the page the server renders, then the buyers'
  // questions, the products and the earnings (docs/rules/screens-work.md, Seller screens), each drawn
  // when the seller scrolls near it; the messages at once when the address asks for them
  // (docs/decisions/0014-first-load.md, Drawn when scrolled near).
  const showBelowFold = useHasHydrated();
  const messagesRef = useRef<HTMLElement | null>(null);
  const [watchMessages, messagesNear] = useNearViewport<HTMLElement>();
  const setMessagesSection = useCallback(
    (element: HTMLElement | null) => {
      messagesRef.current = element;
      watchMessages(element);
    },
    [watchMessages],
  );
  const showMessages = showBelowFold && (messagesNear || wantsMessages || requestedThread !== null);
  const ordersRef = useRef<HTMLElement>(null);
  const earningsRef = useRef<HTMLElement>(null);
  const [scrollToEarnings] = useState(payoutsReturn);
  useEffect(() => {
    if (!showBelowFold) return;
    // The earnings stay in view while the sections above them are drawn.
    if (!wantsMessages && !requestedOrderId && scrollToEarnings && earningsRef.current)
      return keepInView(earningsRef.current);
    const target = wantsMessages ? messagesRef.current : requestedOrderId ? ordersRef.current : null;
    target?.scrollIntoView({ block: 'start' });
  }, [wantsMessages, requestedOrderId, scrollToEarnings, showBelowFold]);
  // The listing form's code comes once the page is up and the browser idle, ready for Create Listing
  // and Edit (a press before it has come opens the form when it does).
  useEffect(() => (showBelowFold ? whenIdle(() => void preloadListingDialog()) : undefined), [showBelowFold]);
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
          ref={setMessagesSection}
          aria-labelledby="messages-heading"
          className="flex scroll-mt-20 flex-col gap-4"
        >
          <SectionHeading
            id="messages-heading"
            title="Messages"
            description="Questions buyers asked about your products, by product and buyer. Answer them here."
          />
          {showMessages ? (
            <ErrorBoundary>
              <Suspense fallback={<Coming text="Loading messages..." />}>
                <SellerMessagesPanel
                  key={requestedThread ? `${requestedThread.productId}:${requestedThread.buyerId}` : 'latest'}
                  sellerId={user.id}
                  initial={requestedThread}
                />
              </Suspense>
            </ErrorBoundary>
          ) : null}
        </section>

        <section aria-labelledby="products-heading" className="flex flex-col gap-4">
          <SectionHeading id="products-heading" title="My Products" />
          <WhenScrolledNear
            className="flex flex-col gap-4"
            fallback={<Coming text="Loading your products..." />}
          >
            <MyProducts
              onCreate={openCreate}
              onEdit={(product) => setListingTarget({ mode: 'edit', product })}
              onCancel={setCancelTarget}
            />
          </WhenScrolledNear>
        </section>

        <section
          ref={earningsRef}
          aria-labelledby="earnings-heading"
          className="flex scroll-mt-20 flex-col gap-4"
        >
          <SectionHeading
            id="earnings-heading"
            title="Earnings"
            description="From orders that were delivered or picked up; cancelled orders never count."
          />
          <WhenScrolledNear
            className="flex flex-col gap-4"
            fallback={<Coming text="Loading your earnings..." />}
            now={scrollToEarnings && showBelowFold}
          >
            <SellerEarnings sellerId={user.id} isSeller={user.roles.includes('seller')} />
          </WhenScrolledNear>
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
