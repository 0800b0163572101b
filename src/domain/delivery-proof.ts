import { z } from 'zod';
import { objectPathSchema } from './uploads';

/**
 * Proof of delivery (docs/rules/deliveries.md, Deliveries; docs/rules/admin.md, Admin): which proof Mark
 * Delivered needs, set by an admin for standard and for trailer orders, and the body of `POST
 * /api/orders/{id}/deliver`. Pure: the server checks with these rules and the browser shows the same ones.
 */

export const deliveryProofSettingsSchema = z.object({
  /** Standard orders: a drop-off photo is required. */
  standardPhoto: z.boolean(),
  /** Standard orders: the buyer's delivery code is required. */
  standardCode: z.boolean(),
  trailerPhoto: z.boolean(),
  trailerCode: z.boolean(),
});
export type DeliveryProofSettings = z.infer<typeof deliveryProofSettingsSchema>;

/** PUT /api/admin/delivery-proof-settings: the four switches, all required. */
export const deliveryProofSettingsBodySchema = z.strictObject(deliveryProofSettingsSchema.shape);

/** Both on by default for trailer orders, a photo for standard ones. */
export const DEFAULT_DELIVERY_PROOF: DeliveryProofSettings = {
  standardPhoto: true,
  standardCode: false,
  trailerPhoto: true,
  trailerCode: true,
};

export interface ProofNeeded {
  photo: boolean;
  code: boolean;
}

/** What Mark Delivered needs on this order. */
export function proofNeededFor(
  settings: DeliveryProofSettings,
  order: { requiresTrailer: boolean },
): ProofNeeded {
  return order.requiresTrailer
    ? { photo: settings.trailerPhoto, code: settings.trailerCode }
    : { photo: settings.standardPhoto, code: settings.standardCode };
}

/** The code is four digits, made when an order for driver delivery is placed. */
export const DELIVERY_CODE_PATTERN = /^\d{4}$/;
export const DELIVERY_CODE_MAX_WRONG_TRIES = 5;
export const DELIVERY_CODE_LOCK_MINUTES = 15;

export const DELIVERY_CODE_MISMATCH = 'That code does not match';
export const DELIVERY_CODE_LOCKED = 'Too many wrong codes: ask the buyer to read it again in a few minutes';

/** "Mark Delivered needs its proof: a drop-off photo and the buyer's delivery code." */
export function proofMissingMessage(missing: ProofNeeded): string {
  const parts: string[] = [];
  if (missing.photo) parts.push('a drop-off photo');
  if (missing.code) parts.push("the buyer's delivery code");
  return `Mark Delivered needs its proof: ${parts.join(' and ')}.`;
}

export const PLACE_BOTH_OR_NEITHER_MESSAGE = 'Give both latitude and longitude, or neither';

/** POST /api/orders/{id}/deliver: the proof the driver gives; the place is optional, both or neither. */
export const deliverBodySchema = z
  .strictObject({
    dropOffPhotoUrl: objectPathSchema.optional(),
    code: z.string().regex(DELIVERY_CODE_PATTERN, 'Must be the 4 digits the buyer reads').optional(),
    latitude: z.number().min(-90, 'Must be from -90 to 90').max(90, 'Must be from -90 to 90').optional(),
    longitude: z
      .number()
      .min(-180, 'Must be from -180 to 180')
      .max(180, 'Must be from -180 to 180')
      .optional(),
  })
  .refine((body) => (body.latitude === undefined) === (body.longitude === undefined), {
    message: PLACE_BOTH_OR_NEITHER_MESSAGE,
    path: ['longitude'],
  });
export type DeliverBody = z.infer<typeof deliverBodySchema>;

/** An OpenStreetMap link to the drop-off place. */
export function dropOffMapUrl(place: { latitude: number; longitude: number }): string {
  return `https://www.openstreetmap.org/?mlat=${place.latitude}&mlon=${place.longitude}#map=18/${place.latitude}/${place.longitude}`;
}
