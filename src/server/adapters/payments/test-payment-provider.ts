import crypto from 'node:crypto';
import { and, eq, gte, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import { builtOnce } from '../../db/built-once';
import type { Db } from '../../db/client';
import { payments, refunds, testTransfers } from '../../db/schema';
import { CARD_DECLINED_MESSAGE, normaliseCardNumber } from '../../../domain/checkout';
import { parseCents } from '../../../domain/money';
import type {
  CardOutcome,
  ChargeFee,
  CreatedPayment,
  CreatePaymentInput,
  PaymentProvider,
  ProviderBalanceTransaction,
  ProviderPayment,
  ProviderRefund,
  RefundInput,
  TestCard,
} from './payment-provider';

/**
 * The card provider's test-mode numbers (docs/rules/running.md, Running modes and adapters): these
 * behave as they do in Stripe's test mode. Any other number is declined, as Stripe's test mode
 * declines real cards.
 */
const CARD_OUTCOMES: Readonly<Record<string, { outcome: 'succeeded' } | CardOutcome>> = {
  '4242424242424242': { outcome: 'succeeded' },
  '5555555555554444': { outcome: 'succeeded' },
  '4000056655665556': { outcome: 'succeeded' },
  '4000000000000002': { outcome: 'declined', message: CARD_DECLINED_MESSAGE },
  '4000000000009995': { outcome: 'declined', message: 'Your card has insufficient funds.' },
  '4000000000000069': { outcome: 'declined', message: 'Your card has expired.' },
  '4000000000000127': { outcome: 'declined', message: "Your card's security code is incorrect." },
};

/** The test provider's charge is named after its payment, as Stripe's latest_charge names one. */
const chargeIdOf = (providerPaymentId: string) => `tch_${providerPaymentId.replace(/^tp_/, '')}`;

/** The built-in provider's name, as its payments' rows record it. */
const TEST_PROVIDER = 'test';

const NOT_A_TEST_CARD = `${CARD_DECLINED_MESSAGE} Test mode accepts test cards only, such as 4242 4242 4242 4242.`;

/**
 * The card charged: the ledger row goes from requires_payment to succeeded. Built once: every paid
 * checkout on the built-in provider runs it
 * (docs/decisions/0028-checkout-throughput.md, Statements built once).
 */
const chargeOnce = builtOnce((db) =>
  db
    .update(payments)
    .set({ status: 'succeeded', updatedAt: sql`${sql.placeholder('now')}::timestamptz` })
    .where(
      and(
        eq(payments.provider, TEST_PROVIDER),
        eq(payments.providerPaymentId, sql.placeholder('providerPaymentId')),
        eq(payments.status, 'requires_payment'),
      ),
    )
    .prepare(''),
);

/**
 * The built-in provider of the embedded default. Its ledger is the database itself: a payment is
 * the `payments` row (its status moves to succeeded when the card is charged) and a refund is the
 * `refunds` row the service writes; there is nothing outside to call.
 */
export class TestPaymentProvider implements PaymentProvider {
  readonly name = TEST_PROVIDER;
  readonly publishableKey = null;
  /** No fee (retrieveChargeFee), and no call needed to know it. */
  readonly chargesNoFee = true;

  constructor(private readonly db: Db) {}

  async createPayment(_input: CreatePaymentInput): Promise<CreatedPayment> {
    // randomUUID draws from a buffered pool: a fraction of randomBytes' cost on every payment.
    return { providerPaymentId: `tp_${crypto.randomUUID().replaceAll('-', '')}`, clientSecret: null };
  }

  async retrievePayment(providerPaymentId: string): Promise<ProviderPayment> {
    const row = await this.findPayment(providerPaymentId);
    if (!row) throw new Error(`Unknown test payment ${providerPaymentId}`);
    return this.describe(row);
  }

  /** An open payment is cancelled in its ledger row; a charged one stays as it is. */
  async cancelPayment(providerPaymentId: string): Promise<ProviderPayment> {
    await this.db
      .update(payments)
      .set({ status: 'cancelled', updatedAt: new Date() })
      .where(
        and(
          eq(payments.provider, this.name),
          eq(payments.providerPaymentId, providerPaymentId),
          eq(payments.status, 'requires_payment'),
        ),
      );
    const row = await this.findPayment(providerPaymentId);
    // A payment never written (a duplicate dropped by the database) has nothing left to cancel.
    if (!row)
      return {
        providerPaymentId,
        status: 'canceled',
        amount: 0,
        currency: 'usd',
        chargeId: null,
        clientSecret: null,
      };
    return this.describe(row);
  }

  /** Charges the card: the ledger row goes from requires_payment to succeeded, once. */
  async confirmCard(providerPaymentId: string, card: TestCard): Promise<CardOutcome> {
    const outcome = CARD_OUTCOMES[normaliseCardNumber(card.cardNumber)] ?? {
      outcome: 'declined',
      message: NOT_A_TEST_CARD,
    };
    if (outcome.outcome === 'declined') return outcome;
    await chargeOnce(this.db).execute({ providerPaymentId, now: new Date() });
    return { outcome: 'succeeded', chargeId: chargeIdOf(providerPaymentId) };
  }

  /** The refund itself is the refunds row; its id is derived from that row so a retry gives the same id. */
  async refund(input: RefundInput): Promise<ProviderRefund> {
    const row = await this.findPayment(input.providerPaymentId);
    if (!row) throw new Error(`Unknown test payment ${input.providerPaymentId}`);
    if (input.amount > parseCents(row.amount)) throw new Error('Refund exceeds the payment');
    return this.describeRefund(input.refundId);
  }

  /** Its refunds are the refunds rows: one made earlier has its provider id written there. */
  async findRefund(_providerPaymentId: string, refundId: string): Promise<ProviderRefund | undefined> {
    const rows = await this.db.select().from(refunds).where(eq(refunds.id, refundId)).limit(1);
    return rows[0]?.providerRefundId ? this.describeRefund(refundId) : undefined;
  }

  /** A test refund succeeds at once. */
  async retrieveRefund(providerRefundId: string): Promise<ProviderRefund> {
    const refundId = /^tre_([0-9a-f]{32})$/.exec(providerRefundId)?.[1];
    if (!refundId) throw new Error(`Unknown test refund ${providerRefundId}`);
    const id = `${refundId.slice(0, 8)}-${refundId.slice(8, 12)}-${refundId.slice(12, 16)}-${refundId.slice(16, 20)}-${refundId.slice(20)}`;
    return this.describeRefund(id);
  }

  /**
   * The built-in provider charges no fee (docs/decisions/0018-money-against-stripe.md): 0, so no
   * provider_fee entry is written.
   */
  async retrieveChargeFee(_chargeId: string): Promise<ChargeFee> {
    return { fee: 0, currency: 'usd', balanceTransactionId: null };
  }

  /**
   * Its balance, in Stripe's terms (docs/decisions/0018-money-against-stripe.md, Reconcile against
   * the provider): its own records are the provider's. A charged payment is a `charge` of its
   * `tch_…` charge (no fee), a refund it made a `refund` of its `tre_…` id, and the payout
   * provider's `test_transfers` rows a `transfer` or a `transfer_refund` of their own ids.
   */
  async *listBalanceTransactions(period: {
    from: Date;
    to: Date;
  }): AsyncIterable<ProviderBalanceTransaction> {
    const charged = await this.db
      .select()
      .from(payments)
      .where(
        and(
          eq(payments.provider, this.name),
          inArray(payments.status, ['succeeded', 'refunded', 'partially_refunded']),
          gte(sql`coalesce(${payments.processedAt}, ${payments.updatedAt})`, period.from),
          lt(sql`coalesce(${payments.processedAt}, ${payments.updatedAt})`, period.to),
        ),
      );
    for (const row of charged) {
      const chargeId = chargeIdOf(row.providerPaymentId);
      yield {
        id: `ttxn_${chargeId}`,
        type: 'charge',
        amount: parseCents(row.amount),
        fee: 0,
        currency: row.currency,
        source: chargeId,
        created: row.processedAt ?? row.updatedAt,
      };
    }
    const made = await this.db
      .select({ refund: refunds, currency: payments.currency })
      .from(refunds)
      .innerJoin(payments, eq(payments.id, refunds.paymentId))
      .where(
        and(
          eq(payments.provider, this.name),
          isNotNull(refunds.providerRefundId),
          gte(refunds.updatedAt, period.from),
          lt(refunds.updatedAt, period.to),
        ),
      );
    for (const { refund, currency } of made) {
      if (!refund.providerRefundId) continue;
      yield {
        id: `ttxn_${refund.providerRefundId}`,
        type: 'refund',
        amount: -parseCents(refund.amount),
        fee: 0,
        currency,
        source: refund.providerRefundId,
        created: refund.updatedAt,
      };
    }
    const moved = await this.db
      .select()
      .from(testTransfers)
      .where(and(gte(testTransfers.createdAt, period.from), lt(testTransfers.createdAt, period.to)));
    for (const row of moved)
      yield {
        id: `ttxn_${row.id}`,
        type: row.kind === 'transfer' ? 'transfer' : 'transfer_refund',
        amount: (row.kind === 'transfer' ? -1 : 1) * parseCents(row.amount),
        fee: 0,
        currency: row.currency,
        source: row.id,
        created: row.createdAt,
      };
  }

  private describeRefund(refundId: string): ProviderRefund {
    return {
      providerRefundId: `tre_${refundId.replace(/-/g, '')}`,
      status: 'succeeded',
      failureReason: null,
      refundId,
    };
  }

  private describe(row: typeof payments.$inferSelect): ProviderPayment {
    // Once charged, a refunded payment still counts as having succeeded at the provider.
    const status =
      row.status === 'cancelled'
        ? 'canceled'
        : row.status === 'requires_payment' || row.status === 'failed'
          ? 'requires_payment'
          : 'succeeded';
    return {
      providerPaymentId: row.providerPaymentId,
      status,
      amount: parseCents(row.amount),
      currency: row.currency,
      chargeId: status === 'succeeded' ? chargeIdOf(row.providerPaymentId) : null,
      clientSecret: null,
    };
  }

  private async findPayment(providerPaymentId: string) {
    const rows = await this.db
      .select()
      .from(payments)
      .where(and(eq(payments.provider, this.name), eq(payments.providerPaymentId, providerPaymentId)))
      .limit(1);
    return rows[0];
  }
}
