import * as z from 'zod/mini';
import { applyRate, BASIS_POINTS_PER_UNIT, formatCents, formatRate, parseCents, parseRate } from './money';
import type { BasisPoints, Cents } from './money';

/**
 * Delivery fees (docs/rules/catalog-and-orders.md, Checkout and orders) and commission and earnings
 * (docs/rules/money.md, Fees and commission) as pure functions on integer cents and basis points.
 * The server stores what these compute; the browser shows the same numbers before payment by
 * importing them (CONTRIBUTING.md, Code layout rules).
 */

/**
 * 10 dollars; 50 dollars if any item requires a trailer; 0 for pickup
 * (docs/rules/catalog-and-orders.md, Checkout and orders).
 */
export const STANDARD_DELIVERY_FEE_CENTS: Cents = 10_00;
export const TRAILER_DELIVERY_FEE_CENTS: Cents = 50_00;

/** What the delivery fee of one seller's order depends on, per item. */
export interface FeeItem {
  requiresTrailer: boolean;
  sellerDelivery: boolean;
  /** null: the seller delivers for free. */
  sellerDeliveryFee: Cents | null;
}

export interface DeliveryFee {
  deliveryFee: Cents;
  /** The seller delivers the order themselves: every item has sellerDelivery (and it is not a pickup). */
  sellerDelivery: boolean;
  requiresTrailer: boolean;
}

/**
 * The delivery fee of one seller's items (docs/rules/catalog-and-orders.md, Checkout and orders): pickup 0;
 * seller delivery when every item has sellerDelivery, at the highest sellerDeliveryFee among them;
 * otherwise 10.00, or 50.00 when any item requires a trailer.
 */
export function deliveryFeeFor(items: readonly FeeItem[], isPickup: boolean): DeliveryFee {
  const requiresTrailer = items.some((item) => item.requiresTrailer);
  if (isPickup) return { deliveryFee: 0, sellerDelivery: false, requiresTrailer };
  if (items.length > 0 && items.every((item) => item.sellerDelivery)) {
    const deliveryFee = Math.max(0, ...items.map((item) => item.sellerDeliveryFee ?? 0));
    return { deliveryFee, sellerDelivery: true, requiresTrailer };
  }
  return {
    deliveryFee: requiresTrailer ? TRAILER_DELIVERY_FEE_CENTS : STANDARD_DELIVERY_FEE_CENTS,
    sellerDelivery: false,
    requiresTrailer,
  };
}

/** The commission settings in working units (docs/rules/money.md, Fees and commission). */
export interface CommissionRates {
  baseCommissionRate: BasisPoints;
  minCommissionRate: BasisPoints;
  salesPriceTierAmount: Cents;
  salesPriceTierReduction: BasisPoints;
  deliveryFeeTierAmount: Cents;
  deliveryFeeTierReduction: BasisPoints;
  loyaltyTierAmount: Cents;
  loyaltyTierReduction: BasisPoints;
}

/**
 * The settings as strings at the edges: rates with 4 places, amounts with 2
 * (docs/rules/money.md, Fees and commission).
 */
export interface CommissionSettingsText {
  baseCommissionRate: string;
  minCommissionRate: string;
  salesPriceTierAmount: string;
  salesPriceTierReduction: string;
  deliveryFeeTierAmount: string;
  deliveryFeeTierReduction: string;
  loyaltyTierAmount: string;
  loyaltyTierReduction: string;
}

const rateText = z.string().check(z.regex(/^\d+\.\d{4}$/));
const amountText = z.string().check(z.regex(/^\d+\.\d{2}$/));

/**
 * GET /api/commission-settings (public; docs/rules/money.md, Fees and commission): the 8 fields
 * as strings.
 */
export const commissionSettingsSchema = z.object({
  baseCommissionRate: rateText,
  minCommissionRate: rateText,
  salesPriceTierAmount: amountText,
  salesPriceTierReduction: rateText,
  deliveryFeeTierAmount: amountText,
  deliveryFeeTierReduction: rateText,
  loyaltyTierAmount: amountText,
  loyaltyTierReduction: rateText,
});

