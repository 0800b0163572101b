import Stripe from 'stripe';
import { startFakeStripe, type FakeStripeServer } from './stripe-server';
import { createFakeConnectAccounts, type FakeConnectAccounts } from './stripe-connect-accounts';
import { createFakeConnectTransfers, type FakeConnectTransfers } from './stripe-connect-transfers';
import { createFakeDisputes, type FakeDisputes, type FakeDisputesOptions } from './stripe-disputes';
import type { FakeBalances, FakeBalancesOptions } from './stripe-balances';

/**
 * The whole local Stripe in one call (docs/decisions/0018-money-against-stripe.md, The local Stripe server):
 * the server (payment intents, charges, refunds, balances), Connect accounts, transfers and
 * reversals, and disputes, bound together so that money moves between the platform's and the
 * connected accounts' balances as it does at Stripe, and automatic payouts empty the accounts when
 * the clock (`server.advance`) passes a payout time.
 */

export interface StripeWorldOptions {
  secretKey?: string;
  /** Processing fee ({percent: 2.9, fixed: 30}), availableAfterDays (2), payoutHourUtc (0). */
  balances?: FakeBalancesOptions;
  /** disputeFee (1500), counterFee (0), returnDisputeFeeOnWin (false), evidenceDueInDays (14). */
  disputes?: FakeDisputesOptions;
  /** What the platform has available from before (cents, 0): refunds up to it need not wait for funds. */
  platformAvailable?: number;
}

export interface StripeWorld {
  server: FakeStripeServer;
  connect: FakeConnectAccounts;
  transfers: FakeConnectTransfers;
  balances: FakeBalances;
  disputes: FakeDisputes;
  /** The `stripe` library pointed at this server (no retries), for tests that play the platform. */
  stripe: Stripe;
  /** What the app's config needs to use this server: STRIPE_SECRET_KEY and STRIPE_API_BASE. */
  env: { STRIPE_SECRET_KEY: string; STRIPE_API_BASE: string };
  close(): Promise<void>;
}

export async function startStripeWorld(options: StripeWorldOptions = {}): Promise<StripeWorld> {
  const connect = createFakeConnectAccounts();
  const transfers = createFakeConnectTransfers();
  const disputes = createFakeDisputes(options.disputes);
  const server = await startFakeStripe({
    secretKey: options.secretKey,
    routes: [connect.route, transfers.route, disputes.route],
    balances: options.balances,
    platformAvailable: options.platformAvailable,
  });
  transfers.bind({ accounts: connect.accounts, charges: server.charges, balances: server.balances });
  server.balances.bind({ schedules: connect.schedules });
  server.addResolver((id) => (id.startsWith('tr') ? transfers.resolve(id) : undefined));
  server.addResolver((id) => (id.startsWith('acct_') ? connect.accounts.get(id) : undefined));
  disputes.bind(server);
  const url = new URL(server.url);
  const stripe = new Stripe(server.secretKey, {
    host: url.hostname,
    port: url.port,
    protocol: 'http',
    maxNetworkRetries: 0,
    telemetry: false,
  });
  return {
    server,
    connect,
    transfers,
    balances: server.balances,
    disputes,
    stripe,
    env: { STRIPE_SECRET_KEY: server.secretKey, STRIPE_API_BASE: server.url },
    close: () => server.close(),
  };
}
