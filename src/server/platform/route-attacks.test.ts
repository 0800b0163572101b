import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { as, createTestApp, createUser, signIn, type TestApp, type TestUser } from '../testing/test-app';
import {
  buy,
  createAddress,
  createProduct,
  SUCCEEDING_CARD,
  startPayment,
  type PaymentJson,
} from '../testing/commerce';
import { blackoutDates, availabilitySchedules, categories, users } from '../db/schema';
import type { Role } from '../../domain/roles';
import type { RouteEntry } from './access';
import { TestPayoutAccounts } from '../adapters/payouts/test-payout-accounts';

/**
 * Attacks generated from the route table (docs/decisions/0011-deny-by-default.md): every route the
 * app registers is called by a visitor, two buyers, two sellers, a driver and an admin, with objects
 * of someone else in its path, and then fed malformed input. A new route is attacked the day it is
 * added; one whose path or body this file cannot fill makes the test fail until it is described here.
 */

type ActorName = 'visitor' | 'buyer' | 'otherBuyer' | 'seller' | 'otherSeller' | 'driver' | 'admin';
const ACTORS: ActorName[] = ['visitor', 'otherBuyer', 'otherSeller', 'driver', 'buyer', 'seller', 'admin'];

interface Scene {
  users: Record<Exclude<ActorName, 'visitor'>, TestUser>;
  buyerAddressId: string;
  productId: string;
  orderId: string;
  paymentId: string;
  scheduleId: string;
  blackoutId: string;
  uploadId: string;
  /** A category no product uses, made for the category routes: the matrix renames, then deletes it. */
  categoryId: string;
  /** The seller's simulated payout account (the test provider's onboarding and dashboard pages). */
  payoutAccountId: string;
  /** A seller who is none of the actors: the admin's moderation calls suspend, restore and change them. */
  bystanderId: string;
}

let t: TestApp;
let s: Scene;

/** Who owns the object a path names, and what anyone else gets for it. */
interface PathTarget {
  prefix: string;
  id: (scene: Scene) => string;
  owners: ActorName[];
  /** The answer for a signed-in actor who is neither an owner nor an admin; undefined: not asserted. */
  othersGet?: 403 | 404;
  /** Only for these methods: the same path may be public to read and its owner's to change. */
  methods?: readonly string[];
}

