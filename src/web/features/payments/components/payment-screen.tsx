import { useMemo, useState } from 'react';
import { PageLoading } from '../../../components/page-loading';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { useCart } from '../../cart/use-cart';
import { checkoutBodyFromSession, readCheckoutSession } from '../../checkout/checkout-session';
import { useCreatePayment } from '../api/create-payment';
import { useCardPayment } from '../use-card-payment';
import {
  EmptyCartNotice,
  NoCheckoutNotice,
  OrderNotPlacedNotice,
  PaymentNotStartedNotice,
  PaymentSuccessNotice,
} from './payment-notices';
import { PaymentSummary } from './payment-summary';
import { ProviderCardForm } from './provider-card-form';

/**
 * The payment screen (docs/rules/screens-buyer.md, Cart and checkout screens; docs/rules/money.md, Payments):
 * reads what the checkout kept and the cart, starts the payment once, shows what is paid and takes the card
 * of the active provider. After success the cart and the checkout's keys are cleared and the buyer lands on
 * My Orders.
 */
export function PaymentScreen() {
  const [session] = useState(() => readCheckoutSession());
  const { items } = useCart();
  const payment = useCardPayment();

  const body = useMemo(
    () => (session && items.length > 0 ? checkoutBodyFromSession(items, session) : null),
    [session, items],
  );
  const created = useCreatePayment(payment.paid ? null : body);

  if (payment.paid) return <PaymentSuccessNotice />;
  if (!session) return <NoCheckoutNotice />;
  if (items.length === 0) return <EmptyCartNotice />;
  if (payment.conflict) return <OrderNotPlacedNotice message={payment.conflict} />;
  if (created.isLoading) return <PageLoading label="Preparing your payment..." />;
  if (created.isError || !created.data) {
    return (
      <PaymentNotStartedNotice
        error={created.error}
        isRetrying={created.isFetching}
        onRetry={() => void created.refetch()}
      />
    );
  }

  const intent = created.data;
  return (
    <div className="grid grid-cols-1 gap-8 lg:grid-cols-5">
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
          <ProviderCardForm
            intent={intent}
            isPaying={payment.isPaying}
            paymentError={payment.paymentError}
            fieldErrors={payment.fieldErrors}
            onPay={(card) => payment.pay(intent, card)}
          />
        </CardContent>
      </Card>
    </div>
  );
}
