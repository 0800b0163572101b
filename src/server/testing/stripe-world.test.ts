import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { startStripeWorld, type StripeWorld, type StripeWorldOptions } from './stripe-world';
import { IDEMPOTENCY_KEY_TTL_MS } from './stripe-server';

/**
 * The local Stripe moves money as Stripe does where the money code relies on it
 * (docs/decisions/0018-money-against-stripe.md, The local Stripe server), called through the real `stripe`
 * library: processing fees on charges, refunds that keep the fee, transfers and reversals between
 * balances, automatic payouts that empty connected accounts, disputes, and idempotency keys.
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

/** A card payment of `amount` cents: the intent, and Stripe.js confirming it. Answers the charge id. */
async function pay(amount: number): Promise<{ intent: string; charge: string }> {
  const intent = await stripe.paymentIntents.create({ amount, currency: 'usd', transfer_group: 'g1' });
  const charge = world.server.succeed(intent.id).latest_charge ?? '';
  return { intent: intent.id, charge };
}

/** A connected Express account that finished onboarding. */
async function account(schedule?: Stripe.AccountCreateParams.Settings.Payouts.Schedule) {
  const created = await stripe.accounts.create({
    type: 'express',
    capabilities: { transfers: { requested: true } },
    ...(schedule ? { settings: { payouts: { schedule } } } : {}),
  });
  world.connect.complete(created.id);
  return created.id;
}

const total = (balance: { available: number; pending: number }) => balance.available + balance.pending;

async function stripeError(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) return error;
    throw error;
  }
  throw new Error('the call succeeded');
}

describe('balance transactions', () => {
  it("puts Stripe's processing fee on a charge's balance transaction, pending until available_on", async () => {
    const { intent, charge } = await pay(10_000);
    const read = await stripe.charges.retrieve(charge, { expand: ['balance_transaction'] });
    const txn = read.balance_transaction as Stripe.BalanceTransaction;
    expect(txn).toMatchObject({
      object: 'balance_transaction',
      type: 'charge',
      reporting_category: 'charge',
      source: charge,
      amount: 10_000,
      fee: 320, // 2.9% of $100.00 + 30¢
      net: 9_680,
      status: 'pending',
      fee_details: [{ amount: 320, type: 'stripe_fee', currency: 'usd' }],
    });
    expect(txn.available_on - txn.created).toBe(2 * 24 * 60 * 60);
    const viaIntent = await stripe.paymentIntents.retrieve(intent, {
      expand: ['latest_charge.balance_transaction'],
    });
    expect(
      ((viaIntent.latest_charge as Stripe.Charge).balance_transaction as Stripe.BalanceTransaction).id,
    ).toBe(txn.id);
    expect(await stripe.balance.retrieve()).toMatchObject({
      available: [{ amount: 0, currency: 'usd' }],
      pending: [{ amount: 9_680, currency: 'usd' }],
    });

    world.server.advance(2 * DAY);
    expect((await stripe.balanceTransactions.retrieve(txn.id)).status).toBe('available');
    expect(world.balances.balanceOf()).toEqual({ available: 9_680, pending: 0 });
  });

  it('rounds the fee to the nearest cent, and takes the rate as an option', async () => {
    const { charge } = await pay(1_234); // 2.9% is 35.786¢
    expect(
      world.balances.find(world.server.charges.get(charge)?.balance_transaction ?? '')?.transaction.fee,
    ).toBe(66);
    await start({ balances: { processingFee: { percent: 1.5, fixed: 25 }, availableAfterDays: 7 } });
    const other = await pay(10_000);
    const txn = world.balances.transactionsOf().find((t) => t.source === other.charge);
    expect(txn).toMatchObject({ fee: 175, net: 9_825 });
    expect((txn?.available_on ?? 0) - (txn?.created ?? 0)).toBe(7 * 24 * 60 * 60);
  });

  it('makes a refund a negative refund transaction and keeps the processing fee', async () => {
    const { intent, charge } = await pay(10_000);
    const refund = await stripe.refunds.create({ payment_intent: intent, amount: 4_000 });
    const txn = await stripe.balanceTransactions.retrieve(String(refund.balance_transaction));
    expect(txn).toMatchObject({ type: 'refund', amount: -4_000, fee: 0, net: -4_000, source: refund.id });
    expect(total(world.balances.balanceOf())).toBe(10_000 - 320 - 4_000);
    expect(await stripe.charges.retrieve(charge)).toMatchObject({ amount_refunded: 4_000, refunded: false });

    const refunds = await stripe.balanceTransactions.list({ type: 'refund' });
    expect(refunds.data.map((t) => t.id)).toEqual([txn.id]);
    const ofCharge = await stripe.balanceTransactions.list({ source: charge });
    expect(ofCharge.data.map((t) => t.type)).toEqual(['charge']);
  });

  it('lists newest first, pages with limit and starting_after, and filters on created', async () => {
    const first = await pay(1_000);
    world.server.advance(HOUR);
    await pay(2_000);
    world.server.advance(HOUR);
    await pay(3_000);
    const page = await stripe.balanceTransactions.list({ limit: 2 });
    expect(page.data.map((t) => t.amount)).toEqual([3_000, 2_000]);
    expect(page.has_more).toBe(true);
    const next = await stripe.balanceTransactions.list({ limit: 2, starting_after: page.data[1]?.id });
    expect(next.data.map((t) => t.amount)).toEqual([1_000]);
    const all: number[] = [];
    for await (const txn of stripe.balanceTransactions.list({ limit: 1 })) all.push(txn.amount);
    expect(all).toEqual([3_000, 2_000, 1_000]);
    const firstCreated = world.balances.transactionsOf().find((t) => t.source === first.charge)?.created ?? 0;
    const later = await stripe.balanceTransactions.list({ created: { gt: firstCreated } });
    expect(later.data.map((t) => t.amount)).toEqual([3_000, 2_000]);
    const early = await stripe.balanceTransactions.list({ created: { lt: firstCreated + 60 } });
    expect(early.data.map((t) => t.amount)).toEqual([1_000]);
  });

  it('expands the source of each listed transaction, for the platform and for an account', async () => {
    const seller = await account();
    const { intent, charge } = await pay(10_000);
    const refund = await stripe.refunds.create({
      payment_intent: intent,
      amount: 1_000,
      metadata: { refundId: 'r1' },
    });
    const transfer = await stripe.transfers.create({
      amount: 5_000,
      currency: 'usd',
      destination: seller,
      source_transaction: charge,
      metadata: { key: 'k' },
    });
    const listed = await stripe.balanceTransactions.list({ expand: ['data.source'] });
    expect(listed.data.map((t) => t.source)).toMatchObject([
      { object: 'transfer', id: transfer.id, metadata: { key: 'k' } },
      { object: 'refund', id: refund.id, metadata: { refundId: 'r1' } },
      { object: 'charge', id: charge, payment_intent: intent },
    ]);
    world.server.advance(3 * DAY);
    const onAccount = await stripe.balanceTransactions.list(
      { type: 'payout', expand: ['data.source'] },
      { stripeAccount: seller },
    );
    expect(onAccount.data).toMatchObject([{ amount: -5_000, source: { object: 'payout', amount: 5_000 } }]);
  });
});

