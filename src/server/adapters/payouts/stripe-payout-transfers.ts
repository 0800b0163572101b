import Stripe from 'stripe';
import { createStripeClient, isStripeUnavailable } from '../payments/stripe-client';
import type { StripeConfig } from '../../config';
import { PaymentProviderUnavailableError } from '../payments/payment-provider';
import { PayoutRefusedError } from './payout-errors';
import type { PayoutTransfers, ReversalInput, TransferInput } from './payout-provider';

/** Network failures and Stripe's 5xx/429 are "try again later"; Stripe's refusals are final for this payout. */
function translateError(error: unknown, what: string): unknown {
  if (isStripeUnavailable(error)) {
    return new PaymentProviderUnavailableError(`Stripe is not reachable (${what})`, { cause: error });
  }
  if (
    error instanceof Stripe.errors.StripeInvalidRequestError ||
    error instanceof Stripe.errors.StripePermissionError ||
    // A key reused with other parameters: Stripe will answer the same every time, as the built-in
    // provider does (docs/decisions/0022-money-in-combinations.md, Transfers and their keys).
    error instanceof Stripe.errors.StripeIdempotencyError
  ) {
    return new PayoutRefusedError(`Stripe refused the ${what}: ${error.message}`, { cause: error });
  }
  return error;
}

/**
 * Stripe's separate charges and transfers (docs/decisions/0013-money-movement.md, Transfers and the
 * ledger): a transfer to the connected account names the buyer's charge as its source_transaction
 * (so it waits for the charge's funds instead of failing) and the payment's transfer_group; the
 * metadata carries our key, which is how a retry past Stripe's 24-hour key window finds the
 * transfer it already made. Reversals are looked for by key the same way before one is made.
 */
export class StripePayoutTransfers implements PayoutTransfers {
  private readonly stripe: Stripe;

  constructor(config: StripeConfig) {
    this.stripe = createStripeClient(config);
  }

  async transfer(input: TransferInput): Promise<{ providerTransferId: string }> {
    try {
      const transfer = await this.stripe.transfers.create(
        {
          amount: input.amount,
          currency: input.currency,
          destination: input.destinationAccountId,
          transfer_group: input.transferGroup,
          ...(input.sourceChargeId ? { source_transaction: input.sourceChargeId } : {}),
          metadata: input.metadata,
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return { providerTransferId: transfer.id };
    } catch (error) {
      throw translateError(error, 'transfer');
    }
  }

  async reverseTransfer(input: ReversalInput): Promise<{ providerReversalId: string }> {
    try {
      // Within the key window the key alone answers a retry; past it the reversal is looked for by metadata.
      if (input.lookFirst)
        for await (const reversal of this.stripe.transfers.listReversals(input.providerTransferId, {
          limit: 100,
        })) {
          if (reversal.metadata?.key === input.idempotencyKey) return { providerReversalId: reversal.id };
        }
      const reversal = await this.stripe.transfers.createReversal(
        input.providerTransferId,
        { amount: input.amount, metadata: input.metadata },
        { idempotencyKey: input.idempotencyKey },
      );
      return { providerReversalId: reversal.id };
    } catch (error) {
      throw translateError(error, 'transfer reversal');
    }
  }

  async findTransfer(input: {
    transferGroup: string;
    idempotencyKey: string;
  }): Promise<{ providerTransferId: string } | null> {
    try {
      for await (const transfer of this.stripe.transfers.list({
        transfer_group: input.transferGroup,
        limit: 100,
      })) {
        if (transfer.metadata?.key === input.idempotencyKey) return { providerTransferId: transfer.id };
      }
      return null;
    } catch (error) {
      throw translateError(error, 'transfer lookup');
    }
  }
}
