import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { startStripeWorld, type StripeWorld, type StripeWorldOptions } from './stripe-world';
import { IDEMPOTENCY_KEY_TTL_MS } from './stripe-server';

/**
 * The local Stripe where it used to differ from Stripe in ways that hide money defects
 * (docs/decisions/0022-money-in-combinations.md), driven through the real `stripe` library: saved
 * errors under idempotency keys, refunds of disputed charges, disputes of refunded charges, refunds
 * that wait for funds, reversals, inquiries, prevented disputes and refunds that fail after
 * succeeding. Each test names the page of Stripe's documentation (docs.stripe.com) it follows.
 */
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

let world: StripeWorld;
let stripe: Stripe;

async function start(options?: StripeWorldOptions) {
  await world?.close();
  world = await startStripeWorld(options);
  stripe = world.stripe;
}

beforeEach(async () => {
  world = await startStripeWorld();
  stripe = world.stripe;
});
afterEach(async () => {
  await world.close();
});

/** A card payment of `amount` cents: the intent, and Stripe.js confirming it. */
async function pay(amount: number): Promise<{ intent: string; charge: string }> {
  const intent = await stripe.paymentIntents.create({ amount, currency: 'usd', transfer_group: 'g1' });
  const charge = world.server.succeed(intent.id).latest_charge ?? '';
  return { intent: intent.id, charge };
}

/** A connected Express account; `complete` finishes its onboarding (transfers active). */
async function account(options: { complete?: boolean; manual?: boolean } = {}) {
  const created = await stripe.accounts.create({
    type: 'express',
    capabilities: { transfers: { requested: true } },
    ...(options.manual ? { settings: { payouts: { schedule: { interval: 'manual' } } } } : {}),
  });
  if (options.complete ?? true) world.connect.complete(created.id);
  return created.id;
}

async function stripeError(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) return error;
    throw error;
  }
  throw new Error('the call succeeded');
}

const replayed = (error: Stripe.errors.StripeError) => error.headers?.['idempotent-replayed'];
const types = (events: { type: string }[]) => events.map((e) => e.type);
const total = (balance: { available: number; pending: number }) => balance.available + balance.pending;
const refundOf = (id: string) => world.server.refunds.find((r) => r.id === id);

