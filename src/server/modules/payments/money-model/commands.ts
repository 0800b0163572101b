import fc from 'fast-check';
import { and, eq, inArray } from 'drizzle-orm';
import { disputes, payoutReversals, payouts, refunds } from '../../../db/schema';
import type { FakeStripeEvent } from '../../../testing/stripe-server';
import { as } from '../../../testing/test-app';
import { moveOrder } from '../../../testing/payout-scenes';
import {
  cents,
  checkout,
  dollars,
  describeCheckout,
  PARTIES,
  partyOf,
  type CheckoutOrderSpec,
  type ModelOrder,
  type MoneyModel,
  type PartyName,
  type QueuedEvent,
  type Sequence,
} from './model';
import { HOUR_MS, type CallKind, type Fault } from './world';

/**
 * The money model's commands (docs/decisions/0022-money-in-combinations.md): what buyers, sellers,
 * drivers, admins, Stripe and the jobs do to a sequence's payments, each with arguments fast-check
 * generates and shrinks. A command names its target by a number taken modulo the targets the model
 * has for it at that point (`refund(delivered order 1, …)` is the second of the orders delivered by
 * then, when there are two or more; the trace names the order, o1, o2, … in the order made), so any
 * sequence of commands runs; fast-check skips one with nothing to act on. After each command every
 * invariant is checked (./invariants.ts); a command adds the 0022 rules about the answer it got.
 */

type Cmd = fc.AsyncCommand<MoneyModel, Sequence>;

function pick<T>(list: readonly T[], index: number): T | undefined {
  return list.length === 0 ? undefined : list[index % list.length];
}

const shortBody = (body: string) => body.slice(0, 160);

/** Turns the faults that fired into the model's doubts and the trace's notes. */
function absorbFaults(m: MoneyModel, s: Sequence): string[] {
  const notes = s.mw.faults.fired.map((fired) => `${fired.fault} hit ${fired.what}`);
  for (const fired of s.mw.faults.fired)
    if (fired.fault === 'lost-applied') m.doubts.push({ on: fired.on, at: fired.at, what: fired.what });
  s.mw.faults.fired = [];
  return notes;
}

/** What an event is about: its object's id, for the trace. */
function aboutOf(event: FakeStripeEvent): string {
  const object = event.data.object as { id?: string };
  return object.id ?? '?';
}

function queue(m: MoneyModel, events: FakeStripeEvent[], endpoint: QueuedEvent['endpoint'], about?: string) {
  for (const event of events) {
    const object = (event.data.object as { object?: string }).object;
    m.events.push({
      label: `e${m.events.length + 1} ${event.type} (${about ?? aboutOf(event)})`,
      event,
      endpoint,
      // The ledger follows refunds and disputes; charge.refunded and account.updated move no money.
      money: endpoint === 'payments' && (object === 'refund' || object === 'dispute'),
      deliveries: 0,
    });
  }
}

/**
 * The events Stripe sent on its own since the last look (after the app's requests, as the clock
 * moved: refund.created, charge.refunded, a waiting refund completed, …), those of this sequence's
 * charges queued for delivery; the others belong to earlier sequences and are dropped.
 */
function collectStripeEvents(m: MoneyModel, s: Sequence): number {
  const intents = new Set(m.payments.map((p) => p.intentId));
  const charges = new Set(m.payments.map((p) => p.chargeId));
  const mine = s.mw.world.server.takeEvents().filter((event) => {
    const object = event.data.object as {
      object?: string;
      payment_intent?: string | null;
      charge?: string | null;
    };
    if (object.object === 'dispute') return charges.has(object.charge ?? '');
    return intents.has(object.payment_intent ?? '') || charges.has(object.charge ?? '');
  });
  queue(m, mine, 'payments');
  return mine.length;
}

abstract class MoneyCommand implements Cmd {
  /** Whether the command has something to act on; fast-check skips it otherwise, and once the sequence ran MONEY_STEPS commands. */
  check(m: Readonly<MoneyModel>): boolean {
    return m.ran < m.maxSteps && this.applies(m);
  }
  applies(_m: Readonly<MoneyModel>): boolean {
    return true;
  }

  async run(m: MoneyModel, s: Sequence): Promise<void> {
    m.ran += 1;
    s.step += 1;
    const statusesFrom = s.mw.t.statuses.length;
    const extra: string[] = [];
    let outcome = '(threw)';
    try {
      outcome = await this.act(m, s, extra);
    } finally {
      s.mw.faults.crashing = false;
      const notes = absorbFaults(m, s);
      const sent = collectStripeEvents(m, s);
      if (sent > 0) notes.push(`Stripe sent ${sent} event${sent === 1 ? '' : 's'} of its own (queued)`);
      s.trace.push(`${s.step}. ${this.toString()} → ${outcome}${notes.map((n) => `\n     ↳ ${n}`).join('')}`);
    }
    await s.check(s, m, { where: `after step ${s.step}, ${this.toString()}`, statusesFrom, extra });
  }

