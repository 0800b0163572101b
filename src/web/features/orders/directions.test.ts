import { describe, expect, it } from 'vitest';
import { directionsLink, mapAppOf, MAP_APPS } from './directions';

const pickup = { latitude: 40.7128, longitude: -74.006 };
const dropOff = { text: '12 Elm St, Springfield, IL 62701' };
const here = { latitude: 40.73061, longitude: -73.935242 };

const query = (url: string) => Object.fromEntries(new URL(url).searchParams);

describe('directionsLink', () => {
  it('routes from where the phone is when no start is given, in every app', () => {
    expect(query(directionsLink('google', { to: pickup }))).toEqual({
      api: '1',
      destination: '40.712800,-74.006000',
      travelmode: 'driving',
    });
    expect(query(directionsLink('apple', { to: pickup }))).toEqual({
      daddr: '40.712800,-74.006000',
      dirflg: 'd',
    });
    expect(query(directionsLink('waze', { to: pickup }))).toEqual({
      ll: '40.712800,-74.006000',
      navigate: 'yes',
    });
    expect(query(directionsLink('osm', { to: pickup }))).toMatchObject({
      from: '',
      to: '40.712800,-74.006000',
    });
  });

  it('starts at the shared position, and looks an address up by its text', () => {
    const google = new URL(directionsLink('google', { from: here, to: dropOff }));
    expect(google.origin + google.pathname).toBe('https://www.google.com/maps/dir/');
    expect(query(google.href)).toMatchObject({ origin: '40.730610,-73.935242', destination: dropOff.text });
    expect(query(directionsLink('apple', { from: here, to: dropOff }))).toMatchObject({
      saddr: '40.730610,-73.935242',
      daddr: dropOff.text,
    });
    expect(query(directionsLink('waze', { from: here, to: dropOff }))).toEqual({
      q: dropOff.text,
      navigate: 'yes',
    });
    expect(query(directionsLink('osm', { from: here, to: dropOff }))).toMatchObject({
      from: '40.730610,-73.935242',
      to: dropOff.text,
    });
  });

  it('escapes what an address holds', () => {
    const link = directionsLink('google', { to: { text: 'A&B #4, x=1' } });
    expect(query(link).destination).toBe('A&B #4, x=1');
  });
});

describe('mapAppOf', () => {
  it('keeps a known choice and falls back to Google Maps', () => {
    for (const app of MAP_APPS) expect(mapAppOf(app.id)).toBe(app.id);
    expect(mapAppOf('bing')).toBe('google');
    expect(mapAppOf(null)).toBe('google');
  });
});
