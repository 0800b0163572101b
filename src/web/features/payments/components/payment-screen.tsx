import { useMemo, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, CheckCircle2, RotateCw, ShoppingCart } from 'lucide-react';
import {
  CARD_DECLINED_MESSAGE,
  type PaymentConfirmBody,
  type PaymentIntent,
  type PaymentResult,
} from '@domain/checkout';
import type { Order } from '@domain/orders';
import { PageLoading } from '../../../components/page-loading';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage, fieldErrorsOf, statusOf } from '../../../lib/api-client';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useCart } from '../../cart/use-cart';
import {
  checkoutBodyFromSession,
  clearCheckoutSession,
  readCheckoutSession,
} from '../../checkout/checkout-rules';
import { ORDERS_KEY, ordersQueryOptions } from '../../orders/api/get-orders';
import { useConfirmPayment } from '../api/confirm-payment';
import { useCreatePayment } from '../api/create-payment';
import { PaymentSummary } from './payment-summary';
import { StripeCardForm } from './stripe-card-form';
import { TestCardForm, type CardFieldErrors } from './test-card-form';

export const PAYMENT_FAILED_MESSAGE = 'Your payment could not be completed. Please try again.';
/** Stripe may report a card payment as processing for a moment; it is asked again this often. */
const STRIPE_POLL_MS = 2_000;
const STRIPE_POLL_ATTEMPTS = 15;

const wait = (ms: number) => new Promise((resolve) => window.setTimeout(resolve, ms));

/** Where a buyer lands after paying: My Orders with the (first) new order selected. */
export function ordersPathFor(orders: readonly Pick<Order, 'id'>[]): string {
  const first = orders[0];
  return first ? `/buyer/orders?order=${encodeURIComponent(first.id)}` : '/buyer/orders';
}

function Notice({
  icon,
  title,
  children,
  actions,
  testId,
}: {
  icon: ReactNode;
  title: string;
  children?: ReactNode;
  actions: ReactNode;
  testId: string;
}) {
  return (
    <Card className="mx-auto max-w-lg" data-testid={testId}>
      <CardContent className="flex flex-col items-center gap-4 p-8 text-center">
        {icon}
        <h2 className="text-xl font-semibold">{title}</h2>
        {children}
        <div className="flex flex-wrap justify-center gap-2">{actions}</div>
      </CardContent>
    </Card>
  );
}

function BackToCart() {
  return (
    <Button asChild>
      <Link href="/cart" data-testid="link-back-to-cart">
        Back to Cart
      </Link>
    </Button>
  );
}

function BackToCheckout({ variant = 'default' }: { variant?: 'default' | 'outline' }) {
  return (
    <Button asChild variant={variant}>
      <Link href="/checkout" data-testid="link-back-to-checkout">
        Back to Checkout
      </Link>
    </Button>
  );
}

/**
 * The payment screen (spec buyer §2, DECISIONS §5): reads what the checkout kept and the cart,
 * starts the payment once, shows what is paid and takes the card of the active provider. After
 * success the cart and the checkout's keys are cleared and the buyer lands on My Orders.
 */
