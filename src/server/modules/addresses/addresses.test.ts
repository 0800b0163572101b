import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import { addresses } from '../../db/schema';
import { MAX_ADDRESSES_PER_USER } from '../../../domain/addresses';
import { DIRECTION_CONTROL_MESSAGE } from '../../../domain/visible-text';
import type { Geocoder } from '../../adapters/geocoding/geocoder';
import { ZipCentroidGeocoder } from '../../adapters/geocoding/zip-centroid-geocoder';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

const springfield = { addressLine1: '1 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' };
const chicago = {
  addressLine1: '233 S Wacker Dr',
  addressLine2: 'Suite 100',
  city: 'Chicago',
  state: 'IL',
  zipCode: '60601',
};
const unknownZip = { addressLine1: '9 Nowhere Rd', city: 'Nowhere', state: 'IL', zipCode: '00000' };
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

interface AddressJson {
  id: string;
  userId: string;
  isPrimary: boolean;
  isVerified: boolean;
  latitude: number | null;
  longitude: number | null;
  [key: string]: unknown;
}

async function createAddress(
  user: TestUser,
  payload: Record<string, unknown> = springfield,
): Promise<AddressJson> {
  const response = await as(t, user, { method: 'POST', url: '/api/addresses', payload });
  if (response.statusCode !== 201) throw new Error(`create failed: ${response.statusCode} ${response.body}`);
  return response.json<AddressJson>();
}

