import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { normaliseUsState, normaliseZipCode } from '../../../domain/addresses';
import type { GeocodeInput, GeocodeResult, Geocoder } from './geocoder';

interface ZipPlace {
  latitude: number;
  longitude: number;
  city: string;
  state: string;
}

/** A US ZIP code's entry in the package's data: `"zip":"60601","latitude":41.8858,...,"country":"US"`. */
const US_ENTRY =
  /"zip":"(\d{5})","latitude":(-?[\d.]+),"longitude":(-?[\d.]+),"city":"([^"]*)","state":"([A-Z]{2})","country":"US"/g;

let places: Map<string, ZipPlace> | undefined;

/**
 * The US ZIP codes of the `zipcodes` package, read once on first use as data: evaluating the
 * package's 5 MB of JavaScript object literals costs the server about 86 MB resident, reading the
 * same file as text about 35 MB (docs/decisions/0016-embedded-database-process.md, Memory).
 */
function usPlaces(): Map<string, ZipPlace> {
  if (places) return places;
  const require = createRequire(import.meta.url);
  const file = path.join(path.dirname(require.resolve('zipcodes')), 'codes.js');
  const found = new Map<string, ZipPlace>();
  for (const m of fs.readFileSync(file, 'utf8').matchAll(US_ENTRY)) {
    const [, zip = '', latitude = '', longitude = '', city = '', state = ''] = m;
    // Copies, not slices that would keep the whole file's text alive.
    found.set(zip, {
      latitude: Number(latitude),
      longitude: Number(longitude),
      city: [...city].join(''),
      state,
    });
  }
  if (found.size < 40_000) throw new Error(`The zipcodes data in ${file} is not in the expected form`);
  places = found;
  return found;
}

/**
 * The embedded default (docs/rules/running.md, Running modes and adapters): the centroid of the ZIP
 * code from the `zipcodes` data package, offline. See docs/decisions/0005-geocoding.md for what
 * counts as verified.
 */
export class ZipCentroidGeocoder implements Geocoder {
  async geocode(address: GeocodeInput): Promise<GeocodeResult | null> {
    if (address.country.trim().toUpperCase() !== 'US') return null;
    const zipCode = normaliseZipCode(address.zipCode);
    const zip5 = /^\d{5}/.exec(zipCode)?.[0];
    if (!zip5) return null;
    const place = usPlaces().get(zip5);
    if (!place) return null;
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
