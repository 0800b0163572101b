// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  definitionOf,
  installDomStubs,
  jsonResponse,
  mockFetch,
  renderWithProviders,
  type Route,
} from '../../../test-support/render';
import {
  asDriverSeesIt,
  BUYER_ID,
  DRIVER_ID,
  makeEvent,
  makeItem,
  makeOrder,
  SELLER_ID,
} from '../testing/order-fixtures';
import { OrderDetails } from './order-details';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

const profile = (id: string, role: string, firstName: string | null, lastName: string | null) =>
  jsonResponse({
    id,
    firstName,
    lastName,
    profileImageUrl: null,
    role,
    isVerified: role === 'driver',
    createdAt: '2025-06-01T00:00:00.000Z',
  });

const order = makeOrder({
  status: 'in-transit',
  driverId: DRIVER_ID,
  deliveryNotes: 'Leave at the door',
  updatedAt: '2026-03-02T17:00:00.000Z',
});
const events = [
  makeEvent({ toStatus: 'pending', createdAt: '2026-03-02T15:00:00.000Z' }),
  makeEvent({ fromStatus: 'pending', toStatus: 'assigned', createdAt: '2026-03-02T16:00:00.000Z' }),
  makeEvent({ fromStatus: 'assigned', toStatus: 'in-transit', createdAt: '2026-03-02T17:00:00.000Z' }),
];

function routes(items: Route, users: Route = () => undefined): Route[] {
  return [
    items,
    (url) => (url === `/api/orders/${order.id}/events` ? jsonResponse(events) : undefined),
    users,
    (url) => {
      if (url === `/api/users/${BUYER_ID}`) return profile(BUYER_ID, 'buyer', 'Sam', 'Buyer');
      if (url === `/api/users/${SELLER_ID}`) return profile(SELLER_ID, 'seller', 'Sally', 'Seller');
      if (url === `/api/users/${DRIVER_ID}`) return profile(DRIVER_ID, 'driver', 'Drew', 'Driver');
      return undefined;
    },
  ];
}

