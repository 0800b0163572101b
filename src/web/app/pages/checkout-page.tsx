import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { ArrowLeft, ArrowRight, ShoppingCart } from 'lucide-react';
import { isPickupAvailable } from '@domain/pickup';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { PageHeading } from '../../components/page-heading';
import { formatAddressLine } from '../../lib/format';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useHasHydrated } from '../../lib/use-has-hydrated';
import { useAddresses } from '../../features/addresses/api/get-addresses';
import { useCart } from '../../features/cart/use-cart';
import { useCheckoutQuote } from '../../features/checkout/api/get-checkout-quote';
import {
  checkoutBlocker,
  defaultAddressId,
  effectiveDeliveryMethod,
  itemProblemsOf,
  sellersOf,
  type DeliveryMethod,
} from '../../features/checkout/checkout-rules';
import {
  readCheckoutSession,
  saveCheckoutSession,
  toCheckoutBody,
  type CheckoutSession,
} from '../../features/checkout/checkout-session';
import { DeliveryInformationSection } from '../../features/checkout/components/delivery-information-section';
import { DeliveryMethodSection } from '../../features/checkout/components/delivery-method-section';
import { CheckoutProblems, OrderSummary } from '../../features/checkout/components/order-summary';
import { AppLayout } from '../layouts/app-layout';
import { preloadableLazy } from '../../lib/preloadable-lazy';
import { whenIdle } from '../../lib/when-idle';
import { Suspense } from '../../components/suspense';

/**
 * The pickup times (and the select they are chosen with) load apart from the page: most checkouts
 * are delivered, and their code was a long task of the checkout's first load
 * (docs/decisions/0014-first-load.md). They load once the page is idle when the cart offers pickup.
 */
const { Component: PickupTimeSection, preload: preloadPickupTimeSection } = preloadableLazy(
  async () => (await import('../../features/checkout/components/pickup-time-section')).PickupTimeSection,
);

function EmptyCheckout() {
  return (
    <Card className="mx-auto max-w-md">
      <CardContent className="flex flex-col items-center gap-4 p-8 text-center">
        <ShoppingCart className="size-12 text-muted-foreground" aria-hidden="true" />
        <h2 className="text-xl font-semibold">Cart is Empty</h2>
        <p className="text-muted-foreground">Add some products to your cart before checking out.</p>
        <Button asChild>
          <Link href="/">Continue Shopping</Link>
        </Button>
      </CardContent>
    </Card>
  );
}

/**
 * The choices a buyer made earlier in this tab (back from /payment): start from them. Session
 * storage is the browser's alone: a page the server rendered is hydrated as the server drew it (no
 * earlier choices), and they are applied just after, so hydration meets the server's HTML
 * (docs/decisions/0014-first-load.md, The first screen in the HTML). A page first drawn in the
 * browser starts from them at once.
 */
function useInitialChoices(hasHydrated: boolean, apply: (session: CheckoutSession) => void) {
  const [initial] = useState(() => (hasHydrated ? readCheckoutSession() : null));
  const isRead = useRef(hasHydrated);
  useEffect(() => {
    if (!hasHydrated || isRead.current) return;
    isRead.current = true;
    const session = readCheckoutSession();
    if (session) apply(session);
  });
  return initial;
}

