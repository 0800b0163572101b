import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { createGeneratorSync, type JsonSchema } from 'json-schema-faker';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { as, createTestApp, createUser, signIn, type TestApp, type TestUser } from '../testing/test-app';
import { buy, createAddress, createProduct, startPayment, type PaymentJson } from '../testing/commerce';
import { availabilitySchedules, blackoutDates, categories } from '../db/schema';
import { TestPayoutAccounts } from '../adapters/payouts/test-payout-accounts';
import type { Role } from '../../domain/roles';

/**
 * The positive-data pass (docs/ARCHITECTURE.md, Requests and errors): every operation of the OpenAPI
 * document is called with requests generated from its own request schema, as each role that may call
 * it. A schema-valid request may be refused only for a reason the document states (an unknown id, a
 * state, a rule it describes), never with a 400 for a body the schema allows; every answer has a
 * status, a content type and a body the document declares for it.
 *
 * The generator is seeded: `OPENAPI_PASS_SEED=<n>` replays a run, `OPENAPI_PASS_SAMPLES=<n>` asks
 * for more requests per operation and role.
 */
const SEED = Number(process.env.OPENAPI_PASS_SEED ?? 20_260_401);
const SAMPLES = Number(process.env.OPENAPI_PASS_SAMPLES ?? 3);

/** Operations this pass cannot call with generated data, and why. */
const NOT_EXERCISED: Record<string, string> = {
  'post /api/stripe/webhook': 'needs a body signed with the webhook secret (stripe-checkout tests)',
  'post /api/stripe/connect/webhook': 'needs a body signed with the webhook secret (stripe-payouts tests)',
};

type Actor = 'visitor' | 'buyer' | 'seller' | 'driver' | 'admin';
const SIGNED_IN: Exclude<Actor, 'visitor'>[] = ['buyer', 'seller', 'driver', 'admin'];

interface Scene {
  users: Record<Exclude<Actor, 'visitor'>, TestUser>;
  bystanderId: string;
  addressId: string;
  productId: string;
  orderId: string;
  paymentId: string;
  scheduleId: string;
  blackoutId: string;
  categoryId: string;
  payoutAccountId: string;
}

type SchemaObject = Record<string, unknown>;
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: SchemaObject;
}
interface MediaType {
  schema?: SchemaObject;
}
interface Response {
  description: string;
  content?: Record<string, MediaType>;
  headers?: Record<string, unknown>;
}
interface Operation {
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, Response>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
}

let t: TestApp;
let s: Scene;
let document: Document;

/**
 * Real ids for a path parameter, by the path's beginning (most specific first); a parameter that is
 * not listed is generated from its schema (a random uuid: the declared 404).
 */
const REAL_IDS: { prefix: string; param: string; id: (scene: Scene, actor: Actor) => string }[] = [
  { prefix: '/api/users/{id}/role', param: 'id', id: (x, actor) => x.users[signedIn(actor)].id },
  { prefix: '/api/users/{id}', param: 'id', id: (x) => x.users.seller.id },
  // Moderation and role changes aim at a user who is none of the actors, so their sessions stay open.
  { prefix: '/api/admin/users/{id}', param: 'id', id: (x) => x.bystanderId },
  { prefix: '/api/admin/drivers/{id}', param: 'id', id: (x) => x.users.driver.id },
  { prefix: '/api/admin/products/{id}', param: 'id', id: (x) => x.productId },
  { prefix: '/api/admin/orders/{id}', param: 'id', id: (x) => x.orderId },
  { prefix: '/api/products/{id}', param: 'id', id: (x) => x.productId },
  { prefix: '/api/orders/{id}', param: 'id', id: (x) => x.orderId },
  { prefix: '/api/messages/order/{orderId}', param: 'orderId', id: (x) => x.orderId },
  { prefix: '/api/reviews/order/{id}', param: 'id', id: (x) => x.orderId },
  { prefix: '/api/reviews/user/{id}', param: 'id', id: (x) => x.users.seller.id },
  { prefix: '/api/payments/{id}', param: 'id', id: (x) => x.paymentId },
  { prefix: '/api/addresses/primary/{sellerId}', param: 'sellerId', id: (x) => x.users.seller.id },
  { prefix: '/api/addresses/{id}', param: 'id', id: (x) => x.addressId },
  { prefix: '/api/availability/schedules/{id}', param: 'id', id: (x) => x.scheduleId },
  { prefix: '/api/availability/blackouts/{id}', param: 'id', id: (x) => x.blackoutId },
  { prefix: '/api/availability/slots/{sellerId}', param: 'sellerId', id: (x) => x.users.seller.id },
  { prefix: '/api/earnings/seller-30day/{userId}', param: 'userId', id: (x) => x.users.seller.id },
  { prefix: '/api/categories/{id}', param: 'id', id: (x) => x.categoryId },
  { prefix: '/api/payouts/test-accounts/{accountId}', param: 'accountId', id: (x) => x.payoutAccountId },
];

