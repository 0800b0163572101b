import { z } from 'zod';
import { OPTIONAL_CALENDAR_DATE_PATTERN, isCalendarDate } from './availability';
import { moneyStringSchema } from './catalog';
import { formatRate, parseCents, parseRate } from './money';
import { isClosed, orderStatusSchema, ORDER_STATUSES, type OrderStatus } from './order-status';
import { payoutAccountStatusSchema } from './payout-accounts';
import { ROLES, roleSchema } from './roles';
import { addDays, wallTimeToInstant } from './slots';
import { trendSchema } from './trends';
import { visibleText } from './visible-text-schema';

/**
 * The admin area (docs/rules/known-differences.md, Admin): its lists, the summary figures, driver
 * verification, categories, the commission form and the audit trail. Schemas of requests and
 * answers, shared by the server and the dashboard.
 */

/** Every admin list shows 10 rows a page (docs/rules/known-differences.md, Admin). */
export const ADMIN_PAGE_SIZE = 10;

const pageSchema = z.coerce
  .number({ message: 'Must be a page number' })
  .int('Must be a whole page number')
  .min(1, 'Pages start at 1')
  .max(100_000, 'Must be at most 100000')
  .default(1);

const searchSchema = z.string().trim().max(200, 'Search is too long').optional();

/** One page of a list, with the total so the pager can show "Page X of Y". */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    /** Rows matching the filters, over all pages. */
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
    /** ceil(total / pageSize); 0 when nothing matches. */
    pageCount: z.number().int(),
    /**
     * True when a search matched more rows than were counted: `total` and `pageCount` are then at
     * least what they say ("Page 1 of 100+"; docs/rules/known-differences.md, Admin).
     */
    totalIsLowerBound: z.boolean(),
  });
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
  totalIsLowerBound: boolean;
}

/** The rows to skip for a page (pages start at 1). */
export function offsetOf(page: number, pageSize = ADMIN_PAGE_SIZE): number {
  return (page - 1) * pageSize;
}

export function pageCountOf(total: number, pageSize = ADMIN_PAGE_SIZE): number {
  return Math.ceil(total / pageSize);
}

// Users

export const ROLE_FILTERS = ['all', ...ROLES] as const;

/** GET /api/admin/users: search by name or email, filter by a granted role. */
export const adminUsersQuerySchema = z.strictObject({
  search: searchSchema,
  role: z.enum(ROLE_FILTERS).default('all'),
  page: pageSchema,
});
export type AdminUsersQuery = z.infer<typeof adminUsersQuerySchema>;

