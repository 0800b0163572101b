import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server that speaks the parts of Stripe's documented API the marketplace uses
 * (docs/product-rules.md, Running modes and adapters: no real peer exists for Stripe, so the
 * adapter is tested against its wire format):
 * - POST /v1/payment_intents (form-encoded: amount, currency, transfer_group, metadata[…], automatic_payment_methods[enabled])
 * - GET  /v1/payment_intents/:id
 * - POST /v1/payment_intents/:id/cancel (cancellation_reason)
 * - POST /v1/refunds (payment_intent, amount, reason, metadata[…]); GET /v1/refunds/:id; GET /v1/refunds?payment_intent=
 * with Bearer authentication, Stripe's error envelope `{error: {type, code, message, param}}`, and
 * Stripe's idempotency: the same key answers the first answer again for 24 hours, a key reused with
 * other parameters (or on another endpoint) is a 400 `idempotency_error`, and only answers of an
 * endpoint that ran are saved (a failed validation can be retried under the same key). The clock
 * is the server's own (`advance(ms)`), so a test can let keys expire. Tests play the browser's
 * Stripe.js part with `succeed(id)`, `requireAction(id)` and `process(id)`, decide how the next
 * refund ends with `setNextRefundOutcome`, settle a pending refund with `settleRefund`, and post
 * the events these return (signed with `signWebhook`) to the app's webhook.
 *
 * Other endpoints (Stripe Connect) are added by passing `routes`: each runs inside the same
 * authentication and idempotency handling; throwing `StripeHttpError` answers Stripe's envelope.
 */

/** Stripe keeps an idempotency key for at least 24 hours; after that the same key is a new request. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

export type FormValue = string | { [key: string]: FormValue };

/** A form-encoded Stripe request body. */
export interface ParsedForm {
  /** Top-level scalars: `amount=…`. */
  flat: Map<string, string>;
  /** One level of brackets: `metadata[paymentId]=…` is nested.get('metadata').paymentId. */
  nested: Map<string, Record<string, string>>;
  /** Any depth: `capabilities[transfers][requested]=true` is tree.capabilities.transfers.requested. */
  tree: Record<string, FormValue>;
  /** The scalar at a path of keys: get('capabilities', 'transfers', 'requested'). */
  get(...path: string[]): string | undefined;
}

export interface FakeStripeRequest {
  method: string;
  /** Without the query string. */
  path: string;
  form: ParsedForm;
  query: URLSearchParams;
}

export interface FakeStripeContext {
  /** The server's clock in milliseconds (moved by `advance`). */
  now(): number;
  /** A new Stripe-looking id: id('acct') is acct_…. */
  id(prefix: string): string;
}

/** An endpoint added from outside: answers undefined for a request that is not its own. */
export type FakeStripeRoute = (
  req: FakeStripeRequest,
  ctx: FakeStripeContext,
) => { status?: number; body: unknown } | undefined;

export interface FakeCharge {
  id: string;
  object: 'charge';
  amount: number;
  currency: string;
  payment_intent: string;
  transfer_group: string | null;
  status: 'succeeded';
  created: number;
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

export interface FakeRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  charge: string | null;
  reason: string | null;
  status: FakeRefundStatus;
  failure_reason: string | null;
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
  /** An event as Stripe sends it to a webhook endpoint. */
  event(type: string, object: unknown): FakeStripeEvent;
  /** Moves the server's clock (idempotency keys expire after 24 hours). */
  advance(ms: number): void;
  /** Answer the next `count` requests with a 500 api_error (to test retries and recovery). */
  failNext(count: number): void;
  /**
   * Carry out the next `count` requests (and keep their idempotent answers) but answer a 500, as
   * when the answer is lost on the way back: the caller cannot know the call took effect.
   */
  loseNext(count: number): void;
  close(): Promise<void>;
}

