import { useEffect, useRef, useState, type FormEvent } from 'react';
import { LoaderCircle, Lock } from 'lucide-react';
import { CARD_NAME_MESSAGE } from '@domain/checkout';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { formatPrice } from '../../../lib/format';
import { loadStripeJs, type StripeCardElement, type StripeClient } from '../stripe-js';

interface StripeCardFormProps {
  publishableKey: string;
  clientSecret: string;
  amount: string;
  /** Our own confirm call is under way (after Stripe took the card). */
  isPaying: boolean;
  paymentError: string | null;
  /** Stripe confirmed the card: the server is asked to make the orders. */
  onCardConfirmed: () => void;
}

/** The card field's colours follow the page's theme (the field lives in Stripe's iframe). */
function cardStyle() {
  const styles = window.getComputedStyle(document.body);
  return {
    base: {
      color: styles.color,
      fontFamily: styles.fontFamily,
      fontSize: '16px',
      '::placeholder': { color: '#94a3b8' },
    },
    invalid: { color: '#dc2626' },
  };
}

/**
 * Stripe's Card Element (docs/rules/running.md, Running modes and adapters; production): the card
 * number never touches this server. Stripe.js confirms the PaymentIntent with its client secret;
 * then our confirm call asks Stripe how the payment stands and makes the orders.
 */
export function StripeCardForm({
  publishableKey,
  clientSecret,
  amount,
  isPaying,
  paymentError,
  onCardConfirmed,
}: StripeCardFormProps) {
  const mountRef = useRef<HTMLDivElement>(null);
  const [stripe, setStripe] = useState<StripeClient | null>(null);
  const [card, setCard] = useState<StripeCardElement | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [cardError, setCardError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();
  const [isConfirming, setIsConfirming] = useState(false);
  const confirming = useRef(false);

  useEffect(() => {
    let cancelled = false;
    let element: StripeCardElement | null = null;
    loadStripeJs()
      .then((factory) => {
        if (cancelled || !mountRef.current) return;
        const client = factory(publishableKey);
        element = client.elements().create('card', { hidePostalCode: false, style: cardStyle() });
        element.mount(mountRef.current);
        element.on('change', (event) => setCardError(event.error?.message ?? null));
        setStripe(client);
        setCard(element);
      })
      .catch(() => {
        if (!cancelled)
          setLoadError('The card form could not be loaded. Check your connection and reload the page.');
      });
    return () => {
      cancelled = true;
      element?.destroy();
    };
  }, [publishableKey]);

  const busy = isConfirming || isPaying;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!stripe || !card || busy || confirming.current) return;
    if (!name.trim()) {
      setNameError(CARD_NAME_MESSAGE);
      return;
    }
    confirming.current = true;
    setIsConfirming(true);
    setCardError(null);
    try {
      const result = await stripe.confirmCardPayment(clientSecret, {
        payment_method: { card, billing_details: { name: name.trim() } },
      });
      // Already paid (a reload after Stripe took the card): the server asks Stripe and carries on.
      if (result.error && result.error.code !== 'payment_intent_unexpected_state') {
        setCardError(result.error.message ?? 'Your payment could not be completed.');
        return;
      }
      onCardConfirmed();
    } catch {
      setCardError('Your payment could not be completed. Please try again.');
    } finally {
      confirming.current = false;
      setIsConfirming(false);
    }
  };

  const error = loadError ?? cardError ?? paymentError;

  return (
    <form
      onSubmit={(event) => void submit(event)}
      noValidate
      className="flex flex-col gap-5"
      aria-busy={busy}
    >
      <FormField id="card-name" label="Name on card" error={nameError}>
        {(control) => (
          <Input
            {...control}
            autoComplete="cc-name"
            maxLength={100}
            value={name}
            disabled={busy}
            onChange={(event) => {
              setName(event.target.value);
              setNameError(undefined);
            }}
          />
        )}
      </FormField>
      <div className="grid gap-2">
        <Label id="stripe-card-label">Card</Label>
        <div
          ref={mountRef}
          role="group"
          aria-labelledby="stripe-card-label"
          className="min-h-10 rounded-md border border-input bg-background px-3 py-2.5 shadow-sm"
          data-testid="stripe-card-element"
        />
        {!stripe && !loadError ? (
          <p className="text-xs text-muted-foreground">Loading the secure card form...</p>
        ) : null}
      </div>
      {error ? (
        <p
          role="alert"
          className="rounded-lg border border-destructive/50 bg-destructive/5 p-3 text-sm font-medium text-destructive"
        >
          {error}
        </p>
      ) : null}
      <Button type="submit" size="lg" disabled={!stripe || busy}>
        {busy ? (
          <>
            <LoaderCircle className="animate-spin" aria-hidden="true" />
            Processing payment...
          </>
        ) : (
          <>
            <Lock aria-hidden="true" />
            Pay {formatPrice(amount)}
          </>
        )}
      </Button>
      <p className="text-center text-xs text-muted-foreground">
        Card payments are processed securely by Stripe.
      </p>
    </form>
  );
}