/** Validates the address as the Validate Address button does; answers the validation. */
async function validate(
  user: TestUser,
  payload: Record<string, unknown>,
): Promise<{ status: string; isVerified: boolean; validationToken: string | null; [key: string]: unknown }> {
  const response = await as(t, user, { method: 'POST', url: '/api/addresses/validate', payload });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** Validate, then save exactly the validated fields with the proof, as the form does. */
async function createValidatedAddress(
  user: TestUser,
  payload: Record<string, unknown>,
): Promise<AddressJson> {
  const {
    status: _status,
    latitude: _lat,
    longitude: _lng,
    isVerified: _v,
    ...fields
  } = await validate(user, payload);
  return createAddress(user, fields);
}

async function listAddresses(user: TestUser): Promise<AddressJson[]> {
  const response = await as(t, user, { method: 'GET', url: '/api/addresses' });
  expect(response.statusCode).toBe(200);
  return response.json<AddressJson[]>();
}

async function primaryCount(userId: string): Promise<number> {
  const rows = await t.database.db.select().from(addresses).where(eq(addresses.userId, userId));
  return rows.filter((row) => row.isPrimary).length;
}

describe('visitors', () => {
  it('get 401 on every address call', async () => {
    const calls = [
      { method: 'GET', url: '/api/addresses' },
      { method: 'POST', url: '/api/addresses', payload: springfield },
      { method: 'POST', url: '/api/addresses/validate', payload: springfield },
      { method: 'PATCH', url: `/api/addresses/${UNKNOWN_ID}`, payload: { city: 'Chicago' } },
      { method: 'DELETE', url: `/api/addresses/${UNKNOWN_ID}` },
      { method: 'POST', url: `/api/addresses/${UNKNOWN_ID}/set-primary` },
      { method: 'GET', url: `/api/addresses/primary/${UNKNOWN_ID}` },
    ] as const;
    for (const call of calls) {
      const response = await t.app.inject(call);
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(401);
      expect(response.json()).toMatchObject({ code: 'unauthorized', message: 'Unauthorized' });
    }
  });
});

describe('POST /api/addresses', () => {
  it('saves an address with ZIP-centroid coordinates without Validate, not verified, and the first one is primary', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const response = await as(t, buyer, {
      method: 'POST',
      url: '/api/addresses',
      payload: { addressLine1: ' 1 Main St ', city: 'springfield', state: 'il', zipCode: '62701' },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      id: expect.any(String),
      userId: buyer.id,
      addressLine1: '1 Main St',
      addressLine2: null,
      city: 'Springfield',
      state: 'IL',
      zipCode: '62701',
      country: 'US',
      latitude: 39.8,
      longitude: -89.6495,
      isVerified: false,
      isPrimary: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const second = await createValidatedAddress(buyer, chicago);
    expect(second).toMatchObject({
      isPrimary: false,
      isVerified: true,
      addressLine2: 'Suite 100',
      latitude: 41.8858,
    });
    expect(second.longitude).toBeCloseTo(-87.6181, 4);
  });

  it('saves an address with an unknown ZIP, without coordinates and not verified', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const address = await createAddress(buyer, unknownZip);
    expect(address).toMatchObject({
      zipCode: '00000',
      latitude: null,
      longitude: null,
      isVerified: false,
      isPrimary: true,
    });
  });

  it('keeps a ZIP+4 and does not verify a ZIP of another state', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const plus4 = await createValidatedAddress(buyer, { ...springfield, zipCode: '62701-1234' });
    expect(plus4).toMatchObject({ zipCode: '62701-1234', isVerified: true, latitude: 39.8 });
    const wrongState = await validate(buyer, { ...springfield, state: 'MO' });
    expect(wrongState).toMatchObject({ status: 'success', isVerified: false, validationToken: null });
    const saved = await createAddress(buyer, { ...springfield, state: 'MO' });
    expect(saved).toMatchObject({ state: 'MO', isVerified: false, latitude: 39.8 });
  });

  it('verifies only with the proof of a validation of exactly the saved fields (docs/rules/catalog-and-orders.md, Addresses, availability and slots)', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const validated = await validate(buyer, springfield);
    expect(validated).toMatchObject({
      status: 'success',
      isVerified: true,
      validationToken: expect.any(String),
    });
    const token = validated.validationToken;
    // The fields changed after validating: the proof does not speak for them.
    const edited = await createAddress(buyer, {
      ...springfield,
      addressLine1: '2 Main St',
      validationToken: token,
    });
    expect(edited.isVerified).toBe(false);
    // Another user cannot use it either.
    const other = await signedInAs(t, 'buyer');
    expect((await createAddress(other, { ...springfield, validationToken: token })).isVerified).toBe(false);
    // A made-up proof is not one.
    expect((await createAddress(buyer, { ...springfield, validationToken: 'x'.repeat(43) })).isVerified).toBe(
      false,
    );
    // Exactly the validated fields, by the user who validated them: verified.
    expect((await createAddress(buyer, { ...springfield, validationToken: token })).isVerified).toBe(true);
  });

  it('answers 400 with a message per field', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const empty = await as(t, buyer, { method: 'POST', url: '/api/addresses', payload: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toEqual({
      addressLine1: 'Address line 1 is required',
      city: 'City is required',
      state: 'State is required',
      zipCode: 'ZIP code is required',
    });
    const bad = await as(t, buyer, {
      method: 'POST',
      url: '/api/addresses',
      payload: { addressLine1: '  ', city: ' ', state: 'Narnia', zipCode: '6270', country: 'CA' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({
      addressLine1: 'Address line 1 is required',
      city: 'City is required',
      state: 'State must be a US state, for example IL',
      zipCode: 'ZIP code must be 5 digits or ZIP+4',
      country: 'Only US addresses are supported',
    });
    expect(await listAddresses(buyer)).toEqual([]);
  });

  it('removes invisible characters and refuses direction-changing ones (docs/rules/running.md, Bad input and failure)', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const bad = await as(t, buyer, {
      method: 'POST',
      url: '/api/addresses',
      payload: { ...springfield, addressLine1: '\u200B\u00AD', city: 'Spring\u202Efield' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({
      addressLine1: 'Address line 1 is required',
      city: DIRECTION_CONTROL_MESSAGE,
    });
    expect(await listAddresses(buyer)).toEqual([]);
    const saved = await createAddress(buyer, {
      ...springfield,
      city: 'Spring\u200Bfield',
      addressLine2: '\uFEFF',
    });
    expect(saved).toMatchObject({ city: 'Springfield', addressLine2: null });
  });

  it('refuses id, userId, coordinates, isVerified and isPrimary (mass assignment)', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const other = await signedInAs(t, 'buyer');
    const response = await as(t, buyer, {
      method: 'POST',
      url: '/api/addresses',
      payload: {
        ...unknownZip,
        id: UNKNOWN_ID,
        userId: other.id,
        latitude: 1,
        longitude: 2,
        isVerified: true,
        isPrimary: false,
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({
      'id,userId,latitude,longitude,isVerified,isPrimary': expect.any(String),
    });
    expect(await listAddresses(buyer)).toEqual([]);
    expect(await listAddresses(other)).toEqual([]);
  });

  it(`limits a user to ${MAX_ADDRESSES_PER_USER} addresses`, async () => {
    const buyer = await signedInAs(t, 'buyer');
    for (let i = 0; i < MAX_ADDRESSES_PER_USER; i++)
      await createAddress(buyer, { ...unknownZip, addressLine1: `${i} Elm St` });
    const response = await as(t, buyer, { method: 'POST', url: '/api/addresses', payload: springfield });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(
      `You can save at most ${MAX_ADDRESSES_PER_USER} addresses. Delete one first.`,
    );
  });

  it('makes exactly one of many concurrent first addresses primary', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const created = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        as(t, buyer, {
          method: 'POST',
          url: '/api/addresses',
          payload: { ...springfield, addressLine1: `${i} Oak St` },
        }),
      ),
    );
    expect(created.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect(await primaryCount(buyer.id)).toBe(1);
  });
});

describe('GET /api/addresses', () => {
  it('lists own addresses only, primary first, then newest', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const other = await signedInAs(t, 'buyer');
    await createAddress(other, chicago);
    const first = await createAddress(buyer, springfield);
    const second = await createAddress(buyer, chicago);
    const third = await createAddress(buyer, unknownZip);
    const list = await listAddresses(buyer);
    expect(list.map((a) => a.id)).toEqual([first.id, third.id, second.id]);
    expect(list.every((a) => a.userId === buyer.id)).toBe(true);
  });
});

describe('PATCH /api/addresses/{id}', () => {
  it('edits own address and locates it again when it changes', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const address = await createAddress(buyer, unknownZip);
    const { validationToken } = await validate(buyer, {
      ...unknownZip,
      city: 'chicago',
      zipCode: '60601',
      addressLine2: 'Apt 4',
    });
    const response = await as(t, buyer, {
      method: 'PATCH',
      url: `/api/addresses/${address.id}`,
      payload: { city: 'chicago', zipCode: '60601', addressLine2: 'Apt 4', validationToken },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: address.id,
      addressLine1: '9 Nowhere Rd',
      addressLine2: 'Apt 4',
      city: 'Chicago',
      zipCode: '60601',
      latitude: 41.8858,
      isVerified: true,
      isPrimary: true,
    });
    const cleared = await as(t, buyer, {
      method: 'PATCH',
      url: `/api/addresses/${address.id}`,
      payload: { addressLine2: null, zipCode: '00000' },
    });
    expect(cleared.json()).toMatchObject({
      addressLine2: null,
      latitude: null,
      longitude: null,
      isVerified: false,
    });
  });

  it('clears isVerified when a verified address is edited without a new validation', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const address = await createValidatedAddress(buyer, springfield);
    expect(address.isVerified).toBe(true);
    const edited = await as(t, buyer, {
      method: 'PATCH',
      url: `/api/addresses/${address.id}`,
      payload: { addressLine1: '10 Main St' },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ addressLine1: '10 Main St', isVerified: false, latitude: 39.8 });
    // The old proof speaks for the old fields only.
    const { validationToken: oldProof } = await validate(buyer, springfield);
    const stale = await as(t, buyer, {
      method: 'PATCH',
      url: `/api/addresses/${address.id}`,
      payload: { city: 'Springfield', validationToken: oldProof },
    });
    expect(stale.json()).toMatchObject({ isVerified: false });
    // Validating the fields as they are now, and sending the proof along, verifies them again.
    const { validationToken } = await validate(buyer, { ...springfield, addressLine1: '10 Main St' });
    const verified = await as(t, buyer, {
      method: 'PATCH',
      url: `/api/addresses/${address.id}`,
      payload: { validationToken },
    });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ addressLine1: '10 Main St', isVerified: true });
  });

  it('keeps the coordinates when nothing changes', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const address = await createValidatedAddress(buyer, springfield);
    const response = await as(t, buyer, {
      method: 'PATCH',
      url: `/api/addresses/${address.id}`,
      payload: { ...springfield },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ latitude: 39.8, isVerified: true, updatedAt: address.updatedAt });
  });

  it('answers 400 per field and refuses server-owned fields', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const address = await createAddress(buyer, springfield);
    const bad = await as(t, buyer, {
      method: 'PATCH',
      url: `/api/addresses/${address.id}`,
      payload: { city: '', zipCode: 'abcde' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({
      city: 'City is required',
      zipCode: 'ZIP code must be 5 digits or ZIP+4',
    });
    const massAssign = await as(t, buyer, {
      method: 'PATCH',
      url: `/api/addresses/${address.id}`,
      payload: { city: 'Chicago', isPrimary: false, isVerified: true, latitude: 0, userId: UNKNOWN_ID },
    });
    expect(massAssign.statusCode).toBe(400);
    expect(Object.keys(massAssign.json().fields)).toEqual(['isPrimary,isVerified,latitude,userId']);
    const [unchanged] = await listAddresses(buyer);
    expect(unchanged).toMatchObject({ city: 'Springfield', isPrimary: true, latitude: 39.8 });
  });
});

describe("another user's address", () => {
  it('is a 404 for PATCH, DELETE and set-primary, and stays untouched', async () => {
    const owner = await signedInAs(t, 'buyer');
    const intruder = await signedInAs(t, 'admin');
    await createAddress(owner, springfield);
    const address = await createAddress(owner, chicago);
    const calls = [
      { method: 'PATCH', url: `/api/addresses/${address.id}`, payload: { city: 'Evanston' } },
      { method: 'DELETE', url: `/api/addresses/${address.id}` },
      { method: 'POST', url: `/api/addresses/${address.id}/set-primary` },
    ] as const;
    for (const call of calls) {
      const response = await as(t, intruder, call);
      expect(response.statusCode, call.method).toBe(404);
      expect(response.json()).toMatchObject({ code: 'not_found', message: 'Address not found' });
    }
    const list = await listAddresses(owner);
    expect(list).toHaveLength(2);
    expect(list.find((a) => a.id === address.id)).toMatchObject({ city: 'Chicago', isPrimary: false });
  });

  it('is as unknown as an id that does not exist, and a malformed id is a 400', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const missing = await as(t, buyer, { method: 'DELETE', url: `/api/addresses/${UNKNOWN_ID}` });
    expect(missing.statusCode).toBe(404);
    const malformed = await as(t, buyer, { method: 'POST', url: '/api/addresses/not-an-id/set-primary' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().fields).toEqual({ id: 'Must be a valid id' });
  });
});

describe('DELETE /api/addresses/{id}', () => {
  it('deletes a non-primary address and leaves the primary alone', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const primary = await createAddress(buyer, springfield);
    const other = await createAddress(buyer, chicago);
    const response = await as(t, buyer, { method: 'DELETE', url: `/api/addresses/${other.id}` });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await listAddresses(buyer)).map((a) => [a.id, a.isPrimary])).toEqual([[primary.id, true]]);
  });

  it('promotes the newest remaining address when the primary is deleted', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const primary = await createAddress(buyer, springfield);
    const older = await createAddress(buyer, chicago);
    const newest = await createAddress(buyer, unknownZip);
    await as(t, buyer, { method: 'DELETE', url: `/api/addresses/${primary.id}` });
    const list = await listAddresses(buyer);
    expect(list.map((a) => [a.id, a.isPrimary])).toEqual([
      [newest.id, true],
      [older.id, false],
    ]);
    await as(t, buyer, { method: 'DELETE', url: `/api/addresses/${newest.id}` });
    await as(t, buyer, { method: 'DELETE', url: `/api/addresses/${older.id}` });
    expect(await listAddresses(buyer)).toEqual([]);
    const again = await createAddress(buyer, chicago);
    expect(again.isPrimary).toBe(true);
  });
});

