// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { AvailableOrder } from '@domain/deliveries';
import * as navigation from '../../../lib/navigation';
import { installDomStubs, jsonResponse, mockFetch, renderWithProviders } from '../../../test-support/render';
import { makeOrder } from '../../orders/testing/order-fixtures';
import { AvailableOrdersPanel } from './available-orders-panel';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

function offer(overrides: Partial<AvailableOrder> = {}): AvailableOrder {
  return {
    id: '20000000-0000-4000-8000-000000000001',
    orderNumber: 'ORD-OFFER1',
    requiresTrailer: false,
    pickupAddress: {
      addressLine1: '700 E Grand Ave',
      addressLine2: null,
      city: 'Chicago',
      state: 'IL',
      zipCode: '60611',
      latitude: 41.89,
      longitude: -87.6,
    },
    deliveryArea: { city: 'Evanston', state: 'IL', zipCode: '60201' },
    deliveryNotes: null,
    itemCount: 2,
    items: [{ name: 'Oak Table', quantity: 2 }],
    driverEarnings: '9.00',
    pickupDistance: 2.04,
    deliveryDistance: 12.3,
    createdAt: '2026-11-23T15:00:00.000Z',
    ...overrides,
  };
}

const error = (status: number, message: string) =>
  jsonResponse({ message, code: status === 409 ? 'conflict' : 'unauthorized', requestId: 'r' }, status);

