import { z } from 'zod';
import { pickupAddressSchema } from './addresses';
import { moneyStringSchema } from './catalog';
import { ANY_DISTANCE_MILES } from './catalog-distance';
import { objectPathSchema } from './uploads';

/**
 * The driver's area (docs/rules/deliveries.md, Deliveries): available orders with their distances,
 * accepting and declining, the arrival time, the delivery photo and the driver's earnings. Pure:
 * the server validates with these schemas and the browser shows the same rules.
 */

/**
 * The driver's distance slider (docs/rules/screens-shared.md, Constants): 5 to 500 miles in steps of 5,
 * 50 by default; 500 means any distance and is then left out of the query (`distanceLimitOf`).
 */
export const DRIVER_DISTANCE = {
  min: 5,
  max: ANY_DISTANCE_MILES,
  step: 5,
  default: 50,
  /** The marks under the slider; the last one reads "Any". */
  marks: [5, 100, 250, 500],
} as const;

/** The most orders one page of the available list holds, and the default page. */
export const AVAILABLE_PAGE_SIZE_MAX = 100;
export const AVAILABLE_PAGE_SIZE = 50;

/**
 * GET /api/orders/available. `maxDistance` is in miles, 1 to 500 (the slider sends 5 to 495 and
 * leaves it out at 500); absent or 500 means any distance.
 */
