import { eq, inArray } from 'drizzle-orm';
import { orderItems, orders } from '../../../db/schema';
import type { FakeStripeEvent } from '../../../testing/stripe-server';
import type { FakeDisputeStatus } from '../../../testing/stripe-disputes';
import { signedInAs, type TestUser } from '../../../testing/test-app';
import { confirm, createAddress, createProduct, paymentRow, startPayment } from '../../../testing/commerce';
import { makeAccountReady, verifiedDriver } from '../../../testing/payout-scenes';
import { parseCents } from '../../../../domain/money';
import type { CallKind, MoneyWorld } from './world';

/**
 * The model of one sequence (docs/decisions/0022-money-in-combinations.md): what the sequence made
 * and knows without asking the app — its payments and their orders (each order's path and status
 * as the routes answered, its items and what the admin was told was refunded of each), the disputes
 * opened at Stripe and their state there, the events Stripe sent and how often each was delivered,
 * which payees Stripe restricted, and which provider answers are in doubt. Commands pick their
 * targets from it; the invariants read the app's database and the local Stripe against it.
 */

export type OrderPath = 'driver' | 'seller';
export type ModelOrderStatus = 'pending' | 'assigned' | 'in-transit' | 'delivered' | 'cancelled';

export interface ModelItem {
  id: string;
  priceCents: number;
  quantity: number;
  /** The admin's refunds of this item that were answered 200: the refund row each made, and how many. */
  refunds: { refundId: string; quantity: number }[];
}

export interface ModelOrder {
  /** o1, o2, … in the order the sequence made them. */
  label: string;
  id: string;
  number: string;
  payment: ModelPayment;
  /** Which of the sequence's three sellers. */
  seller: number;
  path: OrderPath;
  status: ModelOrderStatus;
  totalCents: number;
  items: ModelItem[];
}

export interface ModelDispute {
  /** d1, d2, … */
  label: string;
  id: string;
  payment: ModelPayment;
  /** Its state at Stripe. */
  status: FakeDisputeStatus;
}

export interface ModelPayment {
  /** p1, p2, … */
  label: string;
  id: string;
  intentId: string;
  chargeId: string;
  amountCents: number;
  orders: ModelOrder[];
  dispute: ModelDispute | null;
}

export interface QueuedEvent {
  /** e1, e2, … with its type. */
  label: string;
  event: FakeStripeEvent;
  endpoint: 'payments' | 'connect';
  /** A dispute or refund event: until delivered the ledger cannot know what Stripe did. */
  money: boolean;
  deliveries: number;
}

/** A provider call whose answer was lost after Stripe carried it out: the app learns of it after Stripe forgets the key. */
export interface InDoubt {
  on: CallKind;
  at: number;
  what: string;
}

export type PartyName = 'seller1' | 'seller2' | 'seller3' | 'driver';
export const PARTIES: readonly PartyName[] = ['seller1', 'seller2', 'seller3', 'driver'];

export interface MoneyModel {
  /** How the sequence's connected accounts are paid out to their banks (Stripe's default: daily). */
  payoutSchedule: 'daily' | 'manual';
  payments: ModelPayment[];
  orders: ModelOrder[];
  disputes: ModelDispute[];
  events: QueuedEvent[];
  /** Payees Stripe restricted (transfers refused) and did not fix since. */
  restricted: Set<PartyName>;
  doubts: InDoubt[];
  /** The app's clock at the last run of each job. */
  jobsRanAt: { payouts: number | null; payments: number | null };
  /** Commands run so far, and the most a sequence runs (MONEY_STEPS): the rest are skipped. */
  ran: number;
  maxSteps: number;
}

export interface Party {
  name: PartyName;
  user: TestUser;
  accountId: string;
}

/** Runs every invariant of the model (./invariants.ts, bound to the ledger's readers by the test file). */
export type CheckInvariants = (
  s: Sequence,
  m: MoneyModel,
  options: { where: string; statusesFrom: number; settled?: boolean; extra?: string[] },
) => Promise<void>;

/** What a sequence's commands act through: the shared app and Stripe, and the sequence's own people. */
export interface Sequence {
  mw: MoneyWorld;
  check: CheckInvariants;
  admin: TestUser;
  buyer: TestUser;
  buyerAddressId: string;
  sellers: Party[];
  driver: Party;
  /** Each command as run, with what it did and what the app answered. */
  trace: string[];
  step: number;
}

export const cents = (money: string | null | undefined) => parseCents(money ?? '0');
export const dollars = (value: number) => `${value < 0 ? '-' : ''}$${(Math.abs(value) / 100).toFixed(2)}`;

export function partyOf(s: Sequence, name: PartyName): Party {
  if (name === 'driver') return s.driver;
  const party = s.sellers[Number(name.slice('seller'.length)) - 1];
  if (!party) throw new Error(`no ${name}`);
  return party;
}

/** A connected account at Stripe that finished onboarding, recorded as ready for the user. */
async function onboard(
  mw: MoneyWorld,
  user: TestUser,
  schedule: MoneyModel['payoutSchedule'],
): Promise<string> {
  const account = await mw.world.stripe.accounts.create({
    type: 'express',
    capabilities: { transfers: { requested: true } },
  });
  mw.world.connect.complete(account.id);
  if (schedule === 'manual') mw.world.connect.setPayoutSchedule(account.id, { interval: 'manual' });
  return makeAccountReady(mw.t, user.id, account.id);
}