  /** Does the command; answers what it did for the trace and adds any 0022 rule its answers break to `violations`. */
  protected abstract act(m: MoneyModel, s: Sequence, violations: string[]): Promise<string>;
  abstract toString(): string;
}

class Checkout extends MoneyCommand {
  constructor(readonly spec: CheckoutOrderSpec[]) {
    super();
  }
  override applies(m: Readonly<MoneyModel>) {
    return m.payments.length < 4;
  }
  async act(m: MoneyModel, s: Sequence) {
    const payment = await checkout(m, s, this.spec);
    return `${payment.label} ${dollars(payment.amountCents)}: ${payment.orders
      .map((o) => `${o.label} ${o.number} ${dollars(o.totalCents)} (seller${o.seller + 1}, ${o.path})`)
      .join(', ')}`;
  }
  toString() {
    return `checkout(${describeCheckout(this.spec)})`;
  }
}

/** The next status of an order on its path and who moves it there. */
function nextStep(order: ModelOrder): { to: ModelOrder['status']; by: 'driver' | 'seller' } | undefined {
  if (order.path === 'driver') {
    if (order.status === 'pending') return { to: 'assigned', by: 'driver' };
    if (order.status === 'assigned') return { to: 'in-transit', by: 'driver' };
    if (order.status === 'in-transit') return { to: 'delivered', by: 'driver' };
    return undefined;
  }
  if (order.status === 'pending') return { to: 'in-transit', by: 'seller' };
  if (order.status === 'in-transit') return { to: 'delivered', by: 'seller' };
  return undefined;
}

class Advance extends MoneyCommand {
  constructor(
    readonly order: number,
    readonly steps: number,
  ) {
    super();
  }
  override applies(m: Readonly<MoneyModel>) {
    return m.orders.some((o) => nextStep(o) !== undefined);
  }
  async act(m: MoneyModel, s: Sequence, violations: string[]) {
    const order = pick(
      m.orders.filter((o) => nextStep(o) !== undefined),
      this.order,
    );
    if (!order) return 'no order to move';
    const done: string[] = [];
    for (let i = 0; i < this.steps; i += 1) {
      const step = nextStep(order);
      if (!step) break;
      const user =
        step.by === 'driver' ? s.driver.user : partyOf(s, `seller${order.seller + 1}` as PartyName).user;
      const response =
        step.to === 'assigned'
          ? await as(s.mw.t, user, { method: 'POST', url: `/api/orders/${order.id}/assign` })
          : await moveOrder(s.mw.t, user, order.id, step.to);
      if (response.statusCode !== 200) {
        violations.push(
          `${order.label} (${order.status}): the ${step.by}'s move to ${step.to} was answered ${response.statusCode}: ${shortBody(response.body)}`,
        );
        done.push(`${step.to} ${response.statusCode}`);
        break;
      }
      order.status = step.to;
      done.push(step.to);
    }
    return `${order.label}: ${done.join(' → ') || `nothing to do (${order.status})`}`;
  }
  toString() {
    return `advance(unfinished order ${this.order}, up to ${this.steps} step${this.steps === 1 ? '' : 's'})`;
  }
}

class Cancel extends MoneyCommand {
  constructor(
    readonly order: number,
    readonly by: 'buyer' | 'seller' | 'admin',
  ) {
    super();
  }
  override applies(m: Readonly<MoneyModel>) {
    return m.orders.some((o) => o.status !== 'cancelled');
  }
  async act(m: MoneyModel, s: Sequence, violations: string[]) {
    const order = pick(
      m.orders.filter((o) => o.status !== 'cancelled'),
      this.order,
    );
    if (!order) return 'no order';
    const user =
      this.by === 'buyer'
        ? s.buyer
        : this.by === 'admin'
          ? s.admin
          : partyOf(s, `seller${order.seller + 1}` as PartyName).user;
    const before = order.status;
    const response = await as(s.mw.t, user, { method: 'POST', url: `/api/orders/${order.id}/cancel` });
    if (response.statusCode === 200) order.status = 'cancelled';
    const allowed =
      this.by === 'admin' ? before !== 'delivered' && before !== 'cancelled' : before === 'pending';
    if (allowed && response.statusCode !== 200)
      violations.push(
        `${order.label} (${before}): the ${this.by} may cancel it (product rules, Order lifecycle), yet the answer was ${response.statusCode}: ${shortBody(response.body)}`,
      );
    if (!allowed && response.statusCode === 200)
      violations.push(
        `${order.label} (${before}): the ${this.by} cancelled it, which the rules do not allow`,
      );
    return `${order.label} (${before}) ${response.statusCode}${response.statusCode === 200 ? '' : ` ${shortBody(response.body)}`}`;
  }
  toString() {
    return `cancel(uncancelled order ${this.order}, by the ${this.by})`;
  }
}