function signedIn(actor: Actor): Exclude<Actor, 'visitor'> {
  return actor === 'visitor' ? 'buyer' : actor;
}

/** OpenAPI 3.0's `nullable` as JSON Schema's null type, for the generator. */
function toJsonSchema(schema: unknown): JsonSchema {
  if (Array.isArray(schema)) return schema.map(toJsonSchema) as unknown as JsonSchema;
  if (!schema || typeof schema !== 'object') return schema as JsonSchema;
  const { nullable, example: _example, ...rest } = schema as SchemaObject;
  const converted: SchemaObject = {};
  for (const [key, value] of Object.entries(rest)) {
    converted[key] =
      key === 'properties'
        ? Object.fromEntries(
            Object.entries(value as SchemaObject).map(([name, inner]) => [name, toJsonSchema(inner)]),
          )
        : typeof value === 'object'
          ? toJsonSchema(value)
          : value;
  }
  return nullable ? { anyOf: [converted, { type: 'null' }] } : converted;
}

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);

const generator = createGeneratorSync({ seed: SEED, optionalsProbability: 0.5, maxItems: 3 });
/**
 * A value its schema allows. The generator sometimes misses a rule (a pattern with a length): such a
 * value is not sent, another is drawn.
 */
function generate(schema: SchemaObject): unknown {
  const validate = validatorOf(schema);
  for (let attempt = 0; attempt < 20; attempt++) {
    const value = generator.generate(toJsonSchema(schema));
    if (validate(value)) return value;
  }
  throw new Error(`the generator draws no valid value for ${JSON.stringify(schema).slice(0, 300)}`);
}
const validators = new Map<SchemaObject, ValidateFunction>();
function validatorOf(schema: SchemaObject): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

/** Who may call an operation: visitors too on a public one, else the roles the route declares. */
function actorsOf(method: string, path: string, operation: Operation): Actor[] {
  const url = path.replace(/\{(\w+)\}/g, ':$1');
  const route = t.app.routeTable.find((entry) => entry.method === method.toUpperCase() && entry.url === url);
  if (!route) throw new Error(`no route for ${method} ${path}`);
  const roles = route.roles;
  const allowed = SIGNED_IN.filter((actor) => !roles || roles.includes(actor as Role));
  const isPublic = (operation.security ?? []).length === 0;
  return isPublic ? ['visitor', ...allowed] : allowed;
}

function requestOf(path: string, operation: Operation, actor: Actor, sample: number): InjectOptions {
  const query = new URLSearchParams();
  let url = path;
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in === 'path') {
      const real = REAL_IDS.find((entry) => entry.param === parameter.name && path.startsWith(entry.prefix));
      // The last sample of each actor asks for an id the schema allows but no row has.
      const value =
        real && sample < SAMPLES - 1 ? real.id(s, actor) : String(generate(parameter.schema) as string);
      url = url.replace(`{${parameter.name}}`, encodeURIComponent(value));
    } else if (parameter.in === 'query') {
      if (!parameter.required && sample % 2 === 0) continue;
      const value = generate(parameter.schema);
      if (value === null || value === undefined) continue;
      for (const item of [value].flat()) query.append(parameter.name, String(item));
    }
  }
  const search = query.toString();
  const schema = operation.requestBody?.content['application/json']?.schema;
  const body = schema ? generate(schema) : undefined;
  // A body the schema lets be absent is sent as none.
  const sendsBody = body !== undefined && body !== null;
  return {
    url: search ? `${url}?${search}` : url,
    ...(sendsBody ? { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
  };
}

/** The declared answer for a status: itself, else its range (`4XX`), else `default`. */
function declaredResponse(operation: Operation, status: number): Response | undefined {
  return (
    operation.responses[String(status)] ??
    operation.responses[`${String(status)[0]}XX`] ??
    operation.responses.default
  );
}

const mediaType = (header: unknown) =>
  String(header ?? '')
    .split(';')[0]
    ?.trim()
    .toLowerCase() ?? '';

/** The messages a 400's description names in quotes, `<…>` standing for any words. */
function statedMessages(description: string): RegExp[] {
  return [...description.matchAll(/"([^"]+)"/g)].map(
    ([, message = '']) =>
      new RegExp(
        `^${message
          .split(/<[^>]+>/)
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.+')}$`,
      ),
  );
}

