import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * The stored data model: the product's entities, plus what the product rules (docs/product-rules.md) need
 * (granted roles, password credentials, status events, payments, payouts, refunds, driver declines, contact
 * messages, uploaded objects). Money columns are numeric in SQL and integer cents in TypeScript
 * (CONTRIBUTING.md, Code layout rules); conversion happens at the query edge.
 */

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
const money = (name: string) => numeric(name, { precision: 10, scale: 2 });
const rate = (name: string) => numeric(name, { precision: 6, scale: 4 });

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    profileImageUrl: text('profile_image_url'),
    role: text('role').notNull().default('buyer'),
    /**
     * Roles granted to this user; the current `role` is always one of them
     * (docs/rules/accounts.md, Roles and permissions).
     */
    roles: text('roles')
      .array()
      .notNull()
      .default(sql`ARRAY['buyer']::text[]`),
    stripeAccountId: text('stripe_account_id'),
    stripeAccountStatus: text('stripe_account_status'),
    stripeOnboardingComplete: boolean('stripe_onboarding_complete').notNull().default(false),
    /** The payout account's flags as last read from the provider (migration 0007). */
    chargesEnabled: boolean('charges_enabled').notNull().default(false),
    payoutsEnabled: boolean('payouts_enabled').notNull().default(false),
    vehicleImageUrl: text('vehicle_image_url'),
    licenseImageUrl: text('license_image_url'),
    trailerImageUrl: text('trailer_image_url'),
    isVerified: boolean('is_verified').notNull().default(false),
    /**
     * When a verified driver last replaced their vehicle or license image, which sent them back to
     * review (docs/rules/deliveries.md, Deliveries); cleared when an admin approves them again.
     */
    documentsChangedAt: timestamp('documents_changed_at', { withTimezone: true }),
    /**
     * When an admin suspended the user (docs/rules/accounts.md, Moderation): no session, no sign-in,
     * their listings hidden; null while they may use the marketplace.
     */
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    /** Roles an admin took away: the user cannot take them back by themself (self-service). */
    withheldRoles: text('withheld_roles')
      .array()
      .notNull()
      .default(sql`ARRAY[]::text[]`),
    /** OpenID Connect identity (issuer + subject) when the user signs in through OIDC. */
    oidcIssuer: text('oidc_issuer'),
    oidcSubject: text('oidc_subject'),
    /**
     * When the user proved the address by a link mailed to it (docs/rules/accounts.md, Sessions and
     * sign-in; migration 0019); null: a local account that cannot sign in with its password yet.
     */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /**
     * When the user turned on two-factor sign-in (docs/decisions/0024-two-factor-sign-in.md); null
     * while it is off. On the row, so every request's user knows it without another read.
     */
    twoFactorEnabledAt: timestamp('two_factor_enabled_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
    uniqueIndex('users_oidc_identity_unique').on(t.oidcIssuer, t.oidcSubject),
    index('users_role_idx').on(t.role),
    // The admin users list, newest first (docs/rules/known-differences.md, Admin; migration 0004).
    index('users_created_idx').on(t.createdAt.desc().nullsFirst(), t.id),
    // The admin's drivers, in the list's order (docs/decisions/0030-ten-times-the-data.md, The drivers'
    // queue in an index; migration 0036): a page is a walk of its first entries, the total a count of
    // the drivers' entries alone. The expressions are the ones src/server/modules/admin/admin.queries.ts
    // sorts and filters by.
    index('users_drivers_queue_idx')
      .on(
        t.isVerified,
        sql`(${t.vehicleImageUrl} is not null and ${t.licenseImageUrl} is not null) desc`,
        t.documentsChangedAt.desc().nullsLast(),
        t.createdAt.desc().nullsFirst(),
        t.id,
      )
      .where(sql`'driver' = any(${t.roles})`),
    // The admin's searches by email or name, a substring anywhere (docs/rules/known-differences.md, Admin;
    // migration 0026): trigrams, so a search does not read every user. The name's expression is the
    // one src/server/modules/admin/admin.queries.ts searches.
    index('users_email_trgm_idx').using('gin', sql`${t.email} gin_trgm_ops`),
    index('users_name_trgm_idx').using(
      'gin',
      sql`(coalesce(${t.firstName}, '') || ' ' || coalesce(${t.lastName}, '')) gin_trgm_ops`,
    ),
    check('users_role_check', sql`${t.role} in ('buyer','seller','driver','admin')`),
    check(
      'users_roles_check',
      sql`${t.roles} <@ ARRAY['buyer','seller','driver','admin']::text[] and 'buyer' = any(${t.roles})`,
    ),
    check('users_role_granted_check', sql`${t.role} = any(${t.roles})`),
    // A connected account belongs to one user; the Connect webhook finds the user by it (migration 0007).
    uniqueIndex('users_stripe_account_unique')
      .on(t.stripeAccountId)
      .where(sql`${t.stripeAccountId} IS NOT NULL`),
    check(
      'users_stripe_account_status_check',
      sql`${t.stripeAccountStatus} is null or ${t.stripeAccountStatus} in ('active','pending','restricted')`,
    ),
  ],
);

export const passwordCredentials = pgTable('password_credentials', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  passwordHash: text('password_hash').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const sessions = pgTable(
  'sessions',
  {
    sid: text('sid').primaryKey(),
    sess: jsonb('sess').notNull(),
    expire: timestamp('expire', { withTimezone: true }).notNull(),
    /** Kept beside `sess` so a user's sessions can be found and go when the user goes. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [index('sessions_expire_idx').on(t.expire), index('sessions_user_idx').on(t.userId)],
);

export const categories = pgTable(
  'categories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('categories_name_unique').on(sql`lower(${t.name})`),
    check('categories_name_check', sql`length(btrim(${t.name})) > 0`),
  ],
);

/**
 * How many products each category holds, available and not
 * (docs/decisions/0030-ten-times-the-data.md, Counts kept by statement triggers): kept by migration 0026's
 * triggers on products in the same transaction as each insert, delete, or change of category or availability,
 * so the admin's totals, the summary's and the categories' counts read a few rows instead of counting a
 * million.
 */
export const productCounts = pgTable(
  'product_counts',
  {
    category: text('category').notNull(),
    available: boolean('available').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.category, t.available] })],
);

