import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { signWebhook, startFakeStripe, type FakeStripeServer } from '../../testing/stripe-server';
import { PaymentProviderUnavailableError, WebhookSignatureError } from './payment-provider';
import { StripePaymentProvider } from './stripe-payment-provider';

/**
 * The Stripe adapter against a local server speaking Stripe's documented wire format
 * (docs/rules/running.md, Running modes and adapters).
 */
let fake: FakeStripeServer;
let provider: StripePaymentProvider;
const webhookSecret = 'whsec_adaptertest';

beforeAll(async () => {
  // The platform has money available, so a refund is made at once (Stripe holds it pending otherwise).
  fake = await startFakeStripe({ platformAvailable: 100_000 });
  provider = new StripePaymentProvider({
    secretKey: fake.secretKey,
    publishableKey: 'pk_test_adapter',
    webhookSecret,
    apiBase: fake.url,
  });
});
afterAll(async () => {
  await fake.close();
});

const signer = new Stripe('sk_test_signeronly');

describe('StripePaymentProvider', () => {
  it('creates a PaymentIntent with Bearer auth, form encoding and an idempotency key', async () => {
    const created = await provider.createPayment({
      paymentId: 'pay-1',
      buyerId: 'buyer-1',
      amount: 12_50,
      currency: 'usd',
      transferGroup: 'payment_pay-1',
    });
    expect(created.providerPaymentId).toMatch(/^pi_/);
    expect(created.clientSecret).toMatch(new RegExp(`^${created.providerPaymentId}_secret_`));
    const intent = fake.intents.get(created.providerPaymentId);
    expect(intent).toMatchObject({
      amount: 1250,
      currency: 'usd',
      metadata: { paymentId: 'pay-1', buyerId: 'buyer-1' },
      transfer_group: 'payment_pay-1',
      latest_charge: null,
    });
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/v1/payment_intents',
      idempotencyKey: 'payment-pay-1',
    });
    // The same create asked again (a retry) answers the same intent.
    const again = await provider.createPayment({
      paymentId: 'pay-1',
      buyerId: 'buyer-1',
      amount: 12_50,
      currency: 'usd',
      transferGroup: 'payment_pay-1',
    });
    expect(again.providerPaymentId).toBe(created.providerPaymentId);
  });

  it('retrieves the status, and refunds once per idempotency key', async () => {
    const { providerPaymentId } = await provider.createPayment({
      paymentId: 'pay-2',
      buyerId: 'b',
      amount: 40_00,
      currency: 'usd',
      transferGroup: 'payment_pay-2',
    });
    expect(await provider.retrievePayment(providerPaymentId)).toEqual({
      providerPaymentId,
      status: 'requires_payment',
      amount: 4000,
      currency: 'usd',
      chargeId: null,
      clientSecret: expect.stringMatching(/_secret_/),
    });
    fake.succeed(providerPaymentId);
    const succeeded = await provider.retrievePayment(providerPaymentId);
    expect(succeeded.status).toBe('succeeded');
    expect(succeeded.chargeId).toBe(fake.intents.get(providerPaymentId)?.latest_charge);
    expect(succeeded.chargeId).toMatch(/^ch_/);
    const first = await provider.refund({
      providerPaymentId,
      amount: 15_00,
      refundId: 'refund-1',
      idempotencyKey: 'r-1',
      reason: 'Order cancelled',
    });
    const repeated = await provider.refund({
      providerPaymentId,
      amount: 15_00,
      refundId: 'refund-1',
      idempotencyKey: 'r-1',
      reason: 'Order cancelled',
    });
    expect(first.providerRefundId).toMatch(/^re_/);
    expect(repeated.providerRefundId).toBe(first.providerRefundId);
    expect(fake.refunds.filter((r) => r.payment_intent === providerPaymentId)).toEqual([
      expect.objectContaining({
        amount: 1500,
        status: 'succeeded',
        metadata: { refundId: 'refund-1', reason: 'Order cancelled' },
      }),
    ]);
  });

  it('says the provider is unavailable when Stripe keeps failing, and passes on other errors', async () => {
    fake.failNext(3);
    await expect(provider.retrievePayment('pi_whatever')).rejects.toBeInstanceOf(
      PaymentProviderUnavailableError,
    );
    await expect(provider.retrievePayment('pi_missing')).rejects.toThrow(/No such payment_intent/);
    const wrongKey = new StripePaymentProvider({
      secretKey: 'sk_test_wrong',
      publishableKey: 'pk_test_x',
      webhookSecret,
      apiBase: fake.url,
    });
    await expect(wrongKey.retrievePayment('pi_x')).rejects.toThrow(/Invalid API Key/);
  });

  it('reads webhooks signed by the Stripe library and refuses bad signatures', () => {
    const payload = JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: {
        object: {
          id: 'pi_123',
          object: 'payment_intent',
          amount: 2500,
          currency: 'usd',
          latest_charge: 'ch_9',
        },
      },
    });
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
    expect(provider.parseWebhook(Buffer.from(payload), header)).toEqual({
      type: 'payment_succeeded',
      providerPaymentId: 'pi_123',
      amount: 2500,
      currency: 'usd',
      chargeId: 'ch_9',
    });
    // The tests' own signing helper writes what the Stripe library checks.
    expect(provider.parseWebhook(Buffer.from(payload), signWebhook(payload, webhookSecret)).type).toBe(
      'payment_succeeded',
    );
    const other = JSON.stringify({
      id: 'evt_2',
      object: 'event',
      type: 'charge.refunded',
      data: { object: { id: 'ch_1' } },
    });
    expect(
      provider.parseWebhook(
        Buffer.from(other),
        signer.webhooks.generateTestHeaderString({ payload: other, secret: webhookSecret }),
      ),
    ).toEqual({
      type: 'ignored',
      eventType: 'charge.refunded',
    });
    const forged = signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someoneelse' });
    expect(() => provider.parseWebhook(Buffer.from(payload), forged)).toThrow(WebhookSignatureError);
    expect(() => provider.parseWebhook(Buffer.from(payload.replace('pi_123', 'pi_999')), header)).toThrow(
      WebhookSignatureError,
    );
    expect(() => provider.parseWebhook(Buffer.from(payload), undefined)).toThrow(WebhookSignatureError);
    const stale = signer.webhooks.generateTestHeaderString({
      payload,
      secret: webhookSecret,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    expect(() => provider.parseWebhook(Buffer.from(payload), stale)).toThrow(WebhookSignatureError);
  });

  it('reads refund events, finds a refund by our id, asks how it stands and cancels intents', async () => {
    const { providerPaymentId } = await provider.createPayment({
      paymentId: 'pay-3',
      buyerId: 'b',
      amount: 30_00,
      currency: 'usd',
      transferGroup: 'payment_pay-3',
    });
    fake.succeed(providerPaymentId);
    fake.setNextRefundOutcome('pending');
    const made = await provider.refund({
      providerPaymentId,
      amount: 10_00,
      refundId: 'refund-3',
      idempotencyKey: 'refund-refund-3',
      reason: 'Order cancelled',
    });
    expect(made).toMatchObject({ status: 'pending', refundId: 'refund-3', failureReason: null });
    expect(await provider.findRefund(providerPaymentId, 'refund-3')).toEqual(made);
    expect(await provider.findRefund(providerPaymentId, 'refund-other')).toBeUndefined();
    const failed = fake.settleRefund(made.providerRefundId, 'failed', 'expired_or_canceled_card');
    expect(await provider.retrieveRefund(made.providerRefundId)).toMatchObject({
      status: 'failed',
      failureReason: 'expired_or_canceled_card',
    });
    const payload = JSON.stringify(failed);
    expect(provider.parseWebhook(Buffer.from(payload), signWebhook(payload, webhookSecret))).toEqual({
      type: 'refund_updated',
      refund: {
        providerRefundId: made.providerRefundId,
        status: 'failed',
        failureReason: 'expired_or_canceled_card',
        refundId: 'refund-3',
      },
    });

    const open = await provider.createPayment({
      paymentId: 'pay-4',
      buyerId: 'b',
      amount: 30_00,
      currency: 'usd',
      transferGroup: 'payment_pay-4',
    });
    expect((await provider.cancelPayment(open.providerPaymentId)).status).toBe('canceled');
    expect(fake.intents.get(open.providerPaymentId)).toMatchObject({
      status: 'canceled',
      cancellation_reason: 'abandoned',
    });
    // A paid intent cannot be cancelled: the answer says how it stands instead.
    expect((await provider.cancelPayment(providerPaymentId)).status).toBe('succeeded');
  });
});