export const adminUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  /** The current role (what the user's header shows). */
  role: roleSchema,
  /** Every granted role. */
  roles: z.array(roleSchema),
  isVerified: z.boolean(),
  /** When an admin suspended the user; null while they may use the marketplace (product rules, Moderation). */
  suspendedAt: z.string().nullable(),
  /** Roles an admin took away, which the user cannot take back by themself. */
  withheldRoles: z.array(roleSchema),
  createdAt: z.string(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;
export const adminUserPageSchema = pageOf(adminUserSchema);

// Orders

export const ORDER_STATUS_FILTERS = ['all', ...ORDER_STATUSES] as const;

export const ORDER_DATE_MESSAGE = 'Must be a date like 2026-11-23 (YYYY-MM-DD)';
export const ORDER_DATE_RANGE_MESSAGE = 'Must be on or after the from date';

/** A day of the marketplace calendar, YYYY-MM-DD; empty is no limit. */
const orderDateSchema = z
  .string({ message: ORDER_DATE_MESSAGE })
  .trim()
  .regex(OPTIONAL_CALENDAR_DATE_PATTERN, ORDER_DATE_MESSAGE)
  .optional();

/**
 * The order filters (docs/rules/known-differences.md, Admin): the order number, the status, each party by
 * name or email, and the days it was placed on (both ends included, marketplace time zone).
 */
const orderFilterShape = {
  search: searchSchema,
  status: z.enum(ORDER_STATUS_FILTERS).default('all'),
  buyer: searchSchema,
  seller: searchSchema,
  driver: searchSchema,
  from: orderDateSchema,
  to: orderDateSchema,
};

function refineDateRange(
  query: { from?: string | undefined; to?: string | undefined },
  context: z.RefinementCtx,
) {
  // YYYY-MM-DD strings order like the days they name.
  if (
    query.from &&
    query.to &&
    isCalendarDate(query.from) &&
    isCalendarDate(query.to) &&
    query.to < query.from
  ) {
    context.addIssue({ code: 'custom', path: ['to'], message: ORDER_DATE_RANGE_MESSAGE });
  }
}

/** GET /api/admin/orders: the order filters, 10 a page. */
export const adminOrdersQuerySchema = z
  .strictObject({ ...orderFilterShape, page: pageSchema })
  .superRefine(refineDateRange);
export type AdminOrdersQuery = z.infer<typeof adminOrdersQuerySchema>;

/** GET /api/admin/orders.csv: the same filters, every matching order. */
export const adminOrdersCsvQuerySchema = z.strictObject(orderFilterShape).superRefine(refineDateRange);
export type AdminOrdersCsvQuery = z.infer<typeof adminOrdersCsvQuerySchema>;

/**
 * The instants a range of marketplace days covers: from the first day's midnight, up to (not
 * including) the midnight after the last day, in `timeZone`. A missing end is no limit.
 */
export function orderDateRangeOf(
  range: { from?: string | undefined; to?: string | undefined },
  timeZone: string,
): { from: Date | undefined; before: Date | undefined } {
  return {
    from: range.from ? startOfDay(range.from, timeZone) : undefined,
    before: range.to ? startOfDay(range.to, timeZone, 1) : undefined,
  };
}

function startOfDay(isoDay: string, timeZone: string, daysLater = 0): Date {
  const [year = 0, month = 1, day = 1] = isoDay.split('-').map(Number);
  const date = addDays({ year, month, day }, daysLater);
  // A zone that moves its clocks at midnight skips 00:00 that day; its day then starts at 01:00.
  const instant = wallTimeToInstant(date, 0, timeZone) ?? wallTimeToInstant(date, 60, timeZone);
  return new Date(instant ?? Date.UTC(date.year, date.month - 1, date.day));
}

/** Why an order needs an admin's eye: an order not finished whose party is suspended. */
export const ORDER_FLAGS = ['Buyer suspended', 'Seller suspended', 'Driver suspended'] as const;
export type OrderFlag = (typeof ORDER_FLAGS)[number];

/**
 * The flag of an admin order row (docs/rules/known-differences.md, Admin): for an order not finished, the
 * first of its buyer, seller and driver who is suspended; null otherwise.
 */
export function orderFlagOf(order: {
  status: OrderStatus;
  buyerSuspended: boolean;
  sellerSuspended: boolean;
  driverSuspended: boolean;
}): OrderFlag | null {
  if (isClosed(order.status)) return null;
  if (order.buyerSuspended) return 'Buyer suspended';
  if (order.sellerSuspended) return 'Seller suspended';
  if (order.driverSuspended) return 'Driver suspended';
  return null;
}

/** A row of the admin orders list; the details come from GET /api/orders/{id}. */
export const adminOrderSchema = z.object({
  id: z.string(),
  orderNumber: z.string(),
  status: orderStatusSchema,
  isPickup: z.boolean(),
  sellerDelivery: z.boolean(),
  total: moneyStringSchema,
  platformFee: moneyStringSchema,
  buyerName: z.string(),
  sellerName: z.string(),
  /** "Seller suspended" and the like while the order is not finished; null when nothing needs a look. */
  flag: z.enum(ORDER_FLAGS).nullable(),
  createdAt: z.string(),
});
export type AdminOrder = z.infer<typeof adminOrderSchema>;
export const adminOrderPageSchema = pageOf(adminOrderSchema);

// A user's details

/** The user's orders in one of their parts: how many, and the newest few as admin order rows. */
const adminUserOrdersSchema = z.object({
  count: z.number().int(),
  /** The 10 newest, newest first. */
  latest: z.array(adminOrderSchema),
});

/** How many newest orders the user's details show in each part. */
export const USER_DETAIL_ORDER_COUNT = 10;

/**
 * GET /api/admin/users/{id} (docs/rules/known-differences.md, Admin): the list's row, whether and since when
 * the user is suspended, their driver verification (which documents are on file, not the files), their
 * payout account as stored, how many addresses they keep, and their orders as buyer, seller and driver.
 */
export const adminUserDetailSchema = adminUserSchema.extend({
  /** Whether the user signs in with a second factor (docs/decisions/0024-two-factor-sign-in.md). */
  twoFactorEnabled: z.boolean(),
  driver: z.object({
    isVerified: z.boolean(),
    hasVehicleImage: z.boolean(),
    hasLicenseImage: z.boolean(),
    hasTrailerImage: z.boolean(),
  }),
  payouts: z.object({
    /** null until the user started a payout account. */
    stripeAccountStatus: payoutAccountStatusSchema.nullable(),
    onboardingComplete: z.boolean(),
    payoutsEnabled: z.boolean(),
  }),
  addressCount: z.number().int(),
  orders: z.object({
    asBuyer: adminUserOrdersSchema,
    asSeller: adminUserOrdersSchema,
    asDriver: adminUserOrdersSchema,
  }),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

// Products

/** Active/Inactive by the available flag (docs/rules/known-differences.md, Admin). */
export const PRODUCT_STATUS_FILTERS = ['all', 'active', 'inactive'] as const;
export type ProductStatusFilter = (typeof PRODUCT_STATUS_FILTERS)[number];

/** GET /api/admin/products: search by name, category ("All" is none), Active/Inactive. */
export const adminProductsQuerySchema = z.strictObject({
  search: searchSchema,
  category: z.string().trim().max(100, 'Category is too long').optional(),
  status: z.enum(PRODUCT_STATUS_FILTERS).default('all'),
  page: pageSchema,
});
export type AdminProductsQuery = z.infer<typeof adminProductsQuerySchema>;

export const adminProductSchema = z.object({
  id: z.string(),
  name: z.string(),
  category: z.string(),
  price: moneyStringSchema,
  stock: z.number().int(),
  available: z.boolean(),
  /** An admin hid it from the catalog (docs/rules/accounts.md, Moderation). */
  hidden: z.boolean(),
  /** In the catalog now: available, not hidden, and its seller may sell. */
  onSale: z.boolean(),
  imageUrl: z.string().nullable(),
  sellerId: z.string(),
  sellerName: z.string(),
  createdAt: z.string(),
});
export type AdminProduct = z.infer<typeof adminProductSchema>;
export const adminProductPageSchema = pageOf(adminProductSchema);

// Exports

/** GET /api/admin/users.csv: the users list's filters, every matching user. */
export const adminUsersCsvQuerySchema = adminUsersQuerySchema.omit({ page: true });
export type AdminUsersCsvQuery = z.infer<typeof adminUsersCsvQuerySchema>;

/** GET /api/admin/products.csv: the products list's filters, every matching product. */
export const adminProductsCsvQuerySchema = adminProductsQuerySchema.omit({ page: true });
export type AdminProductsCsvQuery = z.infer<typeof adminProductsCsvQuerySchema>;

// Drivers

export const DRIVER_STATUS_FILTERS = ['all', 'pending', 'verified'] as const;

/** GET /api/admin/drivers: users holding the driver role, pending ones first. */
export const adminDriversQuerySchema = z.strictObject({
  search: searchSchema,
  status: z.enum(DRIVER_STATUS_FILTERS).default('all'),
  page: pageSchema,
});
export type AdminDriversQuery = z.infer<typeof adminDriversQuerySchema>;

export const DRIVER_DECISIONS = ['approved', 'rejected', 'revoked'] as const;
export type DriverDecision = (typeof DRIVER_DECISIONS)[number];

export const adminDriverSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  isVerified: z.boolean(),
  /** `/objects/uploads/<id>`: readable by the driver and admins only. */
  vehicleImageUrl: z.string().nullable(),
  licenseImageUrl: z.string().nullable(),
  trailerImageUrl: z.string().nullable(),
  /**
   * When the driver, once verified, replaced their vehicle or license image and so went back to
   * review; null when approved since (docs/rules/known-differences.md, Admin).
   */
  documentsChangedAt: z.string().nullable(),
  /** The last Approve, Reject or Revoke, from the audit trail; null when no admin decided yet. */
  lastDecision: z
    .object({
      decision: z.enum(DRIVER_DECISIONS),
      at: z.string(),
      adminName: z.string(),
    })
    .nullable(),
  createdAt: z.string(),
});
export type AdminDriver = z.infer<typeof adminDriverSchema>;
export const adminDriverPageSchema = pageOf(adminDriverSchema);

/** PATCH /api/admin/drivers/{id}/verify: Approve (true), Reject or Revoke (false). */
export const verifyDriverBodySchema = z.strictObject({ isVerified: z.boolean() });

/** Approval needs both images (docs/rules/known-differences.md, Admin). */
export const DRIVER_IMAGES_MISSING =
  'A driver needs both a vehicle image and a license image before they can be approved.';

/** What the driver verification card says about a driver. */
export type DriverVerificationStatus =
  'verified' | 'rejected' | 'revoked' | 'awaiting-review' | 'missing-images';

/**
 * Pending until both images exist and an admin approves (docs/rules/known-differences.md, Admin); a driver
 * an admin rejected or revoked says so until the next decision.
 */
export function driverVerificationStatus(
  driver: Pick<AdminDriver, 'isVerified' | 'vehicleImageUrl' | 'licenseImageUrl' | 'lastDecision'>,
): DriverVerificationStatus {
  if (driver.isVerified) return 'verified';
  const decision = driver.lastDecision?.decision;
  if (decision === 'rejected' || decision === 'revoked') return decision;
  if (!driver.vehicleImageUrl || !driver.licenseImageUrl) return 'missing-images';
  return 'awaiting-review';
}

// Summary

/**
 * GET /api/admin/summary: the four cards. Revenue is the platform's fees of paid, not cancelled
 * orders (orders exist only once paid); the gross order value is what buyers paid for them.
 */
export const adminSummarySchema = z.object({
  totalUsers: z.number().int(),
  totalOrders: z.number().int(),
  totalProducts: z.number().int(),
  totalRevenue: moneyStringSchema,
  grossOrderValue: moneyStringSchema,
  /**
   * Each card's "+N% from last week" (docs/rules/screens-work.md, Admin screens): new users, orders placed,
   * products listed and platform fees of orders not cancelled, in the last 7 days against the 7 before.
   */
  trends: z.object({
    users: trendSchema,
    orders: trendSchema,
    products: trendSchema,
    revenue: trendSchema,
  }),
});
export type AdminSummary = z.infer<typeof adminSummarySchema>;

// Categories

/**
 * Names are trimmed and must not be empty (docs/rules/known-differences.md, Admin), once invisible characters
 * are removed (Bad input and failure).
 */
export const categoryNameSchema = visibleText(
  z
    .string({ message: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(100, 'Must be at most 100 characters'),
);

/** GET /api/admin/categories: by name, with how many products use each; search by name. */
export const adminCategoriesQuerySchema = z.strictObject({ search: searchSchema, page: pageSchema });
export type AdminCategoriesQuery = z.infer<typeof adminCategoriesQuerySchema>;

export const adminCategorySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Products of this category, available or not: deleting it is refused while this is above 0. */
  productCount: z.number().int(),
});
export type AdminCategory = z.infer<typeof adminCategorySchema>;
export const adminCategoryPageSchema = pageOf(adminCategorySchema);

/** POST /api/categories and PATCH /api/categories/{id}. */
export const categoryBodySchema = z.strictObject({ name: categoryNameSchema });

// Commission settings

export const RATE_FIELD_MESSAGE = 'Must be a number from 0 to 1 with at most 4 decimals';
export const AMOUNT_FIELD_MESSAGE = 'Must be an amount of at least 0 with at most 2 decimals';
export const MIN_ABOVE_BASE_MESSAGE = 'The minimum rate cannot be above the base rate';

const RATE_PATTERN = /^\d+(\.\d{1,4})?$/;
/** RATE_PATTERN up to 1 (isRateText) as one regular expression, so that JSON Schema carries it. */
export const RATE_TEXT_PATTERN = /^(?:0+(?:\.\d{1,4})?|0*1(?:\.0{1,4})?)$/;
/**
 * An amount from 0 to 99,999,999.99 (what numeric(10,2) holds) with at most 2 decimals: eight digits
 * at most are never above it, so the pattern is the whole rule.
 */
const AMOUNT_PATTERN = /^\d{1,8}(\.\d{1,2})?$/;

/** A fraction from 0 to 1 with at most 4 decimals, as text. */
export function isRateText(text: string): boolean {
  return RATE_PATTERN.test(text) && parseRate(text) <= 10_000;
}

const rateInput = z
  .string({ message: RATE_FIELD_MESSAGE })
  .trim()
  .regex(RATE_TEXT_PATTERN, RATE_FIELD_MESSAGE);
const amountInput = z
  .string({ message: AMOUNT_FIELD_MESSAGE })
  .trim()
  .regex(AMOUNT_PATTERN, AMOUNT_FIELD_MESSAGE);

/**
 * PATCH /api/admin/commission-settings: the eight fields as strings
 * (docs/rules/known-differences.md, Admin): rates and reductions 0 to 1 with up to 4 decimals, amounts at
 * least 0 with up to 2; the minimum rate not above the base rate.
 */
export const commissionSettingsBodySchema = z
  .strictObject({
    baseCommissionRate: rateInput,
    minCommissionRate: rateInput,
    salesPriceTierAmount: amountInput,
    salesPriceTierReduction: rateInput,
    deliveryFeeTierAmount: amountInput,
    deliveryFeeTierReduction: rateInput,
    loyaltyTierAmount: amountInput,
    loyaltyTierReduction: rateInput,
  })
  .superRefine((body, context) => {
    const { minCommissionRate: min, baseCommissionRate: base } = body;
    if (isRateText(min) && isRateText(base) && parseRate(min) > parseRate(base)) {
      context.addIssue({ code: 'custom', path: ['minCommissionRate'], message: MIN_ABOVE_BASE_MESSAGE });
    }
  });
export type CommissionSettingsBody = z.infer<typeof commissionSettingsBodySchema>;

/**
 * The form shows rates as percentages (docs/rules/known-differences.md, Admin): "0.0650" → "6.5". Exact:
 * basis points divided by 100.
 */
export function rateToPercent(rate: string): string {
  const basisPoints = parseRate(rate);
  const whole = Math.floor(basisPoints / 100);
  const fraction = String(basisPoints % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** "6.5" → "0.0650": the percentage divided by 100, with 4 decimals. Throws on a non-number. */
export function percentToRate(percent: string): string {
  // A percentage with 2 decimals is a whole number of basis points: parse it as hundredths.
  const hundredths = parseCents(percent);
  return formatRate(hundredths);
}

// Audit trail

/** Every admin action the audit trail records (docs/rules/known-differences.md, Admin). */
export const ADMIN_ACTIONS = [
  'user.role_changed',
  'driver.approved',
  'driver.rejected',
  'driver.revoked',
  'category.created',
  'category.renamed',
  'category.deleted',
  'commission.updated',
  'order.cancelled',
  'order.refunded',
  'user.role_removed',
  'user.suspended',
  'user.restored',
  'product.hidden',
  'product.restored',
  'payout.retried',
  'delivery_proof.updated',
  'driver.documents_changed',
  'user.password_reset',
  // A user's own steps of two-factor sign-in (docs/decisions/0024-two-factor-sign-in.md).
  'two_factor.enabled',
  'two_factor.disabled',
  'two_factor.recovery_code_used',
] as const;
export const adminActionSchema = z.enum(ADMIN_ACTIONS);
export type AdminActionKind = (typeof ADMIN_ACTIONS)[number];

export const ADMIN_ACTION_LABELS: Record<AdminActionKind, string> = {
  'user.role_changed': 'Changed a role',
  'driver.approved': 'Approved a driver',
  'driver.rejected': 'Rejected a driver',
  'driver.revoked': 'Revoked a driver',
  'category.created': 'Added a category',
  'category.renamed': 'Renamed a category',
  'category.deleted': 'Deleted a category',
  'commission.updated': 'Changed commission settings',
  'order.cancelled': 'Cancelled an order',
  'order.refunded': 'Refunded a finished order',
  'user.role_removed': 'Took a role away',
  'user.suspended': 'Suspended a user',
  'user.restored': 'Restored a user',
  'product.hidden': 'Hid a product',
  'product.restored': 'Showed a product again',
  'payout.retried': 'Retried a payout',
  'delivery_proof.updated': 'Changed proof of delivery',
  'driver.documents_changed': 'Replaced a driver document',
  'user.password_reset': 'Reset their password by a mailed link',
  'two_factor.enabled': 'Turned on two-factor sign-in',
  'two_factor.disabled': 'Turned off two-factor sign-in',
  'two_factor.recovery_code_used': 'Signed in with a recovery code',
};

/** A recorded state: a few named values (a role, a name, the eight settings). */
export const auditStateSchema = z.record(z.string(), z.union([z.string(), z.boolean(), z.array(z.string())]));
export type AuditState = z.infer<typeof auditStateSchema>;

export const adminActivityQuerySchema = z.strictObject({ page: pageSchema });
export type AdminActivityQuery = z.infer<typeof adminActivityQuerySchema>;

/** One entry of the audit trail: who, what, before, after and when. */
export const adminActivitySchema = z.object({
  id: z.string(),
  action: adminActionSchema,
  actorId: z.string(),
  actorName: z.string(),
  actorEmail: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  targetLabel: z.string(),
  before: auditStateSchema.nullable(),
  after: auditStateSchema.nullable(),
  createdAt: z.string(),
});
export type AdminActivity = z.infer<typeof adminActivitySchema>;
export const adminActivityPageSchema = pageOf(adminActivitySchema);
