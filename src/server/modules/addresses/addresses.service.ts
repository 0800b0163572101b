import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { GeocodeInput, Geocoder } from '../../adapters/geocoding/geocoder';
import { conflict, notFound } from '../../platform/errors';
import { canManageAddress } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import {
  ADDRESS_NOT_FOUND,
  MAX_ADDRESSES_PER_USER,
  PICKUP_ADDRESS_NOT_AVAILABLE,
  type Address,
  type AddressBody,
  type AddressPatchBody,
  type AddressValidation,
  type AddressValidateBody,
  type PickupAddress,
} from '../../../domain/addresses';
import {
  countAddressesOfUser,
  deleteAddressOfUser,
  findAddressOfUser,
  findPrimaryAddressOfSeller,
  insertAddress,
  listAddressesOfUser,
  lockAddressesOfUser,
  markPrimary,
  promoteNewestAddress,
  unsetOtherPrimaries,
  updateAddressOfUser,
  type AddressRow,
  type AddressValues,
} from './addresses.queries';

export interface AddressDeps {
  db: Db;
  geocoder: Geocoder;
  /** The request's logger, so a failing geocoder is logged with the request id. */
  log: Pick<FastifyBaseLogger, 'warn'>;
  /** Signs the proof that a validation verified an address (AppContext.signingKey). */
  signingKey: Buffer;
}

export const TOO_MANY_ADDRESSES = `You can save at most ${MAX_ADDRESSES_PER_USER} addresses. Delete one first.`;
export const PRIMARY_BUSY = 'Your addresses were being changed at the same moment. Please try again.';

/** The fields a validation speaks for, exactly as they are stored. */
type ValidatedFields = Pick<
  AddressValues,
  'addressLine1' | 'addressLine2' | 'city' | 'state' | 'zipCode' | 'country'
>;

function validationTokenFor(key: Buffer, userId: string, fields: ValidatedFields): string {
  const signed = JSON.stringify([
    'address-validation',
    userId,
    fields.addressLine1,
    fields.addressLine2,
    fields.city,
    fields.state,
    fields.zipCode,
    fields.country,
  ]);
  return crypto.createHmac('sha256', key).update(signed).digest('base64url');
}

/**
 * Verified only when verified (docs/rules/catalog-and-orders.md, Addresses, availability and slots): an
 * address is stored as verified only when the client hands back the proof that POST /api/addresses/validate
 * verified exactly the fields being stored, for this user. No proof (Validate not pressed, or it said
 * "Validation unavailable"), or fields edited since, and the address is not verified.
 */
