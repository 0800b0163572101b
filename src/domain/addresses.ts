import { z } from 'zod';
import { idSchema } from './users';
import { visibleText } from './visible-text-schema';

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

// Each field without its invisible characters (docs/rules/running.md, Bad input and failure).
const addressLine1Schema = visibleText(requiredText('Address line 1', 200));
const addressLine2Schema = visibleText(
  z
    .string({ error: 'Address line 2 must be text' })
    .trim()
    .max(200, 'Address line 2 must be at most 200 characters'),
).nullish();
const citySchema = visibleText(requiredText('City', 100));
const stateSchema = visibleText(
  requiredText('State', 50)
    .overwrite(normaliseUsState)
    .refine(isUsStateCode, 'State must be a US state, for example IL'),
  // Names and lower case are taken too; the document lists the codes (docs/ARCHITECTURE.md, Requests and
  // errors).
).meta({ enum: Object.keys(US_STATES) });
const zipCodeSchema = visibleText(
  z
    .string({ error: 'ZIP code is required' })
    .trim()
    .min(1, { error: 'ZIP code is required', abort: true })
    .regex(ZIP_PATTERN, ZIP_CODE_MESSAGE)
    .overwrite(normaliseZipCode),
);
/**
 * Country defaults to US; the marketplace serves US addresses only
 * (docs/rules/catalog-and-orders.md, Addresses, availability and slots; decision 0005).
 */
const countrySchema = z
  .string({ error: 'Country must be US' })
  .trim()
  .toUpperCase()
  .pipe(z.literal('US', { error: 'Only US addresses are supported' }))
  .meta({ enum: ['US'] });

/**
 * POST /api/addresses and POST /api/addresses/validate. Strict: id, userId, latitude, longitude,
 * isVerified and isPrimary can never be set by a client
 * (docs/rules/accounts.md, Roles and permissions; mass assignment); the server fills coordinates and
 * verification from the geocoder and manages the primary flag.
 */
const addressFields = {
  addressLine1: addressLine1Schema,
  addressLine2: addressLine2Schema,
  city: citySchema,
  state: stateSchema,
  zipCode: zipCodeSchema,
  country: countrySchema.default('US'),
};

/**
 * The proof that POST /api/addresses/validate verified exactly these fields, as it answered it.
 * Saving with it is the only way an address becomes verified; the server checks it against the
 * fields it stores (docs/rules/catalog-and-orders.md, Addresses, availability and slots).
 */
const validationTokenSchema = z
  .string({ error: 'validationToken must be text' })
  .max(200, 'validationToken must be at most 200 characters')
  .nullish();

export const addressBodySchema = z.strictObject({
  ...addressFields,
  validationToken: validationTokenSchema,
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
  validationToken: validationTokenSchema,
});
export type AddressPatchBody = z.infer<typeof addressPatchBodySchema>;

/**
 * POST /api/addresses/validate: the form's fields (docs/rules/screens-buyer.md, Account pages); country
 * may be sent along.
 */
export const addressValidateBodySchema = z.strictObject(addressFields);
export type AddressValidateBody = z.infer<typeof addressValidateBodySchema>;

/** An address as the owner sees it (docs/rules/catalog-and-orders.md, Addresses, availability and slots). */
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

/**
 * Address validation: success or unavailable; the screen adds idle
 * (docs/rules/catalog-and-orders.md, Addresses, availability and slots).
 */
export const addressValidationStatusSchema = z.enum(['success', 'unavailable']);

/**
 * The answer of POST /api/addresses/validate: the normalised fields plus coordinates. 'unavailable'
 * (unknown ZIP) is an answer, not an error: coordinates are null, isVerified false, and the address
 * can still be saved (docs/rules/catalog-and-orders.md, Addresses, availability and slots). 'success' with
 * isVerified false: the ZIP is known but lies in another state than the one given; the coordinates
 * are the ZIP's.
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
  /**
   * Given only when isVerified: send it back with exactly these fields when saving, and the saved
   * address is verified. Null otherwise.
   */
  validationToken: z.string().nullable(),
});
export type AddressValidation = z.infer<typeof addressValidationSchema>;

/**
 * A seller's pickup address, answered by GET /api/addresses/primary/{sellerId}
 * (docs/rules/catalog-and-orders.md, Addresses, availability and slots).
 */
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

/** Texts of the checkout and the order view (docs/rules/catalog-and-orders.md, Addresses, availability and slots). */
export { PICKUP_ADDRESS_NOT_AVAILABLE } from './address-messages';
export const ADDRESS_NOT_FOUND = 'Address not found';