export function PaymentScreen() {
  const [session] = useState(() => readCheckoutSession());
  const { items, clear } = useCart();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [paid, setPaid] = useState(false);
  const [paymentError, setPaymentError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<CardFieldErrors>({});
  const [conflict, setConflict] = useState<string | null>(null);
  const [isWaiting, setIsWaiting] = useState(false);

  const body = useMemo(
    () => (session && items.length > 0 ? checkoutBodyFromSession(items, session) : null),
    [session, items],
  );
  const created = useCreatePayment(paid ? null : body);
  const confirm = useConfirmPayment();

  const finish = (orders: Order[]) => {
    setPaid(true);
    // My Orders shows the new orders at once, then reads the list again.
    queryClient.setQueryData<Order[]>(ordersQueryOptions('buyer').queryKey, (current) =>
      current
        ? [...orders, ...current.filter((order) => !orders.some((made) => made.id === order.id))]
        : current,
    );
    void queryClient.invalidateQueries({ queryKey: ORDERS_KEY });
    clearCheckoutSession();
    const first = orders[0];
    toast({
      title: 'Payment successful',
      description:
        orders.length > 1
          ? `${orders.length} orders have been placed.`
          : `Order ${first?.orderNumber ?? ''} has been placed.`,
    });
    navigate(ordersPathFor(orders));
    clear();
  };

  const handleError = (error: unknown) => {
    const status = statusOf(error);
    if (status === 401) {
      toastMutationError(error, PAYMENT_FAILED_MESSAGE);
      return;
    }
    if (status === 402) {
      setPaymentError(errorMessage(error, CARD_DECLINED_MESSAGE));
      return;
    }
    if (status === 409) {
      setConflict(errorMessage(error, 'An item in your cart is no longer available.'));
      return;
    }
    const fields = fieldErrorsOf(error);
    if (status === 400 && fields) {
      setFieldErrors(fields);
      setPaymentError(errorMessage(error, PAYMENT_FAILED_MESSAGE));
      return;
    }
    setPaymentError(errorMessage(error, PAYMENT_FAILED_MESSAGE));
  };

  const handleResult = async (intent: PaymentIntent, result: PaymentResult) => {
    if (result.status === 'succeeded' && result.orders.length > 0) {
      finish(result.orders);
      return;
    }
    if (
      intent.provider === 'stripe' &&
      (result.status === 'processing' || result.status === 'requires_payment')
    ) {
      // Stripe took the card but has not settled yet: ask again for a little while.
      setIsWaiting(true);
      try {
        for (let attempt = 0; attempt < STRIPE_POLL_ATTEMPTS; attempt++) {
          await wait(STRIPE_POLL_MS);
          const next = await confirm.mutateAsync({ paymentId: intent.paymentId, body: {} });
          if (next.status === 'succeeded' && next.orders.length > 0) {
            finish(next.orders);
            return;
          }
          if (next.status !== 'processing' && next.status !== 'requires_payment') break;
        }
        setPaymentError(
          'Your payment is still being processed. Your orders will appear in My Orders once it completes.',
        );
      } catch (error) {
        handleError(error);
      } finally {
        setIsWaiting(false);
      }
      return;
    }
    setPaymentError(result.message ?? PAYMENT_FAILED_MESSAGE);
  };

  const pay = (intent: PaymentIntent, card: PaymentConfirmBody) => {
    if (confirm.isPending || isWaiting) return;
    setPaymentError(null);
    setFieldErrors({});
    confirm.mutate(
      { paymentId: intent.paymentId, body: card },
      { onSuccess: (result) => void handleResult(intent, result), onError: handleError },
    );
  };

  if (paid) {
    return (
      <Notice
        testId="payment-success"
        icon={<CheckCircle2 className="size-12 text-primary" aria-hidden="true" />}
        title="Payment successful"
        actions={null}
      >
        <p className="text-muted-foreground" role="status">
          Taking you to your orders...
        </p>
      </Notice>
    );
  }

  if (!session) {
    return (
      <Notice
        testId="payment-no-checkout"
        icon={<ShoppingCart className="size-12 text-muted-foreground" aria-hidden="true" />}
        title="Checkout first"
        actions={<BackToCheckout />}
      >
        <p className="text-muted-foreground">Choose how you want to receive your order before paying.</p>
      </Notice>
    );
  }

  if (items.length === 0) {
    return (
      <Notice
        testId="payment-empty-cart"
        icon={<ShoppingCart className="size-12 text-muted-foreground" aria-hidden="true" />}
        title="Cart is Empty"
        actions={
          <Button asChild>
            <Link href="/" data-testid="link-continue-shopping">
              Continue Shopping
            </Link>
          </Button>
        }
      />
    );
  }

  if (conflict) {
    return (
      <Notice
        testId="payment-conflict"
        icon={<AlertTriangle className="size-12 text-destructive" aria-hidden="true" />}
        title="Your order could not be placed"
        actions={<BackToCart />}
      >
        <p role="alert" className="font-medium" data-testid="text-payment-conflict">
          {conflict}
        </p>
        <p className="text-sm text-muted-foreground">
          No order was made. If your card was charged, the full amount has been refunded.
        </p>
      </Notice>
    );
  }

  if (created.isLoading) return <PageLoading label="Preparing your payment..." />;

  if (created.isError || !created.data) {
    const status = statusOf(created.error);
    if (status === 409) {
      return (
        <Notice
          testId="payment-conflict"
          icon={<AlertTriangle className="size-12 text-destructive" aria-hidden="true" />}
          title="Some items are not available"
          actions={<BackToCart />}
        >
          <p role="alert" className="font-medium" data-testid="text-payment-conflict">
            {errorMessage(created.error, 'An item in your cart is no longer available.')}
          </p>
          <p className="text-sm text-muted-foreground">
            Update your cart, then check out again. You have not been charged.
          </p>
        </Notice>
      );
    }
    if (status === 400) {
      return (
        <Notice
          testId="payment-invalid-checkout"
          icon={<AlertTriangle className="size-12 text-destructive" aria-hidden="true" />}
          title="Missing information"
          actions={<BackToCheckout />}
        >
          <p role="alert" className="font-medium">
            {errorMessage(created.error, 'Please complete your checkout details.')}
          </p>
        </Notice>
      );
    }
    return (
      <Notice
        testId="payment-start-error"
        icon={<AlertTriangle className="size-12 text-destructive" aria-hidden="true" />}
        title="Your payment could not be started"
        actions={
          <>
            <Button onClick={() => void created.refetch()} disabled={created.isFetching}>
              <RotateCw aria-hidden="true" />
              Try Again
            </Button>
            <BackToCheckout variant="outline" />
          </>
        }
      >
        <p role="alert" className="text-muted-foreground">
          {errorMessage(created.error, 'Please try again in a moment.')}
        </p>
      </Notice>
    );
  }

  const intent = created.data;
  const isPaying = confirm.isPending || isWaiting;

  return (
    <div className="grid gap-8 lg:grid-cols-5">
      <Card className="h-fit lg:sticky lg:top-24 lg:order-last lg:col-span-2">
        <CardHeader>
          <CardTitle as="h2">Order Summary</CardTitle>
        </CardHeader>
        <CardContent>
          <PaymentSummary intent={intent} />
        </CardContent>
      </Card>
      <Card className="h-fit lg:col-span-3">
        <CardHeader>
          <CardTitle as="h2">Card Details</CardTitle>
          <CardDescription>Your orders are placed as soon as the payment succeeds.</CardDescription>
        </CardHeader>
        <CardContent>
          {intent.provider === 'stripe' ? (
            intent.clientSecret && intent.publishableKey ? (
              <StripeCardForm
                publishableKey={intent.publishableKey}
                clientSecret={intent.clientSecret}
                amount={intent.amount}
                isPaying={isPaying}
                paymentError={paymentError}
                onCardConfirmed={() => pay(intent, {})}
              />
            ) : (
              <p role="alert" className="text-sm text-destructive">
                Card payments are not set up correctly. Please try again later.
              </p>
            )
          ) : (
            <TestCardForm
              amount={intent.amount}
              isPaying={isPaying}
              paymentError={paymentError}
              serverFieldErrors={fieldErrors}
              onPay={(card) => pay(intent, card)}
            />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
