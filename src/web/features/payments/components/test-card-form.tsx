import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CreditCard, Info, LoaderCircle, Lock } from 'lucide-react';
import { TEST_CARD_DECLINED, TEST_CARD_SUCCEEDS, type PaymentConfirmBody } from '@domain/checkout';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { focusFirstInvalid } from '../../../lib/use-schema-form';
import { formatPrice } from '../../../lib/format';
import {
  checkCard,
  EMPTY_CARD,
  formatCardNumberInput,
  formatCvcInput,
  formatExpiryInput,
  type CardFormValues,
} from '../card-input';

export type CardFieldErrors = Partial<Record<keyof CardFormValues, string>>;

interface TestCardFormProps {
  amount: string;
  /** A payment call is under way: the form is locked and Pay shows its progress. */
  isPaying: boolean;
  /** The card was refused ("Your card was declined.") or the payment failed: shown above Pay. */
  paymentError: string | null;
  /** Per-field messages the server sent back. */
  serverFieldErrors?: CardFieldErrors;
  onPay: (body: PaymentConfirmBody) => void;
  /** Now, for the expiry check (tests pass a fixed date). */
  now?: () => Date;
}

/**
 * The built-in test provider's card form (docs/rules/running.md, Running modes and adapters): card
 * number, expiry, CVC, name on card.
 */
export function TestCardForm({
  amount,
  isPaying,
  paymentError,
  serverFieldErrors,
  onPay,
  now = () => new Date(),
}: TestCardFormProps) {
  const [values, setValues] = useState<CardFormValues>(EMPTY_CARD);
  const [errors, setErrors] = useState<CardFieldErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  // A second click that lands before React re-renders the disabled button still pays once.
  const submitting = useRef(false);
  useEffect(() => {
    if (!isPaying) submitting.current = false;
  }, [isPaying]);

  const shownErrors: CardFieldErrors = { ...serverFieldErrors, ...errors };
  const set = (field: keyof CardFormValues, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isPaying || submitting.current) return;
    const checked = checkCard(values, now());
    if (!checked.ok) {
      setErrors(checked.errors);
      // Focus moves once the messages are rendered.
      window.setTimeout(() => focusFirstInvalid(formRef.current), 0);
      return;
    }
    setErrors({});
    submitting.current = true;
    onPay(checked.body);
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-5" aria-busy={isPaying}>
      <div
        className="flex gap-3 rounded-lg border border-sky-200 bg-sky-50 p-3 text-sm text-sky-950 dark:border-sky-900 dark:bg-sky-950/40 dark:text-sky-100"
        data-testid="test-card-note"
      >
        <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <div className="flex flex-col gap-1">
          <p className="font-medium">Test mode: no real card is charged.</p>
          <p>
            Use <span className="font-mono whitespace-nowrap">{TEST_CARD_SUCCEEDS}</span> (succeeds) or{' '}
            <span className="font-mono whitespace-nowrap">{TEST_CARD_DECLINED}</span> (declined), any future
            expiry date, any 3-digit CVC and any name.
          </p>
        </div>
      </div>

      <fieldset disabled={isPaying} className="grid grid-cols-2 gap-4">
        <legend className="sr-only">Card details</legend>
        <FormField id="card-number" label="Card number" error={shownErrors.cardNumber} className="col-span-2">
          {(control) => (
            <div className="relative">
              <CreditCard
                className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
                aria-hidden="true"
              />
              <Input
                {...control}
                name="cardNumber"
                inputMode="numeric"
                autoComplete="cc-number"
                placeholder="1234 1234 1234 1234"
                className="pl-9 font-mono"
                value={values.cardNumber}
                onChange={(event) => set('cardNumber', formatCardNumberInput(event.target.value))}
              />
            </div>
          )}
        </FormField>
        <FormField id="card-expiry" label="Expiry (MM/YY)" error={shownErrors.expiry}>
          {(control) => (
            <Input
              {...control}
              name="expiry"
              inputMode="numeric"
              autoComplete="cc-exp"
              placeholder="MM/YY"
              className="font-mono"
              value={values.expiry}
              onChange={(event) => set('expiry', formatExpiryInput(event.target.value, values.expiry))}
            />
          )}
        </FormField>
        <FormField id="card-cvc" label="CVC" error={shownErrors.cvc}>
          {(control) => (
            <Input
              {...control}
              name="cvc"
              inputMode="numeric"
              autoComplete="cc-csc"
              placeholder="123"
              className="font-mono"
              value={values.cvc}
              onChange={(event) => set('cvc', formatCvcInput(event.target.value))}
            />
          )}
        </FormField>
        <FormField id="card-name" label="Name on card" error={shownErrors.name} className="col-span-2">
          {(control) => (
            <Input
              {...control}
              name="name"
              autoComplete="cc-name"
              placeholder="Jane Doe"
              maxLength={100}
              value={values.name}
              onChange={(event) => set('name', event.target.value)}
            />
          )}
        </FormField>
      </fieldset>

      {paymentError ? (
        <p
          role="alert"
          className="rounded-lg border border-destructive/50 bg-destructive/5 p-3 text-sm font-medium text-destructive"
        >
          {paymentError}
        </p>
      ) : null}

      <Button type="submit" size="lg" disabled={isPaying}>
        {isPaying ? (
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
    </form>
  );
}
