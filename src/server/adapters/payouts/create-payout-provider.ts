import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { PaymentProviderName } from '../../../domain/checkout';
import type {
  PayoutAccount,
  PayoutAccounts,
  PayoutProvider,
  PayoutTransfers,
  ReversalInput,
  TransferInput,
} from './payout-provider';
import { TestPayoutAccounts } from './test-payout-accounts';
import { TestPayoutTransfers } from './test-payout-transfers';

/** One provider from its two halves, written and tested apart. */
class ComposedPayoutProvider implements PayoutProvider {
  constructor(
    readonly name: PaymentProviderName,
    private readonly accounts: PayoutAccounts,
    private readonly transfers: PayoutTransfers,
  ) {}

  createAccount(input: { userId: string; email: string }): Promise<{ accountId: string }> {
    return this.accounts.createAccount(input);
  }
  retrieveAccount(accountId: string): Promise<PayoutAccount> {
    return this.accounts.retrieveAccount(accountId);
  }
  createOnboardingLink(input: {
    accountId: string;
    returnUrl: string;
    refreshUrl: string;
  }): Promise<{ url: string }> {
    return this.accounts.createOnboardingLink(input);
  }
  createDashboardLink(accountId: string): Promise<{ url: string }> {
    return this.accounts.createDashboardLink(accountId);
  }
  transfer(input: TransferInput): Promise<{ providerTransferId: string }> {
    return this.transfers.transfer(input);
  }
  reverseTransfer(input: ReversalInput): Promise<{ providerReversalId: string }> {
    return this.transfers.reverseTransfer(input);
  }
  findTransfer(input: {
    transferGroup: string;
    idempotencyKey: string;
  }): Promise<{ providerTransferId: string } | null> {
    return this.transfers.findTransfer(input);
  }
}

/**
 * Stripe Connect when Stripe is configured, else the built-in test provider whose accounts and
 * transfers are rows of this database (docs/rules/running.md, Running modes and adapters). Stripe's
 * SDK is loaded only when its keys are set (docs/decisions/0016-embedded-database-process.md, Memory).
 */
export async function createPayoutProvider(
  config: Config,
  db: Db,
  options: { signingKey: Buffer; now: () => Date },
): Promise<PayoutProvider> {
  if (config.stripe) {
    const [{ StripePayoutAccounts }, { StripePayoutTransfers }] = await Promise.all([
      import('./stripe-payout-accounts'),
      import('./stripe-payout-transfers'),
    ]);
    return new ComposedPayoutProvider(
      'stripe',
      new StripePayoutAccounts(config.stripe),
      new StripePayoutTransfers(config.stripe),
    );
  }
  return new ComposedPayoutProvider(
    'test',
    new TestPayoutAccounts(db, { signingKey: options.signingKey, now: options.now }),
    new TestPayoutTransfers(db),
  );
}