describe('transfers, automatic payouts and reversals', () => {
  it('pays the account out automatically once the funds are available; a reversal is then refused', async () => {
    const seller = await account();
    const { charge } = await pay(10_000);
    const transfer = await stripe.transfers.create({
      amount: 7_000,
      currency: 'usd',
      destination: seller,
      source_transaction: charge,
      transfer_group: 'g1',
    });
    expect(await stripe.balanceTransactions.retrieve(String(transfer.balance_transaction))).toMatchObject({
      type: 'transfer',
      amount: -7_000,
      status: 'pending',
    });
    const onAccount = await stripe.balanceTransactions.list({}, { stripeAccount: seller });
    expect(onAccount.data).toMatchObject([
      { type: 'payment', amount: 7_000, source: transfer.destination_payment, status: 'pending' },
    ]);
    // While the funds are pending a reversal takes them back from the pending balance.
    const early = await stripe.transfers.createReversal(transfer.id, { amount: 1_000 });
    expect(await stripe.balanceTransactions.retrieve(String(early.balance_transaction))).toMatchObject({
      type: 'transfer_refund',
      amount: 1_000,
    });
    expect(await stripe.balance.retrieve({}, { stripeAccount: seller })).toMatchObject({
      available: [{ amount: 0 }],
      pending: [{ amount: 6_000 }],
    });

    // Nothing is paid out while pending; the run after the funds are available empties the account.
    expect(world.server.advance(DAY)).toEqual([]);
    const payouts = world.server.advance(2 * DAY);
    expect(payouts).toMatchObject([{ object: 'payout', amount: 6_000, automatic: true, status: 'paid' }]);
    expect(world.balances.balanceOf(seller)).toEqual({ available: 0, pending: 0 });
    const paid = await stripe.balanceTransactions.list({ payout: payouts[0]?.id }, { stripeAccount: seller });
    expect(paid.data.map((t) => t.type).sort()).toEqual(['payment', 'payment_refund', 'payout']);
    expect((await stripe.payouts.list({}, { stripeAccount: seller })).data).toHaveLength(1);

    const refused = await stripeError(stripe.transfers.createReversal(transfer.id, { amount: 1_000 }));
    expect(refused).toMatchObject({
      type: 'StripeInvalidRequestError',
      code: 'balance_insufficient',
      statusCode: 400,
    });
    expect((await stripe.transfers.retrieve(transfer.id)).amount_reversed).toBe(1_000);
    // The platform still has its net of the charge, less the transfer, plus the reversal.
    expect(world.balances.balanceOf()).toEqual({ available: 10_000 - 320 - 7_000 + 1_000, pending: 0 });
  });

  it('keeps the balance of an account whose payouts are manual, until paid out by hand', async () => {
    const seller = await account({ interval: 'manual' });
    const driver = await account();
    await stripe.accounts.update(driver, { settings: { payouts: { schedule: { interval: 'manual' } } } });
    expect((await stripe.accounts.retrieve(driver)).settings?.payouts?.schedule.interval).toBe('manual');
    const { charge } = await pay(10_000);
    const toSeller = await stripe.transfers.create({
      amount: 6_000,
      currency: 'usd',
      destination: seller,
      source_transaction: charge,
    });
    await stripe.transfers.create({
      amount: 1_000,
      currency: 'usd',
      destination: driver,
      source_transaction: charge,
    });
    expect(world.server.advance(5 * DAY)).toEqual([]);
    expect(world.balances.balanceOf(seller)).toEqual({ available: 6_000, pending: 0 });
    await stripe.transfers.createReversal(toSeller.id, { amount: 2_000 });
    expect(world.balances.balanceOf(seller).available).toBe(4_000);

    const made = world.balances.payOutAll([seller]);
    expect(made.map((p) => p.amount)).toEqual([4_000]);
    expect(world.balances.balanceOf(seller).available).toBe(0);
    expect(world.balances.balanceOf(driver).available).toBe(1_000);
  });

  it('refuses a transfer without source_transaction that the available balance cannot cover', async () => {
    const seller = await account();
    await pay(10_000); // pending for two days
    const refused = await stripeError(
      stripe.transfers.create({ amount: 5_000, currency: 'usd', destination: seller }),
    );
    expect(refused).toMatchObject({ code: 'balance_insufficient', statusCode: 400 });
    world.server.advance(2 * DAY);
    const made = await stripe.transfers.create({ amount: 5_000, currency: 'usd', destination: seller });
    expect(await stripe.balanceTransactions.retrieve(String(made.balance_transaction))).toMatchObject({
      status: 'available',
    });
  });
});

