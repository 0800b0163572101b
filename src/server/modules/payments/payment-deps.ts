import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import {
  PaymentProviderUnavailableError,
  type PaymentProvider,
} from '../../adapters/payments/payment-provider';
import { AppError } from '../../platform/errors';

/** What a payment operation needs: the database, the active provider, the clock, the time zone and a log. */
export interface PaymentDeps {
  db: Db;
  payments: PaymentProvider;
  now: () => Date;
  timeZone: string;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** Where links in mail point (Config.siteUrl): a dispute event may release payouts, which are mailed. */
  siteUrl: string;
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