/** Most specific prefix first. Every route with a path parameter must match one. */
const PATH_TARGETS: PathTarget[] = [
  // The driver's calls (docs/rules/deliveries.md, Deliveries). The scene's driver is approved but has
  // no vehicle or license image on file: not verified, so accepting and declining are 403.
  { prefix: '/api/orders/:id/assign', id: (x) => x.orderId, owners: [], othersGet: 403 },
  { prefix: '/api/orders/:id/decline', id: (x) => x.orderId, owners: [], othersGet: 403 },
  // Only the order's assigned driver (nobody in the scene) sets its arrival time and photo.
  { prefix: '/api/orders/:id/estimated-time', id: (x) => x.orderId, owners: [], othersGet: 404 },
  { prefix: '/api/orders/:id/delivery-photo', id: (x) => x.orderId, owners: [], othersGet: 404 },
  // Only the order's assigned driver (nobody in the scene) hands it back.
  { prefix: '/api/orders/:id/hand-back', id: (x) => x.orderId, owners: [], othersGet: 404 },
  // Mark Delivered with its proof: only the assigned driver, anyone else 404 whatever their role.
  { prefix: '/api/orders/:id/deliver', id: (x) => x.orderId, owners: [], othersGet: 404 },
  { prefix: '/api/orders/:id', id: (x) => x.orderId, owners: ['buyer', 'seller'], othersGet: 404 },
  // An order's conversation and reviews follow the order (docs/rules/selling.md, Reviews and messages).
  {
    prefix: '/api/messages/order/:orderId',
    id: (x) => x.orderId,
    owners: ['buyer', 'seller'],
    othersGet: 404,
  },
  { prefix: '/api/reviews/order/:id', id: (x) => x.orderId, owners: ['buyer', 'seller'], othersGet: 404 },
  // A profile's reviews are public, like the profile.
  { prefix: '/api/reviews/user/:id', id: (x) => x.users.seller.id, owners: [] },
  { prefix: '/api/payments/:id', id: (x) => x.paymentId, owners: ['buyer'], othersGet: 404 },
  { prefix: '/api/addresses/primary/:sellerId', id: (x) => x.users.seller.id, owners: [] },
  { prefix: '/api/addresses/:id', id: (x) => x.buyerAddressId, owners: ['buyer'], othersGet: 404 },
  // Only its seller (or an admin) changes a product; anyone else is told it does not exist.
  {
    prefix: '/api/products/:id',
    methods: ['PATCH', 'DELETE', 'PUT', 'POST'],
    id: (x) => x.productId,
    owners: ['seller'],
    othersGet: 404,
  },
  { prefix: '/api/products/:id', id: (x) => x.productId, owners: ['seller'] },
  {
    prefix: '/api/earnings/seller-30day/:userId',
    id: (x) => x.users.seller.id,
    owners: ['seller'],
    othersGet: 404,
  },
  { prefix: '/api/users/:id/role', id: (x) => x.users.buyer.id, owners: ['buyer'], othersGet: 403 },
  { prefix: '/api/users/:id', id: (x) => x.users.buyer.id, owners: [] },
  // Moderation changes a user who is none of the actors, so the matrix's own sessions stay open.
  { prefix: '/api/admin/users/:id/suspend', id: (x) => x.bystanderId, owners: [] },
  { prefix: '/api/admin/users/:id/restore', id: (x) => x.bystanderId, owners: [] },
  { prefix: '/api/admin/users/:id/roles', id: (x) => x.bystanderId, owners: [] },
  { prefix: '/api/admin/users/:id', id: (x) => x.users.buyer.id, owners: [] },
  { prefix: '/api/admin/products/:id', id: (x) => x.productId, owners: [] },
  { prefix: '/api/admin/drivers/:id', id: (x) => x.users.driver.id, owners: [] },
  // An admin's refund of a finished order; the scene's order is pending, so the admin gets a 409 and nothing
  // moves.
  { prefix: '/api/admin/orders/:id', id: (x) => x.orderId, owners: [] },
  // An admin's retry of a refused payout; the scene has no payout, so the admin gets a 404.
  { prefix: '/api/admin/payouts/:id/retry', id: (x) => x.orderId, owners: [] },
  { prefix: '/api/categories/:id', id: (x) => x.categoryId, owners: [] },
  {
    prefix: '/api/availability/schedules/:id',
    id: (x) => x.scheduleId,
    owners: ['seller'],
    othersGet: 404,
  },
  {
    prefix: '/api/availability/blackouts/:id',
    id: (x) => x.blackoutId,
    owners: ['seller'],
    othersGet: 404,
  },
  { prefix: '/api/availability/slots/:sellerId', id: (x) => x.users.seller.id, owners: [] },
  { prefix: '/api/objects/local/uploads/:id', id: (x) => x.uploadId, owners: [] },
  { prefix: '/objects/uploads/:id', id: (x) => x.uploadId, owners: ['buyer'], othersGet: 404 },
  // A payout account's pages are its own user's (docs/rules/money.md, Payout accounts). Reading
  // the onboarding page without its token is a 400 for anyone, so only the other calls are asserted.
  {
    prefix: '/api/payouts/test-accounts/:accountId/onboarding',
    methods: ['GET'],
    id: (x) => x.payoutAccountId,
    owners: ['seller'],
  },
  {
    prefix: '/api/payouts/test-accounts/:accountId',
    id: (x) => x.payoutAccountId,
    owners: ['seller'],
    othersGet: 404,
  },
];

function targetOf(url: string, method: string): PathTarget | undefined {
  if (!url.includes(':')) return undefined;
  return PATH_TARGETS.find(
    (target) =>
      (url === target.prefix || url.startsWith(`${target.prefix}/`)) &&
      (!target.methods || target.methods.includes(method)),
  );
}