/**
 * The words of each seller's products, as keys (`word_keys`: the trigrams of three ASCII letters or
 * digits inside a word of the lower-cased name), kept by migration 0040's triggers on products in the
 * same transaction as each insert or rename. The nearest-first search passes over a seller whose keys
 * lack one of a word's without reading their products
 * (docs/decisions/0030-ten-times-the-data.md, Sellers passed over). The keys only grow: a superset is
 * always safe (a seller passed over has no product that matches), and two transactions adding to the
 * same seller's keys cannot lose either's.
 */
export const sellerWordKeys = pgTable(
  'seller_word_keys',
  {
    sellerId: uuid('seller_id').primaryKey(),
    keys: text('keys').array().notNull(),
  },
  // The sellers of a word (docs/decisions/0030-ten-times-the-data.md, Sellers passed over).
  (t) => [index('seller_word_keys_keys_idx').using('gin', t.keys)],
);

/**
 * The orders' totals the admin's summary shows, by status (docs/decisions/0027-kept-order-totals.md,
 * What is kept): kept by migration 0032's triggers on orders in the same transaction as each insert,
 * delete, or change of status, platform fee or total, so the summary reads a few rows instead of
 * summing every order. Each status's totals are split over a few rows (`slot`, the writing
 * connection's) so that checkouts placing orders at once do not wait on one row.
 */
export const orderTotals = pgTable(
  'order_totals',
  {
    status: text('status').notNull(),
    slot: integer('slot').notNull(),
    orders: integer('orders').notNull().default(0),
    platformFee: numeric('platform_fee').notNull().default('0'),
    total: numeric('total').notNull().default('0'),
  },
  (t) => [primaryKey({ columns: [t.status, t.slot] })],
);

/**
 * How many users there are (docs/decisions/0030-ten-times-the-data.md, The summary in one read): kept by
 * migration 0036's triggers on users in the same transaction as each insert or delete, split over a few
 * rows (`slot`, the writing connection's) as the orders' totals are, so that sign-ups at once do not wait
 * on one row; the summary and the users list's total sum the slots instead of counting every user.
 */
export const userCounts = pgTable('user_counts', {
  slot: integer('slot').primaryKey(),
  count: integer('count').notNull().default(0),
});

/**
 * The users, products and orders created in each hour (`hour`: whole hours since 1970, UTC), and for
 * orders the platform fees of those not cancelled (docs/decisions/0030-ten-times-the-data.md, The
 * summary in one read): kept by migration 0036's triggers in the same transaction as each insert,
 * delete, or change of creation time (and of an order's status or fee), split over slots as the
 * orders' totals are. The summary's two weeks add up their whole hours and count only the two
 * partial hours at each end.
 */
export const createdCounts = pgTable(
  'created_counts',
  {
    kind: text('kind').notNull(),
    hour: integer('hour').notNull(),
    slot: integer('slot').notNull(),
    count: integer('count').notNull().default(0),
    platformFee: numeric('platform_fee').notNull().default('0'),
  },
  (t) => [primaryKey({ columns: [t.kind, t.hour, t.slot] })],
);

export const products = pgTable(
  'products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    /**
     * The name lower-cased, as a search compares it: `search_name like lower(pattern)` is what
     * `name ilike pattern` computes, without lower-casing every name it tests
     * (docs/decisions/0030-ten-times-the-data.md, Names lower-cased once; migration 0038).
     */
    searchName: text('search_name')
      .notNull()
      .generatedAlwaysAs(sql`lower(name)`),
    description: text('description'),
    price: money('price').notNull(),
    imageUrl: text('image_url'),
    category: text('category').notNull(),
    stock: integer('stock').notNull().default(0),
    available: boolean('available').notNull().default(true),
    /** When an admin hid the product from the catalog (docs/rules/accounts.md, Moderation); null while shown. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    /** The seller may not sell now: their seller role was taken away or they are suspended. */
    sellerHidden: boolean('seller_hidden').notNull().default(false),
    /**
     * On sale: available (not cancelled), not hidden by an admin and its seller may sell. Every
     * catalog list, the catalog's partial indexes and the checkout's stock read this one column
     * (migration 0012).
     */
    onSale: boolean('on_sale')
      .notNull()
      .generatedAlwaysAs(sql`available and hidden_at is null and not seller_hidden`),
    requiresTrailer: boolean('requires_trailer').notNull().default(false),
    sellerDelivery: boolean('seller_delivery').notNull().default(false),
    sellerDeliveryFee: money('seller_delivery_fee'),
    offerPickup: boolean('offer_pickup').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Each lookup of the catalog has its index: a seller's products newest first (the
    // dashboards, and the distance query walking the nearest sellers), the public list newest first,
    // and a category of it; all in the order the lists use (created_at desc, id).
    index('products_seller_created_idx').on(t.sellerId, t.createdAt.desc().nullsFirst(), t.id),
    // The distance query's walk of each near seller's available products, newest first, read in
    // order without a sort (migration 0011; docs/decisions/0015-catalog-and-checkout-throughput.md).
    index('products_available_seller_created_idx')
      .on(t.sellerId, t.createdAt.desc().nullsFirst(), t.id)
      .where(sql`${t.onSale}`),
    // These two and the seller's walk above also carry the lower-cased name (INCLUDE, written by
    // migration 0038; the builder cannot say it): a search filters their entries without reading the table.
    index('products_available_created_idx')
      .on(t.createdAt.desc().nullsFirst(), t.id)
      .where(sql`${t.onSale}`),
    index('products_available_category_created_idx')
      .on(t.category, t.createdAt.desc().nullsFirst(), t.id)
      .where(sql`${t.onSale}`),
    // Search is a substring of the name (docs/rules/catalog-and-orders.md, Catalog and distance): trigrams
    // find a rare word without reading every row. Every product, not only those on sale: the
    // admin's search reads the same index (migration 0026).
    index('products_search_name_trgm_idx').using('gin', sql`${t.searchName} gin_trgm_ops`),
    // A word in a category among the products on sale: each trigram of the name keyed by the
    // category (`category_word_keys`, migration 0039), so a word and a category that seldom or never
    // meet are found from the few entries of that pair, without walking the whole category
    // (docs/decisions/0030-ten-times-the-data.md, A word in a category).
    index('products_on_sale_category_word_keys_idx')
      .using('gin', sql`category_word_keys(${t.category}, ${t.searchName})`)
      .where(sql`${t.onSale}`),
    // Every product newest first, as the admin's list orders them, with the lower-cased name
    // (INCLUDE, written by migration 0038): a search by name picks its page and counts its matches
    // from this index alone (docs/decisions/0030-ten-times-the-data.md, Names lower-cased once).
    index('products_created_idx').on(t.createdAt.desc().nullsFirst(), t.id),
    check('products_stock_check', sql`${t.stock} >= 0`),
    check('products_price_check', sql`${t.price} >= 0`),
    check('products_delivery_fee_check', sql`${t.sellerDeliveryFee} is null or ${t.sellerDeliveryFee} >= 0`),
  ],
);

