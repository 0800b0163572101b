import { TestPayoutAccounts } from '../adapters/payouts/test-payout-accounts';
import type { AddressDeps } from '../modules/addresses/addresses.service';
import { twoFactorKeyOf } from '../modules/auth/two-factor-codes';
import type { TwoFactorDeps } from '../modules/auth/two-factor.service';
import type { CheckoutDeps } from '../modules/checkout/checkout.service';
import type { OrderDeps } from '../modules/orders/order-deps';
import type { PaymentDeps } from '../modules/payments/payment-deps';
import type { PayoutAccountDeps } from '../modules/payout-accounts/payout-accounts.service';
import type { PayoutDeps } from '../modules/payouts/payout-deps';
import { settleOwedPayouts } from '../modules/payouts/settle-payouts';
import type { ProductDeps } from '../modules/products/products.service';
import { followOrderSteps } from '../modules/refunds/follow-order-steps';
import type { RefundDeps } from '../modules/refunds/refunds.service';
import type { UploadDeps } from '../modules/uploads/uploads.service';
import type { AppContext } from './context';

/**
 * What each module's operations take, built once per app by {@link buildOperations} from its
 * settings and adapters, every setting required: routes and jobs pass a module's bag as it is. A bag
 * whose operations log is asked for with the log to write to: a route's request log, so each line
 * carries the request id, or the app's log for a job (`ctx.ops.payouts(request.log)`).
 */
export interface Operations {
  twoFactor: TwoFactorDeps;
  addresses: (log: AddressDeps['log']) => AddressDeps;
  uploads: UploadDeps;
  products: ProductDeps;
  checkout: CheckoutDeps;
  /** Orders' steps, the driver's among them, and the money that follows them. */
  orders: (log: OrderDeps['log']) => OrderDeps;
  /**
   * The money modules' bags, each the next one's and what it adds (docs/ARCHITECTURE.md, Money
   * flows one way): payments ⊃ refunds and disputes ⊃ payouts.
   */
  payments: (log: PaymentDeps['log']) => PaymentDeps;
  refunds: (log: RefundDeps['log']) => RefundDeps;
  payouts: (log: PayoutDeps['log']) => PayoutDeps;
  payoutAccounts: (log: PayoutAccountDeps['log']) => PayoutAccountDeps;
}

/** What the operations are built from: the app's settings and adapters. */
type OperationSources = Pick<
  AppContext,
  | 'db'
  | 'config'
  | 'now'
  | 'signingKey'
  | 'rateLimits'
  | 'geocoder'
  | 'storage'
  | 'imageCopies'
  | 'payments'
  | 'payouts'
>;

export function buildOperations(app: OperationSources): Operations {
  const { db, config, now, signingKey, storage, payments, payouts } = app;
  const pictures = { db, storage, now, imageCopies: app.imageCopies };
  const money = (log: PaymentDeps['log']): PaymentDeps => ({
    db,
    payments,
    payouts,
    now,
    log,
    siteUrl: config.siteUrl,
    timeZone: config.marketplaceTz,
  });
  const orderSteps = followOrderSteps(money, config.payoutHoldMs);
  // The built-in provider's own pages read its simulated accounts; another provider has none.
  const testAccounts = payouts.name === 'test' ? new TestPayoutAccounts(db, { signingKey, now }) : undefined;
  return {
    twoFactor: {
      db,
      key: twoFactorKeyOf(signingKey),
      now,
      failures: app.rateLimits.twoFactorFailuresPerUser,
      siteUrl: config.siteUrl,
    },
    addresses: (log) => ({ db, geocoder: app.geocoder, log, signingKey }),
    uploads: pictures,
    products: pictures,
    checkout: { db, now, timeZone: config.marketplaceTz },
    orders: (log) => ({ db, now, log, orderSteps, storage }),
    payments: money,
    refunds: money,
    payouts: money,
    payoutAccounts: (log) => ({
      db,
      accounts: payouts,
      log,
      settleOwed: (userId) => settleOwedPayouts(money(log), userId, { accountBecameReady: true }),
      testAccounts,
    }),
  };
}
