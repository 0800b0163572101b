import { z } from 'zod';
import type { Db } from '../../db/client';
import { ITEM_PROBLEM_CODES, type CheckoutProblem } from '../../../domain/checkout';
import type { CheckoutAddress } from './checkout.queries';

export interface CheckoutDeps {
  db: Db;
  now: () => Date;
  /** MARKETPLACE_TZ: pickup slots are checked in it. */
  timeZone: string;
}

/**
 * The checkout as priced by the server, kept with the payment (payments.checkout) so that a success
 * reported late, by the webhook or at start-up, still makes exactly these orders at exactly the
 * amounts charged. Cents are integers here.
 */
export const pricedCheckoutSchema = z.object({
  version: z.literal(1),
  buyerId: z.string(),
  isPickup: z.boolean(),
  deliveryAddressId: z.string().nullable(),
  deliveryAddress: z.string().nullable(),
  deliveryNotes: z.string().nullable(),
  total: z.number().int(),
  orders: z.array(
    z.object({
      sellerId: z.string(),
      sellerDelivery: z.boolean(),
      requiresTrailer: z.boolean(),
      scheduledPickupTime: z.string().nullable(),
      pickupAddressId: z.string().nullable(),
      pickupAddress: z.string().nullable(),
      productSubtotal: z.number().int(),
      deliveryFee: z.number().int(),
      items: z.array(
        z.object({
          productId: z.string(),
          name: z.string(),
          quantity: z.number().int(),
          price: z.number().int(),
        }),
      ),
    }),
  ),
});
export type PricedCheckout = z.infer<typeof pricedCheckoutSchema>;
export type PricedOrder = PricedCheckout['orders'][number];

/** "1 Main St, Apt 2, Springfield, IL 62701". */
export function addressText(row: CheckoutAddress): string {
  return [row.addressLine1, row.addressLine2, `${row.city}, ${row.state} ${row.zipCode}`]
    .filter((part): part is string => Boolean(part && part.trim()))
    .join(', ');
}

/** What a pickup order stores as its delivery address (the column is required). */
export function pickupText(pickupAddress: string | null): string {
  return pickupAddress ? `Pickup at ${pickupAddress}` : 'Pickup from the seller';
}

/** Whether a problem is about the cart's items (409) rather than a missing or wrong choice (400). */
export function isItemProblem(found: CheckoutProblem): boolean {
  return ITEM_PROBLEM_CODES.includes(found.code);
}