describe('order details view (docs/rules/screens-buyer.md, Order screens; docs/rules/accounts.md, Roles and permissions)', () => {
  it('shows a buyer the timeline with times, people, addresses, items with prices and the earnings breakdown', async () => {
    mockFetch(...routes((url) => (url.endsWith('/items') ? jsonResponse([makeItem()]) : undefined)));
    renderWithProviders(<OrderDetails order={order} viewerRole="buyer" viewerId={BUYER_ID} />);

    const timeline = screen.getByRole('list', { name: 'Status timeline' });
    expect(
      within(timeline)
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('data-done')),
    ).toEqual(['true', 'true', 'true', 'false']);
    expect(within(timeline).getByText('Out for Delivery').closest('li')?.getAttribute('aria-current')).toBe(
      'step',
    );
    await waitFor(() => expect(within(timeline).getAllByText(/2026/)).toHaveLength(3));

    expect(await screen.findByText('Sam Buyer')).toBeVisible();
    expect(await screen.findByText('Sally Seller')).toBeVisible();
    expect(await screen.findByText('Drew Driver')).toBeVisible();

    const value = (label: string) => definitionOf(label).textContent;
    expect(value('Pickup address')).toBe('700 E Grand Ave, Chicago, IL 60611');
    expect(value('Delivery address')).toBe('1060 W Addison St, Chicago, IL 60613');
    expect(screen.getByText('Leave at the door')).toBeVisible();
    expect(screen.getByRole('link', { name: /Get Directions/ }).getAttribute('href')).toContain(
      'https://www.google.com/maps/dir/?api=1&origin=41.8925%2C-87.6097&destination=1060',
    );

    expect(await screen.findByText('Oak Table')).toBeVisible();
    expect(screen.getByText('$1,200.00', { selector: 'span' })).toBeVisible();
    expect(value('Subtotal')).toBe('$1,200.00');
    expect(value('Delivery fee')).toBe('$50.00');
    expect(value('Seller earnings')).toBe('$1,128.00');
    expect(value('Driver earnings')).toBe('$45.00');
    expect(screen.getByText('Sales commission (6%)')).toBeVisible();
    expect(screen.getByText('Delivery commission (10%)')).toBeVisible();
    expect(value('Platform commission')).toBe('$77.00');
    expect(value('Pickup time')).toBe('Not specified');
    expect(value('Estimated delivery')).toBe('Not specified');
    // In transit: too late for a buyer to cancel.
    expect(screen.queryByRole('button', { name: 'Cancel Order' })).toBeNull();
  });

  it('shows a driver no item prices and only their own earnings', async () => {
    mockFetch(
      ...routes((url) =>
        url.endsWith('/items')
          ? jsonResponse([{ ...makeItem(), price: undefined, lineTotal: undefined }])
          : undefined,
      ),
    );
    renderWithProviders(
      <OrderDetails order={asDriverSeesIt(order)} viewerRole="driver" viewerId={DRIVER_ID} />,
    );
    expect(await screen.findByText('Oak Table')).toBeVisible();
    expect(screen.getByText('Qty 2')).toBeVisible();
    expect(screen.queryByText(/\$600\.00|\$1,200\.00|\$1,250\.00|\$1,128\.00|\$77\.00/)).toBeNull();
    expect(screen.queryByText('Payment Details')).toBeNull();
    expect(screen.queryByText(/^Seller earnings/, { selector: 'dt' })).toBeNull();
    expect(screen.queryByText('Platform commission', { selector: 'dt' })).toBeNull();
    expect(screen.getByText('Earnings')).toBeVisible();
    expect(definitionOf('Your earnings').textContent).toBe('$45.00');
    expect(await screen.findByText('(you)')).toBeVisible();
  });

  it('hides prices from a driver even when the answer carries them', async () => {
    mockFetch(...routes((url) => (url.endsWith('/items') ? jsonResponse([makeItem()]) : undefined)));
    renderWithProviders(<OrderDetails order={order} viewerRole="driver" viewerId={DRIVER_ID} />);
    expect(await screen.findByText('Oak Table')).toBeVisible();
    expect(screen.queryByText(/\$600\.00|\$1,200\.00|\$1,250\.00/)).toBeNull();
  });

  it('says so when items, a party or the pickup address are missing', async () => {
    mockFetch(
      ...routes(
        (url) =>
          url.endsWith('/items')
            ? jsonResponse({ message: 'Boom', code: 'internal', requestId: 'r' }, 500)
            : undefined,
        (url) =>
          url === `/api/users/${SELLER_ID}`
            ? jsonResponse({ message: 'User not found', code: 'not_found', requestId: 'r' }, 404)
            : undefined,
      ),
    );
    renderWithProviders(
      <OrderDetails order={{ ...order, pickupAddress: null }} viewerRole="buyer" viewerId={BUYER_ID} />,
    );
    expect(await screen.findByText('Failed to load order items')).toBeVisible();
    expect(await screen.findByText('Failed to load seller information')).toBeVisible();
    expect(screen.getByText('Pickup address not available')).toBeVisible();
  });

  it('says "No items found" for an order without items', async () => {
    mockFetch(...routes((url) => (url.endsWith('/items') ? jsonResponse([]) : undefined)));
    renderWithProviders(<OrderDetails order={order} viewerRole="buyer" viewerId={BUYER_ID} />);
    expect(await screen.findByText('No items found')).toBeVisible();
  });

  it('opens a party profile', async () => {
    mockFetch(...routes((url) => (url.endsWith('/items') ? jsonResponse([makeItem()]) : undefined)));
    renderWithProviders(<OrderDetails order={order} viewerRole="buyer" viewerId={BUYER_ID} />);
    // The name is the visible text with words around it (the spaces as jsdom joins them).
    fireEvent.click(await screen.findByRole('button', { name: /^View profile of ?Drew Driver, ?Driver$/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Drew Driver' });
    expect(within(dialog).getByText('Verified')).toBeVisible();
    expect(within(dialog).getByText(/Member since/)).toBeVisible();
  });
});