export const productImages = pgTable(
  'product_images',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    imageUrl: text('image_url').notNull(),
    displayOrder: integer('display_order').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('product_images_product_idx').on(t.productId, t.displayOrder)],
);

export const addresses = pgTable(
  'addresses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addressLine1: text('address_line1').notNull(),
    addressLine2: text('address_line2'),
    city: text('city').notNull(),
    state: text('state').notNull(),
    zipCode: text('zip_code').notNull(),
    country: text('country').notNull().default('US'),
    latitude: numeric('latitude', { precision: 10, scale: 7 }),
    longitude: numeric('longitude', { precision: 10, scale: 7 }),
    isVerified: boolean('is_verified').notNull().default(false),
    isPrimary: boolean('is_primary').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('addresses_user_idx').on(t.userId),
    // Exactly one primary address per user, also under concurrent requests (issue: addresses).
    uniqueIndex('addresses_one_primary_per_user')
      .on(t.userId)
      .where(sql`${t.isPrimary}`),
    // The bounding-box prefilter of the distance query
    // (docs/rules/catalog-and-orders.md, Catalog and distance): primary addresses by place.
    index('addresses_primary_location_idx')
      .on(t.latitude, t.longitude, t.userId)
      .where(sql`${t.isPrimary} and ${t.latitude} is not null and ${t.longitude} is not null`),
    check('addresses_latitude_check', sql`${t.latitude} is null or ${t.latitude} between -90 and 90`),
    check('addresses_longitude_check', sql`${t.longitude} is null or ${t.longitude} between -180 and 180`),
  ],
);

export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => users.id),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => users.id),
    orderNumber: text('order_number').notNull(),
    status: text('status').notNull().default('pending'),
    isPickup: boolean('is_pickup').notNull().default(false),
    sellerDelivery: boolean('seller_delivery').notNull().default(false),
    requiresTrailer: boolean('requires_trailer').notNull().default(false),
    productSubtotal: money('product_subtotal').notNull(),
    deliveryFee: money('delivery_fee').notNull(),
    total: money('total').notNull(),
    deliveryAddress: text('delivery_address').notNull(),
    deliveryAddressId: uuid('delivery_address_id').references(() => addresses.id, { onDelete: 'set null' }),
    deliveryNotes: text('delivery_notes'),
    pickupAddressId: uuid('pickup_address_id').references(() => addresses.id, { onDelete: 'set null' }),
    driverId: uuid('driver_id').references(() => users.id),
    estimatedDeliveryTime: timestamp('estimated_delivery_time', { withTimezone: true }),
    scheduledPickupTime: timestamp('scheduled_pickup_time', { withTimezone: true }),
    paymentIntentId: text('payment_intent_id'),
    paymentId: uuid('payment_id').references(() => payments.id),
    sellerEarnings: money('seller_earnings').notNull(),
    driverEarnings: money('driver_earnings').notNull(),
    purchasePlatformFee: money('purchase_platform_fee').notNull(),
    deliveryPlatformFee: money('delivery_platform_fee').notNull(),
    platformFee: money('platform_fee').notNull(),
    salesCommissionRate: rate('sales_commission_rate').notNull().default('0.1000'),
    deliveryCommissionRate: rate('delivery_commission_rate').notNull().default('0.1000'),
    seller30DaySales: money('seller_30day_sales').notNull().default('0'),
    deliveryPhotoUrl: text('delivery_photo_url'),
    // Proof of delivery (docs/rules/deliveries.md, Deliveries; migration 0021): the code the buyer reads
    // to the driver (never shown to the driver or the seller), wrong tries counted for the lock-out,
    // and what Mark Delivered recorded.
    deliveryCode: text('delivery_code'),
    deliveryCodeConfirmed: boolean('delivery_code_confirmed').notNull().default(false),
    deliveryCodeWrongTries: integer('delivery_code_wrong_tries').notNull().default(0),
    deliveryCodeLockedUntil: timestamp('delivery_code_locked_until', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    dropOffPhotoUrl: text('drop_off_photo_url'),
    dropOffLatitude: numeric('drop_off_latitude', { precision: 10, scale: 7 }),
    dropOffLongitude: numeric('drop_off_longitude', { precision: 10, scale: 7 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('orders_number_unique').on(t.orderNumber),
    index('orders_buyer_idx').on(t.buyerId, t.createdAt),
    index('orders_seller_idx').on(t.sellerId, t.createdAt),
    index('orders_driver_idx').on(t.driverId, t.createdAt),
    index('orders_status_idx').on(t.status, t.createdAt),
    // The orders offered to drivers (docs/rules/deliveries.md, Deliveries; migration 0003).
    index('orders_available_idx')
      .on(t.createdAt, t.id)
      .where(
        sql`${t.status} = 'pending' and ${t.driverId} is null and not ${t.isPickup} and not ${t.sellerDelivery}`,
      ),
    // The same orders by their pickup address: a moved pickup's offers, whose kept places follow it
    // (offer_places, migration 0037). Carries requires_trailer (INCLUDE, migration 0035).
    index('orders_available_pickup_idx')
      .on(t.pickupAddressId, t.createdAt, t.id)
      .where(
        sql`${t.status} = 'pending' and ${t.driverId} is null and not ${t.isPickup} and not ${t.sellerDelivery}`,
      ),
    // The admin orders list, newest first (docs/rules/known-differences.md, Admin; migration 0004).
    // Carries status and platform_fee (INCLUDE, migration 0032): the admin summary's two weeks read
    // the index only (docs/decisions/0027-kept-order-totals.md, The two weeks).
    index('orders_created_idx').on(t.createdAt.desc().nullsFirst(), t.id),
    // The admin's search by order number, a substring anywhere (migration 0026).
    index('orders_number_trgm_idx').using('gin', sql`${t.orderNumber} gin_trgm_ops`),
    index('orders_payment_idx').on(t.paymentId),
    check(
      'orders_status_check',
      sql`${t.status} in ('pending','assigned','in-transit','delivered','ready_for_pickup','completed','cancelled')`,
    ),
    check(
      'orders_money_check',
      sql`${t.productSubtotal} >= 0 and ${t.deliveryFee} >= 0 and ${t.total} = ${t.productSubtotal} + ${t.deliveryFee}`,
    ),
    // The shares always add up to the total, to the cent (docs/rules/money.md, Fees and commission).
    check(
      'orders_shares_check',
      sql`${t.sellerEarnings} + ${t.driverEarnings} + ${t.platformFee} = ${t.total} and ${t.platformFee} = ${t.purchasePlatformFee} + ${t.deliveryPlatformFee}`,
    ),
    check(
      'orders_drop_off_place_check',
      sql`(${t.dropOffLatitude} is null) = (${t.dropOffLongitude} is null) and coalesce(${t.dropOffLatitude}, 0) between -90 and 90 and coalesce(${t.dropOffLongitude}, 0) between -180 and 180`,
    ),
  ],
);

export const orderItems = pgTable(
  'order_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id),
    quantity: integer('quantity').notNull(),
    price: money('price').notNull(),
    /** How many of this item refunds by items gave back, never more than were bought (docs/decisions/0022-money-in-combinations.md; migration 0027). */
    refundedQuantity: integer('refunded_quantity').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('order_items_order_idx').on(t.orderId),
    index('order_items_product_idx').on(t.productId),
    check('order_items_quantity_check', sql`${t.quantity} > 0`),
    check(
      'order_items_refunded_quantity_check',
      sql`${t.refundedQuantity} >= 0 and ${t.refundedQuantity} <= ${t.quantity}`,
    ),
    check('order_items_price_check', sql`${t.price} >= 0`),
  ],
);

