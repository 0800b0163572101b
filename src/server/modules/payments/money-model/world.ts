import { createTestApp, type TestApp } from '../../../testing/test-app';
import { startStripeWorld, type StripeWorld } from '../../../testing/stripe-world';
import { signWebhook, type FakeStripeEvent } from '../../../testing/stripe-server';
import { PLATFORM } from '../../../testing/stripe-balances';
import { StripePaymentProvider } from '../../../adapters/payments/stripe-payment-provider';
import type { ProviderRefund, RefundInput } from '../../../adapters/payments/payment-provider';
import { StripePayoutAccounts } from '../../../adapters/payouts/stripe-payout-accounts';
import { StripePayoutTransfers } from '../../../adapters/payouts/stripe-payout-transfers';
import type {
  PayoutProvider,
  PayoutTransfers,
  ReversalInput,
  TransferInput,
} from '../../../adapters/payouts/payout-provider';
import type { StripeConfig } from '../../../config';
import { retryPayouts, type PayoutRetryReport } from '../../payouts/settle-payouts';

/**
 * The one app and the one local Stripe of the money model (src/server/modules/payments/money-model.test.ts),
 * shared by every sequence: the app runs with Stripe as its provider (the faithful local Stripe of
 * `startStripeWorld`), an injected clock that moves with the Stripe server's, the production payout
 * hold, and the app's own Stripe adapters wrapped so that a sequence can make one of ITS provider
 * calls lose its answer (the local Stripe's `failNextAfterRunning`, armed right before that call so
 * no other sequence's leftover work takes it), or die before reaching Stripe (a crash after the
 * commit). The same wrapped adapters serve the app's routes and the jobs this file runs, as the app's
 * own jobs would use them.
 */

export const WEBHOOK_SECRET = 'whsec_moneymodel';
export const HOUR_MS = 60 * 60 * 1000;
/** The production default of PAYOUT_HOLD_HOURS (docs/decisions/0018-money-against-stripe.md, Refunds). */
export const PAYOUT_HOLD_HOURS = 72;

/** What goes wrong with the next provider call of a kind made for the current sequence. */
export type Fault =
  /** Stripe saves a 500 under the call's key before doing anything: retries with the key get it for 24 h. */
  | 'lost'
  /** Stripe does the call, then answers (and saves) a 500: the money moved and the app does not know. */
  | 'lost-applied'
  /** The process dies after its commit: this call and every later one of the command never reach Stripe. */
  | 'crash'
  /** A refund Stripe leaves pending (settled later by the model's refund-outcome command). */
  | 'refund-pending';
export type CallKind = 'transfer' | 'reversal' | 'refund';

/** A provider call of the current sequence that a fault hit, for the model's "answer in doubt". */
export interface FiredFault {
  fault: Fault;
  on: CallKind;
  /** The app's clock when it fired. */
  at: number;
  what: string;
}

/** Arms and fires faults on the current sequence's provider calls only. */
export class Faults {
  armed: { fault: Fault; on: CallKind } | null = null;
  /** Set by a crash: every later call of the command fails before reaching Stripe. */
  crashing = false;
  /** Faults that fired since the model last read them. */
  fired: FiredFault[] = [];
  /** Whether a call belongs to the current sequence (its orders, its payments' intents). */
  owns: (call: { orderId?: string; providerPaymentId?: string }) => boolean = () => false;

  constructor(
    private readonly world: StripeWorld,
    private readonly now: () => Date,
  ) {}

  reset(): void {
    this.armed = null;
    this.crashing = false;
    this.fired = [];
    this.owns = () => false;
  }

  async around<T>(
    kind: CallKind,
    owner: { orderId?: string; providerPaymentId?: string },
    what: string,
    call: () => Promise<T>,
  ): Promise<T> {
    if (!this.owns(owner)) return call();
    if (this.crashing) throw new Error(`connect ECONNREFUSED (the process died before ${what})`);
    const armed = this.armed;
    if (!armed || armed.on !== kind) return call();
    this.armed = null;
    this.fired.push({ fault: armed.fault, on: kind, at: this.now().getTime(), what });
    switch (armed.fault) {
      case 'crash':
        this.crashing = true;
        throw new Error(`connect ECONNREFUSED (the process died before ${what})`);
      case 'lost':
        this.world.server.failNextAfterRunning(1);
        break;
      case 'lost-applied':
        this.world.server.failNextAfterRunning(1, { applied: true });
        break;
      case 'refund-pending':
        this.world.server.setNextRefundOutcome('pending');
        break;
    }
    try {
      return await call();
    } finally {
      // Never left armed for a later request (another sequence's, or a GET).
      this.world.server.failNextAfterRunning(0);
    }
  }
}

/** The app's Stripe payment adapter with the sequence's faults on its refunds. */
class FaultyPayments extends StripePaymentProvider {
  constructor(
    config: StripeConfig,
    private readonly faults: Faults,
  ) {
    super(config);
  }

  override refund(input: RefundInput): Promise<ProviderRefund> {
    return this.faults.around(
      'refund',
      { providerPaymentId: input.providerPaymentId },
      `the refund ${input.refundId}`,
      () => super.refund(input),
    );
  }
}