type RefundHow =
  { kind: 'amount'; percent: number } | { kind: 'items'; item: number; quantity: number } | { kind: 'all' };

/** POST /api/admin/orders/{id}/refund: an amount, items, or all that is left. */
class Refund extends MoneyCommand {
  constructor(
    readonly order: number,
    readonly how: RefundHow,
  ) {
    super();
  }
  override applies(m: Readonly<MoneyModel>) {
    return m.orders.some((o) => o.status === 'delivered');
  }
  async act(m: MoneyModel, s: Sequence, violations: string[]) {
    const order = pick(
      m.orders.filter((o) => o.status === 'delivered'),
      this.order,
    );
    if (!order) return 'no delivered order';
    const { db } = s.mw.t.database;
    // A dispute that withdrew the funds and is not decided, as the app knows it (0022: refused, 409).
    const [heldBy] = await db
      .select({
        id: disputes.providerDisputeId,
        status: disputes.status,
        withdrawn: disputes.fundsWithdrawnAt,
      })
      .from(disputes)
      .where(
        and(
          eq(disputes.paymentId, order.payment.id),
          inArray(disputes.status, ['needs_response', 'under_review']),
        ),
      );
    const body: Record<string, unknown> = { reason: 'Money model' };
    let what = 'all that is left';
    const item = this.how.kind === 'items' ? pick(order.items, this.how.item) : undefined;
    if (this.how.kind === 'amount') {
      const amount = Math.max(1, Math.floor((order.totalCents * this.how.percent) / 100));
      body.amount = (amount / 100).toFixed(2);
      what = dollars(amount);
    } else if (this.how.kind === 'items' && item) {
      body.items = [{ orderItemId: item.id, quantity: this.how.quantity }];
      what = `item ${order.items.indexOf(item) + 1} (${dollars(item.priceCents)}) × ${this.how.quantity}`;
    }
    const refundsBefore = new Set(
      (await db.select({ id: refunds.id }).from(refunds).where(eq(refunds.orderId, order.id))).map(
        (r) => r.id,
      ),
    );
    const response = await as(s.mw.t, s.admin, {
      method: 'POST',
      url: `/api/admin/orders/${order.id}/refund`,
      payload: body,
    });
    if (response.statusCode === 200) {
      if (heldBy?.withdrawn)
        violations.push(
          `${order.label}: refunded (200) while dispute ${heldBy.id} (${heldBy.status}) holds the payment's funds; 0022 refuses it (409) before anything is written`,
        );
      if (item && this.how.kind === 'items') {
        const rows = await db
          .select({ id: refunds.id, status: refunds.status })
          .from(refunds)
          .where(eq(refunds.orderId, order.id));
        const made = rows.find((r) => !refundsBefore.has(r.id));
        if (made) item.refunds.push({ refundId: made.id, quantity: this.how.quantity });
        // Refunds that failed or were refused are undone, their quantities given back (0022).
        const counted = item.refunds
          .filter((r) => {
            const status = rows.find((row) => row.id === r.refundId)?.status;
            return status !== 'failed' && status !== 'canceled';
          })
          .reduce((sum, r) => sum + r.quantity, 0);
        if (counted > item.quantity)
          violations.push(
            `${order.label}: item ${order.items.indexOf(item) + 1} is refunded ${counted} times by refunds that did not fail, bought ${item.quantity} times (0022: at most as many times as it was bought)`,
          );
      }
    } else if (![400, 409].includes(response.statusCode))
      violations.push(
        `${order.label}: the refund was answered ${response.statusCode}: ${shortBody(response.body)}`,
      );
    return `${order.label} (${order.status}) ${what}: ${response.statusCode}${response.statusCode === 200 ? '' : ` ${shortBody(response.body)}`}`;
  }
  toString() {
    const how =
      this.how.kind === 'amount'
        ? `${this.how.percent}% of its total`
        : this.how.kind === 'items'
          ? `item ${this.how.item} × ${this.how.quantity}`
          : 'all that is left';
    return `refund(delivered order ${this.order}, ${how})`;
  }
}

type DisputeKind = 'chargeback' | 'half chargeback' | 'inquiry';
const OPEN_STATUSES: readonly string[] = [
  'needs_response',
  'under_review',
  'warning_needs_response',
  'warning_under_review',
];

/** Stripe's control failed: what Stripe itself would not do (dispute a charge refunded in full, …). */
function refusedByStripe(error: unknown): string {
  return `Stripe would not: ${error instanceof Error ? error.message : String(error)}`;
}