describe('Available Orders (docs/rules/screens-work.md, Driver dashboard)', () => {
  it('asks nothing of an unverified driver and says what is still needed', () => {
    const fetchMock = mockFetch();
    renderWithProviders(
      <AvailableOrdersPanel
        missing={['license image', 'admin approval']}
        locationStatus="available"
        onAccepted={() => {}}
      />,
    );
    expect(screen.getByTestId('text-offers-locked')).toHaveTextContent(
      "Still needed: a license image and an admin's approval.",
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('asks within 50 miles by default and shows each offer without prices of the purchase', async () => {
    const fetchMock = mockFetch((url) =>
      url.startsWith('/api/orders/available') ? jsonResponse([offer()]) : undefined,
    );
    renderWithProviders(
      <AvailableOrdersPanel missing={[]} locationStatus="available" onAccepted={() => {}} />,
    );
    const card = await screen.findByTestId(`card-available-${offer().id}`);
    expect(fetchMock).toHaveBeenCalledWith('/api/orders/available?maxDistance=50', expect.anything());
    expect(card).toHaveTextContent('ORD-OFFER1');
    expect(card).toHaveTextContent('$9.00');
    expect(card).toHaveTextContent('2.0 mi away');
    expect(card).toHaveTextContent('12.3 mi trip');
    expect(card).toHaveTextContent('Evanston, IL 60201');
    expect(card).toHaveTextContent('2 items');
    expect(card).toHaveTextContent('2 × Oak Table');
    expect(card).toHaveTextContent('Pickup: Chicago · 2.0 mi away');
    expect(card).toHaveTextContent('Drop-off: Evanston · 12.3 mi trip');
    expect(card).toHaveTextContent('You earn$9.00');
    expect(card).not.toHaveTextContent('Trailer required');
    expect(screen.getByTestId('text-driver-distance')).toHaveTextContent('50 miles');
  });

  it('lists three items, then how many more, and says when a trailer is needed', async () => {
    const big = offer({
      requiresTrailer: true,
      itemCount: 7,
      items: [
        { name: 'Oak Table', quantity: 2 },
        { name: 'Walnut Chair', quantity: 2 },
        { name: 'Bench', quantity: 1 },
        { name: 'Lamp', quantity: 1 },
        { name: 'Rug', quantity: 1 },
      ],
    });
    mockFetch((url) => (url.startsWith('/api/orders/available') ? jsonResponse([big]) : undefined));
    renderWithProviders(
      <AvailableOrdersPanel missing={[]} locationStatus="available" onAccepted={() => {}} />,
    );
    const items = await screen.findByTestId(`list-available-items-${big.id}`);
    expect([...items.querySelectorAll('li')].map((line) => line.textContent)).toEqual([
      '2 × Oak Table',
      '2 × Walnut Chair',
      '1 × Bench',
      '+2 more',
    ]);
    expect(screen.getByTestId(`badge-trailer-${big.id}`)).toHaveTextContent('Trailer required');
    // A large tap target: the lg size, 44 px high.
    expect(screen.getByTestId(`button-accept-${big.id}`)).toHaveClass('h-11');
  });

  it('leaves the distance out at 500: any distance', async () => {
    const fetchMock = mockFetch((url) =>
      url.startsWith('/api/orders/available') ? jsonResponse([]) : undefined,
    );
    renderWithProviders(
      <AvailableOrdersPanel missing={[]} locationStatus="available" onAccepted={() => {}} />,
    );
    await screen.findByTestId('text-no-offers');
    fireEvent.change(screen.getByTestId('slider-driver-distance'), { target: { value: '500' } });
    expect(screen.getByTestId('text-driver-distance')).toHaveTextContent('Any distance');
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/orders/available', expect.anything()), {
      timeout: 2000,
    });
  });

  it('tells the driver who lost the race and reads the offers again', async () => {
    let reads = 0;
    mockFetch((url, init) => {
      if (url.endsWith('/assign') && init?.method === 'POST')
        return error(409, 'This order was already taken');
      if (url.startsWith('/api/orders/available')) {
        reads += 1;
        return jsonResponse(reads === 1 ? [offer()] : []);
      }
      return undefined;
    });
    const onAccepted = vi.fn();
    renderWithProviders(
      <AvailableOrdersPanel missing={[]} locationStatus="available" onAccepted={onAccepted} />,
    );
    fireEvent.click(await screen.findByTestId(`button-accept-${offer().id}`));
    expect(await screen.findByText('Failed to accept order: This order was already taken')).toBeVisible();
    expect(await screen.findByTestId('text-no-offers')).toBeVisible();
    expect(onAccepted).not.toHaveBeenCalled();
  });

  it('hands the accepted order on', async () => {
    const accepted = makeOrder({ id: offer().id, status: 'assigned' });
    mockFetch((url, init) => {
      if (url.endsWith('/assign') && init?.method === 'POST') return jsonResponse(accepted);
      if (url.startsWith('/api/orders/available')) return jsonResponse([offer()]);
      return undefined;
    });
    const onAccepted = vi.fn();
    renderWithProviders(
      <AvailableOrdersPanel missing={[]} locationStatus="available" onAccepted={onAccepted} />,
    );
    fireEvent.click(await screen.findByTestId(`button-accept-${offer().id}`));
    await waitFor(() => expect(onAccepted).toHaveBeenCalledWith(expect.objectContaining({ id: offer().id })));
  });

  it('signs a logged-out driver in again after 500 ms', async () => {
    const assign = vi.spyOn(navigation.browserLocation, 'assign').mockImplementation(() => {});
    mockFetch((url, init) => {
      if (url.endsWith('/assign') && init?.method === 'POST') return error(401, 'Unauthorized');
      if (url.startsWith('/api/orders/available')) return jsonResponse([offer()]);
      return undefined;
    });
    renderWithProviders(
      <AvailableOrdersPanel missing={[]} locationStatus="available" onAccepted={() => {}} />,
    );
    fireEvent.click(await screen.findByTestId(`button-accept-${offer().id}`));
    expect(await screen.findByText('You are logged out. Logging in again...')).toBeVisible();
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/api/login'), { timeout: 1500 });
  });

  it('keeps the logged-out notice when the offers read again after the refused accept answer 401 too', async () => {
    const assign = vi.spyOn(navigation.browserLocation, 'assign').mockImplementation(() => {});
    let signedOut = false;
    mockFetch((url, init) => {
      if (url.endsWith('/assign') && init?.method === 'POST') {
        signedOut = true;
        return error(401, 'Unauthorized');
      }
      if (url.startsWith('/api/orders/available'))
        return signedOut ? error(401, 'Unauthorized') : jsonResponse([offer()]);
      return undefined;
    });
    renderWithProviders(
      <AvailableOrdersPanel missing={[]} locationStatus="available" onAccepted={() => {}} />,
    );
    fireEvent.click(await screen.findByTestId(`button-accept-${offer().id}`));
    // Once the sign-in is under way, the list has been read again (and refused) too.
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/api/login'), { timeout: 1500 });
    await waitFor(() => expect(screen.getAllByRole('alert').length).toBeGreaterThan(0));
    expect(assign).toHaveBeenCalledTimes(1);
    expect(screen.getByText('You are logged out. Logging in again...')).toBeVisible();
    expect(screen.queryAllByText('Failed to fetch orders').filter((node) => node.closest('li'))).toEqual([]);
  });

  it('puts a declined order in a row with Undo, which brings its card back', async () => {
    const second = offer({ id: '20000000-0000-4000-8000-000000000002', orderNumber: 'ORD-OFFER2' });
    const calls: string[] = [];
    let declined = false;
    mockFetch((url, init) => {
      if (url === `/api/orders/${offer().id}/decline`) {
        calls.push(init?.method ?? 'GET');
        declined = init?.method === 'POST';
        return new Response(null, { status: 204 });
      }
      if (url.startsWith('/api/orders/available'))
        return jsonResponse(declined ? [second] : [offer(), second]);
      return undefined;
    });
    renderWithProviders(
      <AvailableOrdersPanel missing={[]} locationStatus="available" onAccepted={() => {}} />,
    );
    fireEvent.click(await screen.findByTestId(`button-decline-${offer().id}`));
    const row = await screen.findByTestId(`row-declined-${offer().id}`);
    expect(row).toHaveTextContent('Order ORD-OFFER1 declined');
    expect(screen.queryByTestId(`card-available-${offer().id}`)).toBeNull();
    expect(screen.getByTestId(`card-available-${second.id}`)).toBeVisible();

    fireEvent.click(screen.getByTestId(`button-undo-decline-${offer().id}`));
    expect(await screen.findByTestId(`card-available-${offer().id}`)).toBeVisible();
    expect(screen.queryByTestId(`row-declined-${offer().id}`)).toBeNull();
    expect(calls).toEqual(['POST', 'DELETE']);
  });

  it('drops the row once the list is read again, and says "Failed to undo decline" when undoing fails', async () => {
    let declined = false;
    mockFetch((url, init) => {
      if (url === `/api/orders/${offer().id}/decline` && init?.method === 'POST') {
        declined = true;
        return new Response(null, { status: 204 });
      }
      if (url === `/api/orders/${offer().id}/decline` && init?.method === 'DELETE')
        return error(409, 'Something changed');
      if (url.startsWith('/api/orders/available')) return jsonResponse(declined ? [] : [offer()]);
      return undefined;
    });
    const { client } = renderWithProviders(
      <AvailableOrdersPanel missing={[]} locationStatus="available" onAccepted={() => {}} />,
    );
    fireEvent.click(await screen.findByTestId(`button-decline-${offer().id}`));
    fireEvent.click(await screen.findByTestId(`button-undo-decline-${offer().id}`));
    expect(await screen.findByText('Failed to undo decline: Something changed')).toBeVisible();
    expect(screen.getByTestId(`row-declined-${offer().id}`)).toBeVisible();

    await client.invalidateQueries({ queryKey: ['/api/orders/available'] });
    expect(await screen.findByTestId('text-no-offers')).toBeVisible();
    expect(screen.queryByTestId(`row-declined-${offer().id}`)).toBeNull();
  });

  it('says "Failed to fetch orders" when the offers cannot be read', async () => {
    mockFetch((url) =>
      url.startsWith('/api/orders/available') ? error(500, 'Something went wrong') : undefined,
    );
    renderWithProviders(
      <AvailableOrdersPanel missing={[]} locationStatus="unavailable" onAccepted={() => {}} />,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch orders');
    expect(screen.getByTestId('link-driver-addresses')).toHaveTextContent('Add an address');
  });
});