/** A body that passes the route's schema, so that the access rules, not validation, decide. */
const SAMPLE_BODIES: Record<string, (x: Scene) => unknown> = {
  'POST /api/login': () => ({ email: 'nobody@example.com', password: 'wrong password' }),
  'POST /api/signup': () => ({
    email: `new-${crypto.randomBytes(4).toString('hex')}@example.com`,
    password: 'a long enough password',
    firstName: 'New',
    lastName: 'Person',
  }),
  'POST /api/forgot-password': () => ({ email: 'nobody@example.com' }),
  'POST /api/resend-verification': () => ({ email: 'nobody@example.com' }),
  // A link that was never sent: 400, "This link has expired or was already used."
  'POST /api/reset-password': () => ({ token: 'A'.repeat(43), password: 'a long enough password' }),
  // A wrong current password (400): the actors keep theirs for the routes after it.
  'POST /api/auth/password': () => ({
    currentPassword: 'not the password',
    newPassword: 'a new long password',
  }),
  // Two-factor sign-in (docs/decisions/0024-two-factor-sign-in.md): the actors never turn it on, so
  // these are 409s (nothing to confirm, nothing to turn off) and a code step with no password step (401).
  'POST /api/auth/two-factor/enable': () => ({ code: '000000' }),
  'POST /api/auth/two-factor/disable': () => ({ password: 'not the password' }),
  'POST /api/login/two-factor': () => ({ code: '000000' }),
  'PATCH /api/auth/user': () => ({ firstName: 'Renamed', lastName: 'Person' }),
  'POST /api/auth/user/roles': () => ({ role: 'driver' }),
  'PATCH /api/auth/user/email-preferences': () => ({ offerAlerts: true }),
  'PATCH /api/users/:id/role': () => ({ role: 'buyer' }),
  'PATCH /api/admin/users/:id/role': () => ({ role: 'buyer' }),
  // Shown (not hidden): the scene's product stays on sale for the routes after it.
  'PATCH /api/admin/products/:id/visibility': () => ({ hidden: false }),
  'POST /api/contact': () => ({
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    subject: 'A question',
    message: 'When do you deliver on Sundays?',
  }),
  'POST /api/addresses': () => ({
    addressLine1: '2 Elm St',
    city: 'Springfield',
    state: 'IL',
    zipCode: '62701',
  }),
  'POST /api/addresses/validate': () => ({
    addressLine1: '2 Elm St',
    city: 'Springfield',
    state: 'IL',
    zipCode: '62701',
  }),
  'PATCH /api/addresses/:id': () => ({ city: 'Springfield' }),
  'POST /api/availability/schedules': () => ({ dayOfWeek: 2, startTime: '09:00', endTime: '17:00' }),
  'POST /api/availability/blackouts': () => ({ startDate: '2031-01-01', endDate: '2031-01-02' }),
  'POST /api/checkout/quote': (x) => ({
    items: [{ productId: x.productId, quantity: 1 }],
    isPickup: false,
    deliveryAddressId: x.buyerAddressId,
  }),
  'POST /api/payments': (x) => ({
    items: [{ productId: x.productId, quantity: 1 }],
    isPickup: false,
    deliveryAddressId: x.buyerAddressId,
  }),
  'POST /api/payments/:id/confirm': () => SUCCEEDING_CARD,
  'PATCH /api/orders/:id/status': () => ({ status: 'in-transit' }),
  'POST /api/objects/upload': () => ({ contentType: 'image/png', size: 1000 }),
  'PUT /api/users/profile-image': (x) => ({ imageUrl: `/objects/uploads/${x.uploadId}` }),
  'PATCH /api/orders/:id/estimated-time': () => ({
    estimatedDeliveryTime: new Date(Date.now() + 60 * 60 * 1000).toISOString(),
  }),
  'PATCH /api/orders/:id/delivery-photo': (x) => ({ deliveryPhotoUrl: `/objects/uploads/${x.uploadId}` }),
  'POST /api/orders/:id/deliver': (x) => ({
    dropOffPhotoUrl: `/objects/uploads/${x.uploadId}`,
    code: '0000',
  }),
  // The defaults: the admin's save changes nothing.
  'PUT /api/admin/delivery-proof-settings': () => ({
    standardPhoto: true,
    standardCode: false,
    trailerPhoto: true,
    trailerCode: true,
  }),
  'PUT /api/drivers/vehicle-image': (x) => ({ imageUrl: `/objects/uploads/${x.uploadId}` }),
  'PUT /api/drivers/license-image': (x) => ({ imageUrl: `/objects/uploads/${x.uploadId}` }),
  'PUT /api/drivers/trailer-image': (x) => ({ imageUrl: `/objects/uploads/${x.uploadId}` }),
  'POST /api/stripe/webhook': () => ({ id: 'evt_1', type: 'payment_intent.succeeded' }),
  'PUT /api/objects/local/uploads/:id': () => Buffer.from('not really an image'),
  'POST /api/products': () => ({ name: 'Oak Shelf', price: '25.00', category: 'Furniture', stock: 3 }),
  'PATCH /api/products/:id': () => ({ price: '26.00', stock: 4 }),
  'PUT /api/products/:id/image': (x) => ({ imageUrl: `/objects/uploads/${x.uploadId}` }),
  'POST /api/products/:id/images': (x) => ({ imageUrl: `/objects/uploads/${x.uploadId}`, displayOrder: 1 }),
  'PUT /api/products/:id/images': (x) => ({ imageUrls: [`/objects/uploads/${x.uploadId}`] }),
  // The scene's driver has no images: approving is a 409 for the admin, and nothing changes.
  'PATCH /api/admin/drivers/:id/verify': () => ({ isVerified: true }),
  'POST /api/admin/orders/:id/refund': () => ({ reason: 'Refund asked by the route attacks' }),
  // The defaults: the admin's save changes nothing the other routes price with.
  'PATCH /api/admin/commission-settings': () => ({
    baseCommissionRate: '0.1000',
    minCommissionRate: '0.0200',
    salesPriceTierAmount: '500.00',
    salesPriceTierReduction: '0.0100',
    deliveryFeeTierAmount: '200.00',
    deliveryFeeTierReduction: '0.0100',
    loyaltyTierAmount: '1000.00',
    loyaltyTierReduction: '0.0100',
  }),
  'POST /api/categories': () => ({ name: `Attack ${crypto.randomBytes(4).toString('hex')}` }),
  // Conversations and reviews (docs/rules/selling.md, Reviews and messages). The scene's order is
  // pending, so a review of it is refused whoever sends it.
  'POST /api/messages': (x) => ({ orderId: x.orderId, content: 'Is the order on its way?' }),
  'POST /api/product-messages': (x) => ({ productId: x.productId, content: 'Is this still available?' }),
  'POST /api/reviews': (x) => ({
    orderId: x.orderId,
    revieweeId: x.users.seller.id,
    revieweeRole: 'seller',
    reviewerRole: 'buyer',
    rating: 5,
  }),
  'PATCH /api/categories/:id': () => ({ name: `Renamed ${crypto.randomBytes(4).toString('hex')}` }),
  // Payout accounts (docs/rules/money.md, Payout accounts): no token of the scene is valid, so
  // even the owner's choice changes nothing.
  'POST /api/stripe/connect/onboarding-link': () => ({ dashboard: 'seller' }),
  'POST /api/payouts/test-accounts/:accountId/onboarding': () => ({
    token: 'not.a-token',
    outcome: 'complete',
  }),
  // Web Push (docs/decisions/0019-reaching-people.md, Push and the installable app): a device of the
  // caller's own; removing an endpoint is the caller's own subscription only.
  'POST /api/push/subscriptions': () => ({
    endpoint: `https://push.example.invalid/send/${crypto.randomBytes(6).toString('hex')}`,
    keys: {
      p256dh: crypto.createECDH('prime256v1').generateKeys().toString('base64url'),
      auth: crypto.randomBytes(16).toString('base64url'),
    },
  }),
  'DELETE /api/push/subscriptions': () => ({ endpoint: 'https://push.example.invalid/send/none' }),
  'PUT /api/push/preferences': () => ({
    offers: true,
    newOrders: true,
    orderStatus: true,
    arrivalTimes: true,
    messages: true,
    quietStartMinute: null,
    quietEndMinute: null,
  }),
};

