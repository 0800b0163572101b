import type { PaymentConfirmBody, PaymentIntent } from '@domain/checkout';
import { StripeCardForm } from './stripe-card-form';
import { TestCardForm, type CardFieldErrors } from './test-card-form';

/**
 * The card form of the provider that started the payment: Stripe's own form (the card never
 * reaches this server), or the test provider's fields (docs/rules/money.md, Payments).
 */
export function ProviderCardForm({
  intent,
  isPaying,
  paymentError,
  fieldErrors,
  onPay,
}: {
  intent: PaymentIntent;
  isPaying: boolean;
  paymentError: string | null;
  fieldErrors: CardFieldErrors;
  onPay: (card: PaymentConfirmBody) => void;
}) {
  if (intent.provider === 'stripe') {
    if (!intent.clientSecret || !intent.publishableKey) {
      return (
        <p role="alert" className="text-sm text-destructive">
          Card payments are not set up correctly. Please try again later.
        </p>
      );
    }
    return (
      <StripeCardForm
        publishableKey={intent.publishableKey}
        clientSecret={intent.clientSecret}
        amount={intent.amount}
        isPaying={isPaying}
        paymentError={paymentError}
        onCardConfirmed={() => onPay({})}
      />
    );
  }
  return (
    <TestCardForm
      amount={intent.amount}
      isPaying={isPaying}
      paymentError={paymentError}
      serverFieldErrors={fieldErrors}
      onPay={onPay}
    />
  );
}