class OpenDispute extends MoneyCommand {
  constructor(
    readonly payment: number,
    readonly kind: DisputeKind,
  ) {
    super();
  }
  override applies(m: Readonly<MoneyModel>) {
    return m.payments.some((p) => !p.dispute);
  }
  async act(m: MoneyModel, s: Sequence) {
    const payment = pick(
      m.payments.filter((p) => !p.dispute),
      this.payment,
    );
    if (!payment) return 'no undisputed payment';
    let opened;
    try {
      opened = s.mw.world.disputes.open(payment.chargeId, {
        reason: 'fraudulent',
        inquiry: this.kind === 'inquiry',
        amount: this.kind === 'half chargeback' ? Math.floor(payment.amountCents / 2) : undefined,
      });
    } catch (error) {
      return refusedByStripe(error);
    }
    const dispute = {
      label: `d${m.disputes.length + 1}`,
      id: opened.dispute.id,
      payment,
      status: opened.dispute.status,
    };
    payment.dispute = dispute;
    m.disputes.push(dispute);
    queue(m, opened.events, 'payments');
    return `${dispute.label} ${dispute.id} (${dispute.status}) on ${payment.label} for ${dollars(opened.dispute.amount)}; Stripe sent ${opened.events.map((e) => e.type).join(', ')}`;
  }
  toString() {
    return `openDispute(payment ${this.payment}, ${this.kind})`;
  }
}

class SubmitEvidence extends MoneyCommand {
  constructor(readonly dispute: number) {
    super();
  }
  override applies(m: Readonly<MoneyModel>) {
    return m.disputes.some((d) => d.status === 'needs_response' || d.status === 'warning_needs_response');
  }
  async act(m: MoneyModel, s: Sequence) {
    const dispute = pick(
      m.disputes.filter((d) => d.status === 'needs_response' || d.status === 'warning_needs_response'),
      this.dispute,
    );
    if (!dispute) return 'no dispute needing a response';
    let answered;
    try {
      answered = s.mw.world.disputes.submitEvidence(dispute.id, { uncategorized_text: 'Delivered.' });
    } catch (error) {
      return refusedByStripe(error);
    }
    dispute.status = answered.dispute.status;
    queue(m, answered.events, 'payments');
    return `${dispute.label} ${dispute.status}`;
  }
  toString() {
    return `submitEvidence(dispute ${this.dispute})`;
  }
}

/**
 * The issuer decides: for the platform (a chargeback won, an inquiry closed) or for the cardholder
 * (a chargeback lost, an inquiry escalated to a chargeback, its funds withdrawn then).
 */
class DecideDispute extends MoneyCommand {
  constructor(
    readonly dispute: number,
    readonly favour: 'platform' | 'cardholder',
  ) {
    super();
  }
  override applies(m: Readonly<MoneyModel>) {
    return m.disputes.some((d) => OPEN_STATUSES.includes(d.status));
  }
  async act(m: MoneyModel, s: Sequence) {
    const dispute = pick(
      m.disputes.filter((d) => OPEN_STATUSES.includes(d.status)),
      this.dispute,
    );
    if (!dispute) return 'no open dispute';
    const inquiry = dispute.status.startsWith('warning_');
    const { disputes: stripe } = s.mw.world;
    let decided;
    try {
      decided = inquiry
        ? this.favour === 'platform'
          ? stripe.closeInquiry(dispute.id)
          : stripe.escalate(dispute.id)
        : this.favour === 'platform'
          ? stripe.win(dispute.id)
          : stripe.lose(dispute.id);
    } catch (error) {
      return refusedByStripe(error);
    }
    const before = dispute.status;
    dispute.status = decided.dispute.status;
    queue(m, decided.events, 'payments');
    return `${dispute.label} ${before} → ${dispute.status}; Stripe sent ${decided.events.map((e) => e.type).join(', ')}`;
  }
  toString() {
    return `decideDispute(dispute ${this.dispute}, for the ${this.favour})`;
  }
}

/**
 * Stripe's dispute prevention: a new dispute on a payment resolved as it comes in, or one opened
 * that nothing has answered yet (its events never delivered: they are taken off the queue) resolved
 * instead; nothing withdrawn, the cardholder refunded by Stripe.
 */