/** Calls that end the session they are made with: they get a session of their own each time. */
const ENDS_SESSION = new Set(['GET /api/logout', 'POST /api/logout']);

const keyOf = (route: RouteEntry) => `${route.method} ${route.url}`;

/** Values of the path parameters after the object's id (a picture's copy: docs/decisions/0014-first-load.md). */
const LATER_PATH_VALUES: Record<string, string> = { copy: 'w320', role: 'seller' };

function concretePath(route: RouteEntry): string {
  const target = targetOf(route.url, route.method);
  if (!route.url.includes(':')) return route.url;
  if (!target) throw new Error(`Add a PATH_TARGETS entry for ${keyOf(route)} in route-attacks.test.ts`);
  return route.url
    .replace(/:[A-Za-z]+/, target.id(s))
    .replace(/:([A-Za-z]+)/g, (param, name: string) => LATER_PATH_VALUES[name] ?? param);
}

function requestOf(route: RouteEntry, path = concretePath(route)): InjectOptions {
  const sample = SAMPLE_BODIES[keyOf(route)];
  if (route.hasBody && !sample) throw new Error(`Add a SAMPLE_BODIES entry for ${keyOf(route)}`);
  const payload = sample?.(s);
  const headers: Record<string, string> = Buffer.isBuffer(payload) ? { 'content-type': 'image/png' } : {};
  return {
    method: route.method as InjectOptions['method'],
    url: path,
    headers,
    ...(payload !== undefined ? { payload: payload as InjectOptions['payload'] } : {}),
  };
}

