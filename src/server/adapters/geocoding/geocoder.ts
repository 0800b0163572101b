/** The address a geocoder is asked about: the form's fields, already trimmed by the shared schema. */
export interface GeocodeInput {
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  state: string;
  zipCode: string;
  country: string;
}

/** The normalised address and where it is. */
export interface GeocodeResult {
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  /** 2-letter upper-case state code. */
  state: string;
  /** 5 digits, or ZIP+4 as 12345-6789. */
  zipCode: string;
  latitude: number;
  longitude: number;
  /** True when the address is consistent (the ZIP lies in the given state); coordinates are given either way. */
  isVerified: boolean;
}

/**
 * Address validation and coordinates (docs/rules/running.md, Running modes and adapters;
 * docs/rules/catalog-and-orders.md, Addresses, availability and slots): offline US ZIP-code centroids by
 * default, a street-level geocoder by URL in production. Resolves null when the address cannot be located
 * ("unavailable"); the address can still be saved then.
 */
export interface Geocoder {
  geocode(address: GeocodeInput): Promise<GeocodeResult | null>;
}