/**
 * Every status change with its actor and time (docs/rules/catalog-and-orders.md, Order lifecycle); the
 * timeline reads these.
 */
export const orderStatusEvents = pgTable(
  'order_status_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    actorId: uuid('actor_id').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [index('order_status_events_order_idx').on(t.orderId, t.createdAt)],
);

/**
 * One payment of a checkout; it may pay several orders (one per seller;
 * docs/rules/catalog-and-orders.md, Checkout and orders).
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => users.id),
    provider: text('provider').notNull(),
    providerPaymentId: text('provider_payment_id').notNull(),
    amount: money('amount').notNull(),
    currency: text('currency').notNull().default('usd'),
    status: text('status').notNull().default('requires_payment'),
    /** The checkout as priced by the server, kept so a late success report can still make the orders. */
    checkout: jsonb('checkout').notNull(),
    /** A fingerprint of what was priced: a reload of the payment screen finds the open payment of the same checkout. */
    checkoutKey: text('checkout_key'),
    /** The charge a transfer names as its source_transaction (Stripe: the intent's latest_charge once succeeded). */
    providerChargeId: text('provider_charge_id'),
    /** Given to the PaymentIntent (`payment_<id>`) so the transfers of its orders are grouped with it. */
    transferGroup: text('transfer_group'),
    /** The provider's processing fee of the charge, once it told it (Stripe: its balance transaction's fee); null before. */
    providerFee: money('provider_fee'),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payments_provider_id_unique').on(t.provider, t.providerPaymentId),
    index('payments_buyer_idx').on(t.buyerId, t.createdAt),
    uniqueIndex('payments_open_checkout_unique')
      .on(t.buyerId, t.checkoutKey)
      .where(
        sql`${t.processedAt} IS NULL AND ${t.status} in ('requires_payment','succeeded') AND ${t.checkoutKey} IS NOT NULL`,
      ),
    index('payments_unprocessed_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.processedAt} IS NULL`),
    index('payments_fee_unknown_idx')
      .on(t.processedAt, t.id)
      .where(
        sql`${t.processedAt} IS NOT NULL AND ${t.providerFee} IS NULL AND ${t.providerChargeId} IS NOT NULL`,
      ),
    check(
      'payments_status_check',
      sql`${t.status} in ('requires_payment','succeeded','failed','refunded','partially_refunded','cancelled')`,
    ),
    check('payments_amount_check', sql`${t.amount} >= 0`),
  ],
);

export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id),
    orderId: uuid('order_id').references(() => orders.id),
    amount: money('amount').notNull(),
    reason: text('reason').notNull(),
    providerRefundId: text('provider_refund_id'),
    /** Tracked to its final state from the provider's answers and refund events (docs/decisions/0013-money-movement.md). */
    status: text('status').notNull().default('pending'),
    /** The provider's failure_reason of a failed refund (e.g. `expired_or_canceled_card`). */
    failureReason: text('failure_reason'),
    /** The last error of a call to the provider that did not complete. */
    lastError: text('last_error'),
    attempts: integer('attempts').notNull().default(0),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    /** The items a refund by items gave back ({orderItemId, quantity}), so a failed refund gives them back again (migration 0027). */
    items: jsonb('items').$type<Array<{ orderItemId: string; quantity: number }>>(),
    /** A failed or cancelled refund whose take-back was undone (docs/decisions/0022-money-in-combinations.md). */
    undoneAt: timestamp('undone_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('refunds_payment_idx').on(t.paymentId),
    /** An order may be refunded several times, in parts (migration 0015). */
    index('refunds_order_idx').on(t.orderId),
    uniqueIndex('refunds_provider_id_unique').on(t.providerRefundId),
    index('refunds_unfinished_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.status} in ('pending','requires_action','failed')`),
    check('refunds_amount_check', sql`${t.amount} > 0`),
    check(
      'refunds_status_check',
      sql`${t.status} in ('pending','succeeded','failed','requires_action','canceled')`,
    ),
    check('refunds_attempts_check', sql`${t.attempts} >= 0`),
  ],
);

/**
 * What each seller and driver earned from a finished order, and where its transfer stands
 * (docs/rules/catalog-and-orders.md, Order lifecycle; docs/decisions/0013-money-movement.md, Transfers and
 * the ledger).
 */
