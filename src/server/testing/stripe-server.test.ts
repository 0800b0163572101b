import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_KEY_TTL_MS,
  parseForm,
  StripeHttpError,
  startFakeStripe,
  type FakeStripeRoute,
  type FakeStripeServer,
} from './stripe-server';

/**
 * The local Stripe server behaves as Stripe does where the payment code relies on it
 * (docs/decisions/0013-money-movement.md, Payments and refunds): idempotency keys, refund and
 * intent states, and the endpoints other tests add.
 */
let fake: FakeStripeServer;
const seen: { path: string; requested: string | undefined; x: string | undefined }[] = [];

const accountsRoute: FakeStripeRoute = (req, ctx) => {
  if (req.method === 'POST' && req.path === '/v1/accounts') {
    const requested = req.form.get('capabilities', 'transfers', 'requested');
    seen.push({ path: req.path, requested, x: req.form.nested.get('metadata')?.x });
    if (requested !== 'true')
      throw new StripeHttpError(
        400,
        'invalid_request_error',
        'transfers must be requested',
        'parameter_missing',
      );
    return { body: { id: ctx.id('acct'), object: 'account', created: Math.floor(ctx.now() / 1000) } };
  }
  return undefined;
};

beforeAll(async () => {
  fake = await startFakeStripe({ routes: [accountsRoute] });
});
afterAll(async () => {
  await fake.close();
});

async function call(
  method: string,
  path: string,
  form?: Record<string, string>,
  key?: string,
): Promise<{ status: number; body: Record<string, unknown> & { error?: { type: string; code?: string } } }> {
  const response = await fetch(`${fake.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${fake.secretKey}`,
      'content-type': 'application/x-www-form-urlencoded',
      ...(key ? { 'idempotency-key': key } : {}),
    },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
  return { status: response.status, body: (await response.json()) as Record<string, never> };
}

const intent = (amount = '2000', key?: string) =>
  call('POST', '/v1/payment_intents', { amount, currency: 'usd', transfer_group: 'payment_x' }, key);

describe('the fake Stripe server', () => {
  it('answers a reused idempotency key with the first answer, another body under it with idempotency_error, and forgets keys after 24 hours', async () => {
    const first = await intent('2000', 'key-a');
    const replay = await intent('2000', 'key-a');
    expect(replay.body.id).toBe(first.body.id);
    const other = await intent('2100', 'key-a');
    expect(other.status).toBe(400);
    expect(other.body.error?.type).toBe('idempotency_error');
    // A failed validation is not kept: the same key may be used again.
    expect((await intent('10', 'key-b')).status).toBe(400);
    expect((await intent('2000', 'key-b')).status).toBe(200);

    fake.advance(IDEMPOTENCY_KEY_TTL_MS + 1000);
    const later = await intent('2000', 'key-a');
    expect(later.status).toBe(200);
    expect(later.body.id).not.toBe(first.body.id);
  });

  it('moves intents through requires_action and processing to succeeded with a charge, and cancels open ones', async () => {
    const { body } = await intent();
    const id = String(body.id);
    expect(body).toMatchObject({ transfer_group: 'payment_x', latest_charge: null });
    expect(fake.requireAction(id).status).toBe('requires_action');
    expect(fake.process(id).status).toBe('processing');
    const succeeded = fake.succeed(id);
    expect(succeeded.latest_charge).toMatch(/^ch_/);
    expect(fake.charges.get(succeeded.latest_charge ?? '')).toMatchObject({
      payment_intent: id,
      transfer_group: 'payment_x',
    });
    const refused = await call('POST', `/v1/payment_intents/${id}/cancel`, {});
    expect(refused.status).toBe(400);
    expect(refused.body.error?.code).toBe('payment_intent_unexpected_state');

    const open = await intent();
    const cancelled = await call('POST', `/v1/payment_intents/${String(open.body.id)}/cancel`, {
      cancellation_reason: 'abandoned',
    });
    expect(cancelled.body).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned' });
  });

  it('leaves a refund pending as told, lists refunds of an intent, and settles them with an event', async () => {
    const { body } = await intent();
    const id = String(body.id);
    fake.succeed(id);
    fake.setNextRefundOutcome('pending');
    const refund = await call('POST', '/v1/refunds', {
      payment_intent: id,
      amount: '500',
      'metadata[refundId]': 'r1',
    });
    expect(refund.body).toMatchObject({ status: 'pending', metadata: { refundId: 'r1' } });
    const listed = await call('GET', `/v1/refunds?payment_intent=${id}`);
    expect(listed.body).toMatchObject({ object: 'list', has_more: false, data: [{ id: refund.body.id }] });
    const event = fake.settleRefund(String(refund.body.id), 'failed', 'lost_or_stolen_card');
    expect(event).toMatchObject({
      type: 'refund.failed',
      data: { object: { status: 'failed', failure_reason: 'lost_or_stolen_card' } },
    });
    // A failed refund gives the amount back: the whole intent can be refunded again.
    expect((await call('POST', '/v1/refunds', { payment_intent: id })).body).toMatchObject({ amount: 2000 });
  });

  it('runs added routes inside the same authentication and idempotency, with nested form keys', async () => {
    const form = { 'capabilities[transfers][requested]': 'true', 'metadata[x]': 'y' };
    const made = await call('POST', '/v1/accounts', form, 'acct-key');
    expect(made.body.id).toMatch(/^acct_/);
    expect((await call('POST', '/v1/accounts', form, 'acct-key')).body.id).toBe(made.body.id);
    expect(seen).toEqual([{ path: '/v1/accounts', requested: 'true', x: 'y' }]);
    const refused = await call('POST', '/v1/accounts', { 'metadata[x]': 'y' });
    expect(refused).toMatchObject({ status: 400, body: { error: { code: 'parameter_missing' } } });
    const anonymous = await fetch(`${fake.url}/v1/accounts`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
    expect(parseForm('a[b][c]=1&list[]=x&list[]=y').tree).toEqual({
      a: { b: { c: '1' } },
      list: { 0: 'x', 1: 'y' },
    });
  });
});
