import { describe, expect, it } from 'vitest';
import { ZipCentroidGeocoder } from './zip-centroid-geocoder';

const geocoder = new ZipCentroidGeocoder();
const base = { addressLine1: '1 Main St', addressLine2: null, country: 'US' };

describe('ZipCentroidGeocoder', () => {
  it('normalises city, state and ZIP and gives the ZIP centroid', async () => {
    const result = await geocoder.geocode({ ...base, city: 'springfield', state: 'il', zipCode: '62701' });
    expect(result).toEqual({
      addressLine1: '1 Main St',
      addressLine2: null,
      city: 'Springfield',
      state: 'IL',
      zipCode: '62701',
      latitude: 39.8,
      longitude: -89.6495,
      isVerified: true,
    });
  });

  it('keeps the +4 of a ZIP+4 and accepts a full state name', async () => {
    const result = await geocoder.geocode({
      ...base,
      city: 'CHICAGO',
      state: 'Illinois',
      zipCode: '606011234',
    });
    expect(result).toMatchObject({ city: 'Chicago', state: 'IL', zipCode: '60601-1234', isVerified: true });
    expect(result?.latitude).toBeCloseTo(41.8858, 4);
  });

  it('keeps a city name the data does not use', async () => {
    const result = await geocoder.geocode({ ...base, city: 'Downtown', state: 'IL', zipCode: '62701' });
    expect(result).toMatchObject({ city: 'Downtown', isVerified: true });
  });

  it('does not verify a ZIP of another state but still locates it', async () => {
    const result = await geocoder.geocode({ ...base, city: 'Springfield', state: 'MO', zipCode: '62701' });
    expect(result).toMatchObject({ state: 'MO', isVerified: false, latitude: 39.8, longitude: -89.6495 });
  });

  it('answers null for an unknown ZIP, a malformed one and other countries', async () => {
    expect(await geocoder.geocode({ ...base, city: 'Nowhere', state: 'IL', zipCode: '00000' })).toBeNull();
    expect(await geocoder.geocode({ ...base, city: 'Ottawa', state: 'ON', zipCode: 'K1A0B1' })).toBeNull();
    expect(
      await geocoder.geocode({ ...base, country: 'CA', city: 'X', state: 'IL', zipCode: '62701' }),
    ).toBeNull();
  });
});
