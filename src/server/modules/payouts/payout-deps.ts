import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { PayoutTransfers } from '../../adapters/payouts/payout-provider';

/** What moving money to sellers and drivers needs: the database, the payout provider, the clock and a log. */
export interface PayoutDeps {
  db: Db;
  payouts: PayoutTransfers;
  now: () => Date;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** Where links in mail point (Config.siteUrl). */
  siteUrl: string;
}

/** How long a worker holds a payout while it calls the provider; longer than the provider's own timeouts and retries. */
export const PAYOUT_LEASE_MS = 2 * 60 * 1000;

/**
 * Stripe keeps an idempotency key at least 24 hours after its first use; counted from a payout's
 * first attempt, a retry after that must look for the transfer before paying.
 */
export const PROVIDER_KEY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * A payout the provider refuses while the account is ready is tried again after 15 minutes, 1 hour,
 * 4 hours and 16 hours; the fifth refusal in a row is final until an admin sends it again
 * (docs/decisions/0018-money-against-stripe.md, Failed payouts).
 */
export const PAYOUT_REFUSALS_BEFORE_FINAL = 5;
export function payoutBackoffMs(refusals: number): number {
  return 15 * 60 * 1000 * 4 ** Math.max(0, refusals - 1);
}

/**
 * One key per order and party and key generation: the transfer of that payout, however often it is
 * asked for. A refusal proves no transfer was made under the key, and Stripe answers that refusal to
 * every retry with it, so the next attempt takes the next generation
 * (docs/decisions/0022-money-in-combinations.md, Transfers and their keys).
 */
export function transferKeyOf(payout: { orderId: string; kind: string; keyGeneration: number }): string {
  const base = `payout-${payout.orderId}-${payout.kind}`;
  return payout.keyGeneration > 0 ? `${base}-g${payout.keyGeneration}` : base;
}

/** The key of the transfer giving a share back: a new generation after each refusal. */
export function restoreKeyOf(share: { id: string; keyGeneration: number }): string {
  return share.keyGeneration > 0 ? `restore-${share.id}-g${share.keyGeneration}` : `restore-${share.id}`;
}

/** One key per reversal row (a refund or a lost dispute takes back a share of one payout). */
export function reversalKeyOf(reversal: { id: string }): string {
  return `reversal-${reversal.id}`;
}

export function describeError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.slice(0, 500);
}
