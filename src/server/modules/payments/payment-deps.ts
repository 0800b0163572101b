import { PaymentProviderUnavailableError } from '../../adapters/payments/payment-provider';
import { AppError } from '../../platform/errors';
import type { RefundDeps } from '../refunds/refunds.service';

/**
 * What a payment operation needs: the refunds' (a paid checkout that cannot become orders is
 * refunded; a dispute event releases or takes back payouts) and the marketplace time zone its
 * checkout is priced in.
 */
export interface PaymentDeps extends RefundDeps {
  /** MARKETPLACE_TZ: pickup slots are checked in it. */
  timeZone: string;
}

export const PROVIDER_UNAVAILABLE =
  'The payment service is not reachable right now. Please try again in a moment.';

/** Runs a call to the provider; a provider that cannot be reached is a 503 with a sentence to retry. */
export async function callProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof PaymentProviderUnavailableError)
      throw new AppError('unavailable', PROVIDER_UNAVAILABLE);
    throw error;
  }
}