describe('POST /api/addresses/{id}/set-primary', () => {
  it('moves the primary flag', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const first = await createAddress(buyer, springfield);
    const second = await createAddress(buyer, chicago);
    const response = await as(t, buyer, { method: 'POST', url: `/api/addresses/${second.id}/set-primary` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: second.id, isPrimary: true });
    const list = await listAddresses(buyer);
    expect(list.map((a) => [a.id, a.isPrimary])).toEqual([
      [second.id, true],
      [first.id, false],
    ]);
    const again = await as(t, buyer, { method: 'POST', url: `/api/addresses/${second.id}/set-primary` });
    expect(again.json()).toMatchObject({ id: second.id, isPrimary: true });
  });

  it('leaves exactly one primary under 10 concurrent requests, without a 5xx', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const created: AddressJson[] = [];
    for (let i = 0; i < 10; i++)
      created.push(await createAddress(buyer, { ...springfield, addressLine1: `${i} Pine St` }));
    const responses = await Promise.all(
      created.map((a) => as(t, buyer, { method: 'POST', url: `/api/addresses/${a.id}/set-primary` })),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(await primaryCount(buyer.id)).toBe(1);
  });

  it('keeps exactly one primary while set-primary and deletes race', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const created: AddressJson[] = [];
    for (let i = 0; i < 8; i++)
      created.push(await createAddress(buyer, { ...chicago, addressLine1: `${i} Birch St` }));
    const responses = await Promise.all(
      created.map((a, i) =>
        as(t, buyer, {
          method: i % 2 === 0 ? 'DELETE' : 'POST',
          url: i % 2 === 0 ? `/api/addresses/${a.id}` : `/api/addresses/${a.id}/set-primary`,
        }),
      ),
    );
    expect(responses.every((r) => r.statusCode === 200 || r.statusCode === 204)).toBe(true);
    expect(await listAddresses(buyer)).toHaveLength(4);
    expect(await primaryCount(buyer.id)).toBe(1);
  });
});

