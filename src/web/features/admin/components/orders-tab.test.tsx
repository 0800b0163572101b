// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminOrder } from '@domain/admin';
import { installDomStubs, jsonResponse, mockFetch, renderWithProviders } from '../../../test-support/render';
import { OrdersTab } from './orders-tab';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

function order(n: number, overrides: Partial<AdminOrder> = {}): AdminOrder {
  return {
    id: `40000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    orderNumber: `ORD-${n}`,
    status: 'pending',
    isPickup: false,
    sellerDelivery: false,
    total: '24.50',
    platformFee: '2.45',
    buyerName: 'Bea Buyer',
    sellerName: 'Sam Seller',
    flag: null,
    createdAt: '2026-11-20T16:00:00.000Z',
    ...overrides,
  };
}

const pageOf = (...items: AdminOrder[]) => ({
  items,
  total: items.length,
  page: 1,
  pageSize: 10,
  pageCount: 1,
  totalIsLowerBound: false,
});

function ordersServer() {
  return mockFetch((url) =>
    url.startsWith('/api/admin/orders?')
      ? jsonResponse(pageOf(order(1, { flag: 'Seller suspended' }), order(2)))
      : undefined,
  );
}

const asked = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/admin/orders?'));

describe('the admin orders list (docs/rules/screens-work.md, Admin screens)', () => {
  it('shows the flag of an order whose party is suspended', async () => {
    ordersServer();
    renderWithProviders(<OrdersTab renderDetails={() => null} />);
    const flagged = await screen.findByRole('button', { name: /^ORD-1(?!\d)/ });
    expect(within(flagged).getByText('Seller suspended')).toBeVisible();
    expect(
      within(screen.getByRole('button', { name: /^ORD-2(?!\d)/ })).queryByText('Seller suspended'),
    ).toBeNull();
  });

  it('searches by buyer, seller, driver and the days placed on, and exports the same', async () => {
    const fetchMock = ordersServer();
    renderWithProviders(<OrdersTab renderDetails={() => null} />);
    const user = userEvent.setup();
    await screen.findByRole('button', { name: /^ORD-1(?!\d)/ });

    await user.type(screen.getByRole('searchbox', { name: 'Buyer' }), 'bea');
    await user.type(screen.getByRole('searchbox', { name: 'Seller' }), ' sam@example.com ');
    await user.type(screen.getByRole('searchbox', { name: 'Driver' }), 'dan');
    await user.type(screen.getByLabelText('Placed from'), '2026-11-01');
    await user.type(screen.getByLabelText('Placed to'), '2026-11-30');

    const expected = 'status=all&buyer=bea&seller=sam%40example.com&driver=dan&from=2026-11-01&to=2026-11-30';
    await waitFor(() => expect(asked(fetchMock)).toContain(`/api/admin/orders?${expected}&page=1`));
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      `/api/admin/orders.csv?${expected}`,
    );
  });

  it('says when the last day is before the first, and does not send it', async () => {
    const fetchMock = ordersServer();
    renderWithProviders(<OrdersTab renderDetails={() => null} />);
    const user = userEvent.setup();
    await screen.findByRole('button', { name: /^ORD-1(?!\d)/ });

    await user.type(screen.getByLabelText('Placed from'), '2026-11-20');
    await user.type(screen.getByLabelText('Placed to'), '2026-11-10');
    const to = screen.getByLabelText('Placed to');
    expect(to).toHaveAttribute('aria-invalid', 'true');
    expect(to).toHaveAccessibleDescription('Must be on or after the from date');
    await waitFor(() =>
      expect(asked(fetchMock)).toContain('/api/admin/orders?status=all&from=2026-11-20&page=1'),
    );
    expect(asked(fetchMock).some((url) => url.includes('to='))).toBe(false);
  });
});
