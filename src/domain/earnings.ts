import { z } from 'zod';
import { moneyStringSchema } from './catalog';
import { trendSchema } from './trends';
import { idSchema } from './users';

/**
 * A seller's earnings (docs/rules/selling.md, Seller earnings): what finished orders paid the
 * seller, as stored on each order (`sellerEarnings`), never recomputed.
 */

/** GET /api/earnings/seller: the sum of sellerEarnings of finished orders and how many there are. */
export const sellerEarningsSchema = z.object({
  totalEarnings: moneyStringSchema,
  orderCount: z.number().int(),
  /**
   * The cards' "+N% from last week" (docs/rules/selling.md, Seller earnings): earnings and orders
   * finished in the last 7 days against the 7 before.
   */
  earningsTrend: trendSchema,
  orderCountTrend: trendSchema,
});
export type SellerEarnings = z.infer<typeof sellerEarningsSchema>;

/**
 * GET /api/earnings/seller-30day/{userId}: the product subtotal of the seller's orders that are not
 * cancelled, placed in the last 30 days: the amount the next order's loyalty discount is computed
 * from (docs/rules/money.md, Fees and commission).
 */
export const seller30DaySalesSchema = z.object({ total: moneyStringSchema });
export type Seller30DaySales = z.infer<typeof seller30DaySalesSchema>;

export const sellerIdParamsSchema = z.object({ userId: idSchema });

/** The earnings chart covers the last 12 weeks, this one included. */
export const EARNINGS_CHART_WEEKS = 12;

/**
 * GET /api/earnings/seller/weekly: one row per week (Monday to Sunday in the marketplace time zone),
 * oldest first, with the earnings of the orders that finished that week.
 */
export const weeklyEarningsSchema = z.array(
  z.object({
    /** The Monday that starts the week, YYYY-MM-DD in the marketplace time zone. */
    weekStart: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    earnings: moneyStringSchema,
    orderCount: z.number().int(),
  }),
);
export type WeeklyEarnings = z.infer<typeof weeklyEarningsSchema>;