describe('disputes', () => {
  async function disputed() {
    const { intent, charge } = await pay(10_000);
    const opened = world.disputes.open(charge, { reason: 'fraudulent', evidenceDueInDays: 7 });
    return { intent, charge, ...opened };
  }

  it('withdraws the amount and the $15.00 fee when opened, with the events Stripe sends', async () => {
    const { charge, intent, dispute, events } = await disputed();
    expect(events.map((e) => e.type)).toEqual(['charge.dispute.created', 'charge.dispute.funds_withdrawn']);
    expect(dispute).toMatchObject({
      object: 'dispute',
      charge,
      payment_intent: intent,
      amount: 10_000,
      status: 'needs_response',
      reason: 'fraudulent',
      is_charge_refundable: false,
      balance_transactions: [
        {
          type: 'adjustment',
          reporting_category: 'dispute',
          amount: -10_000,
          fee: 1_500,
          net: -11_500,
          description: `Chargeback withdrawal for ${charge}`,
          fee_details: [{ amount: 1_500, type: 'stripe_fee', description: 'Dispute fee' }],
        },
      ],
    });
    expect(dispute.id).toMatch(/^du_/);
    expect(dispute.evidence_details.due_by).toBeGreaterThan(dispute.created + 6 * 24 * 60 * 60);
    expect(dispute.evidence_details.due_by).toBeLessThanOrEqual(dispute.created + 8 * 24 * 60 * 60);
    expect(await stripe.disputes.retrieve(dispute.id)).toMatchObject({
      id: dispute.id,
      status: 'needs_response',
    });
    expect((await stripe.disputes.list({ charge })).data.map((d) => d.id)).toEqual([dispute.id]);
    expect((await stripe.charges.retrieve(charge)).disputed).toBe(true);
    const refused = await stripeError(stripe.refunds.create({ payment_intent: intent }));
    expect(refused).toMatchObject({ code: 'charge_disputed', statusCode: 400 });
  });

  it('returns the amount but not the dispute fee when won', async () => {
    const { dispute } = await disputed();
    const updated = await stripe.disputes.update(dispute.id, {
      evidence: { uncategorized_text: 'Delivered to the door, photo attached.' },
      submit: true,
    });
    expect(updated).toMatchObject({
      status: 'under_review',
      evidence_details: { has_evidence: true, submission_count: 1 },
    });
    const { events } = world.disputes.win(dispute.id);
    expect(events.map((e) => e.type)).toEqual(['charge.dispute.closed', 'charge.dispute.funds_reinstated']);
    expect(events[1]?.data.object).toMatchObject({
      status: 'won',
      balance_transactions: [
        { amount: -10_000 },
        { type: 'adjustment', reporting_category: 'dispute_reversal', amount: 10_000, fee: 0, net: 10_000 },
      ],
    });
    // Charge net 9,680; the dispute cost the platform its $15.00 fee.
    expect(total(world.balances.balanceOf())).toBe(9_680 - 1_500);
    const adjustments = await stripe.balanceTransactions.list({ type: 'adjustment' });
    expect(adjustments.data.map((t) => t.net)).toEqual([10_000, -11_500]);
  });

  it('keeps the amount and the fee withdrawn when lost or accepted', async () => {
    const lost = await disputed();
    expect(world.disputes.lose(lost.dispute.id).events.map((e) => e.type)).toEqual(['charge.dispute.closed']);
    expect(total(world.balances.balanceOf())).toBe(9_680 - 11_500);

    const accepted = await disputed();
    expect(await stripe.disputes.close(accepted.dispute.id)).toMatchObject({ status: 'lost' });
    expect(total(world.balances.balanceOf())).toBe(2 * (9_680 - 11_500));
    const again = await stripeError(stripe.disputes.update(accepted.dispute.id, { submit: true }));
    expect(again.statusCode).toBe(400);
  });

  it('can return the fee on a win, and charge a countered fee given back on a win, as options', async () => {
    await start({ disputes: { returnDisputeFeeOnWin: true, counterFee: 1_500, disputeFee: 2_000 } });
    const { dispute } = await disputed();
    world.disputes.submitEvidence(dispute.id, { uncategorized_text: 'proof' });
    expect(total(world.balances.balanceOf())).toBe(9_680 - 10_000 - 2_000 - 1_500);
    world.disputes.win(dispute.id);
    expect(total(world.balances.balanceOf())).toBe(9_680);
  });
});