export const payouts = pgTable(
  'payouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind').notNull(),
    amount: money('amount').notNull(),
    currency: text('currency').notNull().default('usd'),
    /** owed (account not ready), pending (to transfer), paid, failed, reversed or cancelled (migration 0008). */
    status: text('status').notNull().default('pending'),
    providerTransferId: text('provider_transfer_id'),
    attempts: integer('attempts').notNull().default(0),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    lastError: text('last_error'),
    /** A worker calling the provider holds the payout until then; after it, the retry job may take it. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** A refund of the finished order asked for the money back; the reversal follows. */
    reversalRequestedAt: timestamp('reversal_requested_at', { withTimezone: true }),
    reversalAttempts: integer('reversal_attempts').notNull().default(0),
    providerReversalId: text('provider_reversal_id'),
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
    /** The first call to the provider: its idempotency key is forgotten 24 hours after it (migration 0014). */
    firstAttemptAt: timestamp('first_attempt_at', { withTimezone: true }),
    /** A refused payout is not tried again before then (backoff; migration 0014). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** How many times the provider refused it since it was last asked for. */
    refusals: integer('refusals').notNull().default(0),
    /** A finished order's transfer waits for the return window until then (PAYOUT_HOLD_HOURS; migration 0015). */
    heldUntil: timestamp('held_until', { withTimezone: true }),
    /**
     * Which idempotency key the transfer uses: a refusal proves no transfer was made under the key,
     * and the next attempt takes a new one (docs/decisions/0022-money-in-combinations.md; migration 0027).
     */
    keyGeneration: integer('key_generation').notNull().default(0),
    /** The last attempt's answer was lost: the transfer may exist, so the payout is never reduced (migration 0027). */
    isUncertain: boolean('is_uncertain').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payouts_order_kind_unique').on(t.orderId, t.kind),
    index('payouts_user_idx').on(t.userId, t.createdAt),
    index('payouts_unfinished_idx')
      .on(t.createdAt, t.id)
      .where(
        sql`${t.status} in ('owed','pending') OR (${t.status} = 'paid' AND ${t.reversalRequestedAt} IS NOT NULL)`,
      ),
    check('payouts_kind_check', sql`${t.kind} in ('seller','driver')`),
    check(
      'payouts_status_check',
      sql`${t.status} in ('owed','pending','paid','failed','refused','reversed','cancelled')`,
    ),
    check('payouts_amount_check', sql`${t.amount} >= 0`),
    check('payouts_attempts_check', sql`${t.attempts} >= 0 and ${t.reversalAttempts} >= 0`),
    check('payouts_refusals_check', sql`${t.refusals} >= 0`),
  ],
);

/**
 * What a refund (or a lost dispute) takes back from one payout (docs/decisions/0018-money-against-stripe.md,
 * Refunds; migration 0015): `cancelled` when the payout had not gone out and was reduced instead,
 * `pending` until the transfer's reversal is made, `reversed`, or `unrecovered` when the provider
 * refused it and the platform bears the loss. When its refund fails it is undone
 * (docs/decisions/0022-money-in-combinations.md, A refund that fails; migration 0027): `void` when no
 * money had moved (the reduction given back, the reversal never made, the loss cancelled),
 * `restoring` while the reversed share is transferred back, then `restored`; `refused` when the
 * provider refused to transfer it back five times in a row, until an admin sends it again
 * (docs/decisions/0022-money-in-combinations.md, Transfers and their keys; migration 0028).
 */