class PreventDispute extends MoneyCommand {
  constructor(
    readonly target: number,
    readonly which: 'new' | 'unanswered',
  ) {
    super();
  }
  override applies(m: Readonly<MoneyModel>) {
    return this.which === 'new' ? m.payments.some((p) => !p.dispute) : m.disputes.length > 0;
  }
  async act(m: MoneyModel, s: Sequence) {
    const { disputes: stripe } = s.mw.world;
    if (this.which === 'new') {
      const payment = pick(
        m.payments.filter((p) => !p.dispute),
        this.target,
      );
      if (!payment) return 'no undisputed payment';
      let prevented;
      try {
        prevented = stripe.prevent(payment.chargeId, { reason: 'fraudulent' });
      } catch (error) {
        return refusedByStripe(error);
      }
      const dispute = {
        label: `d${m.disputes.length + 1}`,
        id: prevented.dispute.id,
        payment,
        status: prevented.dispute.status,
      };
      payment.dispute = dispute;
      m.disputes.push(dispute);
      queue(m, prevented.events, 'payments');
      return `${dispute.label} ${dispute.id} prevented on ${payment.label} for ${dollars(prevented.dispute.amount)}; Stripe sent ${prevented.events.map((e) => e.type).join(', ')}`;
    }
    const unanswered = m.disputes.filter(
      (d) =>
        (d.status === 'needs_response' || d.status === 'warning_needs_response') &&
        m.events.every((e) => e.deliveries === 0 || (e.event.data.object as { id?: string }).id !== d.id),
    );
    const dispute = pick(unanswered, this.target);
    if (!dispute) return 'no unanswered dispute';
    let prevented;
    try {
      prevented = stripe.prevent(dispute.id);
    } catch (error) {
      return refusedByStripe(error);
    }
    // Resolved as it came in: the events it would have sent never were.
    m.events = m.events.filter((e) => (e.event.data.object as { id?: string }).id !== dispute.id);
    dispute.status = prevented.dispute.status;
    queue(m, prevented.events, 'payments');
    return `${dispute.label} prevented instead; Stripe sent ${prevented.events.map((e) => e.type).join(', ')}`;
  }
  toString() {
    return this.which === 'new'
      ? `preventDispute(a new dispute on payment ${this.target})`
      : `preventDispute(unanswered dispute ${this.target})`;
  }
}

async function deliver(s: Sequence, event: QueuedEvent, violations: string[]): Promise<string> {
  const answer = await s.mw.postEvent(event.event, event.endpoint);
  event.deliveries += 1;
  if (answer.status !== 200)
    violations.push(`the webhook answered ${answer.status} to ${event.label}: ${shortBody(answer.body)}`);
  return `${event.label} → ${answer.status}`;
}

class DeliverEvent extends MoneyCommand {
  constructor(
    readonly event: number,
    readonly twice: boolean,
  ) {
    super();
  }
  override applies(m: Readonly<MoneyModel>) {
    return m.events.some((e) => e.deliveries === 0);
  }
  async act(m: MoneyModel, s: Sequence, violations: string[]) {
    const event = pick(
      m.events.filter((e) => e.deliveries === 0),
      this.event,
    );
    if (!event) return 'no undelivered event';
    const done = [await deliver(s, event, violations)];
    if (this.twice) done.push(await deliver(s, event, violations));
    return done.join(', ');
  }
  toString() {
    return `deliverEvent(undelivered ${this.event}${this.twice ? ', twice' : ''})`;
  }
}

class RedeliverEvent extends MoneyCommand {
  constructor(readonly event: number) {
    super();
  }
  override applies(m: Readonly<MoneyModel>) {
    return m.events.some((e) => e.deliveries > 0);
  }
  async act(m: MoneyModel, s: Sequence, violations: string[]) {
    const event = pick(
      m.events.filter((e) => e.deliveries > 0),
      this.event,
    );
    if (!event) return 'no delivered event';
    return `again: ${await deliver(s, event, violations)}`;
  }
  toString() {
    return `redeliverEvent(delivered ${this.event})`;
  }
}

class RunJob extends MoneyCommand {
  constructor(readonly job: 'payouts' | 'payments') {
    super();
  }
  async act(m: MoneyModel, s: Sequence, violations: string[]) {
    try {
      const report = this.job === 'payouts' ? await s.mw.runPayoutJob() : await s.mw.runPaymentsJob();
      return JSON.stringify(report);
    } catch (error) {
      violations.push(`the ${this.job} job threw: ${error instanceof Error ? error.message : String(error)}`);
      return 'threw';
    } finally {
      m.jobsRanAt[this.job] = s.mw.now().getTime();
    }
  }
  toString() {
    return this.job === 'payouts' ? 'runPayoutJob()' : 'runPaymentsJob()';
  }
}

/** The sequence's accounts paid out to their banks so far, for the trace. */
function bankPayouts(s: Sequence): number {
  return [s.driver, ...s.sellers].reduce(
    (sum, party) =>
      sum + (s.mw.world.balances.payouts.get(party.accountId) ?? []).reduce((t, p) => t + p.amount, 0),
    0,
  );
}

/**
 * Time passes: the app's clock and Stripe's move together (keys expire, funds become available,
 * accounts are paid out to their banks at Stripe's daily payout time), and, as in production where
 * they run every few minutes, the payments and payout jobs run at the end, unless they were stopped.
 */
