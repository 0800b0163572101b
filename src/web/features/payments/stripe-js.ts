/**
 * Stripe.js, loaded on demand from Stripe's own address (Stripe requires it is never bundled or
 * self-hosted). Only the few calls the card form uses are typed here.
 */
export const STRIPE_JS_URL = 'https://js.stripe.com/v3';

export interface StripeCardChangeEvent {
  complete: boolean;
  empty: boolean;
  error?: { message: string };
}

export interface StripeCardElement {
  mount(element: HTMLElement): void;
  destroy(): void;
  focus(): void;
  on(event: 'change', handler: (event: StripeCardChangeEvent) => void): void;
}

export interface StripeElements {
  create(
    type: 'card',
    options?: {
      hidePostalCode?: boolean;
      style?: { base?: Record<string, string | Record<string, string>>; invalid?: Record<string, string> };
    },
  ): StripeCardElement;
}

export interface StripeConfirmResult {
  error?: { message?: string; type?: string; code?: string };
  paymentIntent?: { id: string; status: string };
}

export interface StripeClient {
  elements(): StripeElements;
  confirmCardPayment(
    clientSecret: string,
    data: { payment_method: { card: StripeCardElement; billing_details?: { name?: string } } },
  ): Promise<StripeConfirmResult>;
}

export type StripeFactory = (publishableKey: string) => StripeClient;

declare global {
  interface Window {
    Stripe?: StripeFactory;
  }
}

let loading: Promise<StripeFactory> | null = null;

/** Adds the script once; every caller waits for the same load. A failed load can be tried again. */
export function loadStripeJs(): Promise<StripeFactory> {
  if (typeof window.Stripe === 'function') return Promise.resolve(window.Stripe);
  if (loading) return loading;
  loading = new Promise<StripeFactory>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = STRIPE_JS_URL;
    script.async = true;
    script.onload = () => {
      if (typeof window.Stripe === 'function') resolve(window.Stripe);
      else reject(new Error('Stripe.js loaded without defining Stripe'));
    };
    script.onerror = () => {
      script.remove();
      reject(new Error('Stripe.js could not be loaded'));
    };
    document.head.appendChild(script);
  }).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}