describe('idempotency: the first result of an executed request is saved, errors included', () => {
  // API reference, Idempotent requests: Stripe "saves the resulting status code and body of the
  // first request made for any given idempotency key, regardless of whether it succeeds or fails";
  // results are saved "only after the execution of an endpoint begins" (a request that fails
  // validation saves nothing); keys can be pruned once "at least 24 hours old"; a key reused with
  // other parameters is an error (`idempotency_error`, StripeIdempotencyError in the library).
  it('answers a refund refused with charge_disputed again to a retry with the same key, for 24 hours', async () => {
    await start({ platformAvailable: 100_000 });
    const { intent, charge } = await pay(5_000);
    const { dispute } = world.disputes.open(charge);
    const refused = await stripeError(
      stripe.refunds.create({ payment_intent: intent }, { idempotencyKey: 'refund-1' }),
    );
    expect(refused).toMatchObject({ statusCode: 400, code: 'charge_disputed' });
    world.disputes.win(dispute.id);
    // The dispute is won and a refund is possible now, but the key answers its saved 400.
    world.server.advance(23 * HOUR);
    const again = await stripeError(
      stripe.refunds.create({ payment_intent: intent }, { idempotencyKey: 'refund-1' }),
    );
    expect(again).toMatchObject({ statusCode: 400, code: 'charge_disputed' });
    expect(replayed(again)).toBe('true');
    expect(world.server.refunds).toHaveLength(0);
    // A new key, or the same key once it is pruned, runs the request.
    world.server.advance(2 * HOUR);
    const made = await stripe.refunds.create({ payment_intent: intent }, { idempotencyKey: 'refund-1' });
    expect(made).toMatchObject({ status: 'succeeded', amount: 5_000 });
  });

  it('answers a reversal refused with balance_insufficient again, though the account has funds later', async () => {
    const seller = await account();
    const { charge } = await pay(10_000);
    const transfer = await stripe.transfers.create({
      amount: 6_000,
      currency: 'usd',
      destination: seller,
      source_transaction: charge,
    });
    world.server.advance(3 * DAY); // available, then paid out to the seller's bank
    const reverse = () =>
      stripe.transfers.createReversal(transfer.id, { amount: 1_000 }, { idempotencyKey: 'rev-1' });
    expect(await stripeError(reverse())).toMatchObject({ statusCode: 400, code: 'balance_insufficient' });
    // The seller's account receives money again: the saved refusal stands under the key.
    await stripe.transfers.create({ amount: 2_000, currency: 'usd', destination: seller });
    const again = await stripeError(reverse());
    expect(again).toMatchObject({ statusCode: 400, code: 'balance_insufficient' });
    expect(replayed(again)).toBe('true');
    const other = await stripe.transfers.createReversal(
      transfer.id,
      { amount: 1_000 },
      { idempotencyKey: 'rev-2' },
    );
    expect(other).toMatchObject({ object: 'transfer_reversal', amount: 1_000 });
  });

  it('answers a transfer refused because the destination cannot receive it again, after onboarding completes', async () => {
    const driver = await account({ complete: false });
    const { charge } = await pay(5_000);
    const send = (key: string) =>
      stripe.transfers.create(
        { amount: 900, currency: 'usd', destination: driver, source_transaction: charge },
        { idempotencyKey: key },
      );
    expect(await stripeError(send('tr-1'))).toMatchObject({
      statusCode: 400,
      code: 'insufficient_capabilities_for_transfer',
    });
    world.connect.complete(driver);
    expect(await stripeError(send('tr-1'))).toMatchObject({
      code: 'insufficient_capabilities_for_transfer',
    });
    expect(world.transfers.transfers).toHaveLength(0);
    expect((await send('tr-2')).destination).toBe(driver);
  });

  it('saves nothing for a request that failed validation or authentication', async () => {
    const { intent } = await pay(5_000);
    // A missing required parameter, then the same key with it.
    const missing = await stripeError(
      stripe.refunds.create({ amount: 1_000 }, { idempotencyKey: 'k-missing' }),
    );
    expect(missing).toMatchObject({ statusCode: 400, code: 'parameter_missing' });
    const made = await stripe.refunds.create(
      { payment_intent: intent, amount: 1_000 },
      { idempotencyKey: 'k-missing' },
    );
    expect(made.amount).toBe(1_000);
    // A malformed amount, then the same key with a good one.
    const malformed = await stripeError(
      stripe.refunds.create(
        { payment_intent: intent, amount: 'ten' as unknown as number },
        { idempotencyKey: 'k-format' },
      ),
    );
    expect(malformed).toMatchObject({ statusCode: 400, code: 'parameter_invalid_integer' });
    expect(
      (await stripe.refunds.create({ payment_intent: intent, amount: 500 }, { idempotencyKey: 'k-format' }))
        .amount,
    ).toBe(500);
    // A wrong API key, then the right one under the same idempotency key.
    const url = new URL(world.server.url);
    const stranger = new Stripe('sk_test_wrong', {
      host: url.hostname,
      port: url.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    const refusedKey = await stripeError(
      stranger.refunds.create({ payment_intent: intent, amount: 200 }, { idempotencyKey: 'k-auth' }),
    );
    expect(refusedKey.statusCode).toBe(401);
    expect(
      (await stripe.refunds.create({ payment_intent: intent, amount: 200 }, { idempotencyKey: 'k-auth' }))
        .amount,
    ).toBe(200);
  });

  it('refuses a key reused with other parameters with idempotency_error, a saved error as a saved success', async () => {
    const { intent, charge } = await pay(5_000);
    await stripe.refunds.create({ payment_intent: intent, amount: 1_000 }, { idempotencyKey: 'k-1' });
    const other = await stripeError(
      stripe.refunds.create({ payment_intent: intent, amount: 2_000 }, { idempotencyKey: 'k-1' }),
    );
    expect(other).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(other.statusCode).toBe(400);
    world.disputes.open(charge);
    await stripeError(
      stripe.refunds.create({ payment_intent: intent, amount: 300 }, { idempotencyKey: 'k-2' }),
    );
    expect(
      await stripeError(
        stripe.refunds.create({ payment_intent: intent, amount: 400 }, { idempotencyKey: 'k-2' }),
      ),
    ).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });
});

describe('refunds of a disputed charge follow is_charge_refundable', () => {
  // API reference, The Dispute object, `is_charge_refundable`: "If true, it's still possible to
  // refund the disputed payment. After the payment has been fully refunded, no further funds are
  // withdrawn from your Stripe account as a result of this dispute." Disputes, "Inquiries and
  // retrievals": unlike a formal dispute "no funds have been withdrawn and the payment it relates to
  // can still be refunded"; refunding "the payment in full … marks the inquiry or retrieval as
  // resolved and no dispute fee is incurred". A refused refund is `charge_disputed` (API reference,
  // Error codes).
  it('refuses a refund while a chargeback withdrew the funds and after it is lost; allows one once won', async () => {
    await start({ platformAvailable: 100_000 });
    const first = await pay(4_000);
    const chargeback = world.disputes.open(first.charge).dispute;
    expect(chargeback).toMatchObject({ status: 'needs_response', is_charge_refundable: false });
    expect(await stripeError(stripe.refunds.create({ payment_intent: first.intent }))).toMatchObject({
      code: 'charge_disputed',
    });
    world.disputes.lose(chargeback.id);
    expect(await stripeError(stripe.refunds.create({ payment_intent: first.intent }))).toMatchObject({
      code: 'charge_disputed',
    });
    const second = await pay(4_000);
    const won = world.disputes.open(second.charge).dispute;
    world.disputes.win(won.id);
    expect(await stripe.refunds.create({ payment_intent: second.intent, amount: 1_000 })).toMatchObject({
      status: 'succeeded',
    });
  });

  it('allows refunds during an inquiry; a full refund closes it as warning_closed', async () => {
    await start({ platformAvailable: 100_000 });
    const { intent, charge } = await pay(6_000);
    const { dispute } = world.disputes.open(charge, { inquiry: true });
    expect(dispute).toMatchObject({ status: 'warning_needs_response', is_charge_refundable: true });
    world.server.takeEvents();
    expect(await stripe.refunds.create({ payment_intent: intent, amount: 2_000 })).toMatchObject({
      status: 'succeeded',
    });
    expect(await stripe.disputes.retrieve(dispute.id)).toMatchObject({
      status: 'warning_needs_response',
      is_charge_refundable: true,
    });
    expect(types(world.server.takeEvents())).toEqual(['refund.created', 'charge.refunded']);
    await stripe.refunds.create({ payment_intent: intent });
    expect(await stripe.disputes.retrieve(dispute.id)).toMatchObject({
      status: 'warning_closed',
      is_charge_refundable: false,
      balance_transactions: [],
    });
    const sent = world.server.takeEvents();
    expect(types(sent)).toEqual(['refund.created', 'charge.refunded', 'charge.dispute.closed']);
    expect(sent[2]?.data.object).toMatchObject({ id: dispute.id, status: 'warning_closed' });
    // No dispute fee: the platform is out only the charge's processing fee.
    expect(total(world.balances.balanceOf())).toBe(100_000 - world.balances.processingFee(6_000));
  });
});

describe('a refunded charge and a dispute', () => {
  // Refunds, "Refund requests": "Disputes and chargebacks aren't possible on credit card charges
  // that are fully refunded." API reference, The Dispute object, `amount`: "Usually the amount of
  // the charge, but it can differ (… because only part of the order is disputed)". The Refund
  // object, `failure_reason`: `charge_for_pending_refund_disputed` (a refund still pending when the
  // charge is disputed fails).
  it('cannot dispute a charge refunded in full', async () => {
    await start({ platformAvailable: 100_000 });
    const { intent, charge } = await pay(3_000);
    await stripe.refunds.create({ payment_intent: intent });
    expect(() => world.disputes.open(charge)).toThrow(/refunded in full/);
    expect(() => world.disputes.prevent(charge)).toThrow(/refunded in full/);
    expect(world.disputes.disputes.size).toBe(0);
  });

  it('disputes what is left of a partially refunded charge by default, or more when told', async () => {
    await start({ platformAvailable: 100_000 });
    const first = await pay(10_000);
    await stripe.refunds.create({ payment_intent: first.intent, amount: 3_000 });
    const { dispute } = world.disputes.open(first.charge);
    expect(dispute).toMatchObject({
      amount: 7_000,
      balance_transactions: [{ amount: -7_000, fee: 1_500, net: -8_500 }],
    });
    const second = await pay(10_000);
    await stripe.refunds.create({ payment_intent: second.intent, amount: 3_000 });
    const more = world.disputes.open(second.charge, { amount: 10_000 }).dispute;
    expect(more).toMatchObject({ amount: 10_000, balance_transactions: [{ amount: -10_000 }] });
  });

  it('fails a refund still pending when the charge is disputed', async () => {
    const { intent, charge } = await pay(5_000);
    const waiting = await stripe.refunds.create({ payment_intent: intent, amount: 2_000 });
    expect(waiting).toMatchObject({ status: 'pending', pending_reason: 'insufficient_funds' });
    const { dispute, events } = world.disputes.open(charge);
    expect(types(events)).toEqual([
      'charge.dispute.created',
      'charge.dispute.funds_withdrawn',
      'refund.failed',
      'charge.refund.updated',
    ]);
    expect(dispute.amount).toBe(5_000);
    expect(await stripe.refunds.retrieve(waiting.id)).toMatchObject({
      status: 'failed',
      failure_reason: 'charge_for_pending_refund_disputed',
    });
  });
});

describe('a refund waits for funds', () => {
  // Refunds, "Refund and cancel payments": "Refunds use your available Stripe balance (not
  // including pending amounts). If your available balance doesn't cover the amount of the refund,
  // Stripe holds the refund as pending for card transactions … until your Stripe balance becomes
  // sufficient." API reference, The Refund object, `pending_reason`: `insufficient_funds`, "The
  // balance of the Stripe account is insufficient to cover the refund". Events: `refund.updated`
  // and `charge.refund.updated` (API reference, Types of events).
  it('keeps a refund pending while the charge funds are pending, and completes it when they are available', async () => {
    const { intent, charge } = await pay(10_000);
    const refund = await stripe.refunds.create({ payment_intent: intent, amount: 4_000 });
    expect(refund).toMatchObject({ status: 'pending', pending_reason: 'insufficient_funds' });
    // The money is taken with the refund: the available balance is negative while it waits.
    expect(world.balances.balanceOf()).toEqual({ available: -4_000, pending: 9_680 });
    expect(await stripe.charges.retrieve(charge)).toMatchObject({ amount_refunded: 4_000 });
    world.server.takeEvents();
    world.server.advance(DAY);
    expect((await stripe.refunds.retrieve(refund.id)).status).toBe('pending');
    expect(world.server.takeEvents()).toEqual([]);
    world.server.advance(DAY); // the charge's funds are available
    expect(await stripe.refunds.retrieve(refund.id)).toMatchObject({
      status: 'succeeded',
      pending_reason: null,
    });
    const sent = world.server.takeEvents();
    expect(types(sent)).toEqual(['refund.updated', 'charge.refund.updated']);
    expect(sent[0]?.data.object).toMatchObject({ id: refund.id, status: 'succeeded' });
    expect(world.balances.balanceOf()).toEqual({ available: 5_680, pending: 0 });
  });

  it('pays at once what the available balance covers, and the rest in order as money comes in', async () => {
    await start({ platformAvailable: 5_000 });
    const { intent } = await pay(10_000);
    const first = await stripe.refunds.create({ payment_intent: intent, amount: 4_000 });
    expect(first.status).toBe('succeeded');
    const second = await stripe.refunds.create({ payment_intent: intent, amount: 2_000 });
    const third = await stripe.refunds.create({ payment_intent: intent, amount: 500 });
    expect([second.status, third.status]).toEqual(['pending', 'pending']);
    world.server.takeEvents();
    world.server.topUp(500); // 1,500 for 2,000 and 500: the second still waits, and the third behind it
    expect([refundOf(second.id)?.status, refundOf(third.id)?.status]).toEqual(['pending', 'pending']);
    world.server.topUp(1_000);
    expect([refundOf(second.id)?.status, refundOf(third.id)?.status]).toEqual(['succeeded', 'succeeded']);
    expect(types(world.server.takeEvents())).toEqual([
      'refund.updated',
      'charge.refund.updated',
      'refund.updated',
      'charge.refund.updated',
    ]);
  });
});

describe('transfer reversals', () => {
  // API reference, Transfer Reversals: "Transfer reversals add to the platform's balance and
  // subtract from the destination account's balance … It is possible to reverse a transfer_group
  // transfer only if the destination account has enough balance to cover the reversal." The
  // TransferReversal object has no status: a reversal is made at once or refused, never pending.
  it('moves the money at once, with no status to wait in', async () => {
    const seller = await account({ manual: true });
    const { charge } = await pay(10_000);
    const transfer = await stripe.transfers.create({
      amount: 6_000,
      currency: 'usd',
      destination: seller,
      source_transaction: charge,
    });
    world.server.advance(3 * DAY);
    const reversal = await stripe.transfers.createReversal(transfer.id, { amount: 2_500 });
    expect(reversal).not.toHaveProperty('status');
    expect(await stripe.balanceTransactions.retrieve(String(reversal.balance_transaction))).toMatchObject({
      type: 'transfer_refund',
      amount: 2_500,
      status: 'available',
    });
    expect(world.balances.balanceOf(seller)).toEqual({ available: 3_500, pending: 0 });
  });
});

describe('inquiries', () => {
  // Disputes, "Inquiries and retrievals"; API reference, The Dispute object, `status`
  // (`warning_needs_response`, `warning_under_review`, `warning_closed`, `needs_response`, …) and
  // `balance_transactions`; Types of events: `charge.dispute.created`, `.updated`, `.closed`,
  // `.funds_withdrawn`.
  it('withdraws nothing from opening to warning_closed, through evidence', async () => {
    const { charge } = await pay(8_000);
    const before = world.balances.balanceOf();
    const opened = world.disputes.open(charge, { inquiry: true });
    expect(types(opened.events)).toEqual(['charge.dispute.created']);
    expect(opened.dispute).toMatchObject({
      status: 'warning_needs_response',
      balance_transactions: [],
      payment_method_details: { card: { case_type: 'inquiry' } },
    });
    const answered = await stripe.disputes.update(opened.dispute.id, {
      evidence: { uncategorized_text: 'Delivered to the door.' },
      submit: true,
    });
    expect(answered.status).toBe('warning_under_review');
    expect(types(world.server.takeEvents())).toEqual(['charge.dispute.updated']);
    const closed = world.disputes.closeInquiry(opened.dispute.id);
    expect(types(closed.events)).toEqual(['charge.dispute.closed']);
    expect(closed.dispute).toMatchObject({ status: 'warning_closed', balance_transactions: [] });
    expect(world.balances.balanceOf()).toEqual(before);
  });

  it('withdraws the amount and the fee when the inquiry escalates to a chargeback', async () => {
    await start({ platformAvailable: 100_000 });
    const { intent, charge } = await pay(8_000);
    const { dispute } = world.disputes.open(charge, { inquiry: true });
    world.disputes.submitEvidence(dispute.id, { uncategorized_text: 'Delivered.' });
    const escalated = world.disputes.escalate(dispute.id);
    expect(types(escalated.events)).toEqual(['charge.dispute.updated', 'charge.dispute.funds_withdrawn']);
    expect(escalated.dispute).toMatchObject({
      status: 'needs_response',
      is_charge_refundable: false,
      payment_method_details: { card: { case_type: 'chargeback' } },
      evidence_details: { submission_count: 0 },
      balance_transactions: [{ type: 'adjustment', amount: -8_000, fee: 1_500 }],
    });
    expect(await stripeError(stripe.refunds.create({ payment_intent: intent }))).toMatchObject({
      code: 'charge_disputed',
    });
  });
});

describe('prevented disputes', () => {
  // Disputes, "Dispute prevention": resolution rules "automatically resolve (refund) specific
  // disputes. Resolved disputes don't count towards your dispute rate and don't incur a dispute
  // received fee." API changelog 2025-08-27, "Adds support for Dispute Preventions": status
  // `prevented`, `payment_method_details.card.case_type` `resolution`.
  it('refunds the cardholder, withdraws nothing and charges no dispute fee', async () => {
    await start({ platformAvailable: 100_000 });
    const { intent, charge } = await pay(7_000);
    const { dispute, events } = world.disputes.prevent(charge, { reason: 'product_not_received' });
    expect(types(events)).toEqual([
      'charge.dispute.created',
      'charge.dispute.closed',
      'refund.created',
      'charge.refunded',
    ]);
    expect(dispute).toMatchObject({
      status: 'prevented',
      amount: 7_000,
      balance_transactions: [],
      is_charge_refundable: false,
      payment_method_details: { card: { case_type: 'resolution' } },
    });
    const refunds = await stripe.refunds.list({ payment_intent: intent });
    expect(refunds.data).toMatchObject([{ amount: 7_000, status: 'succeeded' }]);
    expect(await stripe.charges.retrieve(charge)).toMatchObject({ refunded: true, disputed: true });
    const adjustments = await stripe.balanceTransactions.list({ type: 'adjustment' });
    expect(adjustments.data).toEqual([]);
    expect(total(world.balances.balanceOf())).toBe(100_000 - world.balances.processingFee(7_000));
  });

  it('resolves a dispute opened but not answered as if it had been prevented as it came in', async () => {
    await start({ platformAvailable: 100_000 });
    const { charge } = await pay(7_000);
    const opened = world.disputes.open(charge);
    const prevented = world.disputes.prevent(opened.dispute.id);
    expect(types(prevented.events)).toEqual(['charge.dispute.closed', 'refund.created', 'charge.refunded']);
    expect(await stripe.disputes.retrieve(opened.dispute.id)).toMatchObject({
      status: 'prevented',
      balance_transactions: [],
    });
    expect((await stripe.balanceTransactions.list({ type: 'adjustment' })).data).toEqual([]);
    expect(total(world.balances.balanceOf())).toBe(100_000 - world.balances.processingFee(7_000));
  });
});

describe('a refund that fails after it succeeded', () => {
  // Refunds, "Failed refunds" (a refund to a closed or expired card can fail after it succeeded;
  // the money comes back to the balance); API reference, The Refund object: `failure_reason`
  // (`expired_or_canceled_card`, …) and `failure_balance_transaction` ("the adjustment made on your
  // account balance that reverses the initial balance transaction"); Balance transaction types,
  // `refund_failure`; Types of events: `refund.failed`, `charge.refund.updated`.
  it('is failed with its reason, gives the money back with refund_failure, and sends its events', async () => {
    await start({ platformAvailable: 100_000 });
    const { intent, charge } = await pay(6_000);
    const refund = await stripe.refunds.create({ payment_intent: intent, amount: 2_500 });
    expect(refund.status).toBe('succeeded');
    const events = world.server.failRefund(refund.id, 'expired_or_canceled_card');
    expect(types(events)).toEqual(['refund.failed', 'charge.refund.updated']);
    expect(events[0]?.data.object).toMatchObject({ id: refund.id, status: 'failed' });
    const failed = await stripe.refunds.retrieve(refund.id, { expand: ['failure_balance_transaction'] });
    expect(failed).toMatchObject({
      status: 'failed',
      failure_reason: 'expired_or_canceled_card',
      failure_balance_transaction: { type: 'refund_failure', amount: 2_500, source: refund.id },
    });
    expect(await stripe.charges.retrieve(charge)).toMatchObject({ amount_refunded: 0, refunded: false });
    // The platform holds the whole charge again, less Stripe's processing fee.
    expect(total(world.balances.balanceOf())).toBe(100_000 + 6_000 - world.balances.processingFee(6_000));
    // The charge can be refunded again, in full.
    expect((await stripe.refunds.create({ payment_intent: intent })).amount).toBe(6_000);
    expect(() => world.server.failRefund(refund.id)).toThrow(/failed/);
  });
});

it('forgets a saved error with its key after 24 hours', async () => {
  // API reference, Idempotent requests: keys may be pruned once "at least 24 hours old"; "We
  // generate a new request if a key is reused after the original is pruned."
  const driver = await account({ complete: false });
  const { charge } = await pay(5_000);
  const send = () =>
    stripe.transfers.create(
      { amount: 900, currency: 'usd', destination: driver, source_transaction: charge },
      { idempotencyKey: 'tr-late' },
    );
  await stripeError(send());
  world.connect.complete(driver);
  world.server.advance(IDEMPOTENCY_KEY_TTL_MS + 1_000);
  expect((await send()).destination).toBe(driver);
});