function provesValidation(
  key: Buffer,
  userId: string,
  fields: ValidatedFields,
  token: string | null | undefined,
): boolean {
  if (!token) return false;
  const expected = Buffer.from(validationTokenFor(key, userId, fields));
  const given = Buffer.from(token);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

const coordinate = (value: string | null) => (value === null ? null : Number(value));

export function toAddress(row: AddressRow): Address {
  return {
    id: row.id,
    userId: row.userId,
    addressLine1: row.addressLine1,
    addressLine2: row.addressLine2,
    city: row.city,
    state: row.state,
    zipCode: row.zipCode,
    country: row.country,
    latitude: coordinate(row.latitude),
    longitude: coordinate(row.longitude),
    isVerified: row.isVerified,
    isPrimary: row.isPrimary,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toPickupAddress(
  row: Pick<
    AddressRow,
    'addressLine1' | 'addressLine2' | 'city' | 'state' | 'zipCode' | 'latitude' | 'longitude'
  >,
): PickupAddress {
  return {
    addressLine1: row.addressLine1,
    addressLine2: row.addressLine2,
    city: row.city,
    state: row.state,
    zipCode: row.zipCode,
    latitude: coordinate(row.latitude),
    longitude: coordinate(row.longitude),
  };
}

/**
 * Runs the geocoder (docs/rules/catalog-and-orders.md, Addresses, availability and slots). A geocoder that
 * fails counts as "unavailable": saving an address never depends on an outside service.
 */
async function locate(
  deps: AddressDeps,
  input: GeocodeInput,
): Promise<Omit<AddressValidation, 'validationToken'>> {
  const result = await deps.geocoder.geocode(input).catch((error: unknown) => {
    deps.log.warn({ err: error }, 'geocoder failed; the address counts as unavailable');
    return null;
  });
  if (!result) {
    return {
      status: 'unavailable',
      addressLine1: input.addressLine1,
      addressLine2: input.addressLine2,
      city: input.city,
      state: input.state,
      zipCode: input.zipCode,
      latitude: null,
      longitude: null,
      isVerified: false,
    };
  }
  return { status: 'success', ...result };
}

/**
 * What is stored for an address: the normalised fields and, whenever the ZIP is known, coordinates
 * (docs/rules/catalog-and-orders.md, Catalog and distance).
 */
async function locatedValues(deps: AddressDeps, input: GeocodeInput): Promise<AddressValues> {
  const located = await locate(deps, input);
  return {
    addressLine1: located.addressLine1,
    addressLine2: located.addressLine2,
    city: located.city,
    state: located.state,
    zipCode: located.zipCode,
    country: input.country,
    latitude: located.latitude === null ? null : located.latitude.toFixed(7),
    longitude: located.longitude === null ? null : located.longitude.toFixed(7),
    isVerified: located.isVerified,
  };
}

function isPrimaryIndexViolation(error: unknown): boolean {
  // Drizzle wraps the driver's error (pg or PGlite) in `cause`; walk the chain.
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    seen.add(current);
    const constraint = 'constraint' in current ? current.constraint : undefined;
    if ('code' in current && current.code === '23505') {
      return constraint === undefined || constraint === 'addresses_one_primary_per_user';
    }
    current = 'cause' in current ? current.cause : undefined;
  }
  return false;
}

/**
 * A change of a user's primary flag, in one transaction under the user's lock, so exactly one
 * address is primary at any time (issue: addresses). The partial unique index
 * `addresses_one_primary_per_user` is the backstop: should a writer that skips the lock collide,
 * the change is retried, and answered with a 409 rather than a 500 if it keeps colliding.
 */
async function changePrimaries<T>(db: Db, userId: string, change: (tx: Db) => Promise<T>): Promise<T> {
  const attempts = 3;
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        await lockAddressesOfUser(tx, userId);
        return change(tx);
      });
    } catch (error) {
      if (!isPrimaryIndexViolation(error)) throw error;
      if (attempt >= attempts) throw conflict(PRIMARY_BUSY);
    }
  }
}

const bodyToInput = (body: AddressBody): GeocodeInput => ({
  addressLine1: body.addressLine1,
  addressLine2: body.addressLine2 || null,
  city: body.city,
  state: body.state,
  zipCode: body.zipCode,
  country: body.country,
});

export async function listOwnAddresses(db: Db, actor: Actor): Promise<Address[]> {
  const rows = await listAddressesOfUser(db, actor.id);
  return rows.map(toAddress);
}

/**
 * The values to store: located again (coordinates whether or not Validate was pressed), and verified
 * only with a proof for exactly these fields.
 */
async function valuesToStore(
  deps: AddressDeps,
  actor: Actor,
  input: GeocodeInput,
  token: string | null | undefined,
): Promise<AddressValues> {
  const values = await locatedValues(deps, input);
  return {
    ...values,
    isVerified: values.isVerified && provesValidation(deps.signingKey, actor.id, values, token),
  };
}

/** Coordinates come from the geocoder whether or not Validate was pressed; a user's first address is primary. */
export async function createOwnAddress(deps: AddressDeps, actor: Actor, body: AddressBody): Promise<Address> {
  const values = await valuesToStore(deps, actor, bodyToInput(body), body.validationToken);
  const row = await changePrimaries(deps.db, actor.id, async (tx) => {
    const { total, primaries } = await countAddressesOfUser(tx, actor.id);
    if (total >= MAX_ADDRESSES_PER_USER) throw conflict(TOO_MANY_ADDRESSES);
    return insertAddress(tx, { ...values, userId: actor.id, isPrimary: primaries === 0 });
  });
  return toAddress(row);
}