async function rolesOf(actor: ActorName): Promise<Role[]> {
  if (actor === 'visitor') return [];
  const [row] = await t.database.db
    .select({ roles: users.roles })
    .from(users)
    .where(eq(users.id, s.users[actor].id));
  return (row?.roles ?? []) as Role[];
}

async function send(actor: ActorName, route: RouteEntry, options: InjectOptions) {
  if (actor === 'visitor') return t.app.inject(options);
  const user = s.users[actor];
  const cookie = ENDS_SESSION.has(keyOf(route)) ? await signIn(t, user.email, user.password) : user.cookie;
  return as(t, { cookie }, options);
}

/** Keys that never leave the server, and other people's emails (only admins see those). */
function privateLeak(actor: ActorName, response: LightMyRequestResponse): string | undefined {
  const text = response.body;
  for (const key of ['passwordHash', 'password_hash', '"sess"', 'sessionSecret']) {
    if (text.includes(key)) return key;
  }
  if (actor === 'admin') return undefined;
  for (const [name, user] of Object.entries(s.users)) {
    if (name !== actor && text.includes(user.email)) return `${name}'s email`;
  }
  return undefined;
}

function expectErrorFormat(response: LightMyRequestResponse, what: string) {
  if (response.statusCode < 400) return;
  const contentType = String(response.headers['content-type'] ?? '');
  expect(contentType, `${what}: an error answer is JSON`).toContain('application/json');
  const body = response.json<Record<string, unknown>>();
  expect(typeof body.message, `${what}: message`).toBe('string');
  expect(typeof body.code, `${what}: code`).toBe('string');
  expect(body.requestId, `${what}: requestId`).toBe(response.headers['x-request-id']);
}

beforeAll(async () => {
  t = await createTestApp();
  const make = async (roles: Role[], options: { isVerified?: boolean } = {}) => {
    const user = await createUser(t, { roles, ...options });
    return { ...user, cookie: await signIn(t, user.email, user.password) };
  };
  const buyer = await make(['buyer']);
  const otherBuyer = await make(['buyer']);
  const seller = await make(['buyer', 'seller']);
  const otherSeller = await make(['buyer', 'seller']);
  const driver = await make(['buyer', 'driver'], { isVerified: true });
  const admin = await make(['buyer', 'admin']);
  const address = await createAddress(t, buyer.id);
  await createAddress(t, seller.id);
  const product = await createProduct(t, seller.id, { stock: 50 });
  const [order] = await buy(t, buyer, {
    items: [{ productId: product.id, quantity: 1 }],
    isPickup: false,
    deliveryAddressId: address.id,
  });
  const started = await startPayment(t, buyer, {
    items: [{ productId: product.id, quantity: 1 }],
    isPickup: false,
    deliveryAddressId: address.id,
  });
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
    .values({ name: 'Made for the category routes' })
    .returning();
  if (!order || !schedule || !blackout || !category) throw new Error('scene incomplete');
  s = {
    users: { buyer, otherBuyer, seller, otherSeller, driver, admin },
    bystanderId: (await createUser(t, { roles: ['buyer', 'seller'], role: 'seller' })).id,
    buyerAddressId: address.id,
    productId: product.id,
    orderId: order.id,
    paymentId: started.json<PaymentJson>().paymentId,
    scheduleId: schedule.id,
    blackoutId: blackout.id,
    uploadId: crypto.randomUUID(),
    categoryId: category.id,
    payoutAccountId: (
      await new TestPayoutAccounts(t.database.db, { signingKey: crypto.randomBytes(32) }).createAccount({
        userId: seller.id,
        email: seller.email,
      })
    ).accountId,
  };
}, 120_000);

afterAll(async () => {
  await t.close();
});