function CheckoutForm() {
  const [, navigate] = useLocation();
  const { items, setQuantity, remove, setPrice } = useCart();
  // The cart is in local storage: the server's HTML and hydration show the form still pricing it.
  const isCartKnown = useHasHydrated();
  const initial = useInitialChoices(isCartKnown, (session) => {
    setChosenMethod(session.isPickup ? 'pickup' : 'delivery');
    setChosenAddressId(session.deliveryAddressId || null);
    setNotes(session.deliveryNotes);
    setPickupTimes(session.scheduledPickupTime);
  });
  const addresses = useAddresses();

  const [chosenMethod, setChosenMethod] = useState<DeliveryMethod>(initial?.isPickup ? 'pickup' : 'delivery');
  const [chosenAddressId, setChosenAddressId] = useState<string | null>(initial?.deliveryAddressId || null);
  const [notes, setNotes] = useState(initial?.deliveryNotes ?? '');
  const [pickupTimes, setPickupTimes] = useState<Record<string, string>>(initial?.scheduledPickupTime ?? {});

  const addressId = chosenAddressId ?? (addresses.data ? defaultAddressId(addresses.data) : null);
  // The rule reads each line's offerPickup, which an older cart's lines may lack (then no pickup).
  const cartOffersPickup = isPickupAvailable(items.map(({ offerPickup }) => ({ offerPickup })));
  const sellers = sellersOf(items);
  useEffect(() => {
    if (cartOffersPickup) return whenIdle(() => void preloadPickupTimeSection().catch(() => undefined));
  }, [cartOffersPickup]);

  // Notes do not change the price: they are left out of the quote so typing asks nothing.
  const quoteOf = (method: DeliveryMethod) =>
    toCheckoutBody(items, {
      isPickup: method === 'pickup',
      deliveryAddressId: addressId,
      deliveryNotes: '',
      pickupTimes,
    });
  const quoteQuery = useCheckoutQuote(quoteOf(effectiveDeliveryMethod(chosenMethod, cartOffersPickup)));
  const quote = quoteQuery.data;

  // Pickup is offered only while every item offers it (the cart's copy, and the server's current
  // answer); the choice falls back to delivery when that stops being true
  // (docs/rules/catalog-and-orders.md, Checkout and orders).
  const serverOffersPickup = quote && !quoteQuery.isPlaceholderData ? quote.pickupAvailable : true;
  const pickupAvailable = cartOffersPickup && serverOffersPickup;
  if (chosenMethod === 'pickup' && !pickupAvailable) setChosenMethod('delivery');
  const method = effectiveDeliveryMethod(chosenMethod, pickupAvailable);

  const isUpdating = quoteQuery.isFetching || quoteQuery.isPlaceholderData;
  const blocker = checkoutBlocker({
    method,
    addressId,
    addresses: addresses.data,
    sellerIds: sellers.map((seller) => seller.sellerId),
    pickupTimes,
  });
  const itemProblems = itemProblemsOf(quote);
  const otherProblem = quote?.problems.find((problem) => !itemProblems.includes(problem));

  let reason: { title?: string; message: string } | null = null;
  if (blocker) reason = blocker;
  else if (!quote)
    reason = {
      message: quoteQuery.isError ? 'Your order could not be priced.' : 'Calculating your order...',
    };
  else if (itemProblems.length > 0) reason = { message: 'Please review the problems with your cart first.' };
  else if (otherProblem) reason = { message: otherProblem.message };
  else if (!quote.canPay) reason = { message: 'This order cannot be paid yet.' };
  const canProceed = reason === null && !isUpdating;

  const selectedAddress = addresses.data?.find((address) => address.id === addressId);

  const proceed = () => {
    if (!canProceed) return;
    const isPickup = method === 'pickup';
    saveCheckoutSession({
      isPickup,
      deliveryAddress: isPickup || !selectedAddress ? '' : formatAddressLine(selectedAddress),
      deliveryAddressId: isPickup || !addressId ? '' : addressId,
      deliveryNotes: isPickup ? '' : notes.trim(),
      scheduledPickupTime: isPickup
        ? Object.fromEntries(
            sellers.flatMap(({ sellerId }) => {
              const time = pickupTimes[sellerId];
              return time ? [[sellerId, time]] : [];
            }),
          )
        : {},
    });
    navigate('/payment');
  };

  const acceptPrices = () => {
    for (const item of quote?.orders.flatMap((order) => order.items) ?? [])
      setPrice(item.productId, item.price);
  };

  return (
    <div className="grid grid-cols-1 gap-8 lg:grid-cols-5">
      <div className="flex flex-col gap-6 lg:col-span-3">
        <DeliveryMethodSection method={method} pickupAvailable={pickupAvailable} onChange={setChosenMethod} />
        {method === 'delivery' ? (
          <DeliveryInformationSection
            addresses={addresses.data}
            isLoading={addresses.isLoading}
            isError={addresses.isError}
            onRetry={() => void addresses.refetch()}
            selectedId={addressId}
            onSelect={setChosenAddressId}
            notes={notes}
            onNotesChange={setNotes}
          />
        ) : (
          <Suspense fallback={null}>
            <PickupTimeSection
              sellers={sellers.map((seller) => {
                const order = quote?.orders.find((candidate) => candidate.sellerId === seller.sellerId);
                return {
                  sellerId: seller.sellerId,
                  sellerName: order?.sellerName ?? seller.sellerName ?? 'Seller',
                  pickupAddress: order ? order.pickupAddress : undefined,
                };
              })}
              pickupTimes={pickupTimes}
              onChange={(sellerId, datetime) =>
                setPickupTimes((times) => ({ ...times, [sellerId]: datetime }))
              }
            />
          </Suspense>
        )}
      </div>

      <Card className="h-fit lg:sticky lg:top-24 lg:col-span-2">
        <CardHeader>
          <CardTitle as="h2">Order Summary</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-6">
          <OrderSummary
            quote={quote}
            isLoading={quoteQuery.isLoading || !isCartKnown}
            isError={quoteQuery.isError}
            isUpdating={isUpdating}
            onRetry={() => void quoteQuery.refetch()}
          />
          {quote ? (
            <CheckoutProblems
              problems={itemProblems}
              quote={quote}
              actions={{ onAcceptPrices: acceptPrices, onRemove: remove, onSetQuantity: setQuantity }}
            />
          ) : null}
          <div className="flex flex-col gap-3">
            <Button
              size="lg"
              onClick={proceed}
              disabled={!canProceed}
              aria-describedby={reason ? 'proceed-reason' : undefined}
            >
              Proceed to Payment
              <ArrowRight aria-hidden="true" />
            </Button>
            <p
              id="proceed-reason"
              role="status"
              className="min-h-5 text-sm text-muted-foreground"
              data-testid="text-proceed-reason"
            >
              {reason ? (
                <>
                  {reason.title ? (
                    <span className="font-semibold text-foreground">{reason.title}: </span>
                  ) : null}
                  {reason.message}
                </>
              ) : null}
            </p>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}

/**
 * /checkout (docs/rules/screens-buyer.md, Cart and checkout screens; docs/rules/catalog-and-orders.md,
 * Checkout and orders). With an empty cart: "Cart is Empty".
 */
export function CheckoutPage() {
  useDocumentTitle('Checkout');
  const { items } = useCart();
  // The server cannot read the cart: it renders the form, which hydration keeps until the cart is
  // read, instead of "Cart is Empty" (docs/decisions/0014-first-load.md, The first screen in the HTML).
  const isCartKnown = useHasHydrated();

  return (
    <AppLayout>
      <Button asChild variant="ghost" className="mb-4 -ml-3">
        <Link href="/cart">
          <ArrowLeft aria-hidden="true" />
          Back to Cart
        </Link>
      </Button>
      <PageHeading title="Checkout" />
      {items.length === 0 && isCartKnown ? <EmptyCheckout /> : <CheckoutForm />}
    </AppLayout>
  );
}