const ADDRESS_FIELDS = ['addressLine1', 'addressLine2', 'city', 'state', 'zipCode', 'country'] as const;

/**
 * Edits own address; a changed address is geocoded again and is verified only with a proof for its
 * new fields (an edit clears the badge), an unchanged one keeps its coordinates and its badge, and
 * becomes verified when a proof for it is sent along.
 */
export async function updateOwnAddress(
  deps: AddressDeps,
  actor: Actor,
  id: string,
  body: AddressPatchBody,
): Promise<Address> {
  const current = await findAddressOfUser(deps.db, actor.id, id);
  if (!current || !canManageAddress(actor, current)) throw notFound(ADDRESS_NOT_FOUND);
  const next: GeocodeInput = {
    addressLine1: body.addressLine1 ?? current.addressLine1,
    addressLine2: body.addressLine2 === undefined ? current.addressLine2 : body.addressLine2 || null,
    city: body.city ?? current.city,
    state: body.state ?? current.state,
    zipCode: body.zipCode ?? current.zipCode,
    country: body.country ?? current.country,
  };
  const changed = ADDRESS_FIELDS.some((field) => next[field] !== current[field]);
  const proved = provesValidation(deps.signingKey, actor.id, current, body.validationToken);
  if (!changed && (current.isVerified || !proved)) return toAddress(current);
  const values = await valuesToStore(deps, actor, next, body.validationToken);
  const row = await updateAddressOfUser(deps.db, actor.id, id, values);
  if (!row) throw notFound(ADDRESS_NOT_FOUND);
  return toAddress(row);
}

/** Deletes own address; when it was the primary, the newest remaining address becomes primary. */
export async function deleteOwnAddress(db: Db, actor: Actor, id: string): Promise<void> {
  await changePrimaries(db, actor.id, async (tx) => {
    const deleted = await deleteAddressOfUser(tx, actor.id, id);
    if (!deleted) throw notFound(ADDRESS_NOT_FOUND);
    if (deleted.isPrimary) await promoteNewestAddress(tx, actor.id);
  });
}

/** Makes own address the primary: unset the others, then set this one, in one transaction. */
export async function setOwnPrimaryAddress(db: Db, actor: Actor, id: string): Promise<Address> {
  const row = await changePrimaries(db, actor.id, async (tx) => {
    const target = await findAddressOfUser(tx, actor.id, id);
    if (!target || !canManageAddress(actor, target)) throw notFound(ADDRESS_NOT_FOUND);
    if (target.isPrimary) return target;
    await unsetOtherPrimaries(tx, actor.id, id);
    return markPrimary(tx, actor.id, id);
  });
  if (!row) throw notFound(ADDRESS_NOT_FOUND);
  return toAddress(row);
}

/**
 * The Validate Address button: normalised fields and coordinates, or 'unavailable' (a 200;
 * docs/rules/catalog-and-orders.md, Addresses, availability and slots). A verified answer carries the proof
 * that saving exactly these fields sends back.
 */
export async function validateAddress(
  deps: AddressDeps,
  actor: Actor,
  body: AddressValidateBody,
): Promise<AddressValidation> {
  const located = await locate(deps, bodyToInput(body));
  const validationToken =
    located.status === 'success' && located.isVerified
      ? validationTokenFor(deps.signingKey, actor.id, { ...located, country: body.country })
      : null;
  return { ...located, validationToken };
}

/** The seller's pickup address for checkout: their primary address, if they are a seller and have one. */
export async function getSellerPickupAddress(db: Db, sellerId: string): Promise<PickupAddress> {
  const row = await findPrimaryAddressOfSeller(db, sellerId);
  if (!row) throw notFound(PICKUP_ADDRESS_NOT_AVAILABLE);
  return toPickupAddress(row);
}