/** A new sequence: its buyer, three sellers and a verified driver, every payee onboarded at Stripe. */
export async function startSequence(
  mw: MoneyWorld,
  check: CheckInvariants,
  admin: TestUser,
  schedule: MoneyModel['payoutSchedule'],
  maxSteps: number,
): Promise<{ model: MoneyModel; real: Sequence }> {
  const { t } = mw;
  const buyer = await signedInAs(t, 'buyer');
  const address = await createAddress(t, buyer.id);
  const sellers: Party[] = [];
  for (const name of ['seller1', 'seller2', 'seller3'] as const) {
    const user = await signedInAs(t, 'seller');
    await createAddress(t, user.id);
    sellers.push({ name, user, accountId: await onboard(mw, user, schedule) });
  }
  const driverUser = await verifiedDriver(t);
  const driver: Party = {
    name: 'driver',
    user: driverUser,
    accountId: await onboard(mw, driverUser, schedule),
  };
  const model: MoneyModel = {
    payoutSchedule: schedule,
    payments: [],
    orders: [],
    disputes: [],
    events: [],
    restricted: new Set(),
    doubts: [],
    jobsRanAt: { payouts: null, payments: null },
    ran: 0,
    maxSteps,
  };
  const real: Sequence = {
    mw,
    check,
    admin,
    buyer,
    buyerAddressId: address.id,
    sellers,
    driver,
    trace: [],
    step: 0,
  };
  return { model, real };
}

/** One order of a checkout: which seller, delivered by a driver or by the seller, and its lines. */
export interface CheckoutOrderSpec {
  seller: number;
  path: OrderPath;
  lines: { priceCents: number; quantity: number }[];
}

export function describeCheckout(spec: CheckoutOrderSpec[]): string {
  return spec
    .map(
      (order) =>
        `seller${order.seller + 1}/${order.path}[${order.lines
          .map((line) => `${line.quantity}×${dollars(line.priceCents)}`)
          .join(' ')}]`,
    )
    .join(' + ');
}

/**
 * The buyer pays one checkout of 1–3 orders from different sellers with Stripe: the intent,
 * Stripe.js's card confirmation, the browser's report. Answers the payment added to the model.
 */
export async function checkout(m: MoneyModel, s: Sequence, spec: CheckoutOrderSpec[]): Promise<ModelPayment> {
  const { t, world } = s.mw;
  const items: { productId: string; quantity: number }[] = [];
  for (const order of spec) {
    const seller = s.sellers[order.seller];
    if (!seller) throw new Error(`no seller ${order.seller}`);
    for (const line of order.lines) {
      const product = await createProduct(t, seller.user.id, {
        price: (line.priceCents / 100).toFixed(2),
        stock: 50,
        sellerDelivery: order.path === 'seller',
        sellerDeliveryFee: order.path === 'seller' ? '5.00' : null,
      });
      items.push({ productId: product.id, quantity: line.quantity });
    }
  }
  const started = await startPayment(t, s.buyer, {
    items,
    isPickup: false,
    deliveryAddressId: s.buyerAddressId,
  });
  if (started.statusCode !== 201)
    throw new Error(`harness: the payment was not started: ${started.statusCode} ${started.body}`);
  const { paymentId } = started.json<{ paymentId: string }>();
  const row = await paymentRow(t, paymentId);
  if (!row) throw new Error('harness: no payment row');
  world.server.succeed(row.providerPaymentId);
  const confirmed = await confirm(t, s.buyer, paymentId, {});
  if (confirmed.statusCode !== 200)
    throw new Error(`harness: the payment was not confirmed: ${confirmed.statusCode} ${confirmed.body}`);
  const paid = await paymentRow(t, paymentId);
  if (!paid?.providerChargeId) throw new Error('harness: the payment has no charge');
  const payment: ModelPayment = {
    label: `p${m.payments.length + 1}`,
    id: paymentId,
    intentId: paid.providerPaymentId,
    chargeId: paid.providerChargeId,
    amountCents: cents(paid.amount),
    orders: [],
    dispute: null,
  };
  const rows = await t.database.db.select().from(orders).where(eq(orders.paymentId, paymentId));
  const itemRows = rows.length
    ? await t.database.db
        .select()
        .from(orderItems)
        .where(
          inArray(
            orderItems.orderId,
            rows.map((row) => row.id),
          ),
        )
    : [];
  for (const [index, order] of spec.entries()) {
    const seller = s.sellers[order.seller];
    const row = rows.find((r) => r.sellerId === seller?.user.id);
    if (!row) throw new Error(`harness: no order for seller${order.seller + 1} (${index})`);
    const made: ModelOrder = {
      label: `o${m.orders.length + 1}`,
      id: row.id,
      number: row.orderNumber,
      payment,
      seller: order.seller,
      path: row.sellerDelivery ? 'seller' : 'driver',
      status: 'pending',
      totalCents: cents(row.total),
      items: itemRows
        .filter((item) => item.orderId === row.id)
        .map((item) => ({
          id: item.id,
          priceCents: cents(item.price),
          quantity: item.quantity,
          refunds: [],
        })),
    };
    payment.orders.push(made);
    m.orders.push(made);
  }
  m.payments.push(payment);
  return payment;
}