describe('POST /api/addresses/validate', () => {
  it('normalises the fields and answers the coordinates', async () => {
    const driver = await signedInAs(t, 'driver');
    const response = await as(t, driver, {
      method: 'POST',
      url: '/api/addresses/validate',
      payload: {
        addressLine1: '1 main st',
        addressLine2: '',
        city: 'springfield',
        state: 'il',
        zipCode: '62701',
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'success',
      addressLine1: '1 main st',
      addressLine2: null,
      city: 'Springfield',
      state: 'IL',
      zipCode: '62701',
      latitude: 39.8,
      longitude: -89.6495,
      isVerified: true,
      validationToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(await listAddresses(driver)).toEqual([]);
  });

  it("answers 'unavailable' (a 200) for an unknown ZIP", async () => {
    const buyer = await signedInAs(t, 'buyer');
    const response = await as(t, buyer, {
      method: 'POST',
      url: '/api/addresses/validate',
      payload: unknownZip,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'unavailable',
      addressLine1: '9 Nowhere Rd',
      addressLine2: null,
      city: 'Nowhere',
      state: 'IL',
      zipCode: '00000',
      latitude: null,
      longitude: null,
      isVerified: false,
      validationToken: null,
    });
  });

  it('needs addressLine1, city, state and zipCode', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const response = await as(t, buyer, {
      method: 'POST',
      url: '/api/addresses/validate',
      payload: { zipCode: '62701' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({
      addressLine1: 'Address line 1 is required',
      city: 'City is required',
      state: 'State is required',
    });
  });
});

describe('GET /api/addresses/primary/{sellerId}', () => {
  it("answers a seller's primary address as the pickup address", async () => {
    const seller = await signedInAs(t, 'seller');
    const buyer = await signedInAs(t, 'buyer');
    await createAddress(seller, unknownZip);
    const pickup = await createAddress(seller, chicago);
    await as(t, seller, { method: 'POST', url: `/api/addresses/${pickup.id}/set-primary` });
    const response = await as(t, buyer, { method: 'GET', url: `/api/addresses/primary/${seller.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      addressLine1: '233 S Wacker Dr',
      addressLine2: 'Suite 100',
      city: 'Chicago',
      state: 'IL',
      zipCode: '60601',
      latitude: 41.8858,
      longitude: -87.6181,
    });
  });

  it("is 404 'Pickup address not available' without a primary address, for a non-seller and an unknown id", async () => {
    const seller = await signedInAs(t, 'seller');
    const otherBuyer = await signedInAs(t, 'buyer');
    await createAddress(otherBuyer, springfield);
    const buyer = await signedInAs(t, 'buyer');
    for (const id of [seller.id, otherBuyer.id, UNKNOWN_ID]) {
      const response = await as(t, buyer, { method: 'GET', url: `/api/addresses/primary/${id}` });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'not_found', message: 'Pickup address not available' });
    }
    const malformed = await as(t, buyer, { method: 'GET', url: '/api/addresses/primary/123' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().fields).toEqual({ sellerId: 'Must be a valid id' });
  });
});

describe('a failing geocoder', () => {
  let broken: TestApp;
  beforeAll(async () => {
    const geocoder: Geocoder = { geocode: () => Promise.reject(new Error('geocoding service down')) };
    broken = await createTestApp({ geocoder });
  });
  afterAll(async () => {
    await broken.close();
  });

  it('still lets an address be saved and validated, as unavailable', async () => {
    const buyer = await signedInAs(broken, 'buyer');
    const validated = await as(broken, buyer, {
      method: 'POST',
      url: '/api/addresses/validate',
      payload: springfield,
    });
    expect(validated.statusCode).toBe(200);
    expect(validated.json()).toMatchObject({ status: 'unavailable', latitude: null, isVerified: false });
    const saved = await as(broken, buyer, { method: 'POST', url: '/api/addresses', payload: springfield });
    expect(saved.statusCode).toBe(201);
    expect(saved.json()).toMatchObject({
      latitude: null,
      longitude: null,
      isVerified: false,
      isPrimary: true,
    });
    expect(broken.statuses.filter((s) => s >= 500)).toEqual([]);
  });
});

describe('OpenAPI', () => {
  it('documents every address call with its schemas', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const paths = response.json<{ paths: Record<string, Record<string, unknown>> }>().paths;
    expect(Object.keys(paths['/api/addresses'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/api/addresses/{id}'] ?? {}).sort()).toEqual(['delete', 'patch']);
    expect(paths['/api/addresses/{id}/set-primary']).toHaveProperty('post');
    expect(paths['/api/addresses/validate']).toHaveProperty('post');
    expect(paths['/api/addresses/primary/{sellerId}']).toHaveProperty('get');
  });
});

describe('an address saved after "Validation unavailable" (docs/rules/catalog-and-orders.md, Addresses, availability and slots)', () => {
  let flaky: TestApp;
  let isDown = true;
  beforeAll(async () => {
    const real = new ZipCentroidGeocoder();
    // The geocoder is down while the user presses Validate, and back by the time they save.
    const geocoder: Geocoder = {
      geocode: (input) =>
        isDown ? Promise.reject(new Error('geocoding service down')) : real.geocode(input),
    };
    flaky = await createTestApp({ geocoder });
  });
  afterAll(async () => {
    await flaky.close();
  });

  it('is not verified, though saving found its coordinates', async () => {
    const buyer = await signedInAs(flaky, 'buyer');
    isDown = true;
    const validated = await as(flaky, buyer, {
      method: 'POST',
      url: '/api/addresses/validate',
      payload: springfield,
    });
    expect(validated.json()).toMatchObject({
      status: 'unavailable',
      isVerified: false,
      validationToken: null,
    });
    isDown = false;
    const saved = await as(flaky, buyer, {
      method: 'POST',
      url: '/api/addresses',
      payload: { ...springfield, validationToken: validated.json().validationToken },
    });
    expect(saved.statusCode).toBe(201);
    expect(saved.json()).toMatchObject({ latitude: 39.8, isVerified: false });
    expect(flaky.statuses.filter((s) => s >= 500)).toEqual([]);
  });
});