function stripeId(prefix: string): string {
  return `${prefix}_${crypto.randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}

/**
 * Stripe's form encoding, to any depth: `metadata[paymentId]=…` and
 * `capabilities[transfers][requested]=true`; `list[]=a&list[]=b` gives indexes 0, 1.
 */
export function parseForm(body: string): ParsedForm {
  const flat = new Map<string, string>();
  const nested = new Map<string, Record<string, string>>();
  const tree: Record<string, FormValue> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const head = /^([^[\]]+)((?:\[[^\]]*\])*)$/.exec(key);
    if (!head?.[1]) continue;
    const path = [head[1], ...[...(head[2] ?? '').matchAll(/\[([^\]]*)\]/g)].map((m) => m[1] ?? '')];
    if (path.length === 1) flat.set(key, value);
    if (path.length === 2 && path[1]) {
      const group = nested.get(head[1]) ?? {};
      group[path[1]] = value;
      nested.set(head[1], group);
    }
    let node: Record<string, FormValue> = tree;
    path.forEach((part, index) => {
      const name = part === '' ? String(Object.keys(node).length) : part;
      if (index === path.length - 1) {
        node[name] = value;
        return;
      }
      const next = node[name];
      if (typeof next === 'object') node = next;
      else {
        const created: Record<string, FormValue> = {};
        node[name] = created;
        node = created;
      }
    });
  }
  return {
    flat,
    nested,
    tree,
    get: (...path) => {
      let node: FormValue | undefined = tree;
      for (const part of path) node = typeof node === 'object' ? node[part] : undefined;
      return typeof node === 'string' ? node : undefined;
    },
  };
}

/** Throw from a route to answer Stripe's error envelope `{error: {type, message, code, param}}`. */
export class StripeHttpError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
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

export async function startFakeStripe(
  options: { secretKey?: string; routes?: FakeStripeRoute[] } = {},
): Promise<FakeStripeServer> {
  const secretKey = options.secretKey ?? 'sk_test_fakestripe123';
  const routes = options.routes ?? [];
  const intents = new Map<string, FakePaymentIntent>();
  const charges = new Map<string, FakeCharge>();
  const refunds: FakeRefund[] = [];
  const requests: FakeStripeServer['requests'] = [];
  const keys = new Map<string, { fingerprint: string; at: number; status: number; body: string }>();
  let failures = 0;
  let losses = 0;
  let offsetMs = 0;
  let nextRefund: { status: FakeRefundStatus; failureReason: string | undefined } | undefined;
  const now = () => Date.now() + offsetMs;
  const seconds = () => Math.floor(now() / 1000);
  const ctx: FakeStripeContext = { now, id: stripeId };

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
    const intent = intentId ? intents.get(intentId) : undefined;
    if (!intent)
      throw new StripeHttpError(
        400,
        'invalid_request_error',
        `No such payment_intent: '${intentId ?? ''}'`,
        'resource_missing',
        'payment_intent',
      );
    if (intent.status !== 'succeeded')
      throw new StripeHttpError(
        400,
        'invalid_request_error',
        `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
        'charge_not_refundable',
      );
    const refunded = refundedOf(intent.id);
    const amount = form.flat.has('amount') ? Number(form.flat.get('amount')) : intent.amount - refunded;
    if (!Number.isInteger(amount) || amount <= 0 || refunded + amount > intent.amount)
      throw new StripeHttpError(
        400,
        'invalid_request_error',
        `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${((intent.amount - refunded) / 100).toFixed(2)})`,
        'amount_too_large',
        'amount',
      );
    const outcome = nextRefund ?? { status: 'succeeded', failureReason: undefined };
    nextRefund = undefined;
    const refund: FakeRefund = {
      id: stripeId('re'),
      object: 'refund',
      amount,
      currency: intent.currency,
      payment_intent: intent.id,
      charge: intent.latest_charge,
      reason: form.flat.get('reason') ?? null,
      status: outcome.status,
      failure_reason: outcome.status === 'failed' ? (outcome.failureReason ?? 'unknown') : null,
      metadata: form.nested.get('metadata') ?? {},
      created: seconds(),
    };
    refunds.push(refund);
    return refund;
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
    throw new StripeHttpError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const method = request.method ?? 'GET';
      const [path = '/', search = ''] = (request.url ?? '/').split('?');
      const idempotencyKey = request.headers['idempotency-key'];
      const key = Array.isArray(idempotencyKey) ? idempotencyKey[0] : idempotencyKey;
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
      const sendError = (error: StripeHttpError) =>
        send(
          error.status,
          JSON.stringify({
            error: { type: error.type, message: error.message, code: error.code, param: error.param },
          }),
        );
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
      // Stripe compares the parameters of a replay with the first request's: the sorted pairs, and the endpoint.
      const fingerprint = `${method} ${path} ${[...new URLSearchParams(body)]
        .map(([k, v]) => `${k}=${v}`)
        .sort()
        .join('&')}`;
      const saved = key && method === 'POST' ? keys.get(key) : undefined;
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
      try {
        const answer = handle({ method, path, form: parseForm(body), query: new URLSearchParams(search) });
        status = answer.status ?? 200;
        payload = JSON.stringify(answer.body);
      } catch (error) {
        if (!(error instanceof StripeHttpError)) throw error;
        sendError(error);
        return;
      }
      if (key && method === 'POST') keys.set(key, { fingerprint, at: now(), status, body: payload });
      send(status, payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo; // listening on TCP, so address() is an AddressInfo

  const event = (type: string, object: unknown): FakeStripeEvent => ({
    id: stripeId('evt'),
    object: 'event',
    type,
    data: { object: structuredClone(object) },
    created: seconds(),
    livemode: false,
  });
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
        const charge: FakeCharge = {
          id: stripeId('ch'),
          object: 'charge',
          amount: intent.amount,
          currency: intent.currency,
          payment_intent: intent.id,
          transfer_group: intent.transfer_group,
          status: 'succeeded',
          created: seconds(),
        };
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
      refund.status = status;
      refund.failure_reason = status === 'failed' ? (failureReason ?? 'unknown') : null;
      return event(status === 'failed' ? 'refund.failed' : 'refund.updated', refund);
    },
    event,
    advance(ms) {
      offsetMs += ms;
    },
    failNext(count) {
      failures = count;
    },
    loseNext(count) {
      losses = count;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
