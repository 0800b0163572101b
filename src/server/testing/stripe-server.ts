import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  invalidParameter,
  parseForm,
  StripeHttpError,
  type FakeStripeContext,
  type FakeStripeRequest,
  type FakeStripeRoute,
  type ParsedForm,
} from './stripe-protocol';
import {
  createFakeBalances,
  pageOf,
  PLATFORM,
  type FakeBalances,
  type FakeBalanceTransaction,
  type FakeBalancesOptions,
  type FakePayout,
} from './stripe-balances';

/**
 * A local HTTP server that speaks the parts of Stripe's documented API the marketplace uses
 * (docs/rules/running.md, Running modes and adapters: no real peer exists for Stripe, so the
 * adapter is tested against its wire format):
 * - POST /v1/payment_intents (form-encoded: amount, currency, transfer_group, metadata[…],
 *   automatic_payment_methods[enabled])
 * - GET  /v1/payment_intents/:id
 * - POST /v1/payment_intents/:id/cancel (cancellation_reason)
 * - POST /v1/refunds (payment_intent, amount, reason, metadata[…]); GET /v1/refunds/:id; GET
 *   /v1/refunds?payment_intent= with Bearer authentication, Stripe's error envelope `{error: {type, code,
 *   message, param}}`, and Stripe's idempotency (API reference, Idempotent requests): the status and body of
 *   the first request made with a key are saved once the endpoint began, whether it succeeded or failed (a
 *   4xx such as `charge_disputed` or `balance_insufficient` included, and a 500), and answered again to every
 *   retry with that key for 24 hours; a key reused with other parameters (or on another endpoint) is a 400
 *   `idempotency_error`; a request that failed before the endpoint ran (parameter validation, authentication,
 *   `failNext`) saves nothing and can be retried under the same key. The clock is the server's own
 *   (`advance(ms)`), so a test can let keys expire. Tests play the browser's Stripe.js part with
 *   `succeed(id)`, `requireAction(id)` and `process(id)`, decide how the next refund ends with
 *   `setNextRefundOutcome`, settle a pending refund with `settleRefund`, fail a refund after it succeeded
 *   with `failRefund`, and post the events these return (signed with `signWebhook`) to the app's webhook.
 *   Events Stripe sends on its own after an API request or as the clock moves (a refund waiting for funds
 *   that completes, an inquiry closed by a full refund, a dispute accepted through the API) are queued and
 *   handed out by `takeEvents()`.
 *
 * Refunds follow Stripe's balance (Refunds, "Refund and cancel payments": refunds use the available
 * balance, not pending amounts; a card refund the available balance cannot cover is held `pending`
 * until the balance is sufficient): such a refund is `pending` with `pending_reason`
 * `insufficient_funds`, its `refund` balance transaction already taken (the balance goes
 * negative), and it completes (`refund.updated`, `charge.refund.updated`) once the available
 * balance covers it, oldest first, as the clock makes pending funds available or money comes in.
 * The platform starts with `platformAvailable` (an option, 0 by default) available from before.
 *
 * Other endpoints (Stripe Connect) are added by passing `routes`: each runs inside the same
 * authentication and idempotency handling; throwing `StripeHttpError` answers Stripe's envelope.
 *
 * Money moves as at Stripe (docs/decisions/0018-money-against-stripe.md, The local Stripe server): every
 * charge makes a `charge` balance transaction with Stripe's processing fee, pending until its
 * `available_on`; a refund makes a `refund` one (the fee is not given back). The balances, their
 * transactions and the automatic payouts of connected accounts are `balances`
 * (src/server/testing/stripe-balances.ts); `expand[]` works on any answer whose ids the server
 * knows (charges, balance transactions, intents, refunds, and what routes add with `addResolver`).
 * GET /v1/charges/:id and GET /v1/charges?payment_intent= read the charges.
 */

export { parseForm, StripeHttpError, type FakeStripeRoute, type ParsedForm } from './stripe-protocol';

/** Stripe keeps an idempotency key for at least 24 hours; after that the same key is a new request. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

export interface FakeCharge {
  id: string;
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  /** The `charge` balance transaction on the platform (txn_…), expandable. */
  balance_transaction: string | null;
  captured: boolean;
  currency: string;
  disputed: boolean;
  paid: boolean;
  payment_intent: string;
  refunded: boolean;
  transfer_group: string | null;
  status: 'succeeded';
  created: number;
  livemode: false;
}

