import { useState } from 'react';
import { useLocation } from 'wouter';
import { useQueryClient } from '@tanstack/react-query';
import {
  CARD_DECLINED_MESSAGE,
  type PaymentConfirmBody,
  type PaymentIntent,
  type PaymentResult,
} from '@domain/checkout';
import type { Order } from '@domain/orders';
import { toast } from '../../components/ui/use-toast';
import { errorMessage, fieldErrorsOf, statusOf } from '../../lib/api-client';
import { toastMutationError } from '../../lib/mutation-errors';
import { useCart } from '../cart/use-cart';
import { clearCheckoutSession } from '../checkout/checkout-session';
import { ordersQueryOptions } from '../orders/api/get-orders';
import { ORDERS_KEY } from '../orders/api/order-keys';
import { useConfirmPayment } from './api/confirm-payment';
import type { CardFieldErrors } from './components/test-card-form';

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

export interface CardPayment {
  /** The payment succeeded and made its orders; the buyer is on the way to My Orders. */
  paid: boolean;
  /** The message above Pay (a declined card, a failure); the form stays. */
  paymentError: string | null;
  /** The server's messages per card field (a 400 with fields). */
  fieldErrors: CardFieldErrors;
  /** A 409: the order could not be placed (sold out after charging, refunded). */
  conflict: string | null;
  /** A confirm call is running, or Stripe is being asked again while it settles. */
  isPaying: boolean;
  pay(intent: PaymentIntent, card: PaymentConfirmBody): void;
}

/**
 * Paying a started payment with the card of the active provider (docs/rules/money.md, Payments;
 * docs/rules/screens-buyer.md, Cart and checkout screens): confirms it, asks Stripe again while it is
 * processing, and after success shows the new orders in My Orders, clears the checkout's keys and the cart
 * and goes there.
 */
export function useCardPayment(): CardPayment {
  const { clear } = useCart();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [paid, setPaid] = useState(false);
  const [paymentError, setPaymentError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<CardFieldErrors>({});
  const [conflict, setConflict] = useState<string | null>(null);
  const [isWaiting, setIsWaiting] = useState(false);
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

  return { paid, paymentError, fieldErrors, conflict, isPaying: confirm.isPending || isWaiting, pay };
}