class MoveClock extends MoneyCommand {
  constructor(
    readonly hours: number,
    readonly jobs: boolean,
  ) {
    super();
  }
  async act(m: MoneyModel, s: Sequence, violations: string[]) {
    const before = bankPayouts(s);
    s.mw.moveClocks(this.hours * HOUR_MS);
    const paid = bankPayouts(s) - before;
    const done = [
      `now ${s.mw.now().toISOString()}${paid > 0 ? `; Stripe paid ${dollars(paid)} of the payees' balances out to their banks` : ''}`,
    ];
    if (this.jobs)
      for (const job of ['payments', 'payouts'] as const)
        done.push(`${job} job ${await new RunJob(job).act(m, s, violations)}`);
    return done.join('; ');
  }
  toString() {
    return `moveClock(+${this.hours} h${this.jobs ? ', the jobs run' : ', the jobs stopped'})`;
  }
}

class Restrict extends MoneyCommand {
  constructor(readonly party: PartyName) {
    super();
  }
  async act(m: MoneyModel, s: Sequence) {
    const account = s.mw.world.connect.restrict(partyOf(s, this.party).accountId);
    m.restricted.add(this.party);
    queue(m, [s.mw.world.server.event('account.updated', account)], 'connect', `${this.party} restricted`);
    return `Stripe restricted ${this.party} (transfers refused); account.updated queued`;
  }
  toString() {
    return `restrict(${this.party})`;
  }
}

class Fix extends MoneyCommand {
  constructor(readonly party: number) {
    super();
  }
  override applies(m: Readonly<MoneyModel>) {
    return m.restricted.size > 0;
  }
  async act(m: MoneyModel, s: Sequence) {
    const name = pick([...m.restricted], this.party);
    if (!name) return 'no restricted payee';
    const account = s.mw.world.connect.complete(partyOf(s, name).accountId);
    m.restricted.delete(name);
    queue(m, [s.mw.world.server.event('account.updated', account)], 'connect', `${name} fixed`);
    return `${name} fixed at Stripe; account.updated queued`;
  }
  toString() {
    return `fix(restricted ${this.party})`;
  }
}

class BankPayout extends MoneyCommand {
  constructor(readonly party: PartyName) {
    super();
  }
  async act(_m: MoneyModel, s: Sequence) {
    const made = s.mw.world.balances.payOutAll([partyOf(s, this.party).accountId]);
    const amount = made.reduce((sum, p) => sum + p.amount, 0);
    return `Stripe paid ${dollars(amount)} of ${this.party}'s available balance to its bank`;
  }
  toString() {
    return `bankPayout(${this.party})`;
  }
}

class Arm extends MoneyCommand {
  constructor(
    readonly fault: Fault,
    readonly on: CallKind,
  ) {
    super();
  }
  async act(_m: MoneyModel, s: Sequence) {
    s.mw.faults.armed = { fault: this.fault, on: this.on };
    return `the sequence's next ${this.on} call: ${this.fault}`;
  }
  toString() {
    return `arm(${this.fault} on the next ${this.on})`;
  }
}

/**
 * A refund of the sequence fails after succeeding (the card was closed: Stripe's `failRefund`,
 * refund.failed and charge.refund.updated), or one Stripe left processing succeeds.
 */
class RefundOutcome extends MoneyCommand {
  constructor(
    readonly refund: number,
    readonly outcome: 'failed' | 'succeeded',
  ) {
    super();
  }
  override applies(m: Readonly<MoneyModel>) {
    return m.orders.some((o) => o.status === 'delivered' || o.status === 'cancelled');
  }
  async act(m: MoneyModel, s: Sequence) {
    const intents = new Set(m.payments.map((p) => p.intentId));
    const refund = pick(
      s.mw.world.server.refunds.filter(
        (r) =>
          intents.has(r.payment_intent) &&
          (this.outcome === 'failed'
            ? r.status === 'succeeded' || r.status === 'pending'
            : r.status === 'pending' && r.pending_reason === 'processing'),
      ),
      this.refund,
    );
    if (!refund) return 'no refund to settle';
    const before = refund.status;
    const events =
      this.outcome === 'failed'
        ? s.mw.world.server.failRefund(refund.id, 'expired_or_canceled_card')
        : [s.mw.world.server.settleRefund(refund.id, 'succeeded')];
    queue(m, events, 'payments');
    return `${refund.id} ${dollars(refund.amount)} ${before} → ${refund.status}; Stripe sent ${events.map((e) => e.type).join(', ')}`;
  }
  toString() {
    return `refundOutcome(refund ${this.refund}, ${this.outcome === 'failed' ? 'fails (the card was closed)' : 'succeeds'})`;
  }
}

const nat = fc.nat({ max: 5 });
const party = fc.constantFrom(...PARTIES);

/** One checkout: 1–3 orders of different sellers, each of 1–2 lines, mostly delivered by a driver. */
export const checkoutSpec: fc.Arbitrary<CheckoutOrderSpec[]> = fc.uniqueArray(
  fc.record({
    seller: fc.integer({ min: 0, max: 2 }),
    path: fc.oneof(
      { weight: 3, arbitrary: fc.constant('driver' as const) },
      { weight: 1, arbitrary: fc.constant('seller' as const) },
    ),
    lines: fc.array(
      fc.record({
        priceCents: fc.integer({ min: 500, max: 6000 }),
        quantity: fc.integer({ min: 1, max: 2 }),
      }),
      { minLength: 1, maxLength: 2 },
    ),
  }),
  { minLength: 1, maxLength: 3, selector: (order) => order.seller },
);

