// @vitest-environment jsdom
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order } from '@domain/orders';
import { setMarketplaceTimeZone } from '../../../lib/format';
import { installDomStubs, renderWithProviders } from '../../../test-support/render';
import { ArrivalTimeEditor } from './arrival-time-editor';

installDomStubs();

/** An order the driver has taken, with no arrival time yet. */
const ORDER: Order = {
  id: 'o1',
  orderNumber: 'ORD-7F3K9Q',
  status: 'assigned',
  refundState: 'none',
  isPickup: false,
  sellerDelivery: false,
  requiresTrailer: false,
  sellerId: 's1',
  buyerId: 'b1',
  driverId: 'd1',
  pickupAddress: null,
  deliveryAddress: '1 Main St, Chicago, IL 60601',
  deliveryNotes: null,
  scheduledPickupTime: null,
  estimatedDeliveryTime: null,
  createdAt: '2026-10-31T17:00:00.000Z',
  updatedAt: '2026-10-31T17:30:00.000Z',
  deliveryPhotoUrl: null,
  deliveredAt: null,
  dropOffPhotoUrl: null,
  deliveryCodeConfirmed: false,
  dropOffPlace: null,
  itemCount: 1,
  driverEarnings: '8.00',
  dispute: null,
};

describe('ArrivalTimeEditor (docs/rules/running.md, Dates and times)', () => {
  beforeEach(() => {
    setMarketplaceTimeZone('America/Chicago');
    vi.useFakeTimers({ toFake: ['Date'] });
    // Saturday afternoon before the clocks go back (Sunday 2026-11-01, 2:00 AM): daylight time.
    vi.setSystemTime(new Date('2026-10-31T18:00:00.000Z'));
  });
  afterEach(() => vi.useRealTimers());

  it("names the zone's abbreviation of the time entered, not of today", () => {
    renderWithProviders(<ArrivalTimeEditor order={ORDER} />);
    expect(screen.getByText('Central Time (CDT)')).toBeVisible();
    fireEvent.change(screen.getByTestId('input-arrival-time'), { target: { value: '2026-11-02T10:00' } });
    expect(screen.getByText('Central Time (CST)')).toBeVisible();
  });

  it('leaves the field empty while no time is set, and shows the time once one is', () => {
    const { unmount } = renderWithProviders(<ArrivalTimeEditor order={ORDER} />);
    expect(screen.getByTestId('text-current-arrival')).toHaveTextContent('Not set yet');
    expect(screen.getByTestId('input-arrival-time')).toHaveValue('');
    unmount();
    renderWithProviders(
      <ArrivalTimeEditor order={{ ...ORDER, estimatedDeliveryTime: '2026-10-31T20:15:00.000Z' }} />,
    );
    expect(screen.getByTestId('text-current-arrival')).not.toHaveTextContent('Not set yet');
    expect(screen.getByTestId('input-arrival-time')).toHaveValue('2026-10-31T15:15');
  });

  it('asks for a time when Save is pressed with the field empty', () => {
    renderWithProviders(<ArrivalTimeEditor order={ORDER} />);
    fireEvent.click(screen.getByTestId('button-save-arrival'));
    expect(screen.getByTestId('error-arrival-time')).toHaveTextContent('Arrival time needs a value');
  });
});