describe('deny by default', () => {
  it('closes a route that is not declared public to visitors', async () => {
    const app = await createTestApp({
      extend: (instance) => instance.get('/api/forgotten-route', async () => ({ secret: 'anyone?' })),
    });
    try {
      const response = await app.app.inject({ method: 'GET', url: '/api/forgotten-route' });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ message: 'Unauthorized', code: 'unauthorized' });
      expect(response.body).not.toContain('anyone?');
      const user = await createUser(app, { roles: ['buyer'] });
      const cookie = await signIn(app, user.email, user.password);
      const signedIn = await as(app, { cookie }, { method: 'GET', url: '/api/forgotten-route' });
      expect(signedIn.json()).toEqual({ secret: 'anyone?' });
      expect(signedIn.headers['cache-control']).toBe('no-store');
    } finally {
      await app.close();
    }
  });

  it('checks the roles a route declares in one place, before its handler', async () => {
    let reached = 0;
    const app = await createTestApp({
      extend: (instance) =>
        instance.post('/api/drivers-only', { config: { roles: ['driver'] } }, async () => {
          reached += 1;
          return { ok: true };
        }),
    });
    try {
      const buyer = await createUser(app, { roles: ['buyer'] });
      const response = await as(
        app,
        { cookie: await signIn(app, buyer.email, buyer.password) },
        { method: 'POST', url: '/api/drivers-only' },
      );
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe('You need the driver role for this.');
      expect(reached).toBe(0);
    } finally {
      await app.close();
    }
  });
});

describe('the authorization matrix', () => {
  it('answers 401 off the public list, 403 for a missing role, 404 to a non-party, never a 5xx or a private field', async () => {
    const routes = t.app.routeTable;
    expect(routes.length).toBeGreaterThan(40);
    let pairs = 0;
    const failures: string[] = [];
    for (const route of routes) {
      const options = requestOf(route);
      const target = targetOf(route.url, route.method);
      for (const actor of ACTORS) {
        const response = await send(actor, route, options);
        pairs += 1;
        const what = `${actor} ${keyOf(route)} -> ${response.statusCode}`;
        const guarded = route.url.startsWith('/api/') && !route.isPublic;
        const roles = await rolesOf(actor);
        const lacksRole = route.roles !== undefined && !route.roles.some((role) => roles.includes(role));
        let expected: number | undefined;
        if (actor === 'visitor' && guarded) expected = 401;
        else if (actor !== 'visitor' && guarded && lacksRole) expected = 403;
        else if (
          actor !== 'visitor' &&
          target?.othersGet &&
          actor !== 'admin' &&
          !target.owners.includes(actor)
        )
          expected = target.othersGet;
        if (expected !== undefined && response.statusCode !== expected)
          failures.push(`${what}, expected ${expected}`);
        if (response.statusCode >= 500) failures.push(`${what}: a server error`);
        // A wrong password, or a code step without a password step, is a 401 by design; any other
        // public route must not ask for a session.
        const signsIn = keyOf(route) === 'POST /api/login' || keyOf(route) === 'POST /api/login/two-factor';
        if (
          actor === 'visitor' &&
          !guarded &&
          !signsIn &&
          response.statusCode === 401 &&
          route.url.startsWith('/api/')
        )
          failures.push(`${what}: a public route asked a visitor to sign in`);
        const leak = privateLeak(actor, response);
        if (leak) failures.push(`${what}: leaks ${leak}`);
        if (response.statusCode >= 400) expectErrorFormat(response, what);
      }
    }
    console.info(`authorization matrix: ${routes.length} routes × ${ACTORS.length} actors = ${pairs} pairs`);
    expect(failures).toEqual([]);
  }, 300_000);
});

/** Values that break a naive handler, put in each field of a valid body in turn. */
const BAD_VALUES: unknown[] = [
  12345,
  -1,
  1e308,
  true,
  null,
  [],
  {},
  'x'.repeat(100_000),
  'nul\u0000byte',
  'lone \uD800 surrogate',
  '<script>alert(1)</script>',
  "' or 1=1 --",
  '2026-13-45',
];

