// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '../../../app/providers';
import { setMarketplaceTimeZone } from '../../../lib/format';
import { installDomStubs, jsonResponse, mockFetch, renderWithProviders } from '../../../test-support/render';
import { PickupTimeSection } from './pickup-time-section';

installDomStubs();

const SELLER = { sellerId: 's1', sellerName: 'Sol Seller', pickupAddress: null };

/** Monday after the clocks went back (Sunday 2026-11-01, 2:00 AM in Chicago): Central Standard Time. */
const MONDAY_SLOTS = [
  { datetime: '2026-11-02T15:00:00.000Z', label: 'Mon, Nov 2 · 9:00 AM' },
  { datetime: '2026-11-02T15:30:00.000Z', label: 'Mon, Nov 2 · 9:30 AM' },
];

describe('PickupTimeSection (docs/rules/running.md, Dates and times)', () => {
  beforeEach(() => {
    setMarketplaceTimeZone('America/Chicago');
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => vi.useRealTimers());

  it("names the zone's abbreviation of the times it lists, not of the moment it is read", async () => {
    // Saturday afternoon, still daylight time (CDT); the first times offered are Monday's (CST).
    vi.setSystemTime(new Date('2026-10-31T18:00:00.000Z'));
    mockFetch((url) => (url === '/api/availability/slots/s1' ? jsonResponse(MONDAY_SLOTS) : undefined));
    renderWithProviders(<PickupTimeSection sellers={[SELLER]} pickupTimes={{}} onChange={() => {}} />);
    expect(await screen.findByTestId('text-pickup-zone-s1')).toHaveTextContent(
      "Times are in Central Time (CST), the marketplace's time zone.",
    );
  });

  it('follows the chosen time', async () => {
    vi.setSystemTime(new Date('2026-10-31T18:00:00.000Z'));
    const saturday = { datetime: '2026-10-31T20:00:00.000Z', label: 'Sat, Oct 31 · 3:00 PM' };
    mockFetch((url) =>
      url === '/api/availability/slots/s1' ? jsonResponse([saturday, ...MONDAY_SLOTS]) : undefined,
    );
    const { rerender, client } = renderWithProviders(
      <PickupTimeSection sellers={[SELLER]} pickupTimes={{}} onChange={() => {}} />,
    );
    expect(await screen.findByTestId('text-pickup-zone-s1')).toHaveTextContent('Central Time (CDT)');
    rerender(
      <Providers client={client}>
        <PickupTimeSection
          sellers={[SELLER]}
          pickupTimes={{ s1: MONDAY_SLOTS[1]?.datetime ?? '' }}
          onChange={() => {}}
        />
      </Providers>,
    );
    expect(screen.getByTestId('text-pickup-zone-s1')).toHaveTextContent('Central Time (CST)');
  });
});
