// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { asDriverSeesIt, DRIVER_ID, makeOrder } from '../testing/order-fixtures';
import { DirectionsPanel } from './directions-panel';

const order = asDriverSeesIt(
  makeOrder({
    id: '10000000-0000-4000-8000-000000000021',
    status: 'assigned',
    driverId: DRIVER_ID,
    deliveryAddress: '1060 W Addison St, Chicago, IL 60613',
    pickupAddress: {
      addressLine1: '100 Oakbrook Center',
      addressLine2: null,
      city: 'Oak Brook',
      state: 'IL',
      zipCode: '60523',
      latitude: 41.85,
      longitude: -87.95,
    },
  }),
);

const hrefOf = (name: RegExp) => new URL(screen.getByRole('link', { name }).getAttribute('href') ?? '');

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Directions (docs/rules/screens-work.md, Driver dashboard)', () => {
  it('routes to the pickup from the phone, then from the pickup to the drop-off, in Google Maps first', () => {
    render(<DirectionsPanel order={order} />);
    const toPickup = hrefOf(/To pickup/);
    expect(toPickup.hostname).toBe('www.google.com');
    expect(toPickup.searchParams.get('origin')).toBeNull();
    expect(toPickup.searchParams.get('destination')).toBe('41.850000,-87.950000');
    const toDropOff = hrefOf(/To drop-off/);
    expect(toDropOff.searchParams.get('origin')).toBe('41.850000,-87.950000');
    expect(toDropOff.searchParams.get('destination')).toBe('1060 W Addison St, Chicago, IL 60613');
  });

  it('keeps the map app the driver picks on this device', async () => {
    const user = userEvent.setup();
    const { unmount } = render(<DirectionsPanel order={order} />);
    await user.selectOptions(screen.getByLabelText('Map app'), 'Waze');
    expect(hrefOf(/To pickup/).hostname).toBe('waze.com');
    expect(screen.getByRole('link', { name: /To pickup/ })).toHaveAccessibleName(/opens Waze in a new tab/);
    unmount();
    render(<DirectionsPanel order={order} />);
    expect(screen.getByLabelText('Map app')).toHaveValue('waze');
    expect(hrefOf(/To drop-off/).searchParams.get('q')).toBe('1060 W Addison St, Chicago, IL 60613');
  });

  it('asks for the position only when pressed, and starts the routes there', async () => {
    const getCurrentPosition = vi.fn((ok: PositionCallback) =>
      ok({ coords: { latitude: 41.88, longitude: -87.63 } } as GeolocationPosition),
    );
    vi.stubGlobal('navigator', { ...navigator, geolocation: { getCurrentPosition } });
    const user = userEvent.setup();
    render(<DirectionsPanel order={order} />);
    expect(getCurrentPosition).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Use my location' }));
    expect(screen.getByText('Routes start from your location.')).toBeVisible();
    expect(hrefOf(/To pickup/).searchParams.get('origin')).toBe('41.880000,-87.630000');
    expect(hrefOf(/To drop-off/).searchParams.get('origin')).toBe('41.880000,-87.630000');
  });

  it('says so when the position is refused, and the links still work', async () => {
    const getCurrentPosition = vi.fn((_ok: PositionCallback, fail?: PositionErrorCallback | null) =>
      fail?.({ code: 1, message: 'denied' } as GeolocationPositionError),
    );
    vi.stubGlobal('navigator', { ...navigator, geolocation: { getCurrentPosition } });
    const user = userEvent.setup();
    render(<DirectionsPanel order={order} />);
    await user.click(screen.getByRole('button', { name: 'Use my location' }));
    expect(screen.getByRole('status')).toHaveTextContent(
      'Location not shared: Google Maps starts from where your phone is.',
    );
    expect(hrefOf(/To pickup/).searchParams.get('origin')).toBeNull();
  });
});