describe('idempotency', () => {
  const transfer = async (destination: string, charge: string, key: string) =>
    stripe.transfers.create(
      { amount: 900, currency: 'usd', destination, source_transaction: charge },
      { idempotencyKey: key },
    );

  it('saves a 500 from a request that began and answers it again under the same key for 24 hours', async () => {
    const driver = await account();
    const { charge } = await pay(5_000);
    world.server.failNextAfterRunning(1);
    expect(await stripeError(transfer(driver, charge, 'k1'))).toMatchObject({
      statusCode: 500,
      type: 'StripeAPIError',
    });
    world.server.advance(23 * HOUR);
    expect(await stripeError(transfer(driver, charge, 'k1'))).toMatchObject({ statusCode: 500 });
    expect(world.transfers.transfers).toHaveLength(0);
    world.server.advance(2 * HOUR);
    expect((await transfer(driver, charge, 'k1')).id).toMatch(/^tr_/);
    expect(world.transfers.transfers).toHaveLength(1);
  });

  it('with applied, the transfer is made and its key answers the saved 500', async () => {
    const driver = await account();
    const { charge } = await pay(5_000);
    world.server.failNextAfterRunning(1, { applied: true });
    await stripeError(transfer(driver, charge, 'k2'));
    expect(await stripeError(transfer(driver, charge, 'k2'))).toMatchObject({ statusCode: 500 });
    expect(world.transfers.transfers).toHaveLength(1);
    expect(world.balances.balanceOf(driver).pending).toBe(900);
  });

  it('saves nothing when failNext fails a request before it runs', async () => {
    const driver = await account();
    const { charge } = await pay(5_000);
    world.server.failNext(1);
    await stripeError(transfer(driver, charge, 'k3'));
    const made = await transfer(driver, charge, 'k3');
    expect((await transfer(driver, charge, 'k3')).id).toBe(made.id);
    expect(world.transfers.transfers).toHaveLength(1);
  });

  it('forgets a key 24 hours after its first request, however often it was replayed', async () => {
    const driver = await account();
    const { charge } = await pay(5_000);
    const first = await transfer(driver, charge, 'k4');
    world.server.advance(23 * HOUR);
    expect((await transfer(driver, charge, 'k4')).id).toBe(first.id);
    world.server.advance(IDEMPOTENCY_KEY_TTL_MS - 23 * HOUR + 1_000);
    const second = await transfer(driver, charge, 'k4');
    expect(second.id).not.toBe(first.id);
    expect(world.transfers.transfers).toHaveLength(2);
  });
});
