// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { AppRouter } from '../router';
import {
  definitionOf,
  installDomStubs,
  jsonResponse,
  makeUser,
  mockFetch,
  renderWithProviders,
  signedInAs,
  type Route,
} from '../../test-support/render';
import {
  BUYER_ID,
  makeEvent,
  makeItem,
  makeOrder,
  SELLER_ID,
} from '../../features/orders/testing/order-fixtures';
import type { Order } from '@domain/orders';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

const first = makeOrder({ id: '10000000-0000-4000-8000-000000000001', orderNumber: 'ORD-AAAAAA' });
const second = makeOrder({
  id: '10000000-0000-4000-8000-000000000002',
  orderNumber: 'ORD-BBBBBB',
  status: 'delivered',
  deliveryAddress: '9 Elm St, Evanston, IL 60201',
});

const people: Route = (url) => {
  if (url === `/api/users/${BUYER_ID}`)
    return jsonResponse({
      id: BUYER_ID,
      firstName: 'Sam',
      lastName: 'Buyer',
      profileImageUrl: null,
      role: 'buyer',
      isVerified: false,
      createdAt: '2026-01-01T00:00:00.000Z',
    });
  if (url === `/api/users/${SELLER_ID}`)
    return jsonResponse({
      id: SELLER_ID,
      firstName: null,
      lastName: null,
      profileImageUrl: null,
      role: 'seller',
      isVerified: false,
      createdAt: '2026-01-01T00:00:00.000Z',
    });
  return undefined;
};

const orderDetails: Route = (url) => {
  if (/^\/api\/orders\/[^/]+\/items$/.test(url)) return jsonResponse([makeItem()]);
  if (/^\/api\/orders\/[^/]+\/events$/.test(url)) return jsonResponse([makeEvent()]);
  return undefined;
};

function visitOrders(orders: Order[] | (() => Response), path = '/buyer/orders', ...routes: Route[]) {
  const fetchMock = mockFetch(
    signedInAs(makeUser({ id: BUYER_ID })),
    (url) =>
      url === '/api/orders?as=buyer'
        ? typeof orders === 'function'
          ? orders()
          : jsonResponse(orders)
        : undefined,
    orderDetails,
    people,
    ...routes,
  );
  window.history.replaceState(null, '', path);
  renderWithProviders(<AppRouter />);
  return fetchMock;
}

describe('/buyer/orders (docs/rules/screens-buyer.md, Order screens)', () => {
  it('shows the heading and the empty text', async () => {
    visitOrders([]);
    expect(await screen.findByRole('heading', { level: 1, name: 'My Orders' })).toBeVisible();
    expect(screen.getByText('Track and manage your orders')).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Recent Orders' })).toBeVisible();
    expect(await screen.findByText('No orders yet. Start shopping to place your first order!')).toBeVisible();
  });

  it('says "Loading orders..." while they load', async () => {
    visitOrders(() => {
      throw new Error('never answered');
    });
    expect(await screen.findByText('Loading orders...')).toBeVisible();
  });

  it('selects the first order once the orders load, and shows its details as Buyer', async () => {
    visitOrders([first, second]);
    const card = await screen.findByTestId(`card-order-${first.id}`);
    await waitFor(() => expect(card.getAttribute('aria-pressed')).toBe('true'));
    expect(screen.getByTestId(`card-order-${second.id}`).getAttribute('aria-pressed')).toBe('false');
    expect(within(card).getByText('ORD-AAAAAA')).toBeVisible();
    expect(within(card).getByText('Pending')).toBeVisible();
    expect(within(card).getByText('$1,250.00')).toBeVisible();
    expect(within(card).getByText('1060 W Addison St, Chicago, IL 60613')).toBeVisible();

    const details = await screen.findByRole('region', { name: 'ORD-AAAAAA' });
    expect(within(details).getByText('Order Placed')).toBeVisible();
    expect(within(details).getByText('Driver Assigned')).toBeVisible();
    expect(await within(details).findByText('Oak Table')).toBeVisible();
    expect(definitionOf('Total', details).textContent).toBe('$1,250.00');
    // The parties: "first last", else the role word (docs/rules/screens-shared.md, Client behaviour).
    expect(await within(details).findByText('Sam Buyer')).toBeVisible();
    expect(await within(details).findByText('Seller', { selector: 'span.truncate' })).toBeVisible();
    // A buyer may cancel a pending order.
    expect(within(details).getByRole('button', { name: 'Cancel Order' })).toBeEnabled();
  });

  it('selects the order asked for in the address (the one just paid) and another on click', async () => {
    visitOrders([first, second], `/buyer/orders?order=${second.id}`);
    await waitFor(() =>
      expect(screen.getByTestId(`card-order-${second.id}`).getAttribute('aria-pressed')).toBe('true'),
    );
    expect(await screen.findByRole('region', { name: 'ORD-BBBBBB' })).toBeVisible();
    // Delivered: no cancelling.
    expect(screen.queryByRole('button', { name: 'Cancel Order' })).toBeNull();
    fireEvent.click(screen.getByTestId(`card-order-${first.id}`));
    expect(await screen.findByRole('region', { name: 'ORD-AAAAAA' })).toBeVisible();
  });

  it('keeps the buyer view when the current role is driver', async () => {
    const fetchMock = mockFetch(
      signedInAs(makeUser({ id: BUYER_ID, role: 'driver', roles: ['buyer', 'driver'] })),
      (url) => (url === '/api/orders?as=buyer' ? jsonResponse([first]) : undefined),
      orderDetails,
      people,
    );
    window.history.replaceState(null, '', '/buyer/orders');
    renderWithProviders(<AppRouter />);
    const details = await screen.findByRole('region', { name: 'ORD-AAAAAA' });
    expect(within(details).getByText('Payment Details')).toBeVisible();
    expect(definitionOf('Total', details)).toHaveTextContent('$1,250.00');
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/orders?as=buyer')).toBe(true);
  });

  it('cancels a pending order after asking, and shows it cancelled', async () => {
    const cancelled = { ...first, status: 'cancelled' as const, updatedAt: '2026-03-03T10:00:00.000Z' };
    let list: Order[] = [first];
    const fetchMock = visitOrders(
      () => jsonResponse(list),
      '/buyer/orders',
      (url, init) => {
        if (url === `/api/orders/${first.id}/cancel` && init?.method === 'POST') {
          list = [cancelled];
          return jsonResponse(cancelled);
        }
        return undefined;
      },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel Order' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel this order?' });
    expect(dialog.textContent).toContain(
      'ORD-AAAAAA will be cancelled and your payment of $1,250.00 refunded in full',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel Order' }));
    await waitFor(() => expect(screen.getAllByText('Cancelled').length).toBeGreaterThan(0));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.queryByRole('button', { name: 'Cancel Order' })).toBeNull();
    expect(fetchMock.mock.calls.filter(([url]) => url === `/api/orders/${first.id}/cancel`)).toHaveLength(1);
    expect(await screen.findByText('Order cancelled')).toBeVisible();
  });
});
