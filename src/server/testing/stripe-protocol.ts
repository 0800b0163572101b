/**
 * The request, context and error types shared by the local Stripe server and the endpoints added to
 * it (src/server/testing/stripe-server.ts), and Stripe's form encoding.
 */

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
  /** The query string parsed as a form (`created[gte]=…` is queryForm.get('created', 'gte')). */
  queryForm: ParsedForm;
  /** The connected account named by the `Stripe-Account` header, if any. */
  stripeAccount: string | undefined;
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

/** Stripe's error codes for parameters that fail validation (API reference, Error codes). */
const VALIDATION_CODES = new Set([
  'parameter_missing',
  'parameter_invalid_empty',
  'parameter_invalid_integer',
  'parameter_invalid_string_blank',
  'parameter_invalid_string_empty',
  'parameter_invalid_string',
  'parameter_unknown',
  'parameters_exclusive',
  'url_invalid',
  'amount_too_small',
]);

/**
 * Throw from a route to answer Stripe's error envelope `{error: {type, message, code, param}}`.
 *
 * Stripe saves the answer of a request made with an idempotency key once the endpoint began,
 * errors included, but saves nothing when "incoming parameters fail validation" (API reference,
 * Idempotent requests). An error is taken as a failed validation (not saved) when it says so
 * (`beforeExecution`), or when its code is one of Stripe's parameter codes (`parameter_missing`,
 * `parameter_invalid_*`, `parameter_unknown`, …: the request's parameters themselves are wrong);
 * any other error is the endpoint's answer and is saved under the key.
 */
export class StripeHttpError extends Error {
  readonly beforeExecution: boolean;

  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
    options: { beforeExecution?: boolean } = {},
  ) {
    super(message);
    this.beforeExecution = options.beforeExecution ?? (code !== undefined && VALIDATION_CODES.has(code));
  }
}

/** A request whose parameters fail validation: a 400 that Stripe does not save under the key. */
export const invalidParameter = (message: string, param: string, code = 'parameter_invalid_integer') =>
  new StripeHttpError(400, 'invalid_request_error', message, code, param, { beforeExecution: true });
