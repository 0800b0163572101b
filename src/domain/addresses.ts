import { z } from 'zod';
import { idSchema } from './users';

/**
 * US states, the District of Columbia, territories and military "states", by their postal code
 * (the codes the ZIP-code data uses). The marketplace is US-only: ZIP codes, miles, US states
 * (docs/decisions/0005-geocoding.md).
 */
export const US_STATES: Readonly<Record<string, string>> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
  AS: 'American Samoa',
  GU: 'Guam',
  MP: 'Northern Mariana Islands',
  PR: 'Puerto Rico',
  VI: 'U.S. Virgin Islands',
  FM: 'Federated States of Micronesia',
  MH: 'Marshall Islands',
  PW: 'Palau',
  AA: 'Armed Forces Americas',
  AE: 'Armed Forces Europe',
  AP: 'Armed Forces Pacific',
};

const STATE_CODE_BY_NAME = new Map(
  Object.entries(US_STATES).map(([code, name]) => [name.toLowerCase(), code]),
);

/** 'il', 'IL', ' Illinois ' -> 'IL'; anything that is not a US state comes back as typed (trimmed). */
export function normaliseUsState(input: string): string {
  const trimmed = input.trim();
  const upper = trimmed.toUpperCase();
  if (upper in US_STATES) return upper;
  return STATE_CODE_BY_NAME.get(trimmed.toLowerCase().replace(/\s+/g, ' ')) ?? trimmed;
}

export function isUsStateCode(value: string): boolean {
  return value in US_STATES;
}

const ZIP_PATTERN = /^(\d{5})(?:[-\s]?(\d{4}))?$/;

/** '62701' stays, '627011234' and '62701 1234' become '62701-1234'; anything else comes back as is. */
export function normaliseZipCode(input: string): string {
  const match = ZIP_PATTERN.exec(input.trim());
  if (!match) return input.trim();
  return match[2] ? `${match[1]}-${match[2]}` : (match[1] ?? input);
}

export const ZIP_CODE_MESSAGE = 'ZIP code must be 5 digits or ZIP+4';
export const MAX_ADDRESSES_PER_USER = 20;

const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, { error: `${label} is required`, abort: true })
    .max(max, `${label} must be at most ${max} characters`);

const addressLine1Schema = requiredText('Address line 1', 200);
const addressLine2Schema = z
  .string({ error: 'Address line 2 must be text' })
  .trim()
  .max(200, 'Address line 2 must be at most 200 characters')
  .nullish();
const citySchema = requiredText('City', 100);
const stateSchema = requiredText('State', 50)
  .overwrite(normaliseUsState)
  .refine(isUsStateCode, 'State must be a US state, for example IL');
const zipCodeSchema = z
  .string({ error: 'ZIP code is required' })
  .trim()
  .min(1, { error: 'ZIP code is required', abort: true })
  .regex(ZIP_PATTERN, ZIP_CODE_MESSAGE)
  .overwrite(normaliseZipCode);
/** Spec seller §3: country defaults to US; the marketplace serves US addresses only (decision 0005). */
const countrySchema = z
  .string({ error: 'Country must be US' })
  .trim()
  .toUpperCase()
  .pipe(z.literal('US', { error: 'Only US addresses are supported' }));

/**
 * POST /api/addresses and POST /api/addresses/validate. Strict: id, userId, latitude, longitude,
 * isVerified and isPrimary can never be set by a client (DECISIONS §3, mass assignment); the
 * server fills coordinates and verification from the geocoder and manages the primary flag.
 */
export const addressBodySchema = z.strictObject({
  addressLine1: addressLine1Schema,
  addressLine2: addressLine2Schema,
  city: citySchema,
  state: stateSchema,
  zipCode: zipCodeSchema,
  country: countrySchema.default('US'),
});
export type AddressBody = z.infer<typeof addressBodySchema>;

/** PATCH /api/addresses/{id}: any of the address fields; addressLine2 null clears it. Strict as above. */
export const addressPatchBodySchema = z.strictObject({
  addressLine1: addressLine1Schema.optional(),
  addressLine2: addressLine2Schema,
  city: citySchema.optional(),
  state: stateSchema.optional(),
  zipCode: zipCodeSchema.optional(),
  country: countrySchema.optional(),
});
export type AddressPatchBody = z.infer<typeof addressPatchBodySchema>;

/** POST /api/addresses/validate: the form's fields (spec seller §7); country may be sent along. */
export const addressValidateBodySchema = addressBodySchema;
export type AddressValidateBody = z.infer<typeof addressValidateBodySchema>;

/** An address as the owner sees it (spec seller §3 "Address"). */
export const addressSchema = z.object({
  id: z.string(),
  userId: z.string(),
  addressLine1: z.string(),
  addressLine2: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  zipCode: z.string(),
  country: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  isVerified: z.boolean(),
  isPrimary: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Address = z.infer<typeof addressSchema>;

/** Spec seller §4 "Address validation": success or unavailable (the screen adds idle). */
export const addressValidationStatusSchema = z.enum(['success', 'unavailable']);
export type AddressValidationStatus = z.infer<typeof addressValidationStatusSchema>;

/**
 * The answer of POST /api/addresses/validate: the normalised fields plus coordinates. 'unavailable'
 * (unknown ZIP) is an answer, not an error: coordinates are null, isVerified false, and the address
 * can still be saved (DECISIONS §10). 'success' with isVerified false: the ZIP is known but lies in
 * another state than the one given; the coordinates are the ZIP's.
 */
export const addressValidationSchema = z.object({
  status: addressValidationStatusSchema,
  addressLine1: z.string(),
  addressLine2: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  zipCode: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  isVerified: z.boolean(),
});
export type AddressValidation = z.infer<typeof addressValidationSchema>;

/** Spec seller §3 "Pickup address object", answered by GET /api/addresses/primary/{sellerId}. */
export const pickupAddressSchema = z.object({
  addressLine1: z.string(),
  addressLine2: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  zipCode: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});
export type PickupAddress = z.infer<typeof pickupAddressSchema>;

export const sellerIdParamsSchema = z.object({ sellerId: idSchema });

/** Spec buyer §8. */
export const PICKUP_ADDRESS_NOT_AVAILABLE = 'Pickup address not available';
export const ADDRESS_NOT_FOUND = 'Address not found';