/** `{"a":{"a":…1…}}` nested `depth` times, as text (JSON.stringify would overflow first). */
function deepNesting(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

function malformedBodies(route: RouteEntry): { label: string; options: Partial<InjectOptions> }[] {
  const sample = SAMPLE_BODIES[keyOf(route)]?.(s);
  const json = (payload: string) => ({ payload, headers: { 'content-type': 'application/json' } });
  const variants: { label: string; options: Partial<InjectOptions> }[] = [
    { label: 'invalid JSON', options: json('{"a": ') },
    { label: 'JSON null', options: json('null') },
    { label: 'a JSON array', options: json('[1,2,3]') },
    { label: 'a JSON string', options: json('"text"') },
    { label: 'an empty object', options: json('{}') },
    { label: 'wrong content type', options: { payload: 'a=1', headers: { 'content-type': 'text/plain' } } },
    {
      label: 'a form body',
      options: { payload: 'a=1&b=%00', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    },
    { label: 'deep nesting', options: json(deepNesting(5000)) },
    { label: 'a body over the limit', options: json(JSON.stringify({ a: 'x'.repeat(1_100_000) })) },
    { label: 'a NUL key', options: json('{"a\\u0000": 1}') },
  ];
  if (sample && typeof sample === 'object' && !Buffer.isBuffer(sample)) {
    const base = sample as Record<string, unknown>;
    variants.push({
      label: 'extra fields',
      options: json(
        JSON.stringify({
          ...base,
          id: 'x',
          sellerId: 'x',
          role: 'admin',
          isVerified: true,
          __proto__: { admin: true },
        }),
      ),
    });
    for (const field of Object.keys(base)) {
      const { [field]: _dropped, ...rest } = base;
      variants.push({ label: `missing ${field}`, options: json(JSON.stringify(rest)) });
      for (const bad of BAD_VALUES) {
        variants.push({
          label: `${field} = ${JSON.stringify(bad).slice(0, 20)}`,
          options: json(JSON.stringify({ ...base, [field]: bad })),
        });
      }
    }
  }
  return variants;
}

const BAD_QUERIES = [
  'search=%00',
  'search=%ED%A0%80',
  'page=-1&limit=abc',
  'limit=99999999999999999999',
  'a[b][c]=1&a[b][c]=2',
  'maxDistance=NaN',
  'category=' + 'x'.repeat(5000),
  'status=%27%20or%201%3D1',
];

const BAD_PATH_VALUES = [
  'not-a-uuid',
  '%00',
  '%ED%A0%80',
  'a'.repeat(150),
  '..%2F..%2Fetc',
  '%E0%A4%A',
  '00000000-0000-0000-0000-000000000000',
];

describe('the fuzz pass', () => {
  it('answers malformed bodies, queries and paths with a 4xx in the error format, never a 5xx', async () => {
    let requests = 0;
    const failures: string[] = [];
    const check = async (actor: ActorName, route: RouteEntry, label: string, options: InjectOptions) => {
      const response = await send(actor, route, options);
      requests += 1;
      const what = `${actor} ${keyOf(route)} with ${label} -> ${response.statusCode}`;
      if (response.statusCode >= 500) failures.push(what);
      else if (response.statusCode >= 400) {
        const contentType = String(response.headers['content-type'] ?? '');
        if (!contentType.includes('application/json')) failures.push(`${what}: not JSON`);
        else {
          const body = response.json<Record<string, unknown>>();
          if (typeof body.message !== 'string' || typeof body.code !== 'string' || !body.requestId)
            failures.push(`${what}: not the error format`);
        }
        if (!response.headers['content-security-policy']) failures.push(`${what}: no security headers`);
      }
    };
    for (const route of t.app.routeTable) {
      const base = requestOf(route);
      for (const actor of ['admin', 'buyer'] as const) {
        if (route.method !== 'GET' && route.method !== 'HEAD') {
          for (const variant of malformedBodies(route)) {
            await check(actor, route, variant.label, { ...base, ...variant.options } as InjectOptions);
          }
        }
        for (const query of BAD_QUERIES) {
          await check(actor, route, `?${query.slice(0, 30)}`, { ...base, url: `${base.url}?${query}` });
        }
        if (route.url.includes(':')) {
          for (const value of BAD_PATH_VALUES) {
            const url = route.url.replace(/:[A-Za-z]+/, value);
            await check(actor, route, `path ${value.slice(0, 20)}`, { ...base, url });
          }
        }
      }
    }
    console.info(`fuzz pass: ${requests} malformed requests over ${t.app.routeTable.length} routes`);
    expect(failures).toEqual([]);
  }, 600_000);
});
