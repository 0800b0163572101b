import { useId, type ReactNode } from 'react';
import { Link } from 'wouter';
import { AlertTriangle, CheckCircle2, RotateCw, ShoppingCart } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Card, CardContent } from '../../../components/ui/card';
import { CHECKOUT_ALREADY_PAID_MESSAGE } from '@domain/checkout';
import { errorMessage, statusOf } from '../../../lib/api-client';

function Notice({
  icon,
  title,
  children,
  actions,
}: {
  icon: ReactNode;
  title: string;
  children?: ReactNode;
  actions: ReactNode;
}) {
  const titleId = useId();
  return (
    // A region named by its title, so what happened can be reached by name.
    <Card className="mx-auto max-w-lg" role="region" aria-labelledby={titleId}>
      <CardContent className="flex flex-col items-center gap-4 p-8 text-center">
        {icon}
        <h2 id={titleId} className="text-xl font-semibold">
          {title}
        </h2>
        {children}
        <div className="flex flex-wrap justify-center gap-2">{actions}</div>
      </CardContent>
    </Card>
  );
}

function BackToCart() {
  return (
    <Button asChild>
      <Link href="/cart">Back to Cart</Link>
    </Button>
  );
}

function BackToCheckout({ variant = 'default' }: { variant?: 'default' | 'outline' }) {
  return (
    <Button asChild variant={variant}>
      <Link href="/checkout">Back to Checkout</Link>
    </Button>
  );
}

/** The payment succeeded; the buyer is being taken to My Orders. */
export function PaymentSuccessNotice() {
  return (
    <Notice
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

/** Nothing was kept by the checkout: the buyer chooses how to receive the order first. */
export function NoCheckoutNotice() {
  return (
    <Notice
      icon={<ShoppingCart className="size-12 text-muted-foreground" aria-hidden="true" />}
      title="Checkout first"
      actions={<BackToCheckout />}
    >
      <p className="text-muted-foreground">Choose how you want to receive your order before paying.</p>
    </Notice>
  );
}

export function EmptyCartNotice() {
  return (
    <Notice
      icon={<ShoppingCart className="size-12 text-muted-foreground" aria-hidden="true" />}
      title="Cart is Empty"
      actions={
        <Button asChild>
          <Link href="/">Continue Shopping</Link>
        </Button>
      }
    />
  );
}

/** A 409 after the card was taken: no order, and the charge refunded. */
export function OrderNotPlacedNotice({ message }: { message: string }) {
  return (
    <Notice
      icon={<AlertTriangle className="size-12 text-destructive" aria-hidden="true" />}
      title="Your order could not be placed"
      actions={<BackToCart />}
    >
      <p role="alert" className="font-medium" data-testid="text-payment-conflict">
        {message}
      </p>
      <p className="text-sm text-muted-foreground">
        No order was made. If your card was charged, the full amount has been refunded.
      </p>
    </Notice>
  );
}

/**
 * Starting the payment failed: a 409 goes back to the cart, a 400 back to the checkout, anything
 * else can be tried again (docs/rules/screens-buyer.md, Cart and checkout screens).
 */
export function PaymentNotStartedNotice({
  error,
  isRetrying,
  onRetry,
}: {
  error: unknown;
  isRetrying: boolean;
  onRetry: () => void;
}) {
  const status = statusOf(error);
  // A reload while the payment is completing: this checkout is paid, never asked for the card again.
  if (status === 409 && errorMessage(error, '') === CHECKOUT_ALREADY_PAID_MESSAGE) {
    return (
      <Notice
        icon={<CheckCircle2 className="size-12 text-primary" aria-hidden="true" />}
        title="Already paid"
        actions={
          <Button asChild>
            <Link href="/buyer/orders">My Orders</Link>
          </Button>
        }
      >
        <p role="status" className="font-medium" data-testid="text-payment-already-paid">
          {CHECKOUT_ALREADY_PAID_MESSAGE}
        </p>
      </Notice>
    );
  }
  if (status === 409) {
    return (
      <Notice
        icon={<AlertTriangle className="size-12 text-destructive" aria-hidden="true" />}
        title="Some items are not available"
        actions={<BackToCart />}
      >
        <p role="alert" className="font-medium" data-testid="text-payment-conflict">
          {errorMessage(error, 'An item in your cart is no longer available.')}
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
        icon={<AlertTriangle className="size-12 text-destructive" aria-hidden="true" />}
        title="Missing information"
        actions={<BackToCheckout />}
      >
        <p role="alert" className="font-medium">
          {errorMessage(error, 'Please complete your checkout details.')}
        </p>
      </Notice>
    );
  }
  return (
    <Notice
      icon={<AlertTriangle className="size-12 text-destructive" aria-hidden="true" />}
      title="Your payment could not be started"
      actions={
        <>
          <Button onClick={onRetry} disabled={isRetrying}>
            <RotateCw aria-hidden="true" />
            Try Again
          </Button>
          <BackToCheckout variant="outline" />
        </>
      }
    >
      <p role="alert" className="text-muted-foreground">
        {errorMessage(error, 'Please try again in a moment.')}
      </p>
    </Notice>
  );
}