/**
 * The loyalty discount counts the seller's sales of the 30 days before an order (the order stores
 * them) and the seller's 30-day sales call shows the same window (docs/rules/money.md, Fees and
 * commission).
 */
export const LOYALTY_WINDOW_DAYS = 30;

/** Where the loyalty window of sales before `now` starts. */
export function loyaltyWindowStart(now: Date): Date {
  return new Date(now.getTime() - LOYALTY_WINDOW_DAYS * 24 * 60 * 60 * 1000);
}

/**
 * Base 10%, minimum 2%; tiers 500.00, 200.00 and 1000.00 each reduce 1%
 * (docs/rules/money.md, Fees and commission).
 */
export const DEFAULT_COMMISSION_RATES: CommissionRates = {
  baseCommissionRate: 1000,
  minCommissionRate: 200,
  salesPriceTierAmount: 500_00,
  salesPriceTierReduction: 100,
  deliveryFeeTierAmount: 200_00,
  deliveryFeeTierReduction: 100,
  loyaltyTierAmount: 1000_00,
  loyaltyTierReduction: 100,
};

export function parseCommissionSettings(text: CommissionSettingsText): CommissionRates {
  return {
    baseCommissionRate: parseRate(text.baseCommissionRate),
    minCommissionRate: parseRate(text.minCommissionRate),
    salesPriceTierAmount: parseCents(text.salesPriceTierAmount),
    salesPriceTierReduction: parseRate(text.salesPriceTierReduction),
    deliveryFeeTierAmount: parseCents(text.deliveryFeeTierAmount),
    deliveryFeeTierReduction: parseRate(text.deliveryFeeTierReduction),
    loyaltyTierAmount: parseCents(text.loyaltyTierAmount),
    loyaltyTierReduction: parseRate(text.loyaltyTierReduction),
  };
}

export function formatCommissionSettings(rates: CommissionRates): CommissionSettingsText {
  return {
    baseCommissionRate: formatRate(rates.baseCommissionRate),
    minCommissionRate: formatRate(rates.minCommissionRate),
    salesPriceTierAmount: formatCents(rates.salesPriceTierAmount),
    salesPriceTierReduction: formatRate(rates.salesPriceTierReduction),
    deliveryFeeTierAmount: formatCents(rates.deliveryFeeTierAmount),
    deliveryFeeTierReduction: formatRate(rates.deliveryFeeTierReduction),
    loyaltyTierAmount: formatCents(rates.loyaltyTierAmount),
    loyaltyTierReduction: formatRate(rates.loyaltyTierReduction),
  };
}

/** A rate is a fraction of the amount: kept within 0 and 1 whatever the settings say. */
const clampRate = (rate: BasisPoints) => Math.min(BASIS_POINTS_PER_UNIT, Math.max(0, rate));

/**
 * How many whole tiers `amount` spans. A tier amount of 0 (or less) switches that tier off rather
 * than dividing by zero (the admin form allows "at least 0"; docs/decisions/0008-payments.md).
 */
function tiers(amount: Cents, tierAmount: Cents): number {
  if (tierAmount <= 0 || amount <= 0) return 0;
  return Math.floor(amount / tierAmount);
}

/**
 * loyalty = min(floor(seller30DaySales / loyaltyTierAmount) × loyaltyTierReduction, base − min)
 * (docs/rules/money.md, Fees and commission).
 */
export function loyaltyDiscount(seller30DaySales: Cents, rates: CommissionRates): BasisPoints {
  const room = Math.max(0, rates.baseCommissionRate - rates.minCommissionRate);
  const earned = tiers(seller30DaySales, rates.loyaltyTierAmount) * Math.max(0, rates.loyaltyTierReduction);
  return Math.min(earned, room);
}

/** salesCommissionRate = max(min, base − floor(subtotal / salesPriceTierAmount) × reduction − loyalty). */
export function salesCommissionRate(
  productSubtotal: Cents,
  seller30DaySales: Cents,
  rates: CommissionRates,
): BasisPoints {
  const reduction = tiers(productSubtotal, rates.salesPriceTierAmount) * rates.salesPriceTierReduction;
  const rate = rates.baseCommissionRate - reduction - loyaltyDiscount(seller30DaySales, rates);
  return clampRate(Math.max(rates.minCommissionRate, rate));
}