export interface FakePaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: string;
  client_secret: string;
  metadata: Record<string, string>;
  transfer_group: string | null;
  latest_charge: string | null;
  cancellation_reason: string | null;
  canceled_at: number | null;
  created: number;
  livemode: false;
}

export type FakeRefundStatus = 'pending' | 'succeeded' | 'failed' | 'requires_action' | 'canceled';

/** Why a refund is pending (API reference, The Refund object, `pending_reason`). */
export type FakeRefundPendingReason = 'processing' | 'insufficient_funds' | 'charge_pending';

export interface FakeRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  charge: string | null;
  reason: string | null;
  status: FakeRefundStatus;
  /** Set while `pending`: `insufficient_funds` when it waits for the available balance. */
  pending_reason: FakeRefundPendingReason | null;
  failure_reason: string | null;
  /** The `refund` balance transaction on the platform, once the refund moved money. */
  balance_transaction: string | null;
  /** The `refund_failure` balance transaction that gave the money back when the refund failed. */
  failure_balance_transaction: string | null;
  metadata: Record<string, string>;
  created: number;
}

export interface FakeStripeEvent {
  id: string;
  object: 'event';
  type: string;
  data: { object: unknown };
  created: number;
  livemode: false;
}

export interface FakeStripeServer {
  url: string;
  secretKey: string;
  intents: Map<string, FakePaymentIntent>;
  charges: Map<string, FakeCharge>;
  refunds: FakeRefund[];
  /** Every request: method, path and the Idempotency-Key it carried. */
  requests: { method: string; path: string; idempotencyKey: string | undefined }[];
  /** What Stripe.js confirming a card does to the intent: succeeded, with its charge. */
  succeed(id: string): FakePaymentIntent;
  /** The card needs 3-D Secure: the intent waits for the buyer. */
  requireAction(id: string): FakePaymentIntent;
  /** A payment method that settles later (a bank debit): the intent is processing. */
  process(id: string): FakePaymentIntent;
  /** How the next created refund ends: 'succeeded' (the default) or left 'pending'/'requires_action', or 'failed'. */
  setNextRefundOutcome(outcome: FakeRefundStatus, failureReason?: string): void;
  /** A pending refund settles; answers the `refund.updated` (or `refund.failed`) event Stripe sends. */
  settleRefund(
    id: string,
    status: 'succeeded' | 'failed' | 'canceled',
    failureReason?: string,
  ): FakeStripeEvent;
  /**
   * A refund that succeeded (or is pending) fails afterwards, as when the card was closed (Refunds,
   * "Failed refunds"): `failed` with `failure_reason` (`expired_or_canceled_card` by default), a
   * `refund_failure` balance transaction that gives the money back to the platform
   * (`failure_balance_transaction`), and the events Stripe sends: `refund.failed`,
   * `charge.refund.updated`.
   */
  failRefund(id: string, failureReason?: string): FakeStripeEvent[];
  /**
   * A refund Stripe makes on its own (a dispute resolved by dispute prevention): as POST /v1/refunds
   * would make it, waiting for funds alike; answers it and its events (`refund.created`,
   * `charge.refunded`). `amount` defaults to what is left of the charge.
   */
  refund(
    paymentIntentId: string,
    options?: { amount?: number; reason?: string | null; metadata?: Record<string, string> },
  ): { refund: FakeRefund; events: FakeStripeEvent[] };
  /** Money added to the platform's available balance (a `topup`); refunds waiting for it complete. */
  topUp(amount: number, currency?: string): FakeBalanceTransaction;
  /**
   * The events Stripe sent on its own since the last call (after API requests and as the clock
   * moved: refunds that completed, inquiries closed by a refund, disputes answered through the
   * API), oldest first; the queue is emptied. Controls that answer events do not queue them.
   */
  takeEvents(): FakeStripeEvent[];
  /** Queues an event Stripe sends on its own (for the routes: see `takeEvents`). */
  emit(...events: FakeStripeEvent[]): void;
  /** Completes the refunds waiting for funds that the available balance now covers (queues their events). */
  payWaitingRefunds(): FakeStripeEvent[];
  /** An event as Stripe sends it to a webhook endpoint. */
  event(type: string, object: unknown): FakeStripeEvent;
  /**
   * Moves the server's clock (idempotency keys expire after 24 hours, pending funds become
   * available, and connected accounts are paid out at each payout time passed); answers the
   * automatic payouts made on the way.
   */
  advance(ms: number): FakePayout[];
  /**
   * Answer the next `count` requests with a 500 api_error before the endpoint runs: nothing is done
   * and nothing is saved, so a retry with the same key runs the request.
   */
  failNext(count: number): void;
  /**
   * The next `count` requests fail with a 500 api_error after the endpoint began: the 500 is SAVED
   * under the request's idempotency key and answered again to every retry with that key for 24 hours
   * (Stripe: "subsequent requests with the same key return the same result, including 500 errors").
   * With `applied: true` the request took effect before failing (a transfer made, its answer a saved
   * 500); by default it did not.
   */
  failNextAfterRunning(count: number, options?: { applied?: boolean }): void;
  /**
   * Carry out the next `count` requests (and keep their idempotent answers) but answer a 500, as
   * when the answer is lost on the way back: the caller cannot know the call took effect.
   */
  loseNext(count: number): void;
  /** The platform's and connected accounts' balance transactions, balances and payouts. */
  balances: FakeBalances;
  /** The server's clock in milliseconds (moved by `advance`). */
  now(): number;
  /** A new Stripe-looking id: id('du') is du_…. */
  id(prefix: string): string;
  /** Teaches `expand[]` another kind of id (a route's objects): answers the object or undefined. */
  addResolver(resolve: (id: string) => unknown): void;
  /** A check run before a refund is made: throw a StripeHttpError to refuse it (disputed charges). */
  addRefundGuard(guard: (charge: FakeCharge) => void): void;
  /** Run after a refund is made (an inquiry closed by a full refund): answers the events it causes. */
  addRefundListener(listener: (refund: FakeRefund, charge: FakeCharge) => FakeStripeEvent[]): void;
  close(): Promise<void>;
}