/** What is wrong with an answer, by the document; undefined if nothing. */
function problemOf(operation: Operation, response: LightMyRequestResponse): string | undefined {
  const status = response.statusCode;
  if (status >= 500) return `a server error: ${response.body.slice(0, 300)}`;
  const declared = declaredResponse(operation, status);
  if (!declared) return `status ${status} is not declared: ${response.body.slice(0, 300)}`;
  // A 400 for a schema-valid request must be one the document names, message by message.
  if (status === 400 && mediaType(response.headers['content-type']) === 'application/json') {
    const body = response.json<{ fields?: Record<string, string>; message: string }>();
    const messages = body.fields ? Object.values(body.fields) : [body.message];
    const unstated = messages.filter(
      (message) => !statedMessages(declared.description).some((m) => m.test(message)),
    );
    if (unstated.length > 0)
      return `400 for a request its schema allows: ${JSON.stringify(body.fields ?? body.message).slice(0, 300)}`;
  }
  const content = declared.content;
  const type = mediaType(response.headers['content-type']);
  if (!content) {
    if (response.body.length > 0) return `answers a body where none is declared (${type})`;
    return undefined;
  }
  const media = content[type];
  if (!media) return `content type ${type} is not declared (${Object.keys(content).join(', ')})`;
  if (type === 'application/json' && media.schema) {
    const validate = validatorOf(media.schema);
    if (!validate(response.json())) {
      return `body breaks the declared schema: ${ajv.errorsText(validate.errors).slice(0, 400)}`;
    }
  }
  return undefined;
}

async function send(actor: Actor, method: string, path: string, options: InjectOptions) {
  const request = { ...options, method: method.toUpperCase() as InjectOptions['method'] };
  if (actor === 'visitor') return t.app.inject(request);
  const user = s.users[actor];
  // Signing out ends the session it is sent with: a session of its own each time.
  const cookie = path === '/api/logout' ? await signIn(t, user.email, user.password) : user.cookie;
  return as(t, { cookie }, request);
}

beforeAll(async () => {
  t = await createTestApp();
  const make = async (roles: Role[], options: { isVerified?: boolean } = {}) => {
    const user = await createUser(t, { roles, ...options });
    return { ...user, cookie: await signIn(t, user.email, user.password) };
  };
  const buyer = await make(['buyer']);
  const seller = await make(['buyer', 'seller']);
  const driver = await make(['buyer', 'driver'], { isVerified: true });
  const admin = await make(['buyer', 'admin']);
  const address = await createAddress(t, buyer.id);
  await createAddress(t, seller.id);
  const product = await createProduct(t, seller.id, { stock: 1000 });
  const items = [{ productId: product.id, quantity: 1 }];
  const [order] = await buy(t, buyer, { items, isPickup: false, deliveryAddressId: address.id });
  const started = await startPayment(t, buyer, { items, isPickup: false, deliveryAddressId: address.id });
  const [schedule] = await t.database.db
    .insert(availabilitySchedules)
    .values({ userId: seller.id, dayOfWeek: 1, startTime: '09:00', endTime: '17:00' })
    .returning();
  const [blackout] = await t.database.db
    .insert(blackoutDates)
    .values({ userId: seller.id, startDate: '2030-05-01', endDate: '2030-05-02' })
    .returning();
  const [category] = await t.database.db
    .insert(categories)
    .values({ name: 'Made for the positive pass' })
    .returning();
  if (!order || !schedule || !blackout || !category) throw new Error('scene incomplete');
  s = {
    users: { buyer, seller, driver, admin },
    bystanderId: (await createUser(t, { roles: ['buyer', 'seller'], role: 'seller' })).id,
    addressId: address.id,
    productId: product.id,
    orderId: order.id,
    paymentId: started.json<PaymentJson>().paymentId,
    scheduleId: schedule.id,
    blackoutId: blackout.id,
    categoryId: category.id,
    payoutAccountId: (
      await new TestPayoutAccounts(t.database.db, { signingKey: crypto.randomBytes(32) }).createAccount({
        userId: seller.id,
        email: seller.email,
      })
    ).accountId,
  };
  document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<Document>();
}, 120_000);

afterAll(async () => {
  await t.close();
});

describe('the positive-data pass', () => {
  it('accepts what each request schema allows and answers only what the document declares', async () => {
    console.info(`openapi positive pass: seed ${SEED} (OPENAPI_PASS_SEED), ${SAMPLES} samples`);
    const failures: string[] = [];
    let operations = 0;
    let requests = 0;
    const skipped: string[] = [];
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const key = `${method} ${path}`;
        if (NOT_EXERCISED[key]) {
          skipped.push(key);
          continue;
        }
        operations += 1;
        for (const actor of actorsOf(method, path, operation)) {
          for (let sample = 0; sample < SAMPLES; sample++) {
            const options = requestOf(path, operation, actor, sample);
            const response = await send(actor, method, path, options);
            requests += 1;
            const problem = problemOf(operation, response);
            // One line per operation and kind of problem, with its first example.
            const kind = problem?.split(':')[0];
            if (problem && !failures.some((line) => line.startsWith(`${key}: ${kind}`))) {
              const sent = `${String(options.url).slice(0, 120)} ${JSON.stringify(options.payload ?? null).slice(0, 200)}`;
              failures.push(`${key}: ${problem} (${actor} sent ${sent})`);
            }
          }
        }
      }
    }
    console.info(
      `openapi positive pass: ${operations} operations, ${requests} requests; not exercised: ${skipped.join(', ')}`,
    );
    expect(skipped.sort()).toEqual(Object.keys(NOT_EXERCISED).sort());
    expect(failures).toEqual([]);
  }, 300_000);
});