/**
 * deliveryCommissionRate = max(min, base − floor(deliveryFee / deliveryFeeTierAmount) × reduction);
 * 0 for seller-delivered and pickup orders (no driver; docs/rules/money.md, Fees and commission).
 */
export function deliveryCommissionRate(
  deliveryFee: Cents,
  fulfilment: { isPickup: boolean; sellerDelivery: boolean },
  rates: CommissionRates,
): BasisPoints {
  if (fulfilment.isPickup || fulfilment.sellerDelivery) return 0;
  const reduction = tiers(deliveryFee, rates.deliveryFeeTierAmount) * rates.deliveryFeeTierReduction;
  return clampRate(Math.max(rates.minCommissionRate, rates.baseCommissionRate - reduction));
}

export interface CommissionInput {
  productSubtotal: Cents;
  deliveryFee: Cents;
  isPickup: boolean;
  sellerDelivery: boolean;
  /** The seller's paid, not cancelled product subtotal of the 30 days before this order. */
  seller30DaySales: Cents;
}

/** Everything stored on an order about its money (docs/rules/money.md, Fees and commission). */
export interface OrderMoney {
  productSubtotal: Cents;
  deliveryFee: Cents;
  total: Cents;
  loyaltyDiscount: BasisPoints;
  salesCommissionRate: BasisPoints;
  deliveryCommissionRate: BasisPoints;
  purchasePlatformFee: Cents;
  deliveryPlatformFee: Cents;
  platformFee: Cents;
  sellerEarnings: Cents;
  driverEarnings: Cents;
  seller30DaySales: Cents;
}

/**
 * The money of one seller's order (docs/rules/money.md, Fees and commission). The shares are built so that
 * sellerEarnings + driverEarnings + platformFee = total holds to the cent, always: each fee is
 * rounded once and the earnings are what is left.
 */
export function computeOrderMoney(input: CommissionInput, rates: CommissionRates): OrderMoney {
  const { productSubtotal, isPickup } = input;
  const deliveryFee = isPickup ? 0 : input.deliveryFee;
  const sellerDelivery = !isPickup && input.sellerDelivery;
  const salesRate = salesCommissionRate(productSubtotal, input.seller30DaySales, rates);
  const deliveryRate = deliveryCommissionRate(deliveryFee, { isPickup, sellerDelivery }, rates);
  const purchasePlatformFee = applyRate(productSubtotal, salesRate);
  const deliveryPlatformFee = applyRate(deliveryFee, deliveryRate);
  const productShare = productSubtotal - purchasePlatformFee;
  const deliveryShare = deliveryFee - deliveryPlatformFee;
  return {
    productSubtotal,
    deliveryFee,
    total: productSubtotal + deliveryFee,
    loyaltyDiscount: loyaltyDiscount(input.seller30DaySales, rates),
    salesCommissionRate: salesRate,
    deliveryCommissionRate: deliveryRate,
    purchasePlatformFee,
    deliveryPlatformFee,
    platformFee: purchasePlatformFee + deliveryPlatformFee,
    // The seller who delivers keeps the whole delivery fee (its commission rate is 0).
    sellerEarnings: sellerDelivery ? productShare + deliveryShare : productShare,
    driverEarnings: sellerDelivery ? 0 : deliveryShare,
    seller30DaySales: input.seller30DaySales,
  };
}

/** A cart line with its seller: what splitting a cart needs. */
export interface SellerLine {
  sellerId: string;
}

/**
 * A cart with items of several sellers becomes one order per seller
 * (docs/rules/catalog-and-orders.md, Checkout and orders). Sellers keep the order in which they first appear
 * in the cart; lines keep their order within a seller.
 */
export function splitBySeller<T extends SellerLine>(lines: readonly T[]): { sellerId: string; lines: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const line of lines) {
    const group = groups.get(line.sellerId);
    if (group) group.push(line);
    else groups.set(line.sellerId, [line]);
  }
  return [...groups].map(([sellerId, grouped]) => ({ sellerId, lines: grouped }));
}