export const payoutReversals = pgTable(
  'payout_reversals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    payoutId: uuid('payout_id')
      .notNull()
      .references(() => payouts.id),
    refundId: uuid('refund_id').references(() => refunds.id),
    disputeId: uuid('dispute_id'),
    amount: money('amount').notNull(),
    status: text('status').notNull().default('pending'),
    providerReversalId: text('provider_reversal_id'),
    /** The transfer the reversal takes from: the payout's own (null) or one that gave a share back (migration 0027). */
    providerTransferId: text('provider_transfer_id'),
    /** The transfer that gave this share back after its refund failed (`restored`; migration 0027). */
    restoreTransferId: text('restore_transfer_id'),
    /** Refusals in a row of the transfer giving the share back; the next try takes a new key (migration 0028). */
    refusals: integer('refusals').notNull().default(0),
    /** Which key gives the share back: `restore-<id>`, then `restore-<id>-g<n>` after each refusal (migration 0028). */
    keyGeneration: integer('key_generation').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    firstAttemptAt: timestamp('first_attempt_at', { withTimezone: true }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    lastError: text('last_error'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('payout_reversals_payout_idx').on(t.payoutId),
    uniqueIndex('payout_reversals_refund_unique')
      .on(t.payoutId, t.refundId)
      .where(sql`${t.refundId} IS NOT NULL`),
    uniqueIndex('payout_reversals_dispute_unique')
      .on(t.payoutId, t.disputeId)
      .where(sql`${t.disputeId} IS NOT NULL`),
    index('payout_reversals_pending_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.status} = 'pending'`),
    check(
      'payout_reversals_status_check',
      sql`${t.status} in ('pending','reversed','unrecovered','cancelled','void','restoring','restored','refused')`,
    ),
    check('payout_reversals_amount_check', sql`${t.amount} > 0`),
    check('payout_reversals_attempts_check', sql`${t.attempts} >= 0`),
  ],
);

/**
 * Every movement of money (docs/decisions/0013-money-movement.md, Transfers and the ledger):
 * append-only (a trigger refuses UPDATE and DELETE), one row per `entry_key` so a retry never
 * writes a movement twice.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    entryKey: text('entry_key').notNull(),
    kind: text('kind').notNull(),
    amount: money('amount').notNull(),
    currency: text('currency').notNull().default('usd'),
    paymentId: uuid('payment_id').references(() => payments.id),
    orderId: uuid('order_id').references(() => orders.id),
    userId: uuid('user_id').references(() => users.id),
    refundId: uuid('refund_id'),
    payoutId: uuid('payout_id'),
    disputeId: uuid('dispute_id'),
    providerReference: text('provider_reference'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_entries_key_unique').on(t.entryKey),
    index('ledger_entries_order_idx').on(t.orderId),
    index('ledger_entries_payment_idx').on(t.paymentId),
    index('ledger_entries_user_idx').on(t.userId, t.createdAt),
    // The admin summary's revenue nets the fees given back (migration 0026): these rows only.
    index('ledger_entries_fee_refund_idx')
      .on(t.orderId)
      .where(sql`${t.kind} = 'platform_fee_refund'`),
    index('ledger_entries_fee_restored_idx')
      .on(t.orderId)
      .where(sql`${t.kind} = 'platform_fee_restored'`),
    check(
      'ledger_entries_kind_check',
      sql`${t.kind} in ('charge','refund','transfer','reversal','platform_fee','platform_fee_refund','provider_fee','dispute','dispute_fee','dispute_reinstated','dispute_fee_reinstated','reversal_loss','refund_failure','platform_fee_restored','loss_cancelled','dispute_loss','restore_transfer')`,
    ),
    check('ledger_entries_amount_check', sql`${t.amount} > 0`),
  ],
);

/**
 * A chargeback on a payment (docs/decisions/0018-money-against-stripe.md, Disputes): Stripe's dispute
 * with its status, evidence deadline, and the amount and fee it withdrew (migration 0014).
 */
export const disputes = pgTable(
  'disputes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id),
    provider: text('provider').notNull(),
    providerDisputeId: text('provider_dispute_id').notNull(),
    providerChargeId: text('provider_charge_id'),
    amount: money('amount').notNull(),
    currency: text('currency').notNull().default('usd'),
    fee: money('fee').notNull().default('0'),
    reason: text('reason').notNull(),
    status: text('status').notNull(),
    evidenceDueBy: timestamp('evidence_due_by', { withTimezone: true }),
    fundsWithdrawnAt: timestamp('funds_withdrawn_at', { withTimezone: true }),
    fundsReinstatedAt: timestamp('funds_reinstated_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** A lost dispute's share taken back from sellers and drivers (as a refund would), once. */
    outcomeHandledAt: timestamp('outcome_handled_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('disputes_provider_id_unique').on(t.provider, t.providerDisputeId),
    index('disputes_payment_idx').on(t.paymentId),
    index('disputes_open_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.closedAt} IS NULL`),
    check(
      'disputes_status_check',
      sql`${t.status} in ('warning_needs_response','warning_under_review','warning_closed','needs_response','under_review','won','lost','prevented')`,
    ),
    check('disputes_amount_check', sql`${t.amount} > 0 and ${t.fee} >= 0`),
  ],
);

/**
 * One order's part of a lost dispute (docs/decisions/0022-money-in-combinations.md, A lost dispute;
 * migration 0027): the lost amount split over the payment's orders by what was left of each. A
 * finished order gives its part back at once (`taken_back_at`); an unfinished one when it finishes.
 */
export const disputeParts = pgTable(
  'dispute_parts',
  {
    disputeId: uuid('dispute_id')
      .notNull()
      .references(() => disputes.id),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    amount: money('amount').notNull(),
    takenBackAt: timestamp('taken_back_at', { withTimezone: true }),
    /** The prevented dispute's refund failed: the part no longer counts and what it took is given back (migration 0031). */
    undoneAt: timestamp('undone_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.disputeId, t.orderId] }),
    index('dispute_parts_order_idx').on(t.orderId),
    check('dispute_parts_amount_check', sql`${t.amount} > 0`),
  ],
);

/** The built-in payout provider's transfers and reversals, one per idempotency key (migration 0008). */
export const testTransfers = pgTable(
  'test_transfers',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    /** The transfer a reversal takes back. */
    transferId: text('transfer_id'),
    destinationAccountId: text('destination_account_id'),
    amount: money('amount').notNull(),
    currency: text('currency').notNull(),
    sourceChargeId: text('source_charge_id'),
    transferGroup: text('transfer_group'),
    metadata: jsonb('metadata').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('test_transfers_key_unique').on(t.kind, t.idempotencyKey),
    index('test_transfers_group_idx').on(t.transferGroup),
    check('test_transfers_kind_check', sql`${t.kind} in ('transfer','reversal')`),
    check('test_transfers_amount_check', sql`${t.amount} > 0`),
  ],
);

/** A driver's "Decline" hides that order from that driver only (docs/rules/catalog-and-orders.md, Order lifecycle). */
export const driverDeclines = pgTable(
  'driver_declines',
  {
    driverId: uuid('driver_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.driverId, t.orderId] })],
);

/**
 * The pickup place of every order offered to drivers whose pickup address has one
 * (docs/decisions/0030-ten-times-the-data.md, Offers by their own place): kept by migration 0037's
 * triggers on orders and addresses in the same transaction as the order's placing, every change that
 * makes it an offer or not (status, driver, how it is delivered, its pickup address, the trailer) and
 * every move of its pickup address, so a driver's offers, nearest pickup first, are read ring by ring
 * from the offers' own places instead of from every placed address.
 */
export const offerPlaces = pgTable(
  'offer_places',
  {
    orderId: uuid('order_id')
      .primaryKey()
      .references(() => orders.id, { onDelete: 'cascade' }),
    latitude: numeric('latitude', { precision: 10, scale: 7 }).notNull(),
    longitude: numeric('longitude', { precision: 10, scale: 7 }).notNull(),
    /** The order's creation time, its place in the offers' order after the distance. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    requiresTrailer: boolean('requires_trailer').notNull(),
  },
  (t) => [
    // A ring is read from the index alone: carries requires_trailer (INCLUDE, migration 0037).
    index('offer_places_location_idx').on(t.latitude, t.longitude, t.createdAt, t.orderId),
  ],
);

export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    senderId: uuid('sender_id')
      .notNull()
      .references(() => users.id),
    content: text('content').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('messages_order_idx').on(t.orderId, t.createdAt),
    check('messages_content_check', sql`length(btrim(${t.content})) > 0`),
    // At most 2,000 characters (docs/rules/selling.md, Reviews and messages; migration 0005).
    check('messages_content_length_check', sql`length(${t.content}) <= 2000`),
  ],
);

export const productMessages = pgTable(
  'product_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => users.id),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => users.id),
    senderId: uuid('sender_id')
      .notNull()
      .references(() => users.id),
    content: text('content').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('product_messages_thread_idx').on(t.productId, t.buyerId, t.createdAt),
    index('product_messages_seller_idx').on(t.sellerId, t.createdAt),
    // A buyer's conversations, for the unread counts (migration 0005).
    index('product_messages_buyer_idx').on(t.buyerId, t.createdAt),
    check('product_messages_content_check', sql`length(btrim(${t.content})) > 0`),
    check('product_messages_content_length_check', sql`length(${t.content}) <= 2000`),
  ],
);

export const availabilitySchedules = pgTable(
  'availability_schedules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    dayOfWeek: integer('day_of_week').notNull(),
    startTime: text('start_time').notNull(),
    endTime: text('end_time').notNull(),
    isActive: boolean('is_active').notNull().default(true),
  },
  (t) => [
    // Each day and time range once per user, also when two requests race (migration 0013); it also
    // serves the lookups by user and day the former availability_schedules_user_idx did.
    uniqueIndex('availability_schedules_user_day_times_unique').on(
      t.userId,
      t.dayOfWeek,
      t.startTime,
      t.endTime,
    ),
    check('availability_schedules_day_check', sql`${t.dayOfWeek} between 0 and 6`),
    check('availability_schedules_start_check', sql`${t.startTime} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`),
    check('availability_schedules_end_check', sql`${t.endTime} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`),
  ],
);

export const blackoutDates = pgTable(
  'blackout_dates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startDate: text('start_date').notNull(),
    endDate: text('end_date').notNull(),
    reason: text('reason'),
  },
  (t) => [
    index('blackout_dates_user_idx').on(t.userId, t.startDate),
    check('blackout_dates_order_check', sql`${t.startDate} <= ${t.endDate}`),
  ],
);

export const reviews = pgTable(
  'reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    reviewerId: uuid('reviewer_id')
      .notNull()
      .references(() => users.id),
    revieweeId: uuid('reviewee_id')
      .notNull()
      .references(() => users.id),
    reviewerRole: text('reviewer_role').notNull(),
    revieweeRole: text('reviewee_role').notNull(),
    rating: integer('rating').notNull(),
    comment: text('comment'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('reviews_once_per_pair').on(t.orderId, t.reviewerId, t.revieweeId),
    index('reviews_reviewee_idx').on(t.revieweeId, t.createdAt),
    check('reviews_rating_check', sql`${t.rating} between 1 and 5`),
    check('reviews_not_self_check', sql`${t.reviewerId} <> ${t.revieweeId}`),
  ],
);

export const commissionSettings = pgTable(
  'commission_settings',
  {
    id: integer('id').primaryKey().default(1),
    baseCommissionRate: rate('base_commission_rate').notNull().default('0.1000'),
    minCommissionRate: rate('min_commission_rate').notNull().default('0.0200'),
    salesPriceTierAmount: money('sales_price_tier_amount').notNull().default('500.00'),
    salesPriceTierReduction: rate('sales_price_tier_reduction').notNull().default('0.0100'),
    deliveryFeeTierAmount: money('delivery_fee_tier_amount').notNull().default('200.00'),
    deliveryFeeTierReduction: rate('delivery_fee_tier_reduction').notNull().default('0.0100'),
    loyaltyTierAmount: money('loyalty_tier_amount').notNull().default('1000.00'),
    loyaltyTierReduction: rate('loyalty_tier_reduction').notNull().default('0.0100'),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One row of settings for the whole marketplace.
    check('commission_settings_singleton', sql`${t.id} = 1`),
    check(
      'commission_settings_rates_check',
      sql`${t.baseCommissionRate} between 0 and 1 and ${t.minCommissionRate} between 0 and 1 and ${t.minCommissionRate} <= ${t.baseCommissionRate}`,
    ),
  ],
);

/** Contact form messages (docs/rules/screens-buyer.md, Account pages); mail adapter also logs or sends them. */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('contact_messages_created_idx').on(t.createdAt)],
);

/**
 * Files uploaded through presigned URLs, with who owns them and who may read them
 * (docs/rules/selling.md, Uploads and who sees a file).
 */
export const uploadedObjects = pgTable(
  'uploaded_objects',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    key: text('key').notNull(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    contentType: text('content_type'),
    size: integer('size'),
    /** pending until claimed; then public, owner (owner and admins) or order (the order's parties). */
    visibility: text('visibility').notNull().default('pending'),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('uploaded_objects_key_unique').on(t.key),
    index('uploaded_objects_owner_idx').on(t.ownerId),
    check('uploaded_objects_visibility_check', sql`${t.visibility} in ('pending','public','owner','order')`),
    check('uploaded_objects_size_check', sql`${t.size} is null or (${t.size} > 0 and ${t.size} <= 10485760)`),
  ],
);

/**
 * The audit trail of admin actions (docs/rules/known-differences.md, Admin): who did what to which row, the
 * state before and after, and when. Rows are only ever added. The actor is kept (no cascade): a
 * record must not vanish with a user.
 */
export const adminActions = pgTable(
  'admin_actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actorId: uuid('actor_id')
      .notNull()
      .references(() => users.id),
    action: text('action').notNull(),
    /** user, category, commission_settings or order. */
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    /** What the row was called at the time (an email, a category name, an order number). */
    targetLabel: text('target_label').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: createdAt(),
  },
  (t) => [
    index('admin_actions_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('admin_actions_target_idx').on(t.targetType, t.targetId, t.createdAt.desc().nullsFirst()),
    check(
      'admin_actions_action_check',
      sql`${t.action} in ('user.role_changed','driver.approved','driver.rejected','driver.revoked','category.created','category.renamed','category.deleted','commission.updated','order.cancelled','order.refunded','user.role_removed','user.suspended','user.restored','product.hidden','product.restored','payout.retried','delivery_proof.updated','driver.documents_changed','user.password_reset','two_factor.enabled','two_factor.disabled','two_factor.recovery_code_used')`,
    ),
  ],
);

/**
 * How far a party has read an order's conversation: messages after `readAt` by someone else are
 * unread (docs/rules/selling.md, Reviews and messages; migration 0005).
 */
export const orderMessageReads = pgTable(
  'order_message_reads',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ name: 'order_message_reads_pk', columns: [t.userId, t.orderId] })],
);

/** How far the buyer or the seller has read one product conversation (migration 0005). */
export const productMessageReads = pgTable(
  'product_message_reads',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ name: 'product_message_reads_pk', columns: [t.userId, t.productId, t.buyerId] })],
);