/** Every command by name (MONEY_SKIP leaves some out), weighted so that sequences deliver, refund, dispute and pay out often. */
const COMMANDS: Record<string, fc.WeightedArbitrary<Cmd>> = {
  checkout: { weight: 1, arbitrary: checkoutSpec.map((spec): Cmd => new Checkout(spec)) },
  advance: {
    weight: 6,
    arbitrary: fc
      .tuple(nat, fc.constantFrom(3, 3, 2, 1))
      .map(([order, steps]): Cmd => new Advance(order, steps)),
  },
  cancel: {
    weight: 2,
    arbitrary: fc
      .tuple(nat, fc.constantFrom('buyer' as const, 'seller' as const, 'admin' as const))
      .map(([order, by]): Cmd => new Cancel(order, by)),
  },
  refund: {
    weight: 8,
    arbitrary: fc
      .tuple(
        nat,
        fc.oneof(
          fc.integer({ min: 1, max: 110 }).map((percent): RefundHow => ({ kind: 'amount', percent })),
          fc
            .tuple(nat, fc.integer({ min: 1, max: 2 }))
            .map(([item, quantity]): RefundHow => ({ kind: 'items', item, quantity })),
          fc.constant<RefundHow>({ kind: 'all' }),
        ),
      )
      .map(([order, how]): Cmd => new Refund(order, how)),
  },
  openDispute: {
    weight: 3,
    arbitrary: fc
      .tuple(nat, fc.constantFrom<DisputeKind>('chargeback', 'half chargeback', 'inquiry'))
      .map(([payment, kind]): Cmd => new OpenDispute(payment, kind)),
  },
  submitEvidence: { weight: 1, arbitrary: nat.map((dispute): Cmd => new SubmitEvidence(dispute)) },
  decideDispute: {
    weight: 4,
    arbitrary: fc
      .tuple(nat, fc.constantFrom('platform' as const, 'cardholder' as const))
      .map(([dispute, favour]): Cmd => new DecideDispute(dispute, favour)),
  },
  preventDispute: {
    weight: 1,
    arbitrary: fc
      .tuple(nat, fc.constantFrom('new' as const, 'unanswered' as const))
      .map(([target, which]): Cmd => new PreventDispute(target, which)),
  },
  deliverEvent: {
    weight: 8,
    arbitrary: fc.tuple(nat, fc.boolean()).map(([event, twice]): Cmd => new DeliverEvent(event, twice)),
  },
  redeliverEvent: { weight: 1, arbitrary: nat.map((event): Cmd => new RedeliverEvent(event)) },
  runPayoutJob: { weight: 2, arbitrary: fc.constant<Cmd>(new RunJob('payouts')) },
  runPaymentsJob: { weight: 1, arbitrary: fc.constant<Cmd>(new RunJob('payments')) },
  moveClock: {
    weight: 4,
    arbitrary: fc
      .tuple(fc.constantFrom(1, 25, 73, 73), fc.constantFrom(true, true, false))
      .map(([hours, jobs]): Cmd => new MoveClock(hours, jobs)),
  },
  restrict: { weight: 1, arbitrary: party.map((name): Cmd => new Restrict(name)) },
  fix: { weight: 1, arbitrary: nat.map((index): Cmd => new Fix(index)) },
  bankPayout: { weight: 1, arbitrary: party.map((name): Cmd => new BankPayout(name)) },
  arm: {
    weight: 2,
    arbitrary: fc
      .oneof(
        fc.tuple(
          fc.constantFrom<Fault>('lost', 'lost-applied', 'crash'),
          fc.constantFrom<CallKind>('transfer', 'reversal', 'refund'),
        ),
        fc.constant<[Fault, CallKind]>(['refund-pending', 'refund']),
      )
      .map(([fault, on]): Cmd => new Arm(fault, on)),
  },
  refundOutcome: {
    weight: 2,
    arbitrary: fc
      .tuple(nat, fc.constantFrom('failed' as const, 'succeeded' as const))
      .map(([refund, outcome]): Cmd => new RefundOutcome(refund, outcome)),
  },
};

export const COMMAND_NAMES = Object.keys(COMMANDS);

/** The commands of a sequence, but those named in `skip`. */
export function moneyCommand(skip: ReadonlySet<string> = new Set()): fc.Arbitrary<Cmd> {
  const unknown = [...skip].filter((name) => !(name in COMMANDS));
  if (unknown.length > 0)
    throw new Error(
      `MONEY_SKIP names no command ${unknown.join(', ')}; the commands are ${COMMAND_NAMES.join(', ')}`,
    );
  return fc.oneof(
    ...Object.entries(COMMANDS)
      .filter(([name]) => !skip.has(name))
      .map(([, arbitrary]) => arbitrary),
  );
}

