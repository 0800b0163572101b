import { lookup } from 'zipcodes';
import { normaliseUsState, normaliseZipCode } from '../../../domain/addresses';
import type { GeocodeInput, GeocodeResult, Geocoder } from './geocoder';

/**
 * The embedded default (docs/product-rules.md, Running modes and adapters): the centroid of the ZIP
 * code from the `zipcodes` data package, offline. See docs/decisions/0005-geocoding.md for what
 * counts as verified.
 */
export class ZipCentroidGeocoder implements Geocoder {
  async geocode(address: GeocodeInput): Promise<GeocodeResult | null> {
    if (address.country.trim().toUpperCase() !== 'US') return null;
    const zipCode = normaliseZipCode(address.zipCode);
    const zip5 = /^\d{5}/.exec(zipCode)?.[0];
    if (!zip5) return null;
    const place = lookup(zip5);
    if (!place || place.country !== 'US') return null;
    const state = normaliseUsState(address.state).toUpperCase();
    const city = address.city.trim();
    return {
      addressLine1: address.addressLine1.trim(),
      addressLine2: address.addressLine2?.trim() || null,
      // The data's spelling when it names the same city ('springfield' -> 'Springfield'); a
      // different name (a neighbourhood, an acceptable alternate name) is kept as typed.
      city: city.toLowerCase() === place.city.toLowerCase() ? place.city : city,
      state,
      zipCode,
      latitude: place.latitude,
      longitude: place.longitude,
      isVerified: state === place.state,
    };
  }
}