/**
 * The events of GET /api/events (docs/rules/live-updates.md, Live updates): who may receive each one
 * (`audience` user ids, and verified drivers when `forDrivers`, with a trailer image when
 * `trailerOnly`) and what it says. Kept an hour for a browser that reconnects with Last-Event-ID;
 * every app instance hears new rows through NOTIFY "live_events" (migration 0005).
 */
export const liveEvents = pgTable(
  'live_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    type: text('type').notNull(),
    audience: uuid('audience')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    forDrivers: boolean('for_drivers').notNull().default(false),
    trailerOnly: boolean('trailer_only').notNull().default(false),
    data: jsonb('data').notNull(),
    createdAt: createdAt(),
    /** When the notifications dispatcher turned it into mail and push (migration 0017); null until then. */
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
  },
  (t) => [
    index('live_events_created_idx').on(t.createdAt),
    index('live_events_undispatched_idx')
      .on(t.id)
      .where(sql`${t.dispatchedAt} is null`),
  ],
);

/**
 * Mail and push waiting to leave, and what became of them (docs/decisions/0019-reaching-people.md):
 * written in the transaction of the change that causes them, sent by a timer with retries, never
 * inside a request. The admin's Mail tab reads the mail rows.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    channel: text('channel').notNull(),
    /** What it says, e.g. `password_reset`, `order_status` (names the template; shown to the admin). */
    kind: text('kind').notNull(),
    /** Whom it is for, when it is for a user (a contact message to support is not). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    payload: jsonb('payload').notNull(),
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** A sender that claimed it holds it until then; after that another may try. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    check('outbox_channel_check', sql`${t.channel} in ('mail','push','account')`),
    check('outbox_status_check', sql`${t.status} in ('queued','sent','failed','dropped')`),
    index('outbox_due_idx')
      .on(t.nextAttemptAt, t.id)
      .where(sql`${t.status} = 'queued'`),
    index('outbox_channel_created_idx').on(t.channel, t.createdAt),
  ],
);

/**
 * The built-in payout provider's simulated connected accounts (docs/rules/money.md, Payout
 * accounts): one per user, in the state its onboarding page of this server left it (migration 0007).
 */