/** The first checkout of a sequence, run before its commands (so every sequence has money to move). */
export async function firstCheckout(m: MoneyModel, s: Sequence, spec: CheckoutOrderSpec[]): Promise<void> {
  await new Checkout(spec).run(m, s);
  m.ran = 0;
}

/**
 * The sequence settles, as the world would without anyone acting: nothing is armed any more, Stripe
 * settles the refunds it left processing, and the clock moves past Stripe's key window (+25 h) and
 * the payout hold (+73 h); at each point every event Stripe sent is delivered (in the order sent)
 * and the jobs run. What still waits for the platform's available balance at the end is covered by
 * a top-up (what an operator does) and the jobs run again over the next week (past the saved
 * refusals' keys and the retries' backoff). Then every invariant holds, and the settled ones too
 * (./invariants.ts, 6).
 */
export async function settle(m: MoneyModel, s: Sequence): Promise<void> {
  s.step += 1;
  const statusesFrom = s.mw.t.statuses.length;
  const { world, faults } = s.mw;
  faults.armed = null;
  const violations: string[] = [];
  const done: string[] = [];
  const intents = new Set(m.payments.map((p) => p.intentId));
  const ofSequence = () => world.server.refunds.filter((r) => intents.has(r.payment_intent));
  for (const refund of ofSequence().filter(
    (r) => r.status === 'pending' && r.pending_reason === 'processing',
  ))
    queue(m, [world.server.settleRefund(refund.id, 'succeeded')], 'payments');
  const deliverAll = async () => {
    collectStripeEvents(m, s);
    for (const event of m.events.filter((e) => e.deliveries === 0))
      done.push(await deliver(s, event, violations));
  };
  const jobs = async () => {
    for (const job of ['payments', 'payouts'] as const) {
      try {
        if (job === 'payouts') await s.mw.runPayoutJob();
        else await s.mw.runPaymentsJob();
      } catch (error) {
        violations.push(`the ${job} job threw: ${error instanceof Error ? error.message : String(error)}`);
      }
      m.jobsRanAt[job] = s.mw.now().getTime();
    }
    await deliverAll();
  };
  await deliverAll();
  await jobs();
  for (const hours of [25, 73]) {
    s.mw.moveClocks(hours * HOUR_MS);
    await deliverAll();
    await jobs();
  }
  // The platform's available balance is shared by every sequence (and can run out as losses and
  // fees pile up): what still waits for it — refunds, shares to transfer back from the platform's
  // balance — is covered by a top-up, as an operator would, and the jobs run again once Stripe has
  // forgotten the keys whose refusals it saved.
  const waiting = ofSequence().filter(
    (r) => r.status === 'pending' && r.pending_reason === 'insufficient_funds',
  );
  const restoring = await s.mw.t.database.db
    .select({ amount: payoutReversals.amount })
    .from(payoutReversals)
    .innerJoin(payouts, eq(payouts.id, payoutReversals.payoutId))
    .where(
      and(
        eq(payoutReversals.status, 'restoring'),
        inArray(
          payouts.orderId,
          m.orders.map((o) => o.id),
        ),
      ),
    );
  const needed =
    waiting.reduce((sum, r) => sum + r.amount, 0) + restoring.reduce((sum, r) => sum + cents(r.amount), 0);
  const available = world.balances.balanceOf().available;
  if (needed > 0 && available < needed) {
    world.server.topUp(needed - available);
    done.push(`top-up of ${dollars(needed - available)} for what waits for the platform's funds`);
    // Past the refusals' saved keys (24 h) and the retries' backoff (up to 64 h after a fifth refusal).
    for (const hours of [25, 73, 73]) {
      s.mw.moveClocks(hours * HOUR_MS);
      await deliverAll();
      await jobs();
    }
  }
  const notes = absorbFaults(m, s);
  const orderIds = new Set(m.orders.map((o) => o.id));
  const transfers = world.transfers.transfers.filter((tr) => orderIds.has(tr.metadata.orderId ?? ''));
  notes.push(
    `at Stripe: ${transfers.length} transfers, ${transfers.reduce((n, tr) => n + tr.reversals.data.length, 0)} reversals, ${ofSequence().length} refunds (${ofSequence().filter((r) => r.status === 'failed').length} failed), ${m.disputes.length} disputes (${m.disputes.map((d) => d.status).join(', ') || 'none'})`,
  );
  s.trace.push(
    `${s.step}. settle: +25 h, +73 h, events delivered and jobs run at each [${done.join('; ')}]${notes.map((n) => `\n     ↳ ${n}`).join('')}`,
  );
  await s.check(s, m, {
    where: 'after the sequence settled',
    statusesFrom,
    settled: true,
    extra: violations,
  });
}