/** The app's Stripe transfers with the sequence's faults on transfers and reversals. */
function faultyTransfers(real: PayoutTransfers, faults: Faults): PayoutTransfers {
  return {
    transfer: (input: TransferInput) =>
      faults.around(
        'transfer',
        { orderId: input.metadata.orderId },
        `the transfer ${input.idempotencyKey}`,
        () => real.transfer(input),
      ),
    reverseTransfer: (input: ReversalInput) =>
      faults.around(
        'reversal',
        { orderId: input.metadata.orderId },
        `the reversal ${input.idempotencyKey}`,
        () => real.reverseTransfer(input),
      ),
    findTransfer: async (input) => {
      if (faults.crashing)
        throw new Error('connect ECONNREFUSED (the process died before a transfer lookup)');
      return real.findTransfer(input);
    },
  };
}

export interface MoneyWorld {
  t: TestApp;
  world: StripeWorld;
  faults: Faults;
  transfers: PayoutTransfers;
  /** The app's clock (the Stripe server's moves with it). */
  now: () => Date;
  /** Moves the app's clock and the Stripe server's together: keys expire, funds become available, accounts are paid out. */
  moveClocks(ms: number): void;
  /**
   * A sequence starts from the same world as any other: both clocks at the next 12:00 UTC at least
   * 49 hours on (every earlier charge's funds available; Stripe's daily payouts run at 00:00 UTC), and
   * the platform's available balance at zero — paid out to its bank as Stripe's automatic payouts
   * do, or a negative balance topped up. So a replayed counterexample meets the same balances.
   */
  freshStart(): void;
  /** The payout job's work (`retryPayouts`, as registerPayoutJobs calls it). */
  runPayoutJob(): Promise<PayoutRetryReport>;
  /** The payments job's work (`recoverPaidCheckouts`: unprocessed payments, `settleUnfinishedRefunds`, fees). */
  runPaymentsJob(): Promise<unknown>;
  /** Posts an event to the endpoint Stripe sends it to, signed. */
  postEvent(
    event: FakeStripeEvent,
    endpoint: 'payments' | 'connect',
  ): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

const silent = { info: () => {}, warn: () => {}, error: () => {} };

export async function startMoneyWorld(): Promise<MoneyWorld> {
  const world = await startStripeWorld();
  let ahead = 0;
  const now = () => new Date(Date.now() + ahead);
  const faults = new Faults(world, now);
  const config: StripeConfig = {
    secretKey: world.env.STRIPE_SECRET_KEY,
    publishableKey: 'pk_test_moneymodel',
    webhookSecret: WEBHOOK_SECRET,
    apiBase: world.env.STRIPE_API_BASE,
  };
  const transfers = faultyTransfers(new StripePayoutTransfers(config), faults);
  const accounts = new StripePayoutAccounts(config);
  const payouts: PayoutProvider = {
    name: 'stripe',
    createAccount: (input) => accounts.createAccount(input),
    retrieveAccount: (id) => accounts.retrieveAccount(id),
    createOnboardingLink: (input) => accounts.createOnboardingLink(input),
    createDashboardLink: (id) => accounts.createDashboardLink(id),
    ...transfers,
  };
  const t = await createTestApp({
    payoutRetryMs: 0,
    now,
    payments: new FaultyPayments(config, faults),
    payouts,
    env: {
      ...world.env,
      STRIPE_PUBLISHABLE_KEY: config.publishableKey,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      PAYOUT_HOLD_HOURS: String(PAYOUT_HOLD_HOURS),
    },
  });
  const post = async (event: FakeStripeEvent, endpoint: 'payments' | 'connect') => {
    const payload = JSON.stringify(event);
    const response = await t.app.inject({
      method: 'POST',
      url: endpoint === 'payments' ? '/api/stripe/webhook' : '/api/stripe/connect/webhook',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': signWebhook(payload, WEBHOOK_SECRET, Math.floor(Date.now() / 1000)),
      },
      payload,
    });
    return { status: response.statusCode, body: response.body };
  };
  const moveClocks = (ms: number) => {
    ahead += ms;
    world.server.advance(ms);
  };
  return {
    t,
    world,
    faults,
    transfers,
    now,
    moveClocks,
    freshStart() {
      const day = 24 * HOUR_MS;
      const earliest = Date.now() + ahead + 49 * HOUR_MS;
      const noon = Math.ceil((earliest - 12 * HOUR_MS) / day) * day + 12 * HOUR_MS;
      moveClocks(noon - (Date.now() + ahead));
      const { available } = world.balances.balanceOf();
      if (available < 0) world.server.topUp(-available);
      if (available > 0)
        world.balances.record(PLATFORM, {
          amount: -available,
          currency: 'usd',
          type: 'payout',
          reporting_category: 'payout',
          source: world.server.id('po'),
          description: 'STRIPE PAYOUT',
        });
      world.server.takeEvents();
    },
    runPayoutJob: () =>
      retryPayouts({ db: t.database.db, payouts: transfers, now, log: silent, siteUrl: t.config.siteUrl }),
    runPaymentsJob: () => t.app.recoverPaidCheckouts(),
    postEvent: post,
    close: async () => {
      await t.close();
      await world.close();
    },
  };
}