export const availableOrdersQuerySchema = z.strictObject({
  maxDistance: z.coerce
    .number({ message: 'Must be a number of miles' })
    .min(1, 'Must be at least 1 mile')
    .max(DRIVER_DISTANCE.max, `Must be at most ${DRIVER_DISTANCE.max} miles`)
    .optional(),
  limit: z.coerce.number().int().min(1).max(AVAILABLE_PAGE_SIZE_MAX).default(AVAILABLE_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type AvailableOrdersQuery = z.infer<typeof availableOrdersQuerySchema>;

/**
 * Where an available order goes, before the driver accepts it: the city, state and ZIP of the
 * buyer's address, never the street (docs/rules/deliveries.md, Deliveries).
 */
export const deliveryAreaSchema = z.object({
  city: z.string(),
  state: z.string(),
  zipCode: z.string(),
});

/** One line of an offer: what to carry and how many, never its price (docs/rules/deliveries.md, Deliveries). */
export const availableOrderItemSchema = z.object({
  name: z.string(),
  quantity: z.number().int(),
});
export type AvailableOrderItem = z.infer<typeof availableOrderItemSchema>;

/**
 * One card of "Available Orders" (docs/rules/deliveries.md, Deliveries). No prices of the buyer's
 * purchase: only what the driver earns. Distances are miles with one decimal, null when an end has
 * no coordinates.
 */
export const availableOrderSchema = z.object({
  id: z.string(),
  orderNumber: z.string(),
  requiresTrailer: z.boolean(),
  /** The seller's address the order is collected from. */
  pickupAddress: pickupAddressSchema.nullable(),
  deliveryArea: deliveryAreaSchema.nullable(),
  deliveryNotes: z.string().nullable(),
  /** Number of units to carry. */
  itemCount: z.number().int(),
  /** The products to carry with their counts, most units first, then by name; never a price. */
  items: z.array(availableOrderItemSchema),
  /** The delivery fee after the platform's commission. */
  driverEarnings: moneyStringSchema,
  /** Miles from the driver's primary address to the pickup address. */
  pickupDistance: z.number().nullable(),
  /** Miles from the pickup address to the delivery address. */
  deliveryDistance: z.number().nullable(),
  createdAt: z.string(),
});
export type AvailableOrder = z.infer<typeof availableOrderSchema>;

/** PATCH /api/orders/{id}/estimated-time: an ISO date-time with its offset ("2026-11-23T15:30:00Z"). */
export const estimatedTimeBodySchema = z.strictObject({
  estimatedDeliveryTime: z.iso.datetime({
    offset: true,
    message: 'Must be a date and time such as 2026-11-23T15:30:00Z',
  }),
});
export type EstimatedTimeBody = z.infer<typeof estimatedTimeBodySchema>;

/** How far ahead an arrival time may be: a delivery in this town never takes longer. */
export const ARRIVAL_TIME_MAX_DAYS = 14;
export const ARRIVAL_TIME_IN_PAST = 'The arrival time must be in the future';
export const ARRIVAL_TIME_TOO_FAR = `The arrival time must be within ${ARRIVAL_TIME_MAX_DAYS} days`;

/** Why an arrival time cannot be set, or null when it can (docs/rules/deliveries.md, Deliveries). */
export function arrivalTimeProblem(at: Date, now: Date): string | null {
  if (Number.isNaN(at.getTime())) return 'Arrival time needs a value';
  if (at.getTime() <= now.getTime()) return ARRIVAL_TIME_IN_PAST;
  if (at.getTime() > now.getTime() + ARRIVAL_TIME_MAX_DAYS * 24 * 60 * 60 * 1000) return ARRIVAL_TIME_TOO_FAR;
  return null;
}

/** PATCH /api/orders/{id}/delivery-photo: the path of the driver's own finished upload. */
export const deliveryPhotoBodySchema = z.strictObject({ deliveryPhotoUrl: objectPathSchema });
export type DeliveryPhotoBody = z.infer<typeof deliveryPhotoBodySchema>;

/** GET /api/earnings/driver: the driver's share of their delivered orders. */
/** Weeks in the driver's earnings chart (docs/rules/deliveries.md, Deliveries). */
export const DRIVER_EARNINGS_WEEKS = 8;

export const driverEarningsSchema = z.object({
  totalEarnings: moneyStringSchema,
  orderCount: z.number().int(),
  /** Net earnings of deliveries made today and this week (Monday to Sunday), marketplace time zone. */
  today: moneyStringSchema,
  thisWeek: moneyStringSchema,
  /** The last 8 weeks, oldest first, empty weeks included. */
  weekly: z.array(
    z.object({
      /** The Monday that starts the week, YYYY-MM-DD in the marketplace time zone. */
      weekStart: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
      earnings: moneyStringSchema,
      trips: z.number().int(),
    }),
  ),
});
export type DriverEarnings = z.infer<typeof driverEarningsSchema>;

/** GET /api/earnings/driver/trips: a page of the caller's deliveries, latest first. */
export const driverTripsQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
});
export type DriverTripsQuery = z.infer<typeof driverTripsQuerySchema>;

export const driverTripSchema = z.object({
  orderId: z.string(),
  orderNumber: z.string(),
  deliveredAt: z.string(),
  pickupCity: z.string().nullable(),
  deliveryCity: z.string().nullable(),
  /** Pickup to delivery address in miles, one decimal; null without coordinates. */
  distance: z.number().nullable(),
  /** What the trip paid the driver, net of refunds' reversals. */
  earnings: moneyStringSchema,
});
export type DriverTrip = z.infer<typeof driverTripSchema>;

/** Of any number of drivers accepting one order at once, all but one are told this (409). */
export const ORDER_ALREADY_TAKEN = 'This order was already taken';

/** A driver who pressed Start Delivery keeps the order (docs/rules/deliveries.md, Deliveries): 409. */
export const HAND_BACK_AFTER_START = 'You started this delivery: it can no longer be handed back.';

/** What a driver still needs before orders are offered (docs/rules/deliveries.md, Deliveries). */
export type VerificationStep = 'vehicle image' | 'license image' | 'admin approval';

export interface DriverVerification {
  isVerified: boolean;
  missing: VerificationStep[];
}

/**
 * A driver is verified when both the vehicle and the license image are on file and an admin approved
 * (docs/rules/deliveries.md, Deliveries); pending otherwise. The trailer image is optional: it only
 * opens trailer orders.
 */
export function driverVerificationOf(user: {
  vehicleImageUrl: string | null;
  licenseImageUrl: string | null;
  isVerified: boolean;
}): DriverVerification {
  const missing: VerificationStep[] = [];
  if (!user.vehicleImageUrl) missing.push('vehicle image');
  if (!user.licenseImageUrl) missing.push('license image');
  if (!user.isVerified) missing.push('admin approval');
  return { isVerified: missing.length === 0, missing };
}

/** "a, b and c". */
function listOf(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1] ?? ''}`;
}

/**
 * The 403 an unverified driver gets, naming what is missing: "Your driver account is not verified
 * yet. Missing: vehicle image, license image and admin approval."
 */
export function notVerifiedMessage(missing: readonly VerificationStep[]): string {
  return `Your driver account is not verified yet. Missing: ${listOf(missing)}.`;
}

/** Whether the driver has a trailer on file, so trailer orders may be offered. */
export function canCarryTrailerOrders(user: { trailerImageUrl: string | null }): boolean {
  return Boolean(user.trailerImageUrl);
}
