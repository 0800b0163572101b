// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Address } from '@domain/addresses';
import { AddressList, NO_ADDRESSES_TEXT } from './address-list';
import { installDomStubs, jsonResponse, mockFetch, renderWithProviders } from '../../../test-support/render';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

function makeAddress(overrides: Partial<Address> = {}): Address {
  return {
    id: 'a1',
    userId: 'u1',
    addressLine1: '100 Main St',
    addressLine2: 'Apt 2',
    city: 'Springfield',
    state: 'IL',
    zipCode: '62701',
    country: 'US',
    latitude: 39.8,
    longitude: -89.65,
    isVerified: true,
    isPrimary: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const home = makeAddress();
const office = makeAddress({
  id: 'a2',
  addressLine1: '200 Oak Ave',
  addressLine2: null,
  city: 'Chicago',
  zipCode: '60601',
  isPrimary: false,
  isVerified: false,
});

function listing(addresses: Address[]) {
  return (url: string, init: RequestInit | undefined) =>
    url === '/api/addresses' && (init?.method ?? 'GET') === 'GET' ? jsonResponse(addresses) : undefined;
}

function renderList() {
  const onAdd = vi.fn();
  const onEdit = vi.fn();
  renderWithProviders(<AddressList onAdd={onAdd} onEdit={onEdit} />);
  return { onAdd, onEdit };
}

describe('AddressList (docs/rules/screens-buyer.md, Account pages)', () => {
  it('shows a loading state, then the empty state with an add button', async () => {
    mockFetch(listing([]));
    const { onAdd } = renderList();
    expect(screen.getByRole('status').textContent).toContain('Loading addresses...');
    expect(await screen.findByText(NO_ADDRESSES_TEXT)).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Add Address' }));
    expect(onAdd).toHaveBeenCalled();
  });

  it('shows each address with its Primary and Verified badges, and Set as Primary only on the others', async () => {
    mockFetch(listing([home, office]));
    const { onEdit } = renderList();
    const homeCard = await screen.findByRole('region', { name: '100 Main St' });
    const officeCard = screen.getByRole('region', { name: '200 Oak Ave' });
    expect(within(homeCard).getByText('Apt 2')).toBeVisible();
    expect(within(homeCard).getByText('Springfield, IL 62701')).toBeVisible();
    expect(within(homeCard).getByText('Primary', { exact: true })).toBeVisible();
    expect(within(homeCard).getByText('Verified', { exact: true })).toBeVisible();
    expect(within(homeCard).queryByRole('button', { name: /^Set as Primary/ })).toBeNull();
    expect(within(officeCard).queryByText('Primary', { exact: true })).toBeNull();
    expect(within(officeCard).queryByText('Verified', { exact: true })).toBeNull();
    expect(within(officeCard).getByRole('button', { name: 'Set as Primary 200 Oak Ave' })).toBeEnabled();
    fireEvent.click(within(officeCard).getByRole('button', { name: /^Edit / }));
    expect(onEdit).toHaveBeenCalledWith(office);
  });

  it('sets the primary address with a bodiless POST (no JSON content type) and refreshes the list', async () => {
    let list = [home, office];
    const fetchMock = mockFetch(
      (url, init) => (url === '/api/addresses' && init?.method === 'GET' ? jsonResponse(list) : undefined),
      (url, init) => {
        if (url !== '/api/addresses/a2/set-primary' || init?.method !== 'POST') return undefined;
        list = [
          { ...office, isPrimary: true },
          { ...home, isPrimary: false },
        ];
        return jsonResponse(list[0]);
      },
    );
    renderList();
    fireEvent.click(await screen.findByRole('button', { name: /^Set as Primary/ }));
    await waitFor(() =>
      expect(
        within(screen.getByRole('region', { name: '200 Oak Ave' })).queryByText('Primary', { exact: true }),
      ).toBeVisible(),
    );
    expect(
      within(screen.getByRole('region', { name: '100 Main St' })).queryByText('Primary', { exact: true }),
    ).toBeNull();
    const init = fetchMock.mock.calls.find(([url]) => url === '/api/addresses/a2/set-primary')?.[1];
    expect(init?.body).toBeUndefined();
    expect(init?.headers).toEqual({});
    expect(await screen.findByText('Primary address updated')).toBeVisible();
  });

  it('says "Failed to set primary address" when the server refuses', async () => {
    mockFetch(listing([home, office]), (url) =>
      url === '/api/addresses/a2/set-primary' ? new Response('', { status: 500 }) : undefined,
    );
    renderList();
    fireEvent.click(await screen.findByRole('button', { name: /^Set as Primary/ }));
    expect(await screen.findByText('Failed to set primary address')).toBeVisible();
  });

  it('deletes only after confirmation', async () => {
    let list = [home, office];
    const fetchMock = mockFetch(
      (url, init) => (url === '/api/addresses' && init?.method === 'GET' ? jsonResponse(list) : undefined),
      (url, init) => {
        if (url !== '/api/addresses/a2' || init?.method !== 'DELETE') return undefined;
        list = [home];
        return new Response(null, { status: 204 });
      },
    );
    renderList();
    const officeCard = await screen.findByRole('region', { name: '200 Oak Ave' });
    fireEvent.click(within(officeCard).getByRole('button', { name: /^Delete / }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(/200 Oak Ave, Chicago, IL 60601 will be removed/)).toBeVisible();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);

    fireEvent.click(within(officeCard).getByRole('button', { name: /^Delete / }));
    fireEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete Address' }),
    );
    await waitFor(() => expect(screen.queryByRole('region', { name: '200 Oak Ave' })).toBeNull());
    expect(await screen.findByText('Address deleted')).toBeVisible();
  });

  it('says "Failed to delete address" when the delete fails', async () => {
    mockFetch(listing([home]), (url, init) =>
      init?.method === 'DELETE' && url === '/api/addresses/a1'
        ? jsonResponse({ message: 'Address not found', code: 'not_found', requestId: 'r' }, 404)
        : undefined,
    );
    renderList();
    fireEvent.click(await screen.findByRole('button', { name: /^Delete / }));
    const dialog = await screen.findByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete Address' }));
    expect(await screen.findByText('Failed to delete address: Address not found')).toBeVisible();
  });

  it('says the newest remaining address becomes primary only when another one remains', async () => {
    mockFetch(listing([home, office]));
    renderList();
    fireEvent.click(
      within(await screen.findByRole('region', { name: '100 Main St' })).getByRole('button', {
        name: /^Delete /,
      }),
    );
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain(
      '100 Main St, Apt 2, Springfield, IL 62701 will be removed. This cannot be undone. Your newest remaining address will become your primary address.',
    );
  });

  it('says plainly that deleting the only address leaves none, without promising a remaining one', async () => {
    mockFetch(listing([home]));
    renderList();
    fireEvent.click(await screen.findByRole('button', { name: /^Delete / }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain(
      'will be removed. This cannot be undone. It is your only address: you will have no saved address until you add one.',
    );
    expect(dialog.textContent).not.toMatch(/remaining|primary/);
  });
});
