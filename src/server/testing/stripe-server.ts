import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server that speaks the parts of Stripe's documented API the marketplace uses
 * (docs/product-rules.md, Running modes and adapters: no real peer exists for Stripe, so the
 * adapter is tested against its wire format):
 * - POST /v1/payment_intents (form-encoded: amount, currency, metadata[…], automatic_payment_methods[enabled])
 * - GET  /v1/payment_intents/:id
 * - POST /v1/refunds (payment_intent, amount, reason, metadata[…])
 * with Bearer authentication, Stripe's error envelope `{error: {type, code, message, param}}`, and
 * Idempotency-Key replay (the same key answers the first answer again). It listens on 127.0.0.1 on
 * a free port. Tests play the browser's Stripe.js part with `succeed(id)`.
 */

export interface FakePaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: string;
  client_secret: string;
  metadata: Record<string, string>;
  created: number;
  livemode: false;
}

export interface FakeRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  reason: string | null;
  status: 'succeeded';
  metadata: Record<string, string>;
  created: number;
}

export interface FakeStripeServer {
  url: string;
  secretKey: string;
  intents: Map<string, FakePaymentIntent>;
  refunds: FakeRefund[];
  /** Every request: method, path and the Idempotency-Key it carried. */
  requests: { method: string; path: string; idempotencyKey: string | undefined }[];
  /** What Stripe.js confirming a card does to the intent. */
  succeed(id: string): FakePaymentIntent;
  /** Answer the next `count` requests with a 500 api_error (to test retries and recovery). */
  failNext(count: number): void;
  close(): Promise<void>;
}

function stripeId(prefix: string): string {
  return `${prefix}_${crypto.randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}

/** Stripe's form encoding: `metadata[paymentId]=…` becomes {metadata: {paymentId: …}} (one level deep). */
function parseForm(body: string): { flat: Map<string, string>; nested: Map<string, Record<string, string>> } {
  const flat = new Map<string, string>();
  const nested = new Map<string, Record<string, string>>();
  for (const [key, value] of new URLSearchParams(body)) {
    const match = /^([a-z_]+)\[([^\]]+)\]$/.exec(key);
    if (match?.[1] && match[2]) {
      const group = nested.get(match[1]) ?? {};
      group[match[2]] = value;
      nested.set(match[1], group);
    } else flat.set(key, value);
  }
  return { flat, nested };
}

class StripeHttpError extends Error {
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

export async function startFakeStripe(secretKey = 'sk_test_fakestripe123'): Promise<FakeStripeServer> {
  const intents = new Map<string, FakePaymentIntent>();
  const refunds: FakeRefund[] = [];
  const requests: FakeStripeServer['requests'] = [];
  const replays = new Map<string, { status: number; body: string }>();
  let failures = 0;

  const createIntent = (form: ReturnType<typeof parseForm>): FakePaymentIntent => {
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
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    };
    intents.set(id, intent);
    return intent;
  };

  const createRefund = (form: ReturnType<typeof parseForm>): FakeRefund => {
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
    const refunded = refunds
      .filter((r) => r.payment_intent === intent.id)
      .reduce((sum, r) => sum + r.amount, 0);
    const amount = form.flat.has('amount') ? Number(form.flat.get('amount')) : intent.amount - refunded;
    if (!Number.isInteger(amount) || amount <= 0 || refunded + amount > intent.amount)
      throw new StripeHttpError(
        400,
        'invalid_request_error',
        `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${((intent.amount - refunded) / 100).toFixed(2)})`,
        'amount_too_large',
        'amount',
      );
    const refund: FakeRefund = {
      id: stripeId('re'),
      object: 'refund',
      amount,
      currency: intent.currency,
      payment_intent: intent.id,
      reason: form.flat.get('reason') ?? null,
      status: 'succeeded',
      metadata: form.nested.get('metadata') ?? {},
      created: Math.floor(Date.now() / 1000),
    };
    refunds.push(refund);
    return refund;
  };

  const handle = (method: string, path: string, body: string): unknown => {
    if (method === 'POST' && path === '/v1/payment_intents') return createIntent(parseForm(body));
    if (method === 'POST' && path === '/v1/refunds') return createRefund(parseForm(body));
    const match = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === 'GET' && match?.[1]) {
      const intent = intents.get(decodeURIComponent(match[1]));
      if (!intent)
        throw new StripeHttpError(
          404,
          'invalid_request_error',
          `No such payment_intent: '${match[1]}'`,
          'resource_missing',
          'intent',
        );
      return intent;
    }
    throw new StripeHttpError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const method = request.method ?? 'GET';
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      const idempotencyKey = request.headers['idempotency-key'];
      const key = Array.isArray(idempotencyKey) ? idempotencyKey[0] : idempotencyKey;
      requests.push({ method, path, idempotencyKey: key });
      const send = (status: number, payload: string) => {
        response.writeHead(status, { 'content-type': 'application/json', 'request-id': stripeId('req') });
        response.end(payload);
      };
      if (request.headers.authorization !== `Bearer ${secretKey}`) {
        send(
          401,
          JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } }),
        );
        return;
      }
      if (failures > 0) {
        failures -= 1;
        send(
          500,
          JSON.stringify({ error: { type: 'api_error', message: 'Something went wrong on our end.' } }),
        );
        return;
      }
      const replayKey = key && method === 'POST' ? `${path} ${key}` : undefined;
      const replay = replayKey ? replays.get(replayKey) : undefined;
      if (replay) {
        response.setHeader('idempotent-replayed', 'true');
        send(replay.status, replay.body);
        return;
      }
      let status = 200;
      let payload: string;
      try {
        payload = JSON.stringify(handle(method, path, Buffer.concat(chunks).toString('utf8')));
      } catch (error) {
        if (!(error instanceof StripeHttpError)) throw error;
        status = error.status;
        payload = JSON.stringify({
          error: { type: error.type, message: error.message, code: error.code, param: error.param },
        });
      }
      if (replayKey) replays.set(replayKey, { status, body: payload });
      send(status, payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo; // listening on TCP, so address() is an AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    intents,
    refunds,
    requests,
    succeed(id) {
      const intent = intents.get(id);
      if (!intent) throw new Error(`no intent ${id}`);
      intent.status = 'succeeded';
      intent.amount_received = intent.amount;
      return intent;
    },
    failNext(count) {
      failures = count;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
