/**
 * Directions in the map app a driver picks (docs/rules/screens-work.md, Driver dashboard): links only,
 * built in the browser, so no place or position of anyone is sent to us or to a map service until
 * the driver opens one.
 */
export const MAP_APPS = [
  { id: 'google', name: 'Google Maps' },
  { id: 'apple', name: 'Apple Maps' },
  { id: 'waze', name: 'Waze' },
  { id: 'osm', name: 'OpenStreetMap' },
] as const;

export type MapAppId = (typeof MAP_APPS)[number]['id'];

/** A point (coordinates) or, when the point is not known, an address the map app looks up. */
export type Place = { latitude: number; longitude: number } | { text: string };

const isMapApp = (value: unknown): value is MapAppId => MAP_APPS.some((app) => app.id === value);

/** The stored choice, else Google Maps. */
export function mapAppOf(stored: string | null | undefined): MapAppId {
  return isMapApp(stored) ? stored : 'google';
}

export function mapAppName(id: MapAppId): string {
  return MAP_APPS.find((app) => app.id === id)?.name ?? 'Google Maps';
}

const asText = (place: Place) =>
  'text' in place ? place.text : `${place.latitude.toFixed(6)},${place.longitude.toFixed(6)}`;

/**
 * A driving route to `to` in the chosen app, from `from` when given, else from wherever the phone
 * is (each app asks for the position itself). Waze always starts where the phone is.
 */
export function directionsLink(app: MapAppId, { from, to }: { from?: Place | null; to: Place }): string {
  const params = new URLSearchParams();
  switch (app) {
    case 'google':
      params.set('api', '1');
      if (from) params.set('origin', asText(from));
      params.set('destination', asText(to));
      params.set('travelmode', 'driving');
      return `https://www.google.com/maps/dir/?${params.toString()}`;
    case 'apple':
      if (from) params.set('saddr', asText(from));
      params.set('daddr', asText(to));
      params.set('dirflg', 'd');
      return `https://maps.apple.com/?${params.toString()}`;
    case 'waze':
      if ('text' in to) params.set('q', to.text);
      else params.set('ll', asText(to));
      params.set('navigate', 'yes');
      return `https://waze.com/ul?${params.toString()}`;
    case 'osm':
      params.set('engine', 'fossgis_osrm_car');
      params.set('from', from ? asText(from) : '');
      params.set('to', asText(to));
      return `https://www.openstreetmap.org/directions?${params.toString()}`;
  }
}