export const testPayoutAccounts = pgTable(
  'test_payout_accounts',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    state: text('state').notNull().default('incomplete'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('test_payout_accounts_user_unique').on(t.userId),
    check('test_payout_accounts_state_check', sql`${t.state} in ('incomplete','complete','restricted')`),
  ],
);

/**
 * A browser's Web Push subscription (docs/decisions/0019-reaching-people.md, Push and the
 * installable app): one per device, its endpoint unique, removed when its user turns push off on
 * that device or the push service answers 404 or 410 for it (migration 0020).
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    /** The browser's P-256 public key and auth secret, base64url, as PushSubscription.toJSON() gives them. */
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    /** "Chrome on Android": shown to the user, from the browser's user agent. */
    deviceLabel: text('device_label').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_unique').on(t.endpoint),
    index('push_subscriptions_user_idx').on(t.userId),
  ],
);

/**
 * Which kinds of push a user wants and their quiet hours (minutes of the day in the marketplace time
 * zone; both null: none). No row means every kind on and no quiet hours (migration 0020).
 */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    offers: boolean('offers').notNull().default(true),
    newOrders: boolean('new_orders').notNull().default(true),
    orderStatus: boolean('order_status').notNull().default(true),
    arrivalTimes: boolean('arrival_times').notNull().default(true),
    messages: boolean('messages').notNull().default(true),
    quietStartMinute: integer('quiet_start_minute'),
    quietEndMinute: integer('quiet_end_minute'),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      'notification_preferences_quiet_check',
      sql`(${t.quietStartMinute} is null) = (${t.quietEndMinute} is null) and coalesce(${t.quietStartMinute}, 0) between 0 and 1439 and coalesce(${t.quietEndMinute}, 0) between 0 and 1439`,
    ),
  ],
);

/**
 * A user's mail switches (docs/decisions/0019-reaching-people.md, Mail; migration 0018): a driver's
 * "new delivery offers near me" mail, off until the driver turns it on. No row means every switch off.
 */
export const emailPreferences = pgTable(
  'email_preferences',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    offerAlerts: boolean('offer_alerts').notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('email_preferences_offer_alerts_idx')
      .on(t.userId)
      .where(sql`${t.offerAlerts} = true`),
  ],
);

/**
 * Single-use links mailed for a password reset or an email verification
 * (docs/decisions/0019-reaching-people.md, Accounts; migration 0019). Only the sha256 of the token is
 * stored; the token itself is only in the mail.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('account_tokens_token_hash_unique').on(t.tokenHash),
    index('account_tokens_user_idx').on(t.userId),
    check('account_tokens_purpose_check', sql`${t.purpose} in ('reset','verify')`),
  ],
);

/**
 * A user's authenticator secret (docs/decisions/0024-two-factor-sign-in.md), encrypted with a key
 * derived from the session secret. It exists from the start of the setup; it counts once
 * `users.two_factor_enabled_at` is set. `last_used_step` is the TOTP time step of the newest code
 * taken, so a code is never taken twice.
 */
export const twoFactorSecrets = pgTable('two_factor_secrets', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretEncrypted: text('secret_encrypted').notNull(),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }).notNull().default(0),
  createdAt: createdAt(),
});

/** One-time recovery codes of two-factor sign-in: only their sha256 is kept. */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('two_factor_recovery_codes_user_code_unique').on(t.userId, t.codeHash)],
);

/**
 * Which proof Mark Delivered needs, for standard and for trailer orders (docs/rules/deliveries.md,
 * Deliveries; Admin; migration 0021). One row; no row means the defaults.
 */
export const deliveryProofSettings = pgTable(
  'delivery_proof_settings',
  {
    id: integer('id').primaryKey().default(1),
    standardPhoto: boolean('standard_photo').notNull().default(true),
    standardCode: boolean('standard_code').notNull().default(false),
    trailerPhoto: boolean('trailer_photo').notNull().default(true),
    trailerCode: boolean('trailer_code').notNull().default(true),
    updatedAt: updatedAt(),
  },
  (t) => [check('delivery_proof_settings_singleton', sql`${t.id} = 1`)],
);

/**
 * The rate limits' counts, shared by every app instance on this database
 * (docs/decisions/0003-rate-limits.md, Counted in the database; migration 0023): one row per limiter
 * and key (`sign-in-ip:<sha256 of the address>`), its window starting at the key's first hit.
 * Expired rows are deleted in small batches as hits arrive.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    key: text('key').primaryKey(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_hits_expires_idx').on(t.expiresAt)],
);
