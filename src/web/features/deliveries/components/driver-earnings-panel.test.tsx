// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DriverEarnings, DriverTrip } from '@domain/deliveries';
import { installDomStubs, jsonResponse, mockFetch, renderWithProviders } from '../../../test-support/render';
import { DriverEarningsPanel } from './driver-earnings-panel';
import { DriverStats } from './driver-stats';

installDomStubs();
// The canvas chart needs a browser (uPlot reads matchMedia as it loads); its numbers are in the table.
vi.mock('../../../components/weekly-earnings-chart', () => ({
  WeeklyEarningsChart: () => <div data-testid="chart-weekly-earnings" />,
}));
afterEach(() => vi.unstubAllGlobals());

const earnings: DriverEarnings = {
  totalEarnings: '123.50',
  orderCount: 14,
  today: '18.00',
  thisWeek: '42.50',
  weekly: Array.from({ length: 8 }, (_, index) => ({
    weekStart: `2026-10-${String(5 + index * 7).padStart(2, '0')}`,
    earnings: index === 7 ? '42.50' : '10.00',
    trips: index === 7 ? 3 : 1,
  })).map((week, index) =>
    index > 3 ? { ...week, weekStart: `2026-11-${String(2 + (index - 4) * 7).padStart(2, '0')}` } : week,
  ),
};

const trip = (n: number): DriverTrip => ({
  orderId: `10000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  orderNumber: `ORD-TRIP${String(n).padStart(2, '0')}`,
  deliveredAt: '2026-11-18T15:00:00.000Z',
  pickupCity: 'Oak Brook',
  deliveryCity: 'Chicago',
  distance: n === 1 ? 17.25 : null,
  earnings: '9.00',
});

describe('the Earnings tab (docs/rules/screens-work.md, Driver dashboard)', () => {
  it('shows today, this week, the 8 weeks and each trip, 20 more at a time', async () => {
    const asked: string[] = [];
    mockFetch((url) => {
      asked.push(url);
      if (url === '/api/earnings/driver') return jsonResponse(earnings);
      const limit = /limit=(\d+)/.exec(url)?.[1];
      if (url.startsWith('/api/earnings/driver/trips'))
        return jsonResponse(
          Array.from({ length: Math.min(Number(limit), 25) }, (_, index) => trip(index + 1)),
        );
      return undefined;
    });
    renderWithProviders(
      <>
        <DriverStats activeCount={1} />
        <DriverEarningsPanel />
      </>,
    );
    await waitFor(() => expect(screen.getByRole('region', { name: 'Today' })).toHaveTextContent('$18.00'));
    expect(screen.getByRole('region', { name: 'This Week' })).toHaveTextContent('$42.50');
    expect(screen.getByRole('region', { name: 'Total Earnings (90%)' })).toHaveTextContent('$123.50');
    const table = await screen.findByTestId('table-driver-weekly-earnings');
    expect(await screen.findByTestId('chart-weekly-earnings')).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(9);
    expect(within(table).getAllByRole('row').at(-1)).toHaveTextContent('$42.50');
    expect(screen.getByTestId('text-8-week-total')).toHaveTextContent('$112.50');

    const list = await within(screen.getByRole('region', { name: 'Trips' })).findByRole('list');
    expect(within(list).getAllByRole('listitem')).toHaveLength(20);
    expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent('Oak Brook → Chicago · 17.3 mi');
    expect(within(list).getAllByRole('listitem')[1]).toHaveTextContent('Oak Brook → Chicago');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(25));
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    expect(asked).toContain('/api/earnings/driver/trips?limit=40');
  });
});