function stripeId(prefix: string): string {
  return `${prefix}_${crypto.randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}

/** The `Stripe-Signature` header Stripe puts on a webhook: `t=<seconds>,v1=<HMAC-SHA256 of "t.payload">`. */
export function signWebhook(
  payload: string,
  secret: string,
  timestampSeconds = Math.floor(Date.now() / 1000),
) {
  const v1 = crypto.createHmac('sha256', secret).update(`${timestampSeconds}.${payload}`).digest('hex');
  return `t=${timestampSeconds},v1=${v1}`;
}

const missing = (what: string, id: string, param?: string) =>
  new StripeHttpError(404, 'invalid_request_error', `No such ${what}: '${id}'`, 'resource_missing', param);

/** Statuses from which Stripe lets a PaymentIntent be cancelled. */
const CANCELLABLE = new Set([
  'requires_payment_method',
  'requires_capture',
  'requires_confirmation',
  'requires_action',
  'processing',
]);

export interface FakeStripeOptions {
  secretKey?: string;
  routes?: FakeStripeRoute[];
  /** Processing fee, days until funds are available, payout hour (src/server/testing/stripe-balances.ts). */
  balances?: FakeBalancesOptions;
  /**
   * What the platform has available from before the server started (cents, 0 by default): a
   * `topup` balance transaction dated 30 days earlier, so a refund is covered at once up to it.
   */
  platformAvailable?: number;
}

export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripeServer> {
  const secretKey = options.secretKey ?? 'sk_test_fakestripe123';
  const intents = new Map<string, FakePaymentIntent>();
  const charges = new Map<string, FakeCharge>();
  const refunds: FakeRefund[] = [];
  const requests: FakeStripeServer['requests'] = [];
  // Keyed by the account the request acts for and the key: Stripe keeps keys per account.
  const keys = new Map<string, { fingerprint: string; at: number; status: number; body: string }>();
  let failures = 0;
  let losses = 0;
  let savedFailures: { count: number; applied: boolean } = { count: 0, applied: false };
  let offsetMs = 0;
  let nextRefund: { status: FakeRefundStatus; failureReason: string | undefined } | undefined;
  const now = () => Date.now() + offsetMs;
  const seconds = () => Math.floor(now() / 1000);
  const ctx: FakeStripeContext = { now, id: stripeId };
  const balances = createFakeBalances(ctx, options.balances);
  const routes = [balances.route, ...(options.routes ?? [])];
  const refundGuards: ((charge: FakeCharge) => void)[] = [];
  const refundListeners: ((refund: FakeRefund, charge: FakeCharge) => FakeStripeEvent[])[] = [];
  const outbox: FakeStripeEvent[] = [];
  const event = (type: string, object: unknown): FakeStripeEvent => ({
    id: stripeId('evt'),
    object: 'event',
    type,
    data: { object: structuredClone(object) },
    created: seconds(),
    livemode: false,
  });
  if (options.platformAvailable)
    balances.record(PLATFORM, {
      amount: options.platformAvailable,
      currency: 'usd',
      type: 'topup',
      reporting_category: 'topup',
      source: stripeId('tu'),
      description: 'Balance before the server started',
      created: seconds() - 30 * 24 * 60 * 60,
    });
  const resolvers: ((id: string) => unknown)[] = [
    (id) => intents.get(id),
    (id) => charges.get(id),
    (id) => refunds.find((r) => r.id === id),
    (id) => balances.find(id)?.transaction,
    (id) =>
      id.startsWith('po_') ? [...balances.payouts.values()].flat().find((p) => p.id === id) : undefined,
  ];

  const intentOf = (id: string): FakePaymentIntent => {
    const intent = intents.get(id);
    if (!intent) throw missing('payment_intent', id, 'intent');
    return intent;
  };

  const createIntent = (form: ParsedForm): FakePaymentIntent => {
    const amount = Number(form.flat.get('amount'));
    if (!Number.isInteger(amount) || amount < 50)
      throw new StripeHttpError(
        400,
        'invalid_request_error',
        'Amount must be at least 50 cents',
        'amount_too_small',
        'amount',
      );
    const currency = form.flat.get('currency');
    if (!currency)
      throw new StripeHttpError(
        400,
        'invalid_request_error',
        'Missing required param: currency.',
        'parameter_missing',
        'currency',
      );
    const id = stripeId('pi');
    const intent: FakePaymentIntent = {
      id,
      object: 'payment_intent',
      amount,
      amount_received: 0,
      currency,
      status: 'requires_payment_method',
      client_secret: `${id}_secret_${crypto.randomBytes(8).toString('hex')}`,
      metadata: form.nested.get('metadata') ?? {},
      transfer_group: form.flat.get('transfer_group') ?? null,
      latest_charge: null,
      cancellation_reason: null,
      canceled_at: null,
      created: seconds(),
      livemode: false,
    };
    intents.set(id, intent);
    return intent;
  };

  const cancelIntent = (id: string, form: ParsedForm): FakePaymentIntent => {
    const intent = intentOf(id);
    if (!CANCELLABLE.has(intent.status))
      throw new StripeHttpError(
        400,
        'invalid_request_error',
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${[...CANCELLABLE].join(', ')}.`,
        'payment_intent_unexpected_state',
      );
    intent.status = 'canceled';
    intent.cancellation_reason = form.flat.get('cancellation_reason') ?? null;
    intent.canceled_at = seconds();
    return intent;
  };

  /** What counts against the refundable amount: refunds that did not fail or get cancelled. */
  const refundedOf = (intentId: string) =>
    refunds
      .filter((r) => r.payment_intent === intentId && r.status !== 'failed' && r.status !== 'canceled')
      .reduce((sum, r) => sum + r.amount, 0);

  const createRefund = (form: ParsedForm): FakeRefund => {
    const intentId = form.flat.get('payment_intent');
    if (!intentId)
      throw invalidParameter(
        'Missing required param: payment_intent.',
        'payment_intent',
        'parameter_missing',
      );
    const intent = intents.get(intentId);
    if (!intent)
      throw new StripeHttpError(
        400,
        'invalid_request_error',
        `No such payment_intent: '${intentId}'`,
        'resource_missing',
        'payment_intent',
      );
    let amount: number | undefined;
    if (form.flat.has('amount')) {
      amount = Number(form.flat.get('amount'));
      if (!Number.isInteger(amount) || amount <= 0)
        throw invalidParameter('Invalid positive integer', 'amount');
    }
    const made = refundIntent(intent, {
      amount,
      reason: form.flat.get('reason') ?? null,
      metadata: form.nested.get('metadata') ?? {},
    });
    outbox.push(...made.events);
    return made.refund;
  };

  /**
   * Makes a refund of an intent's charge as Stripe does (the endpoint's work, after its parameters
   * passed validation); answers it with the events Stripe sends for it.
   */
  const refundIntent = (
    intent: FakePaymentIntent,
    request: { amount?: number; reason?: string | null; metadata?: Record<string, string> },
  ): { refund: FakeRefund; events: FakeStripeEvent[] } => {
    if (intent.status !== 'succeeded')
      throw new StripeHttpError(
        400,
        'invalid_request_error',
        `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
        'charge_not_refundable',
      );
    const refunded = refundedOf(intent.id);
    if (refunded >= intent.amount)
      throw new StripeHttpError(
        400,
        'invalid_request_error',
        `Charge ${intent.latest_charge ?? intent.id} has already been refunded.`,
        'charge_already_refunded',
      );
    const amount = request.amount ?? intent.amount - refunded;
    if (refunded + amount > intent.amount)
      throw new StripeHttpError(
        400,
        'invalid_request_error',
        `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${((intent.amount - refunded) / 100).toFixed(2)})`,
        'amount_too_large',
        'amount',
      );
    const charge = intent.latest_charge ? charges.get(intent.latest_charge) : undefined;
    if (charge) for (const guard of refundGuards) guard(charge);
    // Refunds use the available balance, not pending funds: one it cannot cover waits (Refunds).
    const waitsForFunds =
      nextRefund === undefined && balances.balanceOf(PLATFORM, intent.currency).available < amount;
    const outcome = nextRefund ?? {
      status: waitsForFunds ? 'pending' : 'succeeded',
      failureReason: undefined,
    };
    nextRefund = undefined;
    const refund: FakeRefund = {
      id: stripeId('re'),
      object: 'refund',
      amount,
      currency: intent.currency,
      payment_intent: intent.id,
      charge: intent.latest_charge,
      reason: request.reason ?? null,
      status: outcome.status,
      pending_reason:
        outcome.status === 'pending' ? (waitsForFunds ? 'insufficient_funds' : 'processing') : null,
      failure_reason: outcome.status === 'failed' ? (outcome.failureReason ?? 'unknown') : null,
      balance_transaction: null,
      failure_balance_transaction: null,
      metadata: request.metadata ?? {},
      created: seconds(),
    };
    refunds.push(refund);
    // The money leaves the balance when the refund is made (a pending one too, the balance going
    // negative while it waits for funds); the processing fee of the charge is not given back.
    if (outcome.status !== 'failed' && outcome.status !== 'canceled') {
      refund.balance_transaction = balances.record(PLATFORM, {
        amount: -amount,
        currency: intent.currency,
        type: 'refund',
        reporting_category: 'refund',
        source: refund.id,
        description: 'REFUND FOR CHARGE',
      }).id;
      if (charge) {
        charge.amount_refunded += amount;
        charge.refunded = charge.amount_refunded >= charge.amount;
      }
    }
    const events = [event('refund.created', refund)];
    if (charge) {
      events.push(event('charge.refunded', charge));
      for (const listener of refundListeners) events.push(...listener(refund, charge));
    }
    return { refund, events };
  };

  /** A refund settles as `status`; a failed or cancelled one that took money gives it back. */
  const settle = (
    refund: FakeRefund,
    status: 'succeeded' | 'failed' | 'canceled',
    failureReason?: string,
  ) => {
    const tookMoney = refund.balance_transaction !== null && refund.failure_balance_transaction === null;
    refund.status = status;
    refund.pending_reason = null;
    refund.failure_reason = status === 'failed' ? (failureReason ?? 'unknown') : null;
    if (status !== 'succeeded' && tookMoney) {
      // A refund that failed (or was cancelled) gives its money back: `refund_failure`.
      refund.failure_balance_transaction = balances.record(PLATFORM, {
        amount: refund.amount,
        currency: refund.currency,
        type: 'refund_failure',
        reporting_category: 'refund_failure',
        source: refund.id,
        description: 'REFUND FAILURE',
      }).id;
      const charge = refund.charge ? charges.get(refund.charge) : undefined;
      if (charge) {
        charge.amount_refunded -= refund.amount;
        charge.refunded = charge.amount_refunded >= charge.amount;
      }
    }
  };

  /**
   * Refunds waiting for funds complete, oldest first, while the available balance covers them
   * (their own withdrawals are already in it): `refund.updated` and `charge.refund.updated` each.
   */
  const payWaitingRefunds = (): FakeStripeEvent[] => {
    const sent: FakeStripeEvent[] = [];
    const waiting = refunds.filter(
      (r) => r.status === 'pending' && r.pending_reason === 'insufficient_funds',
    );
    for (const currency of new Set(waiting.map((r) => r.currency))) {
      const queue = waiting.filter((r) => r.currency === currency);
      let covered =
        balances.balanceOf(PLATFORM, currency).available + queue.reduce((sum, r) => sum + r.amount, 0);
      for (const refund of queue) {
        if (refund.amount > covered) break;
        covered -= refund.amount;
        settle(refund, 'succeeded');
        sent.push(event('refund.updated', refund), event('charge.refund.updated', refund));
      }
    }
    outbox.push(...sent);
    return sent;
  };

  const listCharges = (query: URLSearchParams) => {
    const intentId = query.get('payment_intent');
    const found = [...charges.values()].filter((c) => !intentId || c.payment_intent === intentId).reverse();
    return pageOf(found, query, '/v1/charges');
  };

  const listRefunds = (query: URLSearchParams) => {
    const intentId = query.get('payment_intent');
    const limit = Math.min(Number(query.get('limit') ?? 10) || 10, 100);
    const found = refunds
      .filter((r) => !intentId || r.payment_intent === intentId)
      .slice()
      .reverse();
    return {
      object: 'list',
      url: '/v1/refunds',
      has_more: found.length > limit,
      data: found.slice(0, limit),
    };
  };

  const handle = (req: FakeStripeRequest): { status?: number; body: unknown } => {
    const { method, path, form, query } = req;
    if (method === 'POST' && path === '/v1/payment_intents') return { body: createIntent(form) };
    if (method === 'GET' && path === '/v1/charges') return { body: listCharges(query) };
    const chargeMatch = /^\/v1\/charges\/([^/]+)$/.exec(path);
    if (method === 'GET' && chargeMatch?.[1]) {
      const id = decodeURIComponent(chargeMatch[1]);
      const charge = charges.get(id);
      if (!charge) throw missing('charge', id, 'id');
      return { body: charge };
    }
    if (method === 'POST' && path === '/v1/refunds') return { body: createRefund(form) };
    if (method === 'GET' && path === '/v1/refunds') return { body: listRefunds(query) };
    const intentMatch = /^\/v1\/payment_intents\/([^/]+)(\/cancel)?$/.exec(path);
    if (intentMatch?.[1]) {
      const id = decodeURIComponent(intentMatch[1]);
      if (method === 'GET' && !intentMatch[2]) return { body: intentOf(id) };
      if (method === 'POST' && intentMatch[2]) return { body: cancelIntent(id, form) };
    }
    const refundMatch = /^\/v1\/refunds\/([^/]+)$/.exec(path);
    if (method === 'GET' && refundMatch?.[1]) {
      const id = decodeURIComponent(refundMatch[1]);
      const refund = refunds.find((r) => r.id === id);
      if (!refund) throw missing('refund', id, 'id');
      return { body: refund };
    }
    for (const route of routes) {
      const answer = route(req, ctx);
      if (answer) return answer;
    }
    throw new StripeHttpError(
      404,
      'invalid_request_error',
      `Unrecognized request URL (${method}: ${path}).`,
      undefined,
      undefined,
      { beforeExecution: true },
    );
  };

  /** `expand[]=a.b`: each id on the path is replaced by its object (lists' `data.` too). */
  const expandAnswer = (body: unknown, paths: string[]): unknown => {
    if (paths.length === 0) return body;
    const copy = structuredClone(body);
    const resolve = (id: string) => {
      for (const resolver of resolvers) {
        const found = resolver(id);
        if (found !== undefined) return structuredClone(found);
      }
      return id;
    };
    const walk = (node: unknown, parts: string[]): unknown => {
      if (Array.isArray(node)) return node.map((item) => walk(item, parts));
      if (typeof node !== 'object' || node === null) return node;
      const [head, ...rest] = parts;
      if (!head) return node;
      const record = node as Record<string, unknown>;
      let value = record[head];
      if (typeof value === 'string') value = resolve(value);
      record[head] = rest.length > 0 ? walk(value, rest) : value;
      return record;
    };
    return paths.reduce((answer, path) => walk(answer, path.split('.')), copy);
  };
  const expansions = (form: ParsedForm) => {
    const expand = form.tree.expand;
    if (typeof expand === 'string') return [expand];
    return expand ? Object.values(expand).filter((v): v is string => typeof v === 'string') : [];
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const method = request.method ?? 'GET';
      const [path = '/', search = ''] = (request.url ?? '/').split('?');
      const idempotencyKey = request.headers['idempotency-key'];
      const key = Array.isArray(idempotencyKey) ? idempotencyKey[0] : idempotencyKey;
      const accountHeader = request.headers['stripe-account'];
      const stripeAccount = Array.isArray(accountHeader) ? accountHeader[0] : accountHeader;
      requests.push({ method, path, idempotencyKey: key });
      const send = (status: number, payload: string) => {
        if (losses > 0) {
          losses -= 1;
          status = 500;
          payload = JSON.stringify({
            error: { type: 'api_error', message: 'Something went wrong on our end.' },
          });
        }
        response.writeHead(status, { 'content-type': 'application/json', 'request-id': stripeId('req') });
        response.end(payload);
      };
      const errorBody = (error: StripeHttpError) =>
        JSON.stringify({
          error: { type: error.type, message: error.message, code: error.code, param: error.param },
        });
      const sendError = (error: StripeHttpError) => send(error.status, errorBody(error));
      if (request.headers.authorization !== `Bearer ${secretKey}`) {
        sendError(new StripeHttpError(401, 'invalid_request_error', 'Invalid API Key provided'));
        return;
      }
      if (failures > 0) {
        failures -= 1;
        sendError(new StripeHttpError(500, 'api_error', 'Something went wrong on our end.'));
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      // Stripe compares the parameters of a replay with the first request's: the sorted pairs, and the
      // endpoint.
      const fingerprint = `${method} ${path} ${[...new URLSearchParams(body)]
        .map(([k, v]) => `${k}=${v}`)
        .sort()
        .join('&')}`;
      // A key lives 24 hours from the first request that saved an answer under it; a replay does
      // not extend it (docs/decisions/0018-money-against-stripe.md, The local Stripe server).
      const keyId = key && method === 'POST' ? `${stripeAccount ?? PLATFORM} ${key}` : undefined;
      const saved = keyId ? keys.get(keyId) : undefined;
      if (saved && now() - saved.at < IDEMPOTENCY_KEY_TTL_MS) {
        if (saved.fingerprint !== fingerprint) {
          sendError(
            new StripeHttpError(
              400,
              'idempotency_error',
              `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key ?? ''}' if you meant to execute a different request.`,
            ),
          );
          return;
        }
        response.setHeader('idempotent-replayed', 'true');
        send(saved.status, saved.body);
        return;
      }
      let status = 200;
      let payload: string;
      const form = parseForm(body);
      const queryForm = parseForm(search);
      const failAfterRunning = method === 'POST' && savedFailures.count > 0;
      if (failAfterRunning) savedFailures.count -= 1;
      try {
        if (failAfterRunning && !savedFailures.applied)
          throw new StripeHttpError(500, 'api_error', 'Something went wrong on our end.');
        const answer = handle({
          method,
          path,
          form,
          query: new URLSearchParams(search),
          queryForm,
          stripeAccount,
        });
        if (failAfterRunning) throw new StripeHttpError(500, 'api_error', 'Something went wrong on our end.');
        status = answer.status ?? 200;
        payload = JSON.stringify(expandAnswer(answer.body, [...expansions(queryForm), ...expansions(form)]));
      } catch (error) {
        if (!(error instanceof StripeHttpError)) throw error;
        // Stripe saves a request's answer once the endpoint began, whether it succeeded or failed
        // (a 4xx the endpoint answered and a 500 alike); a request whose parameters failed
        // validation saves nothing and may be retried under the same key.
        if (keyId && !error.beforeExecution)
          keys.set(keyId, { fingerprint, at: now(), status: error.status, body: errorBody(error) });
        payWaitingRefunds();
        sendError(error);
        return;
      }
      if (keyId) keys.set(keyId, { fingerprint, at: now(), status, body: payload });
      payWaitingRefunds();
      send(status, payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo; // listening on TCP, so address() is an AddressInfo

  const moveIntent = (id: string, status: string) => {
    const intent = intents.get(id);
    if (!intent) throw new Error(`no intent ${id}`);
    intent.status = status;
    return intent;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    intents,
    charges,
    refunds,
    requests,
    succeed(id) {
      const intent = moveIntent(id, 'succeeded');
      intent.amount_received = intent.amount;
      if (!intent.latest_charge) {
        const created = seconds();
        const charge: FakeCharge = {
          id: stripeId('ch'),
          object: 'charge',
          amount: intent.amount,
          amount_captured: intent.amount,
          amount_refunded: 0,
          balance_transaction: null,
          captured: true,
          currency: intent.currency,
          disputed: false,
          paid: true,
          payment_intent: intent.id,
          refunded: false,
          transfer_group: intent.transfer_group,
          status: 'succeeded',
          created,
          livemode: false,
        };
        // The charge's funds, less Stripe's processing fee, are pending until available_on.
        charge.balance_transaction = balances.record(PLATFORM, {
          amount: intent.amount,
          currency: intent.currency,
          type: 'charge',
          reporting_category: 'charge',
          source: charge.id,
          description: null,
          fee_details: [
            {
              amount: balances.processingFee(intent.amount),
              application: null,
              currency: intent.currency,
              description: 'Stripe processing fees',
              type: 'stripe_fee',
            },
          ],
          available_on: balances.availableOn(created),
        }).id;
        charges.set(charge.id, charge);
        intent.latest_charge = charge.id;
      }
      return intent;
    },
    requireAction: (id) => moveIntent(id, 'requires_action'),
    process: (id) => moveIntent(id, 'processing'),
    setNextRefundOutcome(status, failureReason) {
      nextRefund = { status, failureReason };
    },
    settleRefund(id, status, failureReason) {
      const refund = refunds.find((r) => r.id === id);
      if (!refund) throw new Error(`no refund ${id}`);
      settle(refund, status, failureReason);
      const answer = event(status === 'failed' ? 'refund.failed' : 'refund.updated', refund);
      payWaitingRefunds();
      return answer;
    },
    failRefund(id, failureReason = 'expired_or_canceled_card') {
      const refund = refunds.find((r) => r.id === id);
      if (!refund) throw new Error(`no refund ${id}`);
      if (refund.status !== 'succeeded' && refund.status !== 'pending')
        throw new Error(`refund ${id} is ${refund.status}: only a succeeded or pending refund can fail`);
      settle(refund, 'failed', failureReason);
      const events = [event('refund.failed', refund), event('charge.refund.updated', refund)];
      payWaitingRefunds();
      return events;
    },
    refund(paymentIntentId, refundOptions = {}) {
      const made = refundIntent(intentOf(paymentIntentId), refundOptions);
      return made;
    },
    topUp(amount, currency = 'usd') {
      const txn = balances.record(PLATFORM, {
        amount,
        currency,
        type: 'topup',
        reporting_category: 'topup',
        source: stripeId('tu'),
        description: 'Top-up',
      });
      payWaitingRefunds();
      return txn;
    },
    takeEvents() {
      return outbox.splice(0, outbox.length);
    },
    emit(...events) {
      outbox.push(...events);
    },
    payWaitingRefunds,
    event,
    advance(ms) {
      const from = now();
      offsetMs += ms;
      const payouts = balances.tick(from, now());
      payWaitingRefunds();
      return payouts;
    },
    failNext(count) {
      failures = count;
    },
    failNextAfterRunning(count, failOptions) {
      savedFailures = { count, applied: failOptions?.applied ?? false };
    },
    loseNext(count) {
      losses = count;
    },
    balances,
    now,
    id: stripeId,
    addResolver(resolve) {
      resolvers.push(resolve);
    },
    addRefundGuard(guard) {
      refundGuards.push(guard);
    },
    addRefundListener(listener) {
      refundListeners.push(listener);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
